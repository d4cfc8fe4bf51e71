//! Names the function does not define, typed by a use anywhere in the function (issue 25,
//! `lower/typing.rs`): the random generator's outside-name draws were refused for each of
//! these (seed 1, programs 10, 29, 30, 56, 88, 100, 125), where the use that decides is not in
//! the expression that needs the type: a call's argument decided by a `powf` far below, a
//! loop's value decided by a row's entry it is multiplied with, a block's tail compared with a
//! float, an exiting `match`'s value read by `f64::to_radians`, the receiver of `max` (which
//! integers have too) given a float block, and a name taken apart by `let (a, b) = (x, k);`
//! then compared. Against central differences and closed forms, the value bit for bit `f`'s.

use crate::common;

use common::{assert_near, check1, check2};
use micrograd_runtime::prelude::*;
use std::f64::consts::PI;

const K1: f64 = 1.5;
const K2: f64 = -0.75;
const K3: f64 = 0.25;
static S1: f64 = 0.5;
const N: usize = 3;

#[differentiable(hvp)]
fn helper(a: f64, x: f64) -> f64 {
    a * x * x
}

/// `helper(K2, x)` cannot tell `K2` from its callee, whose signature the macro does not see:
/// the `powf` below says it is a float.
#[differentiable(hessian)]
fn elsewhere(x: f64) -> f64 {
    let y = helper(K2, x);
    y + x.abs().powf(K2 * S1)
}

/// `k` is the loop's value and a factor of a row's entry.
#[differentiable]
fn loop_value(x: f64, n: usize) -> f64 {
    let k = K1;
    let mut m = [[0.0_f64; 2]; 3];
    m[1][0] = x;
    let mut acc = x;
    for row in &m {
        acc += row[0] * k;
    }
    let mut t = 0.0_f64;
    let v = loop {
        t += 1.0;
        if t > n as f64 {
            break k;
        }
    };
    acc * v
}

/// A block's tail of outside names, compared with a float, in a loop's exit condition.
#[differentiable(hessian)]
fn compared_block(x: f64) -> f64 {
    let mut q = 0.0_f64;
    loop {
        q += 1.0;
        if q > 3.0
            || ({
                if x > 1.0 {
                    let _y: f64 = x * x;
                }
                PI * S1
            } < (x * x))
        {
            break;
        }
    }
    x * q
}

/// An exiting `match`'s value, read by a float's associated function.
#[differentiable]
fn exiting_arm(x: f64, n: usize) -> f64 {
    let v = match n {
        0 => return x,
        _ => K3 * K1,
    };
    f64::to_radians(v) * x + v * x
}

/// `max` (integers have it too) of outside names, given a float block.
#[differentiable(hessian)]
fn shared_receiver(x: f64) -> f64 {
    let m = (K3 * K3).max({
        let a = [x, 2.0 * x];
        a[1] - a[0]
    });
    m * x
}

/// `let k = K1;` taken apart by a tuple `let` in a block compared with a float.
#[differentiable]
fn tuple_compared(x: f64, y: f64) -> f64 {
    let k = K1;
    let c = ({
        let (_a, b) = (y, k);
        b * b
    } >= (y / (y.sigmoid() + 0.5)))
        || (x.sin() < 0.375);
    if c { x * y } else { y - x }
}

/// Integers stay integers: `N * N` counted, cast once.
#[differentiable]
fn integers(x: f64) -> f64 {
    let c = N * N;
    let mut s = x;
    for _ in 0..c {
        s = s * 0.5 + x;
    }
    s * (c as f64)
}

#[test]
fn outside_names_typed_by_the_whole_function() {
    let points = [-1.5, -0.25, 0.75, 2.0];
    check1("elsewhere", elsewhere, elsewhere_grad, &points);
    check1(
        "compared_block",
        compared_block,
        compared_block_grad,
        &points,
    );
    check1(
        "shared_receiver",
        shared_receiver,
        shared_receiver_grad,
        &points,
    );
    check1("integers", integers, integers_grad, &points);
    check2(
        "tuple_compared",
        tuple_compared,
        tuple_compared_grad,
        &[[0.5, 1.25], [3.0, -0.5], [-1.0, 2.0]],
    );
    for x in points {
        // K2 x² + |x|^(K2 S1): 2 K2 x + K2 S1 |x|^(K2 S1 - 1) sign(x).
        let e = K2 * S1;
        let closed = 2.0 * K2 * x + e * x.abs().powf(e - 1.0) * x.signum();
        assert_near("elsewhere closed form", elsewhere_grad(x).1, closed, 1e-12);
        let (value, hessian) = elsewhere_hessian(x);
        assert_eq!(value.to_bits(), elsewhere(x).to_bits());
        let second = 2.0 * K2 + e * (e - 1.0) * x.abs().powf(e - 2.0);
        assert_near("elsewhere hessian", hessian[0][0], second, 1e-9);
        // max(K3², x) x.
        let closed = if x > K3 * K3 { 2.0 * x } else { K3 * K3 };
        assert_near(
            "shared_receiver closed form",
            shared_receiver_grad(x).1,
            closed,
            1e-12,
        );
        let (value, _) = compared_block_hessian(x);
        assert_eq!(value.to_bits(), compared_block(x).to_bits());
        for n in 0..3 {
            // (x + x K1) K1.
            let (value, d_x) = loop_value_grad(x, n);
            assert_eq!(value.to_bits(), loop_value(x, n).to_bits());
            assert_near("loop_value", d_x, (1.0 + K1) * K1, 1e-12);
            let (value, d_x) = exiting_arm_grad(x, n);
            assert_eq!(value.to_bits(), exiting_arm(x, n).to_bits());
            let closed = if n == 0 {
                1.0
            } else {
                (K3 * K1).to_radians() + K3 * K1
            };
            assert_near("exiting_arm", d_x, closed, 1e-12);
        }
    }
}
