//! T1 `readme`: micrograd's README expression and its two partial derivatives.

use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;
use nalgebra::SVector;
use num_dual::{DualNum, DualSVec64};

/// The point of micrograd's README: `a = -4`, `b = 2`.
pub const POINT: (f64, f64) = (-4.0, 2.0);

/// micrograd's README expression, as written there (the same as `tests/language/micrograd.rs`).
#[differentiable]
#[allow(clippy::misrefactored_assign_op)] // micrograd's `c += c + 1`, verbatim
pub fn readme(a: f64, b: f64) -> f64 {
    let mut c = a + b;
    let mut d = a * b + b.powi(3);
    c += c + 1.0;
    c += 1.0 + c + (-a);
    d += d * 2.0 + (b + a).relu();
    d += 3.0 * d + (b - a).relu();
    let e = c - d;
    let f = e.powi(2);
    let mut g = f / 2.0;
    g += 10.0 / f;
    g
}

/// The hand-written gradient: `(g, dg/da, dg/db)`.
///
/// In closed form, with `c = 4a + 4b + 3 - a`... step by step: `c3 = 2 c2 + 1 - a` with
/// `c2 = 2 (a + b) + 1`, so `dc3/da = 3`, `dc3/db = 4`; `d3 = 4 d2 + relu(b - a)` with
/// `d2 = 3 (ab + b³) + relu(a + b)`; `g = f/2 + 10/f` with `f = e²`, `e = c3 - d3`, so
/// `dg/de = 2e (1/2 - 10/f²)`.
#[inline]
pub fn readme_hand(a: f64, b: f64) -> (f64, f64, f64) {
    let b2 = b * b;
    let c2 = 2.0 * (a + b) + 1.0;
    let c3 = 2.0 * c2 + 1.0 - a;
    let (sum, diff) = (a + b, b - a);
    let (sum_on, diff_on) = (sum > 0.0, diff > 0.0);
    let d2 = 3.0 * (a * b + b2 * b) + if sum_on { sum } else { 0.0 };
    let d3 = 4.0 * d2 + if diff_on { diff } else { 0.0 };
    let e = c3 - d3;
    let f = e * e;
    let ten_over_f = 10.0 / f;
    let g = f / 2.0 + ten_over_f;
    let dg_de = 2.0 * e * (0.5 - ten_over_f / f);
    // d(d3)/da and d(d3)/db: 4 (3 b + [a+b>0]) - [b-a>0] and 4 (3 (a + 3b²) + [a+b>0]) + [b-a>0].
    let sum_mask = if sum_on { 1.0 } else { 0.0 };
    let diff_mask = if diff_on { 1.0 } else { 0.0 };
    let dd_da = 4.0 * (3.0 * b + sum_mask) - diff_mask;
    let dd_db = 4.0 * (3.0 * (a + 3.0 * b2) + sum_mask) + diff_mask;
    (g, dg_de * (3.0 - dd_da), dg_de * (4.0 - dd_db))
}

/// The expression on `reverse`'s tape; returns `(g, dg/da, dg/db)`.
pub fn readme_reverse(tape: &reverse::Tape, a: f64, b: f64) -> (f64, f64, f64) {
    use super::reverse_relu as relu;
    use reverse::Gradient;
    tape.clear();
    let a = tape.add_var(a);
    let b = tape.add_var(b);
    let mut c = a + b;
    let mut d = a * b + b.powi(3);
    c = c + (c + 1.0);
    c = c + (1.0 + c + (-a));
    d = d + (d * 2.0 + relu(b + a));
    d = d + (3.0 * d + relu(b - a));
    let e = c - d;
    let f = e.powi(2);
    // Not `10.0 / f`: reverse 0.2.2 gives `f64 / Var` the derivative -1/f instead of -10/f²
    // (BENCHMARKS.md); `recip` is right.
    let g = f / 2.0 + 10.0 * f.recip();
    let grads = g.grad();
    (g.val(), grads.wrt(&a), grads.wrt(&b))
}

/// The expression, generic over num-dual's dual numbers (`f64` on the right of each operator,
/// as num-dual's `NumOps<f64>` asks).
#[allow(clippy::misrefactored_assign_op)] // micrograd's `c += c + 1`, verbatim
pub fn readme_generic<D: DualNum<Primitive = f64> + Copy>(a: D, b: D) -> D {
    use super::dual_relu as relu;
    let mut c = a + b;
    let mut d = a * b + b.powi(3);
    c += c + 1.0;
    c += c + 1.0 + (-a);
    d += d * 2.0 + relu(b + a);
    d += d * 3.0 + relu(b - a);
    let e = c - d;
    let f = e.powi(2);
    let mut g = f / 2.0;
    g += f.recip() * 10.0;
    g
}

/// num-dual's gradient: one forward pass on `DualSVec64<2>` (value and two derivatives).
pub fn readme_num_dual(a: f64, b: f64) -> (f64, f64, f64) {
    let (g, grad) = num_dual::gradient(
        |x: SVector<DualSVec64<2>, 2>| readme_generic(x[0], x[1]),
        &SVector::from([a, b]),
    );
    (g, grad[0], grad[1])
}

/// micrograd's own way, on `micrograd_runtime::Value` (the README code, verbatim).
pub fn readme_value(a: f64, b: f64) -> (f64, f64, f64) {
    let a = Value::new(a);
    let b = Value::new(b);
    let mut c = &a + &b;
    let mut d = &a * &b + b.powi(3);
    c += &c + 1.0;
    c += 1.0 + &c + (-&a);
    d += &d * 2.0 + (&b + &a).relu();
    d += 3.0 * &d + (&b - &a).relu();
    let e = &c - &d;
    let f = e.powi(2);
    let mut g = &f / 2.0;
    g += 10.0 / &f;
    g.backward();
    (g.data(), a.grad(), b.grad())
}

/// Asserts that every contender agrees with [`readme_hand`] at `(a, b)`, and that `f_grad`'s
/// value is `f`'s bit for bit.
pub fn check_at(a: f64, b: f64) {
    let hand = readme_hand(a, b);
    let want = [hand.0, hand.1, hand.2];
    let tape = reverse::Tape::new();
    let generated = readme_grad(a, b);
    assert_eq!(
        generated.0.to_bits(),
        readme(a, b).to_bits(),
        "readme_grad value"
    );
    for (name, got) in [
        ("T1 generated", generated),
        ("T1 reverse", readme_reverse(&tape, a, b)),
        ("T1 num-dual", readme_num_dual(a, b)),
        ("T1 Value", readme_value(a, b)),
    ] {
        super::assert_close(
            &format!("{name} at ({a}, {b})"),
            &[got.0, got.1, got.2],
            &want,
        );
    }
}

/// [`check_at`] at the README's point and at points on each side of both kinks.
pub fn check() {
    let (a, b) = POINT;
    check_at(a, b);
    for (a, b) in [(1.5, 0.5), (-0.3, 0.8), (0.9, -1.7), (-1.2, -0.6)] {
        check_at(a, b);
    }
}
