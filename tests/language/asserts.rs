//! `assert!`, `assert_eq!`, `assert_ne!` and `debug_assert!` (issue 25): kept where `f` runs
//! them, in every flavour, and never differentiated. Against central differences, the value
//! bit for bit `f`'s, and a failing assertion panics in `f_grad` as it does in `f`.

use crate::common;

use common::{assert_near, derivative};
use micrograd_runtime::prelude::*;

const LIMIT: f64 = 100.0;

#[differentiable(hessian, graph)]
fn guarded(w: &[f64], x: f64, n: usize) -> f64 {
    assert!(n >= 2, "need two entries, got {}", n);
    assert_eq!(w.len(), n);
    debug_assert!(x.abs() < LIMIT && w[0] > -LIMIT);
    let y = x * w[0] + w[1];
    assert_ne!(y, f64::INFINITY, "y = {:.3} from x = {}", y, x);
    debug_assert_eq!(n % 2, 0);
    debug_assert_ne!(x, LIMIT);
    let mut s = 0.0;
    for i in 0..n {
        assert!(w[i].is_finite());
        s += w[i] * y.sin();
    }
    s + y * y
}

#[test]
fn asserts_pass_through_every_flavour() {
    let w = [0.5, -1.25];
    for x in [-1.5, 0.25, 2.0] {
        let mut d_w = [0.0; 2];
        let (value, d_x) = guarded_grad(&w, &mut d_w, x, 2);
        assert_eq!(value.to_bits(), guarded(&w, x, 2).to_bits());
        assert_near("d_x", d_x, derivative(|x| guarded(&w, x, 2), x), 1e-6);
        for i in 0..2 {
            let at = |t: f64| {
                let mut v = w;
                v[i] = t;
                guarded(&v, x, 2)
            };
            assert_near("d_w", d_w[i], derivative(at, w[i]), 1e-6);
        }
        let (value, tangent) = guarded_jvp(&w, &[0.0, 0.0], x, 1.0, 2);
        assert_eq!(value.to_bits(), guarded(&w, x, 2).to_bits());
        assert_near("jvp", tangent, d_x, 1e-12);
    }
}

#[test]
#[should_panic(expected = "need two entries, got 1")]
fn a_failing_assert_panics_in_f() {
    guarded(&[1.0], 0.5, 1);
}

#[test]
#[should_panic(expected = "need two entries, got 1")]
fn a_failing_assert_panics_in_f_grad() {
    guarded_grad(&[1.0], &mut [0.0], 0.5, 1);
}

#[test]
#[should_panic(expected = "assertion `left == right` failed")]
fn a_failing_assert_eq_panics_in_f_grad() {
    guarded_grad(&[1.0, 2.0, 3.0], &mut [0.0; 3], 0.5, 2);
}

#[test]
#[should_panic(expected = "need two entries")]
fn a_failing_assert_panics_in_f_jvp() {
    guarded_jvp(&[1.0], &[0.0], 0.5, 1.0, 1);
}
