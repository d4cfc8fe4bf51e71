//! micrograd's `nn.py`: `Module`, `Neuron`, `Layer`, `Mlp`, on generated gradients.
//!
//! Every gradient is generated code, at the granularity that makes it fast: a `Neuron`'s
//! backward pass is the generated pullback of its `#[differentiable]` forward pass; a `Layer`'s
//! is the generated gradient of the whole layer; `Mlp::train_loss` runs one generated gradient
//! of the whole network and its loss per point (one forward pass, no backward work where the
//! loss passes no gradient). Backpropagation with no run-time graph and no derivative written
//! by hand.
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

use crate::rng::PythonRandom;

mod neurons;
pub use neurons::*;

/// ```
/// use micrograd_runtime::nn::linear_grad;
///
/// let (mut d_w, mut d_x) = ([0.0; 2], [0.0; 2]);
/// let (value, d_b) = linear_grad(&[2.0, -1.0], &mut d_w, 0.5, &[3.0, 4.0], &mut d_x);
/// assert_eq!((value, d_b, d_w, d_x), (2.5, 1.0, [3.0, 4.0], [2.0, -1.0]));
/// ```
pub use neurons::linear_grad;

/// ```
/// use micrograd_runtime::nn::linear_pullback;
///
/// let (mut d_w, mut d_x) = ([0.0; 2], [0.0; 2]);
/// let d_b = linear_pullback(&[2.0, -1.0], &mut d_w, 0.5, &[3.0, 4.0], &mut d_x, 2.0);
/// assert_eq!((d_b, d_w, d_x), (2.0, [6.0, 8.0], [4.0, -2.0])); // 2 · (1, x, w)
/// ```
pub use neurons::linear_pullback;

/// ```
/// use micrograd_runtime::nn::relu_neuron_grad;
///
/// let (mut d_w, mut d_x) = ([0.0; 2], [0.0; 2]);
/// let (value, d_b) = relu_neuron_grad(&[1.0, 1.0], &mut d_w, 0.0, &[2.0, 3.0], &mut d_x);
/// assert_eq!((value, d_b, d_w, d_x), (5.0, 1.0, [2.0, 3.0], [1.0, 1.0]));
/// // Below zero the ReLU passes no gradient.
/// let (value, d_b) = relu_neuron_grad(&[1.0, 1.0], &mut d_w, 0.0, &[2.0, -3.0], &mut d_x);
/// assert_eq!((value, d_b, d_w), (0.0, 0.0, [2.0, 3.0]));
/// ```
pub use neurons::relu_neuron_grad;

/// ```
/// use micrograd_runtime::nn::relu_neuron_pullback;
///
/// let (mut d_w, mut d_x) = ([0.0; 2], [0.0; 2]);
/// let d_b = relu_neuron_pullback(&[1.0, 1.0], &mut d_w, 0.0, &[2.0, 3.0], &mut d_x, 0.5);
/// assert_eq!((d_b, d_w, d_x), (0.5, [1.0, 1.5], [0.5, 0.5]));
/// ```
pub use neurons::relu_neuron_pullback;

/// ```
/// use micrograd_runtime::nn::tanh_neuron_grad;
///
/// let (w, x) = ([-3.0, 1.0], [2.0, 0.0]); // micrograd's lecture neuron
/// let (mut d_w, mut d_x) = ([0.0; 2], [0.0; 2]);
/// let (out, d_b) = tanh_neuron_grad(&w, &mut d_w, 6.881373587019543, &x, &mut d_x);
/// assert!((out - 0.7071).abs() < 1e-4 && (d_b - 0.5).abs() < 1e-12);
/// assert!((d_w[0] - 1.0).abs() < 1e-12 && (d_x[0] + 1.5).abs() < 1e-12); // x₀ d_b, w₀ d_b
/// ```
pub use neurons::tanh_neuron_grad;

/// ```
/// use micrograd_runtime::nn::tanh_neuron_pullback;
///
/// let (mut d_w, mut d_x) = ([0.0; 1], [0.0; 1]);
/// // At a zero weighted sum tanh' = 1, so the seed passes whole.
/// let d_b = tanh_neuron_pullback(&[1.0], &mut d_w, 0.0, &[0.0], &mut d_x, 3.0);
/// assert_eq!((d_b, d_w, d_x), (3.0, [0.0], [3.0]));
/// ```
pub use neurons::tanh_neuron_pullback;

