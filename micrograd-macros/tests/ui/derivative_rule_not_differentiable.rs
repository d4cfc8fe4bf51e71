use micrograd_runtime::prelude::*;

fn erf_series(x: f64) -> f64 {
    x - x.powi(3) / 3.0
}

// A rule is itself `#[differentiable]`, so that higher orders can differentiate it.
fn erf_dx(x: f64) -> f64 {
    1.0 - x * x
}

#[differentiable(derivative(x = erf_dx))]
fn erf(x: f64) -> f64 {
    erf_series(x)
}

fn main() {}
