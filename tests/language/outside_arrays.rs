//! A `const` or `static` array item the function cannot see, read as data (issue 25):
//! `for w in W`, `W.iter()`, `S.iter().enumerate()`, `W[1]`, `W.len()`; and an integer
//! `const fn` called where an integer must be, `if i < half(N)`, `0..half(N)` (it was read as
//! a differentiable call returning a float). `f_grad` against central differences, num-dual on
//! a twin and the `Value` engine, `f_hessian` against `HyperDual64`; the value bit for bit `f`'s.

#![deny(warnings)]

use crate::common;

use common::oracle::{self, check};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;
use num_dual::DualNum;

const W: [f64; 3] = [0.5, 1.5, -1.0];
static S: [f64; 2] = [0.25, 4.0];
const N: usize = 6;

const IDX: [usize; 3] = [2, 0, 2];

const fn half(n: usize) -> usize {
    n / 2
}

#[differentiable(hessian)]
fn weighted(x: f64, y: f64) -> f64 {
    let mut s = 0.0;
    for w in W {
        s += w * x * y;
    }
    for w in W.iter() {
        s += w * x * x;
    }
    for (k, w) in S.iter().enumerate() {
        s += w * y.powi(k as i32 + 2);
    }
    s += W[1] * x + S[W.len() - 2] * y * y;
    for i in 0..N {
        if i < half(N) {
            s += x * y;
        } else {
            s -= 0.5 * y;
        }
    }
    for _ in 0..half(N) {
        s += 0.25 * x;
    }
    s
}

/// `weighted` written out by hand (`Σ W = 1`, the `if` taken 3 times of 6): the num-dual twin.
fn weighted_d<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    let w: f64 = W.iter().sum();
    x * y * w + x * x * w + y * y * S[0] + y * y * y * S[1] + x * W[1] + y * y * S[1] + x * y * 3.0
        - y * 1.5
        + x * 0.75
}

/// The same on the `Value` engine.
fn weighted_v(x: &Value, y: &Value) -> Value {
    let w: f64 = W.iter().sum();
    let xy = x * y;
    let yy = y * y;
    &xy * w + &(x * x) * w + &yy * S[0] + &(&yy * y) * S[1] + x * W[1] + &yy * S[1] + &xy * 3.0
        - y * 1.5
        + x * 0.75
}

#[test]
fn outside_arrays_and_a_const_fn_against_three_references() {
    for p in [[0.7, -1.3], [-0.4, 2.1]] {
        let (value, d_x, d_y) = weighted_grad(p[0], p[1]);
        check!(
            "weighted",
            &p,
            (value, &[d_x, d_y]),
            against = [
                central(|q: &[f64]| weighted(q[0], q[1])),
                dual(|q| weighted_d(q[0], q[1])),
                value(|q| weighted_v(&q[0], &q[1])),
            ]
        );
        let (value, hessian) = weighted_hessian(p[0], p[1]);
        assert_eq!(value.to_bits(), weighted(p[0], p[1]).to_bits());
        let entries = [hessian[0][0], hessian[0][1], hessian[1][0], hessian[1][1]];
        oracle::Hessian::new("weighted", &p, &entries).dual(|q| weighted_d(q[0], q[1]));
    }
}

/// An integer `const` array (its entries index `x`: integers, as the whole function's uses
/// say) and a float one through an iterator chain.
#[differentiable]
fn picked(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in IDX {
        s += x[i] * x[i];
    }
    s + W.iter().map(|w| w * x[1]).sum::<f64>()
}

#[test]
fn an_integer_const_array_indexes_and_a_float_one_maps() {
    let x = [0.3, -1.1, 2.0];
    let mut d_x = [0.0; 3];
    let value = picked_grad(&x, &mut d_x);
    let closed = [0.0, 1.0, 4.0 * x[2]];
    for i in 0..3 {
        let closed = if i == 0 { 2.0 * x[0] } else { closed[i] };
        common::assert_near(&format!("d_x[{i}]"), d_x[i], closed, 1e-14);
    }
    check!(
        "picked",
        &x,
        (value, &d_x),
        against = [central(|p: &[f64]| picked(p))]
    );
}
