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

use crate::dense::{layer_backward, layer_forward};
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
    /// Its code in the generated layer functions (`dense::activate`).
    pub(crate) fn code(self) -> usize {
        match self {
            Activation::Relu => 0,
            Activation::Tanh => 1,
            Activation::Linear => 2,
        }
    }

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

/// Neurons side by side, all reading the same input, with their parameters in one slice.
///
/// Neuron `k` of a layer with `n` inputs owns `parameters[k * (n + 1)..(k + 1) * (n + 1)]`:
/// its weights, then its bias. The backward pass of the whole layer is one generated gradient
/// (of `Σₖ upstreamₖ · (bₖ + Σⱼ wₖⱼ xⱼ)`), not one call per neuron.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    inputs: usize,
    activation: Activation,
    parameters: Vec<f64>,
    grads: Vec<f64>,
}

impl Layer {
    /// `outputs` neurons of `inputs` weights each, drawn one neuron after the other.
    pub fn new(
        inputs: usize,
        outputs: usize,
        activation: Activation,
        random: &mut PythonRandom,
    ) -> Layer {
        Layer::from_neurons(
            (0..outputs)
                .map(|_| Neuron::new(inputs, activation, random))
                .collect(),
        )
    }

    /// The layer of these neurons, in order.
    ///
    /// # Panics
    /// If there are none, or they differ in inputs or activation.
    pub fn from_neurons(neurons: Vec<Neuron>) -> Layer {
        let first = neurons.first().expect("a layer needs at least one neuron");
        let (inputs, activation) = (first.w.len(), first.activation);
        assert!(
            neurons
                .iter()
                .all(|n| n.w.len() == inputs && n.activation == activation),
            "the neurons of a layer share their number of inputs and their activation"
        );
        Layer {
            inputs,
            activation,
            parameters: neurons.iter().flat_map(Neuron::parameters).collect(),
            grads: neurons.iter().flat_map(Neuron::grads).collect(),
        }
    }

    /// A layer of `inputs` inputs over these parameters and gradients (neuron by neuron).
    pub(crate) fn from_parts(
        inputs: usize,
        activation: Activation,
        parameters: Vec<f64>,
        grads: Vec<f64>,
    ) -> Layer {
        Layer {
            inputs,
            activation,
            parameters,
            grads,
        }
    }

    /// The neurons, copied out (weights, bias, gradients, activation).
    pub fn neurons(&self) -> Vec<Neuron> {
        let n = self.inputs;
        let rows = self.parameters.chunks_exact(n + 1);
        rows.zip(self.grads.chunks_exact(n + 1))
            .map(|(p, g)| Neuron {
                w: p[..n].to_vec(),
                b: p[n],
                grad_w: g[..n].to_vec(),
                grad_b: g[n],
                activation: self.activation,
            })
            .collect()
    }

    /// How many inputs each neuron reads.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// How many neurons (outputs) it has.
    pub fn outputs(&self) -> usize {
        self.parameters.len() / (self.inputs + 1)
    }

    /// The neurons' activation.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// Every neuron's output.
    ///
    /// # Panics
    /// If `x` does not have [`Layer::inputs`] entries.
    pub fn forward(&self, x: &[f64]) -> Vec<f64> {
        self.check_input(x);
        let mut out = vec![0.0; self.outputs()];
        layer_forward(&self.parameters, self.activation, x, &mut [], &mut out);
        out
    }

    /// Backpropagates `d_out` (one entry per neuron) into the gradients and adds ∂loss/∂x into
    /// `d_x` (pass `&mut []` at the first layer).
    ///
    /// # Panics
    /// If `d_out` does not have one entry per neuron, `x` the wrong size, or `d_x` is neither
    /// empty nor as long as `x`.
    pub fn backward(&mut self, x: &[f64], d_out: &[f64], d_x: &mut [f64]) {
        self.check_input(x);
        let outputs = self.outputs();
        assert!(
            d_out.len() == outputs,
            "the layer has {outputs} neurons but d_out has {} entries",
            d_out.len()
        );
        assert!(
            d_x.is_empty() || d_x.len() == x.len(),
            "d_x has {} entries; pass `&mut []` or one per input ({})",
            d_x.len(),
            x.len()
        );
        let mut z = vec![0.0; outputs];
        layer_forward(&self.parameters, self.activation, x, &mut z, &mut []);
        let mut upstream = d_out.to_vec();
        let mut scratch = Vec::new();
        let d_x = if d_x.is_empty() {
            scratch.resize(x.len(), 0.0);
            &mut scratch[..]
        } else {
            d_x
        };
        layer_backward(
            &self.parameters,
            &mut self.grads,
            self.activation,
            x,
            &z,
            &mut upstream,
            d_x,
        );
    }

    /// The parameters and their gradients, without a copy.
    pub fn parameters_mut(&mut self) -> ParametersMut<'_> {
        ParametersMut {
            values: &mut self.parameters,
            grads: &self.grads,
        }
    }

    fn check_input(&self, x: &[f64]) {
        let inputs = self.inputs;
        assert!(
            x.len() == inputs,
            "the layer takes {inputs} inputs but was given {}",
            x.len()
        );
    }
}

impl Module for Layer {
    fn parameters(&self) -> Vec<f64> {
        self.parameters.clone()
    }

    fn grads(&self) -> Vec<f64> {
        self.grads.clone()
    }

    fn set_parameters(&mut self, values: &[f64]) {
        check_count(values.len(), self.parameters.len());
        self.parameters.copy_from_slice(values);
    }

    fn zero_grad(&mut self) {
        self.grads.fill(0.0);
    }

    fn parameter_count(&self) -> usize {
        self.parameters.len()
    }
}

pub(crate) fn check_count(given: usize, expected: usize) {
    assert!(
        given == expected,
        "expected {expected} parameters, got {given}"
    );
}

pub use crate::mlp::{Mlp, ParametersMut};
