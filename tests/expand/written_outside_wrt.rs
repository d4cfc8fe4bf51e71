/// `extra` is written and read back but left out of `wrt(..)`: `f_jvp` gives it a local
/// tangent, zeros on entry, and `f_jacobian` restores it before each column.
#[differentiable(jvp, jacobian, wrt(x, out))]
fn through(x: &[f64], s: f64, extra: &mut [f64], out: &mut [f64]) {
    for i in 0..x.len() {
        extra[i] = 0.5 * extra[i] + s * x[i].sin();
        out[i] = extra[i] * x[i];
    }
}

/// `w` left out beside two returned values: each row of `f_jacobian` gives it a local
/// adjoint, zeros on entry.
#[differentiable(jacobian, wrt(x))]
fn pair(x: &[f64], w: &mut [f64]) -> [f64; 2] {
    let mut a = 0.0;
    for i in 0..x.len() {
        w[i] = 0.5 * w[i] + x[i] * x[i];
        a += w[i].sin();
    }
    [a, w[0] * x[0]]
}
