use micrograd_runtime::prelude::*;

#[derive(Differentiable)]
struct Soft {
    k: f64,
}

impl Soft {
    // Rules are partial derivatives in `f64` parameters; `self` is a struct.
    #[differentiable(wrt(x), derivative(x = Self::smooth_dx))]
    fn smooth(&self, x: f64) -> f64 {
        (self.k * x).exp().ln_1p()
    }

    #[differentiable]
    fn smooth_dx(&self, x: f64) -> f64 {
        self.k * (self.k * x).sigmoid()
    }
}

fn main() {}
