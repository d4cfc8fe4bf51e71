//! A comparison whose left operand is a call and whose right operand writes: Rust runs the
//! call (its arguments' writes included) first. The lowering lowered the right operand first,
//! to tell an integer `const fn` call beside an integer, so `f_grad` ran the right side's write
//! before the call's arguments and left another value in the parameter than `f` (random
//! programs, seed 39 program 87). `f_grad` against central differences and num-dual twins,
//! the value and the parameter's final entries bit for bit `f`'s, at points on both sides of
//! the comparison.

use crate::common;

use common::oracle::Gradient;

use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

#[differentiable]
fn sq(a: f64) -> f64 {
    a * a
}

/// The call's argument writes `w[0]`, the right operand writes it again.
#[differentiable(wrt(w))]
fn written_in_both(w: &mut [f64], s: f64) -> f64 {
    let c = sq({
        w[0] += 2.0;
        w[0]
    }) >= {
        w[0] *= w[1].tanh();
        s
    };
    w[0] * w[0] + if c { 1.0 } else { 0.0 }
}

fn written_in_both_twin<D: DualNum<Primitive = f64> + Copy>(w: &[D], s: f64) -> D {
    let first = w[0] + D::from(2.0);
    let c = (first * first).re() >= s;
    let last = first * w[1].tanh();
    last * last + D::from(if c { 1.0 } else { 0.0 })
}

/// The call reads `w[0]`, the right operand writes it.
#[differentiable(wrt(w))]
fn read_then_written(w: &mut [f64]) -> f64 {
    let c = sq(w[0]) < {
        w[0] = w[1] * 3.0;
        4.0
    };
    w[0] + if c { w[1] } else { 2.0 * w[1] }
}

fn read_then_written_twin<D: DualNum<Primitive = f64> + Copy>(w: &[D]) -> D {
    let c = (w[0] * w[0]).re() < 4.0;
    w[1] * D::from(3.0) + if c { w[1] } else { w[1] * D::from(2.0) }
}

#[test]
fn a_calls_writes_run_before_the_right_operands() {
    for (point, s) in [([1.0, 0.7], 0.5), ([-1.5, 0.4], 3.0), ([0.3, -1.2], 100.0)] {
        let (mut after_f, mut after_grad) = (point, point);
        let value = written_in_both(&mut after_f, s);
        let mut d_w = [0.0; 2];
        let from_grad = written_in_both_grad(&mut after_grad, &mut d_w, s);
        assert_eq!(from_grad.to_bits(), value.to_bits(), "value at {point:?}");
        assert_eq!(after_grad, after_f, "w after the call at {point:?}");
        let f = |x: &[f64]| written_in_both(&mut [x[0], x[1]], s);
        let twin = |x: &[Dual64]| written_in_both_twin(x, s);
        Gradient::new("written_in_both", &point, (value, &d_w))
            .central(f)
            .dual(twin);
    }
}

#[test]
fn a_calls_reads_come_before_the_right_operands_writes() {
    for point in [[1.0, 0.7], [3.0, -0.4]] {
        let (mut after_f, mut after_grad) = (point, point);
        let value = read_then_written(&mut after_f);
        let mut d_w = [0.0; 2];
        let from_grad = read_then_written_grad(&mut after_grad, &mut d_w);
        assert_eq!(from_grad.to_bits(), value.to_bits(), "value at {point:?}");
        assert_eq!(after_grad, after_f, "w after the call at {point:?}");
        let f = |x: &[f64]| read_then_written(&mut [x[0], x[1]]);
        Gradient::new("read_then_written", &point, (value, &d_w))
            .central(f)
            .dual(read_then_written_twin);
    }
}
