//! A branch bound by `let` whose arms end in a name the arm itself binds,
//! `let k = if n != 3 { let u = n + 1; u } else { .. };`: its type is what the arm binds the
//! name to (tuple_branch.rs `collect_value_tails`). The arms' locals are not lowered when the
//! branch's type is decided, so the name read as one the function does not define: under an
//! integer condition the branch was refused ("cannot tell whether `k` is an `f64` or an
//! integer"), under a float condition integer arms were lowered as `f64`s ("expected an `f64`
//! expression here"). Found by the random programs (seed 12, program 8: `let ev = if n != 3 {
//! return ..; } else { let v = loop { break ..; }; v };`). Each against central differences
//! and num-dual, the value bit for bit `f`'s, at points on both sides of the branches.

// The names bound only to be the arm's value, and the loop left at once, are the subject.
#![allow(clippy::let_and_return, clippy::never_loop)]

use crate::common;

use common::oracle::check;
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

/// The shrunk program: one arm returns, the other ends in a name bound to a loop's value.
#[differentiable]
fn returned_or_looped(w: &[f64], n: usize) -> f64 {
    let ev = if n != 3 {
        return w[0] * w[1];
    } else {
        let v = loop {
            break w[1] * 0.5 + w[0].sin();
        };
        v
    };
    f64::cosh(ev)
}

fn returned_or_looped_twin(w: &[Dual64], n: usize) -> Dual64 {
    if n != 3 {
        return w[0] * w[1];
    }
    (w[1] * 0.5 + w[0].sin()).cosh()
}

/// Integer arms of names the arms bind, under an integer condition: an index.
#[differentiable]
fn picked(w: &[f64], n: usize) -> f64 {
    let k = if n != 3 {
        let u = n + 1;
        u
    } else {
        let v = n * 2;
        v
    };
    w[k % 2] * w[0]
}

fn picked_twin(w: &[Dual64], n: usize) -> Dual64 {
    let k = if n != 3 { n + 1 } else { n * 2 };
    w[k % 2] * w[0]
}

/// Integer arms bound in the arms, under a float condition, and float arms beside them.
#[differentiable]
fn picked_by_float(w: &[f64], n: usize) -> f64 {
    let k = if w[0] > 1.0 {
        let u = n + 1;
        u
    } else {
        let v = n * 2;
        v
    };
    let s = if w[1] < 0.5 {
        let t = w[0] * w[1];
        t
    } else {
        let t: f64 = w[1].exp();
        t
    };
    w[k % 2] * s
}

fn picked_by_float_twin(w: &[Dual64], n: usize) -> Dual64 {
    let k = if w[0].re > 1.0 { n + 1 } else { n * 2 };
    let s = if w[1].re < 0.5 {
        w[0] * w[1]
    } else {
        w[1].exp()
    };
    w[k % 2] * s
}

const POINTS: [[f64; 2]; 4] = [[0.7, 0.3], [1.6, -0.4], [-0.9, 1.2], [2.3, 0.8]];

#[test]
fn arms_ending_in_names_they_bind() {
    for n in [0, 1, 3, 4] {
        for point in POINTS {
            let mut d = [0.0; 2];
            let value = returned_or_looped_grad(&point, &mut d, n);
            check!(
                "returned_or_looped",
                &point,
                (value, &d),
                against = [
                    central(|p| returned_or_looped(p, n)),
                    dual(|p| returned_or_looped_twin(p, n))
                ]
            );
            let mut d = [0.0; 2];
            let value = picked_grad(&point, &mut d, n);
            check!(
                "picked",
                &point,
                (value, &d),
                against = [central(|p| picked(p, n)), dual(|p| picked_twin(p, n))]
            );
            let mut d = [0.0; 2];
            let value = picked_by_float_grad(&point, &mut d, n);
            check!(
                "picked_by_float",
                &point,
                (value, &d),
                against = [
                    central(|p| picked_by_float(p, n)),
                    dual(|p| picked_by_float_twin(p, n))
                ]
            );
        }
    }
}
