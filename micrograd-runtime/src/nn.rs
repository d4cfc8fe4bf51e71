//! micrograd's `nn.py`: `Module`, `Neuron`, `Layer`, `Mlp`, on generated gradients.
//!
//! Each neuron's forward pass is a `#[differentiable]` function; its backward pass is that
//! function's generated pullback, which adds `d_out · ∂out/∂w` into the neuron's gradients and
//! `d_out · ∂out/∂x` into the gradient of its input. The layers chain the pullbacks, last layer
//! first: backpropagation with no run-time graph and no derivative written by hand.
//!
//! ```
//! use micrograd_runtime::nn::{Activation, Mlp, Module};
//!
//! // micrograd: random.seed(1337); model = MLP(2, [16, 16, 1])
//! let mut model = Mlp::new(2, &[16, 16, 1], Activation::Relu, 1337);
//! assert_eq!(model.parameter_count(), 337); // micrograd's demo network
//! let score = model.forward(&[0.5, -0.25])[0];
//! model.backward(&[0.5, -0.25], &[1.0]); // d score / d every parameter, into the gradients
//! assert!(model.grads().iter().any(|g| *g != 0.0));
//! # let _ = score;
//! ```

use crate::prelude::*;
use crate::rng::PythonRandom;

/// A neuron's weighted sum `b + Σ wᵢ xᵢ`.
#[differentiable]
pub fn linear(w: &[f64], b: f64, x: &[f64]) -> f64 {
    let mut act = b;
    for i in 0..w.len() {
        act += w[i] * x[i];
    }
    act
}

/// A ReLU neuron: `relu(b + Σ wᵢ xᵢ)`.
#[differentiable]
pub fn relu_neuron(w: &[f64], b: f64, x: &[f64]) -> f64 {
    linear(w, b, x).relu()
}

/// A tanh neuron: `tanh(b + Σ wᵢ xᵢ)`.
#[differentiable]
pub fn tanh_neuron(w: &[f64], b: f64, x: &[f64]) -> f64 {
    linear(w, b, x).tanh()
}

/// The nonlinearity of a neuron.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `max(0, x)`, micrograd's default.
    Relu,
    /// `tanh(x)`, as in micrograd's lecture.
    Tanh,
    /// No nonlinearity: the output layer.
    Linear,
}

impl Activation {
    /// Its name in saved files: `relu`, `tanh`, `linear`.
    pub fn name(self) -> &'static str {
        match self {
            Activation::Relu => "relu",
            Activation::Tanh => "tanh",
            Activation::Linear => "linear",
        }
    }
}

/// Something with parameters and their gradients, like micrograd's `Module`.
pub trait Module {
    /// The parameters, flattened in a fixed order.
    fn parameters(&self) -> Vec<f64>;
    /// The gradient of each parameter, in the same order.
    fn grads(&self) -> Vec<f64>;
    /// Replaces the parameters.
    ///
    /// # Panics
    /// If `values` does not have one entry per parameter.
    fn set_parameters(&mut self, values: &[f64]);
    /// Sets every gradient to zero, before the next backward pass adds into them.
    fn zero_grad(&mut self);
    /// How many parameters there are.
    fn parameter_count(&self) -> usize {
        self.parameters().len()
    }
}

/// One neuron: weights, a bias, their gradients, and an activation.
#[derive(Clone, Debug, PartialEq)]
pub struct Neuron {
    /// The weights, one per input.
    pub w: Vec<f64>,
    /// The bias.
    pub b: f64,
    /// ∂loss/∂w, accumulated by [`Neuron::backward`].
    pub grad_w: Vec<f64>,
    /// ∂loss/∂b, accumulated by [`Neuron::backward`].
    pub grad_b: f64,
    /// The nonlinearity.
    pub activation: Activation,
}

impl Neuron {
    /// A neuron with `inputs` weights drawn uniformly from [-1, 1] and a zero bias, micrograd's
    /// init: one `random.uniform(-1, 1)` per weight, in order.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Neuron};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// // micrograd: random.seed(1337); Neuron(2).w
    /// let neuron = Neuron::new(2, Activation::Relu, &mut PythonRandom::new(1337));
    /// assert_eq!(neuron.w, [0.23550571390294128, 0.06653114721000164]);
    /// assert_eq!(neuron.b, 0.0);
    /// ```
    pub fn new(inputs: usize, activation: Activation, random: &mut PythonRandom) -> Neuron {
        let w = (0..inputs).map(|_| random.uniform(-1.0, 1.0)).collect();
        Neuron {
            w,
            b: 0.0,
            grad_w: vec![0.0; inputs],
            grad_b: 0.0,
            activation,
        }
    }

