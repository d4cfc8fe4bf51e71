use micrograd_runtime::prelude::*;

const M: usize = 3;

// A returned array of a length the macro cannot count, `[f64; M]` of a `const M`: the pipeline
// differentiates `__sub_into`, which writes the array into `__micrograd_out`, and `sub_pullback`,
// `sub_jvp` and `sub_jacobian` call its flavours.
#[differentiable(jvp, jacobian)]
fn sub(a: &[f64; M], b: &[f64; M]) -> [f64; M] {
    let mut r = [0.0; M];
    for i in 0..M {
        r[i] = a[i] * b[i] - b[i];
    }
    r
}

// A caller says the type where it takes the array: the call lends a local array to `__sub_into`.
#[differentiable]
fn user(x: f64, a: &[f64; M]) -> f64 {
    let b = [x, x * x, 1.0];
    let h: [f64; M] = sub(a, &b);
    h[0] + h[1] * h[2]
}

// A local array of the `const` length assigned from a call reading it: a copy is lent.
#[differentiable]
fn stepped(x: f64, a: &[f64; M]) -> f64 {
    let mut h = [x; M];
    h = sub(&h, a);
    h[0] * h[2]
}
