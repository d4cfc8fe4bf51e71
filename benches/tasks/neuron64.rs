//! T2 `neuron64`: `tanh(b + Σ_{i<64} wᵢ xᵢ)`, differentiated with respect to the 64 weights and
//! the bias (the input `x` is a constant).

use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;
use nalgebra::SVector;
use num_dual::{DualNum, DualSVec64};

/// The number of inputs.
pub const N: usize = 64;

/// The inputs: `(w, b, x)`, with `w` and `x` in `[-1, 1)` scaled so that `b + w·x` is of order
/// one (tanh not saturated, so every contender's `tanh'` is accurate to rounding).
pub fn inputs() -> (Vec<f64>, f64, Vec<f64>) {
    let w: Vec<f64> = super::uniform(N, 2, -1.0, 1.0)
        .iter()
        .map(|w| w * 0.25)
        .collect();
    let x = super::uniform(N, 3, -1.0, 1.0);
    (w, 0.1, x)
}

/// A tanh neuron with 64 inputs.
#[differentiable(wrt(w, b))]
pub fn neuron64(w: &[f64], b: f64, x: &[f64]) -> f64 {
    let mut s = b;
    for i in 0..w.len() {
        s += w[i] * x[i];
    }
    s.tanh()
}

/// The neuron's parameters as a struct: what a user who keeps them together writes.
#[derive(Differentiable, Clone)]
pub struct Neuron {
    /// The weights.
    pub w: Vec<f64>,
    /// The bias.
    pub b: f64,
}

/// [`neuron64`] with its parameters in a [`Neuron`]: `f_grad` adds into a `Neuron` shadow.
/// The struct-parameter version of the task, which should cost what the flat one does.
#[differentiable(wrt(p))]
pub fn neuron64_struct(p: &Neuron, x: &[f64]) -> f64 {
    let mut s = p.b;
    for i in 0..p.w.len() {
        s += p.w[i] * x[i];
    }
    s.tanh()
}

/// The hand-written gradient: adds `∂/∂w` into `d_w`, returns `(value, ∂/∂b)`.
///
/// One pass for the weighted sum, then `d = 1 - tanh²` and `d_w += d · x` over zipped slices
/// (no bounds checks, so the second loop vectorizes).
#[inline]
pub fn neuron64_hand(w: &[f64], d_w: &mut [f64], b: f64, x: &[f64]) -> (f64, f64) {
    assert!(w.len() == x.len() && d_w.len() == w.len());
    let mut s = b;
    for (wi, xi) in w.iter().zip(x) {
        s += wi * xi;
    }
    let t = s.tanh();
    let d = 1.0 - t * t;
    for (dwi, xi) in d_w.iter_mut().zip(x) {
        *dwi += d * xi;
    }
    (t, d)
}

/// `reverse`: the weights and the bias on the tape, `x` as constants. Returns the value and
/// the 65 partials (weights, then bias).
pub fn neuron64_reverse(tape: &reverse::Tape, w: &[f64], b: f64, x: &[f64]) -> (f64, Vec<f64>) {
    use reverse::Gradient;
    tape.clear();
    let w = tape.add_vars(w);
    let b = tape.add_var(b);
    let mut s = b;
    for (wi, xi) in w.iter().zip(x) {
        s = s + *wi * *xi;
    }
    let y = s.tanh();
    let grads = y.grad();
    let mut d = grads.wrt(&w);
    d.push(grads.wrt(&b));
    (y.val(), d)
}

/// The neuron, generic over num-dual's dual numbers.
pub fn neuron64_generic<D: DualNum<Primitive = f64> + Copy>(w: &[D], b: D, x: &[f64]) -> D {
    let mut s = b;
    for (wi, xi) in w.iter().zip(x) {
        s += *wi * *xi;
    }
    s.tanh()
}

/// num-dual's `gradient` over the 65 parameters as one `SVector` (weights, then bias): a
/// single forward pass on `DualSVec64<65>`, each value carrying 65 derivatives.
pub fn neuron64_num_dual(params: &SVector<f64, 65>, x: &[f64]) -> (f64, SVector<f64, 65>) {
    num_dual::gradient(
        |p: SVector<DualSVec64<65>, 65>| neuron64_generic(&p.as_slice()[..N], p[N], x),
        params,
    )
}

/// micrograd's way: a `Value` per weight and for the bias, the graph built, then `backward`.
/// Returns the value and the 65 partials (weights, then bias).
pub fn neuron64_value(w: &[f64], b: f64, x: &[f64]) -> (f64, Vec<f64>) {
    let w: Vec<Value> = w.iter().map(|&wi| Value::new(wi)).collect();
    let b = Value::new(b);
    let mut s = b.clone();
    for (wi, xi) in w.iter().zip(x) {
        s += wi * *xi;
    }
    let y = s.tanh();
    y.backward();
    let mut d: Vec<f64> = w.iter().map(Value::grad).collect();
    d.push(b.grad());
    (y.data(), d)
}

/// The 65 parameters as num-dual's `SVector` (weights, then bias).
pub fn params(w: &[f64], b: f64) -> SVector<f64, 65> {
    SVector::from_iterator(w.iter().copied().chain([b]))
}

/// Asserts that every contender agrees with [`neuron64_hand`] to 1e-9 relative.
pub fn check() {
    let (w, b, x) = inputs();
    let mut d_w = vec![0.0; N];
    let (value, d_b) = neuron64_hand(&w, &mut d_w, b, &x);
    let mut want = d_w.clone();
    want.extend([d_b, value]);

    let mut d_w = vec![0.0; N];
    let (value, d_b) = neuron64_grad(&w, &mut d_w, b, &x);
    assert_eq!(
        value.to_bits(),
        neuron64(&w, b, &x).to_bits(),
        "neuron64_grad value"
    );
    d_w.extend([d_b, value]);
    super::assert_close("T2 generated", &d_w, &want);

    let p = Neuron { w: w.clone(), b };
    let mut d_p = p.zeroed_like();
    let value = neuron64_struct_grad(&p, &mut d_p, &x);
    let mut d = d_p.w.clone();
    d.extend([d_p.b, value]);
    assert_eq!(
        d, d_w,
        "T2 struct: the same gradient, bit for bit, as the flat parameters"
    );

    let tape = reverse::Tape::new();
    let (value, mut d) = neuron64_reverse(&tape, &w, b, &x);
    d.push(value);
    super::assert_close("T2 reverse", &d, &want);

    let (value, grad) = neuron64_num_dual(&params(&w, b), &x);
    let mut d: Vec<f64> = grad.iter().copied().collect();
    d.push(value);
    super::assert_close("T2 num-dual", &d, &want);

    let (value, mut d) = neuron64_value(&w, b, &x);
    d.push(value);
    super::assert_close("T2 Value", &d, &want);
}
