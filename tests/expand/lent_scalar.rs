use micrograd_runtime::prelude::*;

/// Writes its output into `y`.
#[differentiable]
fn relax(x: f64, y: &mut f64) {
    *y = *y * x + x.sin();
}

/// A local `f64` lent to it, read back after the call.
#[differentiable]
fn twice(x: f64) -> f64 {
    let mut e = x * 2.0;
    relax(x, &mut e);
    relax(x, &mut e);
    e
}
