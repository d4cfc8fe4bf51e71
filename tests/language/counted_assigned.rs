//! A call returning `[f64; M]` bound without a type (`let mut oc = g3(x, y);`, array_calls.rs)
//! and assigned a call again later: `oc = g3(y, x);`, in a loop with arguments reading `oc`
//! itself (`oc = g3(oc[1], oc[0]);`), in a branch and in a closure of an argument. The counted
//! array's length is the path `__g3_outputs`, which returned/calls.rs (gone now) took for a
//! length the macro cannot count and lent to a `__g3_into` that only a function returning
//! `[f64; M]` of a non-literal `M` has: the generated code did not compile (a hand probe,
//! session 15). Against central differences and num-dual twins, the value bit for bit `f`'s.

use crate::common;

use common::oracle::check;

use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

#[differentiable]
fn g3(a: f64, b: f64) -> [f64; 3] {
    [a * b, a.sin(), b.exp() * 0.5]
}

fn g3_twin<D: DualNum<Primitive = f64> + Copy>(a: D, b: D) -> [D; 3] {
    [a * b, a.sin(), b.exp() * D::from(0.5)]
}

/// Assigned once, after the `let`.
#[differentiable]
fn again(x: f64, y: f64) -> f64 {
    let mut oc = g3(x, y);
    let s = oc[0] * oc[2];
    oc = g3(y, x);
    s + oc[1] * oc[2]
}

fn again_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    let oc = g3_twin(x, y);
    let s = oc[0] * oc[2];
    let oc = g3_twin(y, x);
    s + oc[1] * oc[2]
}

/// Assigned in a loop from its own entries, and in a branch.
#[differentiable]
fn iterated(x: f64, y: f64) -> f64 {
    let mut oc = g3(x, y);
    for _ in 0..3 {
        oc = g3(oc[1] + 0.5, oc[0] * 0.5);
    }
    if oc[0] > 0.1 {
        oc = g3(oc[2], y);
    }
    oc.iter().sum::<f64>()
}

fn iterated_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    let mut oc = g3_twin(x, y);
    for _ in 0..3 {
        oc = g3_twin(oc[1] + D::from(0.5), oc[0] * D::from(0.5));
    }
    if oc[0].re() > 0.1 {
        oc = g3_twin(oc[2], y);
    }
    oc[0] + oc[1] + oc[2]
}

/// Assigned from a sum whose closure reads the array: the loop evaluates the arguments once
/// per output, so the closure reads the copy too.
#[differentiable]
fn closure_read(x: f64, v: &[f64]) -> f64 {
    let mut oc = g3(x, v[0]);
    oc = g3(v.iter().map(|t| t * oc[0]).sum::<f64>(), x);
    oc[0] + oc[1] * oc[2]
}

fn closure_read_twin<D: DualNum<Primitive = f64> + Copy>(x: D, v: &[D]) -> D {
    let oc = g3_twin(x, v[0]);
    let mut s = D::from(0.0);
    for t in v {
        s += *t * oc[0];
    }
    let oc = g3_twin(s, x);
    oc[0] + oc[1] * oc[2]
}

const POINTS: [[f64; 2]; 4] = [[0.3, 0.7], [-0.4, 0.2], [1.3, -0.6], [2.1, 1.4]];

#[test]
fn a_counted_call_assigned_again() {
    for p in POINTS {
        let (value, d_x, d_y) = again_grad(p[0], p[1]);
        check!(
            "again_grad",
            &p,
            (value, &[d_x, d_y]),
            against = [
                central(|q| again(q[0], q[1])),
                dual(|q: &[Dual64]| again_twin(q[0], q[1])),
            ]
        );
    }
}

#[test]
fn a_counted_call_assigned_from_itself_in_a_loop_and_a_branch() {
    let mut taken = [false; 2];
    for p in POINTS {
        let oc = (0..3).fold(g3(p[0], p[1]), |oc, _| g3(oc[1] + 0.5, oc[0] * 0.5));
        taken[usize::from(oc[0] > 0.1)] = true;
        let (value, d_x, d_y) = iterated_grad(p[0], p[1]);
        check!(
            "iterated_grad",
            &p,
            (value, &[d_x, d_y]),
            against = [
                central(|q| iterated(q[0], q[1])),
                dual(|q: &[Dual64]| iterated_twin(q[0], q[1])),
            ]
        );
    }
    assert_eq!(taken, [true, true], "the points cross the branch");
}

#[test]
fn a_counted_call_assigned_from_a_closure_reading_it() {
    for p in [[0.3, 0.4, 0.9], [-0.7, 1.2, -0.5], [1.1, -0.3, 0.2]] {
        let mut d_v = [0.0; 2];
        let (value, d_x) = closure_read_grad(p[0], &p[1..], &mut d_v);
        check!(
            "closure_read_grad",
            &p,
            (value, &[d_x, d_v[0], d_v[1]]),
            against = [
                central(|q| closure_read(q[0], &q[1..])),
                dual(|q: &[Dual64]| closure_read_twin(q[0], &q[1..])),
            ]
        );
    }
}
