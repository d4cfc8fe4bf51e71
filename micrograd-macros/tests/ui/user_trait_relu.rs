// A `relu` and a `sigmoid` of the user's own trait: `f` would compute them while the
// gradient used the runtime's derivatives, so the build fails at each call.
use micrograd_runtime::prelude::differentiable;

trait Leaky {
    fn relu(self) -> f64;
    fn sigmoid(self) -> f64;
}

impl Leaky for f64 {
    fn relu(self) -> f64 {
        if self > 0.0 { self } else { 0.01 * self }
    }
    fn sigmoid(self) -> f64 {
        (0.2 * self + 0.5).clamp(0.0, 1.0)
    }
}

#[differentiable]
fn f(x: f64) -> f64 {
    x.relu() + f64::sigmoid(x)
}

fn main() {
    let _ = f_grad(1.0);
}
