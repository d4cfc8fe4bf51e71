use micrograd_runtime::prelude::*;

/// A bowl whose bottom moves with `w`; its gradient in the position only.
#[differentiable(hvp, wrt(x, y))]
fn bowl(x: f64, y: f64, w: f64) -> f64 {
    (x - w).powi(2) + w * y * y
}

/// One step of gradient descent on the bowl, then where it lands: differentiated through
/// `bowl_grad` with respect to the start and `w`.
#[differentiable(jvp)]
fn step(x: f64, y: f64, w: f64) -> f64 {
    let (_, gx, gy) = bowl_grad(x, y, w);
    let x1 = x - 0.1 * gx;
    let y1 = y - 0.1 * gy;
    x1 * x1 + y1
}
