//! A half of `x.sin_cos()` beside names the function cannot see: the typing pass reads
//! `x.sin_cos().1` and `let (s, c) = x.sin_cos();` as floats, so `S * S + x.sin_cos().1`
//! decides `S` even where nothing else does (a `let` never read). Random program 139 of seed 5
//! (`let mut x7 = (..) - ((S1 * S1) + a0.sin_cos().1);` in a loop, `x7` unread) was refused
//! as "cannot mix `f64` and integers" before. Against central differences.

use crate::common;

use common::{assert_near, derivative};
use micrograd_runtime::prelude::*;

static S: f64 = 0.5;
const K: f64 = 1.25;

/// Each unread `let` holds only names nothing else decides, beside a half of a `sin_cos`.
#[differentiable]
fn unread_halves(x: f64) -> f64 {
    let mut y = x * x;
    for _ in 0..2 {
        let _unread = (S * S) + x.sin_cos().1;
        y += x.sin_cos().0 * y;
    }
    let (s, c) = x.sin_cos();
    let _unread_too = K * K - s;
    y * c
}

#[test]
fn a_half_of_sin_cos_is_a_float() {
    for x in [0.3, -0.8, 1.7] {
        let (value, d_x) = unread_halves_grad(x);
        assert_eq!(value.to_bits(), unread_halves(x).to_bits());
        assert_near("d_x", d_x, derivative(unread_halves, x), 1e-6);
    }
}
