//! The neurons' forward passes, each a `#[differentiable]` function. Private: `nn` re-exports
//! them with what the attribute generates, and gives the generated `_grad` and `_pullback`
//! their examples on the re-exports (the attribute writes their documentation, without one).

use crate::prelude::*;

/// A neuron's weighted sum `b + Σ wᵢ xᵢ`.
///
/// ```
/// use micrograd_runtime::nn::{linear, linear_grad};
///
/// assert_eq!(linear(&[2.0, -1.0], 0.5, &[3.0, 4.0]), 2.5);
/// let (mut d_w, mut d_x) = ([0.0; 2], [0.0; 2]);
/// let (value, d_b) = linear_grad(&[2.0, -1.0], &mut d_w, 0.5, &[3.0, 4.0], &mut d_x);
/// assert_eq!((value, d_b, d_w, d_x), (2.5, 1.0, [3.0, 4.0], [2.0, -1.0]));
/// ```
#[differentiable]
pub fn linear(w: &[f64], b: f64, x: &[f64]) -> f64 {
    let mut act = b;
    for i in 0..w.len() {
        act += w[i] * x[i];
    }
    act
}

/// A ReLU neuron: `relu(b + Σ wᵢ xᵢ)`.
///
/// ```
/// use micrograd_runtime::nn::relu_neuron;
///
/// assert_eq!(relu_neuron(&[1.0, 1.0], 0.0, &[2.0, -3.0]), 0.0); // relu(-1)
/// assert_eq!(relu_neuron(&[1.0, 1.0], 0.0, &[2.0, 3.0]), 5.0);
/// ```
#[differentiable]
pub fn relu_neuron(w: &[f64], b: f64, x: &[f64]) -> f64 {
    linear(w, b, x).relu()
}

/// A tanh neuron: `tanh(b + Σ wᵢ xᵢ)`.
///
/// ```
/// use micrograd_runtime::nn::{tanh_neuron, tanh_neuron_grad};
///
/// let (w, x) = ([-3.0, 1.0], [2.0, 0.0]); // micrograd's lecture neuron
/// let out = tanh_neuron(&w, 6.881373587019543, &x);
/// assert!((out - 0.7071).abs() < 1e-4);
/// let (mut d_w, mut d_x) = ([0.0; 2], [0.0; 2]);
/// let (_, d_b) = tanh_neuron_grad(&w, &mut d_w, 6.881373587019543, &x, &mut d_x);
/// assert!((d_b - 0.5).abs() < 1e-12 && (d_w[0] - 1.0).abs() < 1e-12);
/// ```
#[differentiable]
pub fn tanh_neuron(w: &[f64], b: f64, x: &[f64]) -> f64 {
    linear(w, b, x).tanh()
}

/// A sigmoid neuron: `sigmoid(b + Σ wᵢ xᵢ)`.
///
/// ```
/// use micrograd_runtime::nn::{sigmoid_neuron, sigmoid_neuron_grad};
///
/// assert_eq!(sigmoid_neuron(&[1.0, -1.0], 0.0, &[2.0, 2.0]), 0.5); // sigmoid(0)
/// let (mut d_w, mut d_x) = ([0.0; 2], [0.0; 2]);
/// let (_, d_b) = sigmoid_neuron_grad(&[1.0, -1.0], &mut d_w, 0.0, &[2.0, 2.0], &mut d_x);
/// assert_eq!((d_b, d_w, d_x), (0.25, [0.5, 0.5], [0.25, -0.25])); // s (1 - s) = 1/4
/// ```
#[differentiable]
pub fn sigmoid_neuron(w: &[f64], b: f64, x: &[f64]) -> f64 {
    linear(w, b, x).sigmoid()
}
