use micrograd_runtime::prelude::Nonlinear;

trait Freeze {
    fn detach(self) -> f64;
}

impl Freeze for f64 {
    fn detach(self) -> f64 {
        self * 0.5
    }
}

// `detach` resolves to the user's method, not the runtime's `Detach`: refused at the call.
#[micrograd_runtime::differentiable]
fn f(x: f64) -> f64 {
    x * x.detach() + x.relu()
}

fn main() {}
