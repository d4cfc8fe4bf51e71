use micrograd_runtime::prelude::*;

/// Residuals written into `out`, their squared norm added onto `err`: `f_jacobian` calls
/// `residual_jvp` once per column, with the outputs restored to their values on entry.
#[differentiable(jacobian)]
fn residual(x: &[f64], a: f64, out: &mut [f64], err: &mut f64) {
    for i in 0..x.len() {
        out[i] = a * x[i] * x[i] - 1.0;
        *err += out[i] * out[i];
    }
}
