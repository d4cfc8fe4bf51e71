//! Loops that only add each iteration's contribution into their result reverse each iteration
//! right after its forward part (issue 16): the gradient against central differences and the
//! `Value` engine, the value bit for bit, and no record kept (so no allocation) when the loop
//! qualifies. Loops that do not qualify (the sum's adjoint needs the sum, or an iteration reads
//! the running sum) are checked the same way.

use crate::common;

use allocation_counter::measure;
use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;
use std::hint::black_box;

/// A 2-3-1 ReLU network's mean hinge loss plus `b2²`: per-point activations in a local array,
/// the output bias used inside the loop and after it.
#[differentiable(wrt(w1, w2, b2))]
fn hinge(w1: &[f64], w2: &[f64], b2: f64, xs: &[f64], ys: &[f64]) -> f64 {
    let mut total = 0.0;
    for s in 0..ys.len() {
        let mut h = [0.0; 3];
        for j in 0..3 {
            h[j] = (w1[3 * j] * xs[2 * s] + w1[3 * j + 1] * xs[2 * s + 1] + w1[3 * j + 2]).relu();
        }
        let mut score = b2;
        for j in 0..3 {
            score += w2[j] * h[j];
        }
        total += (1.0 - ys[s] * score).relu();
    }
    total / ys.len() as f64 + b2 * b2
}

fn hinge_value(w1: &[Value], w2: &[Value], b2: &Value, xs: &[f64], ys: &[f64]) -> Value {
    let mut total = Value::new(0.0);
    for s in 0..ys.len() {
        let h: Vec<Value> = (0..3)
            .map(|j| {
                (&w1[3 * j] * xs[2 * s] + &w1[3 * j + 1] * xs[2 * s + 1] + &w1[3 * j + 2]).relu()
            })
            .collect();
        let mut score = b2.clone();
        for j in 0..3 {
            score = &score + &w2[j] * &h[j];
        }
        total = &total + (1.0 - ys[s] * &score).relu();
    }
    &total / ys.len() as f64 + b2 * b2
}

/// 40 points on two interleaved arcs, labels ±1: enough for both sides of every hinge.
fn points() -> (Vec<f64>, Vec<f64>) {
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for k in 0..40 {
        let t = k as f64 * 0.157;
        let y = if k % 2 == 0 { 1.0 } else { -1.0 };
        xs.extend([t.cos() + 0.3 * y, t.sin() - 0.2 * y]);
        ys.push(y);
    }
    (xs, ys)
}

const W1: [f64; 9] = [0.8, -0.5, 0.1, -0.3, 0.9, -0.2, 0.6, 0.4, 0.05];
const W2: [f64; 3] = [1.1, -0.7, 0.9];

#[test]
fn a_summed_loss_over_points_matches_differences_and_the_value_engine() {
    let (xs, ys) = points();
    let (mut d_w1, mut d_w2) = ([0.0; 9], [0.0; 3]);
    let (value, d_b2) = hinge_grad(&W1, &mut d_w1, &W2, &mut d_w2, 0.15, &xs, &ys);
    assert_same_value("hinge", value, hinge(&W1, &W2, 0.15, &xs, &ys), &W1);
    let point: Vec<f64> = W1.iter().chain(&W2).chain([&0.15]).copied().collect();
    let gradient: Vec<f64> = d_w1.iter().chain(&d_w2).chain([&d_b2]).copied().collect();
    let f = |p: &[f64]| hinge(&p[..9], &p[9..12], p[12], &xs, &ys);
    assert_gradient("hinge", f, &point, &gradient);
    let inputs: Vec<Value> = point.iter().map(|x| Value::new(*x)).collect();
    let loss = hinge_value(&inputs[..9], &inputs[9..12], &inputs[12], &xs, &ys);
    loss.backward();
    assert_near("hinge (Value)", loss.data(), value, 1e-12);
    for (i, input) in inputs.iter().enumerate() {
        assert_near(
            &format!("hinge d[{i}] (Value)"),
            input.grad(),
            gradient[i],
            1e-12,
        );
    }
}

#[test]
fn a_summed_loss_keeps_no_record() {
    // Reversed after the whole loop, each point's activations would be kept on a tape of
    // arrays, which has no inline buffer: at least one allocation.
    let (xs, ys) = points();
    let (mut d_w1, mut d_w2) = ([0.0; 9], [0.0; 3]);
    let count = measure(|| {
        black_box(hinge_grad(&W1, &mut d_w1, &W2, &mut d_w2, 0.15, &xs, &ys));
    })
    .count_total;
    assert_eq!(count, 0);
}