/// ```
/// use micrograd_runtime::nn::sigmoid_neuron_grad;
///
/// let (mut d_w, mut d_x) = ([0.0; 2], [0.0; 2]);
/// let (value, d_b) = sigmoid_neuron_grad(&[1.0, -1.0], &mut d_w, 0.0, &[2.0, 2.0], &mut d_x);
/// assert_eq!((value, d_b, d_w, d_x), (0.5, 0.25, [0.5, 0.5], [0.25, -0.25])); // s (1 - s) = 1/4
/// ```
pub use neurons::sigmoid_neuron_grad;

/// ```
/// use micrograd_runtime::nn::sigmoid_neuron_pullback;
///
/// let (mut d_w, mut d_x) = ([0.0; 2], [0.0; 2]);
/// let d_b = sigmoid_neuron_pullback(&[1.0, -1.0], &mut d_w, 0.0, &[2.0, 2.0], &mut d_x, 4.0);
/// assert_eq!((d_b, d_w, d_x), (1.0, [2.0, 2.0], [1.0, -1.0])); // 4 · s (1 - s) = 1
/// ```
pub use neurons::sigmoid_neuron_pullback;

/// The nonlinearity of a neuron.
///
/// ```
/// use micrograd_runtime::nn::{Activation, Mlp};
///
/// // Hidden layers take the activation given; the output layer is linear.
/// let model = Mlp::new(2, &[4, 1], Activation::Tanh, 7);
/// assert_eq!(model.activation(), Activation::Tanh);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `max(0, x)`, micrograd's default.
    Relu,
    /// `tanh(x)`, as in micrograd's lecture.
    Tanh,
    /// `1 / (1 + e^-x)`, the logistic function.
    Sigmoid,
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
            Activation::Sigmoid => 3,
        }
    }

    /// Its name in saved files: `relu`, `tanh`, `sigmoid`, `linear`.
    ///
    /// ```
    /// use micrograd_runtime::nn::Activation;
    ///
    /// assert_eq!(Activation::Relu.name(), "relu");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Activation::Relu => "relu",
            Activation::Tanh => "tanh",
            Activation::Linear => "linear",
            Activation::Sigmoid => "sigmoid",
        }
    }
}

/// Something with parameters and their gradients, like micrograd's `Module`.
///
/// ```
/// use micrograd_runtime::nn::{Activation, Module, Neuron};
/// use micrograd_runtime::rng::PythonRandom;
///
/// // One step of gradient descent on any module.
/// fn sgd_step(module: &mut impl Module, rate: f64) {
///     let mut p = module.parameters();
///     for (p, g) in p.iter_mut().zip(module.grads()) {
///         *p -= rate * g;
///     }
///     module.set_parameters(&p);
/// }
///
/// let mut neuron = Neuron::new(2, Activation::Linear, &mut PythonRandom::new(1));
/// neuron.backward(&[1.0, 2.0], 1.0, &mut []); // d out / d (w, b) = (x, 1)
/// let before = neuron.b;
/// sgd_step(&mut neuron, 0.5);
/// assert_eq!(neuron.b, before - 0.5);
/// ```
pub trait Module {
    /// The parameters, flattened in a fixed order.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Module, Neuron};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// let neuron = Neuron::new(2, Activation::Relu, &mut PythonRandom::new(1337));
    /// assert_eq!(neuron.parameters(), [neuron.w[0], neuron.w[1], neuron.b]); // weights, then bias
    /// ```
    fn parameters(&self) -> Vec<f64>;
    /// The gradient of each parameter, in the same order.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Module, Neuron};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// let mut neuron = Neuron::new(2, Activation::Linear, &mut PythonRandom::new(1));
    /// neuron.backward(&[3.0, -1.0], 2.0, &mut []);
    /// assert_eq!(neuron.grads(), [6.0, -2.0, 2.0]); // d_out · (x, 1)
    /// ```
    fn grads(&self) -> Vec<f64>;
    /// Replaces the parameters.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Module, Neuron};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// let mut neuron = Neuron::new(2, Activation::Linear, &mut PythonRandom::new(1));
    /// neuron.set_parameters(&[1.0, 2.0, 0.5]);
    /// assert_eq!(neuron.forward(&[1.0, 1.0]), 3.5);
    /// ```
    ///
    /// # Panics
    /// If `values` does not have one entry per parameter.
    fn set_parameters(&mut self, values: &[f64]);
    /// Sets every gradient to zero, before the next backward pass adds into them.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Module, Neuron};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// let mut neuron = Neuron::new(1, Activation::Linear, &mut PythonRandom::new(1));
    /// neuron.backward(&[3.0], 1.0, &mut []);
    /// neuron.zero_grad();
    /// assert_eq!(neuron.grads(), [0.0, 0.0]);
    /// ```
    fn zero_grad(&mut self);
    /// How many parameters there are.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Mlp, Module};
    ///
    /// // (2 + 1) · 16 + (16 + 1) · 16 + (16 + 1) · 1
    /// assert_eq!(Mlp::new(2, &[16, 16, 1], Activation::Relu, 1).parameter_count(), 337);
    /// ```
    fn parameter_count(&self) -> usize {
        self.parameters().len()
    }
}

