//! T4 `scaling`: `f(x) = Σ_i tanh(wᵢ xᵢ + x_{i-1}) + 0.01 (Σ_i xᵢ)²` with `x_{-1} = 0`,
//! differentiated with respect to `x` (`w` constant), for `n` = 10, 100, 1000, 10000.

use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;
use nalgebra::DVector;
use num_dual::{Dual64, DualNum, Gradients};

/// The sizes of the benchmark.
pub const SIZES: [usize; 4] = [10, 100, 1000, 10_000];

/// The inputs of size `n`: `(x, w)`, both in `[-1, 1)`.
pub fn inputs(n: usize) -> (Vec<f64>, Vec<f64>) {
    (
        super::uniform(n, 5 + n as u64, -1.0, 1.0),
        super::uniform(n, 7 + n as u64, -1.0, 1.0),
    )
}

/// The function (`x` non-empty, `w` as long as `x`); the `i = 0` term, whose `x_{-1}` is 0,
/// comes before the loop.
#[differentiable(wrt(x))]
pub fn scaling(x: &[f64], w: &[f64]) -> f64 {
    let mut s = (w[0] * x[0]).tanh();
    let mut sum = x[0];
    for i in 1..x.len() {
        s += (w[i] * x[i] + x[i - 1]).tanh();
        sum += x[i];
    }
    s + 0.01 * sum.powi(2)
}

/// The hand-written gradient: adds `∂f/∂x` into `d_x`, returns `f(x)`.
///
/// One fused pass: term `i` computes `t = tanh(wᵢ xᵢ + x_{i-1})` once and adds `(1 - t²) wᵢ`
/// into `d_x[i]` and `1 - t²` into `d_x[i-1]`; a second pass adds `0.02 Σ x` everywhere.
pub fn scaling_hand(x: &[f64], d_x: &mut [f64], w: &[f64]) -> f64 {
    let n = x.len();
    assert!(n > 0 && w.len() == n && d_x.len() == n);
    let (x, w, d_x) = (&x[..n], &w[..n], &mut d_x[..n]);
    let t = (w[0] * x[0]).tanh();
    let mut s = t;
    let mut sum = x[0];
    d_x[0] += (1.0 - t * t) * w[0];
    for i in 1..n {
        let t = (w[i] * x[i] + x[i - 1]).tanh();
        let d = 1.0 - t * t;
        s += t;
        sum += x[i];
        d_x[i - 1] += d;
        d_x[i] += d * w[i];
    }
    let d_sum = 0.02 * sum;
    for d in d_x.iter_mut() {
        *d += d_sum;
    }
    s + 0.01 * sum * sum
}

/// `reverse`: `x` on the tape, `w` constant. Returns the value and the gradient.
pub fn scaling_reverse(tape: &reverse::Tape, x: &[f64], w: &[f64]) -> (f64, Vec<f64>) {
    use reverse::Gradient;
    tape.clear();
    let x = tape.add_vars(x);
    let mut s = (x[0] * w[0]).tanh();
    let mut sum = x[0];
    for i in 1..x.len() {
        s = s + (x[i] * w[i] + x[i - 1]).tanh();
        sum = sum + x[i];
    }
    let y = s + 0.01 * sum.powi(2);
    let grads = y.grad();
    (y.val(), grads.wrt(&x))
}

/// The function, generic over num-dual's dual numbers.
pub fn scaling_generic<D: DualNum<Primitive = f64> + Copy>(x: &[D], w: &[f64]) -> D {
    let mut s = (x[0] * w[0]).tanh();
    let mut sum = x[0];
    for i in 1..x.len() {
        s += (x[i] * w[i] + x[i - 1]).tanh();
        sum += x[i];
    }
    s + sum.powi(2) * 0.01
}

/// num-dual's `Gradients::gradient` on a `DVector`: one forward pass on `Dual64` per entry of
/// `x`, so `n` passes of cost `n`: O(n²).
pub fn scaling_num_dual(x: &DVector<f64>, w: &[f64]) -> (f64, DVector<f64>) {
    Gradients::gradient(
        |x: DVector<Dual64>, _: &()| scaling_generic(x.as_slice(), w),
        x,
        &(),
    )
}

/// micrograd's way on `micrograd_runtime::Value`. Returns the value and the gradient.
pub fn scaling_value(x: &[f64], w: &[f64]) -> (f64, Vec<f64>) {
    let x: Vec<Value> = x.iter().map(|&xi| Value::new(xi)).collect();
    let mut s = (&x[0] * w[0]).tanh();
    let mut sum = x[0].clone();
    for i in 1..x.len() {
        s += (&x[i] * w[i] + &x[i - 1]).tanh();
        sum += &x[i];
    }
    let y = s + 0.01 * sum.powi(2);
    y.backward();
    (y.data(), x.iter().map(Value::grad).collect())
}

/// Asserts that every contender agrees with [`scaling_hand`] to 1e-9 relative at size `n`.
/// num-dual is checked only up to `num_dual_max` (it is O(n²)).
pub fn check(n: usize, num_dual_max: usize) {
    let (x, w) = inputs(n);
    let with_value = |d: &[f64], value: f64| -> Vec<f64> {
        let mut v = d.to_vec();
        v.push(value);
        v
    };
    let mut d_x = vec![0.0; n];
    let value = scaling_hand(&x, &mut d_x, &w);
    let want = with_value(&d_x, value);
    let what = |name: &str| format!("T4 {name} at n = {n}");

    let mut d_x = vec![0.0; n];
    let value = scaling_grad(&x, &mut d_x, &w);
    assert_eq!(
        value.to_bits(),
        scaling(&x, &w).to_bits(),
        "scaling_grad value"
    );
    super::assert_close(&what("generated"), &with_value(&d_x, value), &want);

    let tape = reverse::Tape::new();
    let (value, d) = scaling_reverse(&tape, &x, &w);
    super::assert_close(&what("reverse"), &with_value(&d, value), &want);

    let (value, d) = scaling_value(&x, &w);
    super::assert_close(&what("Value"), &with_value(&d, value), &want);

    if n <= num_dual_max {
        let (value, d) = scaling_num_dual(&DVector::from_column_slice(&x), &w);
        super::assert_close(&what("num-dual"), &with_value(d.as_slice(), value), &want);
    }
}