/// The sum's adjoint `1 / total` needs the whole sum: the loop is reversed after it runs.
#[differentiable]
fn log_sum(w: &[f64], c: f64) -> f64 {
    let mut total = 0.0;
    for i in 0..w.len() {
        total += (w[i] * c).exp();
    }
    total.ln() * c
}

/// Each iteration reads the running sum, so the iterations are not independent.
#[differentiable]
fn discounted(w: &[f64], c: f64) -> f64 {
    let mut total = c;
    for i in 0..w.len() {
        total = 0.5 * total + (w[i] * total).sin();
    }
    total
}

/// A value from before the loop used inside it and after it: its adjoint gets contributions
/// from both, and the one after needs the sum.
#[differentiable]
fn shared(w: &[f64], a: f64) -> f64 {
    let c = a * a;
    let mut total = 0.0;
    for i in 0..w.len() {
        total += c * w[i].tanh();
    }
    total * c + total / w.len() as f64
}

/// The `f_grad` of `f(w: &[f64], c: f64)`.
type SliceScalarGrad = fn(&[f64], &mut [f64], f64) -> (f64, f64);

fn check(name: &str, f: fn(&[f64], f64) -> f64, g: SliceScalarGrad) {
    let w = [
        0.3, -0.2, 0.45, 0.1, -0.6, 0.25, 0.05, 0.7, -0.35, 0.2, 0.15, -0.1, 0.5, 0.3, -0.45, 0.6,
        0.2, -0.05, 0.35, 0.4,
    ];
    for c in [0.7, -1.3] {
        let mut d_w = [0.0; 20];
        let (value, d_c) = g(&w, &mut d_w, c);
        let mut point = w.to_vec();
        point.push(c);
        assert_same_value(name, value, f(&w, c), &point);
        let gradient: Vec<f64> = d_w.iter().chain([&d_c]).copied().collect();
        assert_gradient(name, |p| f(&p[..20], p[20]), &point, &gradient);
    }
}

#[test]
fn loops_that_do_not_qualify_are_still_exact() {
    check("log_sum", log_sum, log_sum_grad);
    check("discounted", discounted, discounted_grad);
    check("shared", shared, shared_grad);
}

/// A `&mut [f64]` read by a summing loop and overwritten after it: the overwrite zeroes the
/// entry's adjoint before the loop's reads add theirs, so the loop is reversed after it runs.
#[differentiable]
fn overwrite(w: &mut [f64], c: f64) -> f64 {
    let mut total = 0.0;
    for i in 0..w.len() {
        total += w[i] * c;
    }
    w[0] = 2.0;
    total + w[0]
}

#[test]
fn a_mutable_slice_overwritten_after_the_loop_keeps_its_reads_gradient() {
    let entry = [0.5, -1.5, 2.0];
    let (mut w, mut d_w) = (entry, [0.0; 3]);
    let (value, d_c) = overwrite_grad(&mut w, &mut d_w, 0.75);
    let mut w_f = entry;
    assert_same_value("overwrite", value, overwrite(&mut w_f, 0.75), &entry);
    assert_eq!(w, w_f);
    // value = c Σ w + 2 (w[0] at entry in the sum): ∂/∂wᵢ = c, ∂/∂c = Σ w.
    assert_eq!(d_w, [0.75; 3]);
    assert_near("overwrite d/dc", d_c, entry.iter().sum::<f64>(), 1e-15);
}

/// The sum's adjoint reads an entry of a (constant) array the loop fills: it must be read after
/// the loop, so the loop is reversed after it runs.
#[differentiable(wrt(w))]
fn scaled_by_filled(w: &[f64], xs: &[f64]) -> f64 {
    let mut h = [0.0; 3];
    let mut total = 0.0;
    for i in 0..3 {
        h[i] = xs[i] * 2.0;
        total += w[i] * w[i];
    }
    total * h[0]
}

#[test]
fn a_sum_scaled_by_an_array_the_loop_fills_is_exact() {
    let (w, xs) = ([0.5, -1.5, 2.0], [1.25, 0.5, -0.75]);
    let mut d_w = [0.0; 3];
    let value = scaled_by_filled_grad(&w, &mut d_w, &xs);
    assert_same_value("scaled_by_filled", value, scaled_by_filled(&w, &xs), &w);
    // value = 2 x₀ Σ wᵢ²: ∂/∂wᵢ = 4 x₀ wᵢ.
    assert_eq!(d_w, w.map(|w| 4.0 * 1.25 * w));
}