    /// The neuron's output for input `x`.
    ///
    /// # Panics
    /// If `x` does not have one entry per weight.
    pub fn forward(&self, x: &[f64]) -> f64 {
        self.check_input(x);
        match self.activation {
            Activation::Relu => relu_neuron(&self.w, self.b, x),
            Activation::Tanh => tanh_neuron(&self.w, self.b, x),
            Activation::Linear => linear(&self.w, self.b, x),
        }
    }

    /// Given `d_out` = ∂loss/∂output at input `x`, adds ∂loss/∂w and ∂loss/∂b into the
    /// gradients, and ∂loss/∂x into `d_x` (pass `&mut []` at the first layer).
    ///
    /// # Panics
    /// If `x` does not have one entry per weight, or `d_x` is neither empty nor as long as `x`.
    pub fn backward(&mut self, x: &[f64], d_out: f64, d_x: &mut [f64]) {
        self.check_input(x);
        let (w, grad_w, b) = (&self.w, &mut self.grad_w, self.b);
        self.grad_b += match self.activation {
            Activation::Relu => relu_neuron_pullback(w, grad_w, b, x, d_x, d_out),
            Activation::Tanh => tanh_neuron_pullback(w, grad_w, b, x, d_x, d_out),
            Activation::Linear => linear_pullback(w, grad_w, b, x, d_x, d_out),
        };
    }
}

impl Neuron {
    fn check_input(&self, x: &[f64]) {
        let inputs = self.w.len();
        assert!(
            x.len() == inputs,
            "the neuron takes {inputs} inputs but was given {}",
            x.len()
        );
    }
}

impl Module for Neuron {
    fn parameters(&self) -> Vec<f64> {
        let mut p = self.w.clone();
        p.push(self.b);
        p
    }

    fn grads(&self) -> Vec<f64> {
        let mut g = self.grad_w.clone();
        g.push(self.grad_b);
        g
    }

    fn set_parameters(&mut self, values: &[f64]) {
        let n = self.w.len();
        check_count(values.len(), n + 1);
        self.w.copy_from_slice(&values[..n]);
        self.b = values[n];
    }

    fn zero_grad(&mut self) {
        self.grad_w.fill(0.0);
        self.grad_b = 0.0;
    }

    fn parameter_count(&self) -> usize {
        self.w.len() + 1
    }
}

/// Neurons side by side, all reading the same input.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// The neurons.
    pub neurons: Vec<Neuron>,
}

impl Layer {
    /// `outputs` neurons of `inputs` weights each, drawn one neuron after the other.
    pub fn new(
        inputs: usize,
        outputs: usize,
        activation: Activation,
        random: &mut PythonRandom,
    ) -> Layer {
        Layer {
            neurons: (0..outputs)
                .map(|_| Neuron::new(inputs, activation, random))
                .collect(),
        }
    }

    /// Every neuron's output.
    pub fn forward(&self, x: &[f64]) -> Vec<f64> {
        self.neurons.iter().map(|n| n.forward(x)).collect()
    }

    /// Backpropagates `d_out` (one entry per neuron) into the neurons and into `d_x`.
    ///
    /// # Panics
    /// If `d_out` does not have one entry per neuron, or `x` the wrong size.
    pub fn backward(&mut self, x: &[f64], d_out: &[f64], d_x: &mut [f64]) {
        let outputs = self.neurons.len();
        assert!(
            d_out.len() == outputs,
            "the layer has {outputs} neurons but d_out has {} entries",
            d_out.len()
        );
        for (neuron, d) in self.neurons.iter_mut().zip(d_out) {
            neuron.backward(x, *d, d_x);
        }
    }

    /// How many inputs each neuron reads.
    pub fn inputs(&self) -> usize {
        self.neurons.first().map_or(0, |n| n.w.len())
    }
}

impl Module for Layer {
    fn parameters(&self) -> Vec<f64> {
        self.neurons.iter().flat_map(Neuron::parameters).collect()
    }

    fn grads(&self) -> Vec<f64> {
        self.neurons.iter().flat_map(Neuron::grads).collect()
    }

    fn set_parameters(&mut self, values: &[f64]) {
        check_count(values.len(), self.parameter_count());
        let mut rest = values;
        for neuron in &mut self.neurons {
            let (mine, others) = rest.split_at(neuron.parameter_count());
            neuron.set_parameters(mine);
            rest = others;
        }
    }

    fn zero_grad(&mut self) {
        self.neurons.iter_mut().for_each(Neuron::zero_grad);
    }

    fn parameter_count(&self) -> usize {
        self.neurons.iter().map(Module::parameter_count).sum()
    }
}

fn check_count(given: usize, expected: usize) {
    assert!(
        given == expected,
        "expected {expected} parameters, got {given}"
    );
}

pub use crate::mlp::Mlp;
