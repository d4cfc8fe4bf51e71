use micrograd_runtime::prelude::*;

fn series(x: f64, n: usize) -> f64 {
    (0..n).map(|k| x.powi(k as i32)).sum()
}

// The rule must take the function's parameters, `(f64, usize)`, in order.
#[differentiable]
fn series_dx(x: f64) -> f64 {
    x
}

#[differentiable(derivative(x = series_dx))]
fn geometric(x: f64, n: usize) -> f64 {
    series(x, n)
}

fn main() {}
