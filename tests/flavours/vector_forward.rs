//! Forward mode of functions returning `[f64; M]` or a tuple of `f64`s: `f_jvp` returns the
//! value and the tangent `J v`, both shaped as `f` returns. Each against num-dual (one forward
//! pass on `Dual64` along the same `v`, on a generic version of the function) and against
//! central differences of `t ↦ f(x + t v)`; the value is bit for bit `f`'s.

use crate::common;

use common::{assert_near, assert_partial};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

/// `x + t v`.
fn moved(x: &[f64], v: &[f64], t: f64) -> Vec<f64> {
    x.iter().zip(v).map(|(x, v)| x + t * v).collect()
}

/// Checks `(value, tangent)` from `f_jvp` at `x` along `v`: the value bit for bit `f(x)`, each
/// tangent entry against num-dual's (`dual` on `x + ε v`) and central differences.
fn check_jvp<const M: usize>(
    name: &str,
    f: &dyn Fn(&[f64]) -> [f64; M],
    dual: &dyn Fn(&[Dual64]) -> [Dual64; M],
    (x, v): (&[f64], &[f64]),
    (value, tangent): ([f64; M], [f64; M]),
) {
    let exact = f(x);
    let point: Vec<Dual64> = x.iter().zip(v).map(|(x, v)| Dual64::new(*x, *v)).collect();
    let reference = dual(&point);
    for i in 0..M {
        assert_eq!(value[i].to_bits(), exact[i].to_bits(), "{name}: value {i}");
        assert_near(name, reference[i].re, value[i], 1e-14);
        assert_near(name, tangent[i], reference[i].eps, 1e-12);
        assert_partial(name, |t| f(&moved(x, v, t[0]))[i], &[0.0], 0, tangent[i]);
    }
}

#[differentiable(jvp)]
fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}

fn polar_generic<D: DualNum<Primitive = f64> + Copy>(r: D, theta: D) -> [D; 2] {
    [r * theta.cos(), r * theta.sin()]
}

#[test]
fn straight_line_array_output() {
    for (x, v) in [([2.0, 0.3], [1.0, 0.0]), ([0.5, -2.5], [-0.3, 0.8])] {
        let jvp = polar_jvp(x[0], v[0], x[1], v[1]);
        check_jvp(
            "polar",
            &|p| polar(p[0], p[1]),
            &|p| polar_generic(p[0], p[1]),
            (&x, &v),
            jvp,
        );
    }
}

#[differentiable(jvp)]
fn swish(x: f64) -> f64 {
    x * x.sigmoid()
}

/// A tuple output whose entries come from a branch, a loop and a call; `n` has no tangent.
#[differentiable(jvp)]
fn mixed(x: f64, y: f64, n: usize) -> (f64, f64, f64) {
    let first = if x > y { x * y } else { x - y.exp() };
    let mut power = 1.0;
    for _ in 0..n {
        power *= x + 0.5 * y;
    }
    let last = swish(x * y) + y.tanh();
    (first, power, last)
}

fn mixed_generic<D: DualNum<Primitive = f64> + Copy>(x: D, y: D, n: usize) -> [D; 3] {
    let first = if x.re() > y.re() { x * y } else { x - y.exp() };
    let power = (x + y * 0.5).powi(n as i32);
    let xy = x * y;
    let last = xy / ((-xy).exp() + 1.0) + y.tanh();
    [first, power, last]
}

#[test]
fn branches_loops_and_calls_in_a_tuple_output() {
    for (x, v, n) in [
        ([1.5, 0.5], [0.4, -1.0], 3),
        ([-0.5, 0.25], [1.0, 1.0], 4),
        ([0.3, 0.7], [0.0, 2.0], 0),
    ] {
        let ((a, b, c), (va, vb, vc)) = mixed_jvp(x[0], v[0], x[1], v[1], n);
        let f = |p: &[f64]| {
            let (a, b, c) = mixed(p[0], p[1], n);
            [a, b, c]
        };
        let dual = |p: &[Dual64]| mixed_generic(p[0], p[1], n);
        check_jvp("mixed", &f, &dual, (&x, &v), ([a, b, c], [va, vb, vc]));
    }
}

/// A residual filled by a loop into a local array, differentiated along a slice too: the
/// tangent `v_t` of `t` is a slice of its length.
#[differentiable(jvp, wrt(a, b, t))]
fn decay(a: f64, b: f64, t: &[f64], y: &[f64; 3]) -> [f64; 3] {
    let mut r = [0.0; 3];
    for i in 0..3 {
        let e = (-b * t[i]).exp();
        r[i] = a * e * e.sqrt() - y[i];
    }
    r
}

fn decay_generic<D: DualNum<Primitive = f64> + Copy>(p: &[D], y: &[f64; 3]) -> [D; 3] {
    std::array::from_fn(|i| {
        let e = (-p[1] * p[2 + i]).exp();
        p[0] * e * e.sqrt() - y[i]
    })
}

#[test]
fn a_loop_filled_local_array_along_a_slice() {
    let y = [0.5, -0.25, 1.0];
    let x = [1.5, 0.4, 0.0, 0.5, 2.5];
    for v in [[1.0, 0.0, 0.0, 0.0, 0.0], [0.3, -0.7, 0.2, 1.0, -0.5]] {
        let jvp = decay_jvp(x[0], v[0], x[1], v[1], &x[2..], &v[2..], &y);
        check_jvp(
            "decay",
            &|p| decay(p[0], p[1], &p[2..], &y),
            &|p| decay_generic(p, &y),
            (&x, &v),
            jvp,
        );
    }
}

#[test]
#[should_panic(expected = "the tangent `v_t` has 2 entries but `t` has 3")]
fn a_tangent_of_the_wrong_length_is_a_clear_panic() {
    decay_jvp(1.0, 0.0, 1.0, 0.0, &[0.0; 3], &[0.0; 2], &[0.0; 3]);
}
