use micrograd_runtime::prelude::*;

/// The shift is detached: its fold of `f64::max` is the primal's loop alone, recorded nowhere
/// and not walked back (`diff/activity.rs`, `flowing`).
#[differentiable(hvp)]
pub fn logsumexp(x: &[f64]) -> f64 {
    let a = x.iter().copied().fold(f64::NEG_INFINITY, f64::max).detach();
    let s = x.iter().map(|&xi| (xi - a).exp()).sum::<f64>();
    a + s.ln()
}

/// A loop's sum read only through `floor`, `signum` and as `copysign`'s sign: no adjoint.
#[differentiable]
pub fn stepped(a: f64, x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v * v;
    }
    a.copysign(s - 1.0) * a + s.floor() * a + s.signum()
}
