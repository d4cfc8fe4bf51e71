//! `f_jacobian` of functions with fewer differentiated `f64`s than outputs, which it computes
//! in forward mode (one sweep carrying a tangent per input): through branches, `match`, a
//! `while` loop with an early `return`, and a local array filled in a loop. Against num-dual
//! (`Dual64` along each unit vector, on generic versions) and central differences; values bit
//! for bit `f`'s.

use crate::common;

use common::{assert_near, assert_partial};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

/// Checks `(value, jacobian)` of a function of `n` inputs with `m` outputs at `point`.
fn check<const M: usize, const N: usize>(
    name: &str,
    f: &dyn Fn([f64; N]) -> [f64; M],
    dual: &dyn Fn([Dual64; N]) -> [Dual64; M],
    point: [f64; N],
    (value, jacobian): ([f64; M], [[f64; N]; M]),
) {
    let exact = f(point);
    for i in 0..M {
        assert_eq!(value[i].to_bits(), exact[i].to_bits(), "{name}: value {i}");
        for (j, &entry) in jacobian[i].iter().enumerate() {
            let at = std::array::from_fn(|k| Dual64::new(point[k], if k == j { 1.0 } else { 0.0 }));
            assert_near(name, entry, dual(at)[i].eps, 1e-12);
            let moved = |p: &[f64]| f(std::array::from_fn(|k| p[k]))[i];
            assert_partial(name, moved, &point, j, entry);
        }
    }
}

/// Branches, a `match` and an early `return` from a `while` loop, three outputs of two inputs.
#[differentiable(jacobian)]
fn control(x: f64, y: f64, k: usize) -> [f64; 3] {
    let scale = if x > 0.0 { x * y } else { y.exp() };
    let shift = match k {
        0 => x,
        1 | 2 => y * y,
        _ => x - y,
    };
    let mut s = scale;
    while s < 4.0 {
        s = s * 1.5 + shift.abs();
        if s > 3.0 * y {
            return [s, scale, shift * s];
        }
    }
    [s.sqrt(), shift, scale * shift]
}

fn control_dual<D: DualNum<Primitive = f64> + Copy>([x, y]: [D; 2], k: usize) -> [D; 3] {
    let scale = if x.re() > 0.0 { x * y } else { y.exp() };
    let shift = match k {
        0 => x,
        1 | 2 => y * y,
        _ => x - y,
    };
    let mut s = scale;
    while s.re() < 4.0 {
        s = s * 1.5 + shift.abs();
        if s.re() > 3.0 * y.re() {
            return [s, scale, shift * s];
        }
    }
    [s.sqrt(), shift, scale * shift]
}

#[test]
fn branches_a_match_and_an_early_return() {
    for (point, k) in [
        ([1.5, 0.5], 0),
        ([-0.5, 1.25], 1),
        ([2.0, 1.5], 3),
        ([0.3, 4.5], 2),
        // The loop ends without returning, and does not run.
        ([1.0, 2.2], 0),
        ([2.0, 3.0], 1),
    ] {
        check(
            "control",
            &|[x, y]| control(x, y, k),
            &|p| control_dual(p, k),
            point,
            control_jacobian(point[0], point[1], k),
        );
    }
}

/// A local array filled and then read again in a second loop, a tuple output.
#[differentiable(jacobian, wrt(a, b))]
fn smooth(a: f64, b: f64, w: &[f64; 4]) -> (f64, f64, f64, f64) {
    let mut h = [0.0; 4];
    for i in 0..4 {
        h[i] = (a * w[i] + b).tanh();
    }
    for i in 1..4 {
        h[i] = 0.5 * (h[i] + h[i - 1]);
    }
    (h[0], h[1], h[2], h[3])
}

fn smooth_dual<D: DualNum<Primitive = f64> + Copy>([a, b]: [D; 2], w: &[f64; 4]) -> [D; 4] {
    let mut h: [D; 4] = std::array::from_fn(|i| (a * w[i] + b).tanh());
    for i in 1..4 {
        h[i] = (h[i] + h[i - 1]) * 0.5;
    }
    h
}

#[test]
fn a_local_array_filled_and_rewritten() {
    let w = [0.5, -1.0, 2.0, 0.25];
    for point in [[0.7, -0.2], [-1.1, 0.4]] {
        let ((p, q, r, s), jacobian) = smooth_jacobian(point[0], point[1], &w);
        let f = |[a, b]: [f64; 2]| {
            let (p, q, r, s) = smooth(a, b, &w);
            [p, q, r, s]
        };
        check(
            "smooth",
            &f,
            &|p| smooth_dual(p, &w),
            point,
            ([p, q, r, s], jacobian),
        );
    }
}
