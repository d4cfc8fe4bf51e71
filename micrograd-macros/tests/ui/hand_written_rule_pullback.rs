use micrograd_runtime::prelude::*;

fn series(x: f64) -> f64 {
    x - x.powi(3) / 3.0
}

// The rule is a plain function with a hand-written pullback: its second derivative would be
// taken from a function the macro did not write, so a Hessian through it does not build.
fn series_dx(x: f64) -> f64 {
    1.0 - x * x
}

fn series_dx_pullback(x: f64, seed: f64) -> f64 {
    -2.0 * x * seed
}

#[differentiable(hvp, derivative(x = series_dx))]
fn erf(x: f64) -> f64 {
    series(x)
}

fn main() {
    let _ = series_dx_pullback(1.0, 1.0);
}