/// One neuron: weights, a bias, their gradients, and an activation.
///
/// ```
/// use micrograd_runtime::nn::{Activation, Neuron};
///
/// let neuron = Neuron { w: vec![1.0, -1.0], b: 0.5, grad_w: vec![0.0; 2], grad_b: 0.0, activation: Activation::Relu };
/// assert_eq!(neuron.forward(&[2.0, 1.0]), 1.5);
/// ```
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
    /// ```
    /// use micrograd_runtime::nn::{Activation, Module, Neuron};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// let mut neuron = Neuron::new(2, Activation::Tanh, &mut PythonRandom::new(3));
    /// neuron.set_parameters(&[0.5, 0.5, 0.0]);
    /// assert_eq!(neuron.forward(&[1.0, 1.0]), 1.0f64.tanh());
    /// ```
    ///
    /// # Panics
    /// If `x` does not have one entry per weight.
    pub fn forward(&self, x: &[f64]) -> f64 {
        self.check_input(x);
        match self.activation {
            Activation::Relu => relu_neuron(&self.w, self.b, x),
            Activation::Tanh => tanh_neuron(&self.w, self.b, x),
            Activation::Sigmoid => sigmoid_neuron(&self.w, self.b, x),
            Activation::Linear => linear(&self.w, self.b, x),
        }
    }

    /// Given `d_out` = ∂loss/∂output at input `x`, adds ∂loss/∂w and ∂loss/∂b into the
    /// gradients, and ∂loss/∂x into `d_x` (pass `&mut []` at the first layer).
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Module, Neuron};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// let mut neuron = Neuron::new(2, Activation::Linear, &mut PythonRandom::new(3));
    /// neuron.set_parameters(&[2.0, -1.0, 0.0]);
    /// let mut d_x = [0.0; 2];
    /// neuron.backward(&[1.0, 4.0], 0.5, &mut d_x);
    /// assert_eq!((neuron.grad_w.as_slice(), neuron.grad_b), (&[0.5, 2.0][..], 0.5));
    /// assert_eq!(d_x, [1.0, -0.5]); // d_out · w
    /// ```
    ///
    /// # Panics
    /// If `x` does not have one entry per weight, or `d_x` is neither empty nor as long as `x`.
    pub fn backward(&mut self, x: &[f64], d_out: f64, d_x: &mut [f64]) {
        self.check_input(x);
        let (w, grad_w, b) = (&self.w, &mut self.grad_w, self.b);
        self.grad_b += match self.activation {
            Activation::Relu => relu_neuron_pullback(w, grad_w, b, x, d_x, d_out),
            Activation::Tanh => tanh_neuron_pullback(w, grad_w, b, x, d_x, d_out),
            Activation::Sigmoid => sigmoid_neuron_pullback(w, grad_w, b, x, d_x, d_out),
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

/// `Module` for a type that keeps its parameters and gradients in two flat vectors,
/// `parameters` and `grads` (`Layer`, `Mlp`).
macro_rules! flat_module {
    ($type:ty) => {
        impl $crate::nn::Module for $type {
            fn parameters(&self) -> Vec<f64> {
                self.parameters.clone()
            }

            fn grads(&self) -> Vec<f64> {
                self.grads.clone()
            }

            fn set_parameters(&mut self, values: &[f64]) {
                $crate::nn::check_count(values.len(), self.parameters.len());
                self.parameters.copy_from_slice(values);
            }

            fn zero_grad(&mut self) {
                self.grads.fill(0.0);
            }

            fn parameter_count(&self) -> usize {
                self.parameters.len()
            }
        }
    };
}
pub(crate) use flat_module;

pub(crate) fn check_count(given: usize, expected: usize) {
    assert!(
        given == expected,
        "expected {expected} parameters, got {given}"
    );
}

pub use crate::layer::Layer;
pub use crate::mlp::{Mlp, ParametersMut};
