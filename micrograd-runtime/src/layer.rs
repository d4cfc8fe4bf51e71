//! `Layer`: neurons side by side, their parameters in one slice, one generated gradient.

use crate::dense::{layer_backward, layer_forward};
use crate::mlp::ParametersMut;
use crate::nn::{Activation, Module, Neuron};
use crate::rng::PythonRandom;

/// Neurons side by side, all reading the same input, with their parameters in one slice.
///
/// Neuron `k` of a layer with `n` inputs owns `parameters[k * (n + 1)..(k + 1) * (n + 1)]`:
/// its weights, then its bias. The backward pass of the whole layer is one generated gradient
/// (of `Σₖ upstreamₖ · (bₖ + Σⱼ wₖⱼ xⱼ)`), not one call per neuron.
///
/// ```
/// use micrograd_runtime::nn::{Activation, Layer, Module};
/// use micrograd_runtime::rng::PythonRandom;
///
/// let mut layer = Layer::new(2, 3, Activation::Relu, &mut PythonRandom::new(1337));
/// assert_eq!((layer.inputs(), layer.outputs(), layer.parameter_count()), (2, 3, 9));
/// layer.set_parameters(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, -5.0]);
/// assert_eq!(layer.forward(&[2.0, 3.0]), [2.0, 3.0, 0.0]); // relu(5 - 5) = 0
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    inputs: usize,
    activation: Activation,
    parameters: Vec<f64>,
    grads: Vec<f64>,
}

impl Layer {
    /// `outputs` neurons of `inputs` weights each, drawn one neuron after the other.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Layer, Module};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// // micrograd: random.seed(1337); Layer(2, 3)
    /// let layer = Layer::new(2, 3, Activation::Relu, &mut PythonRandom::new(1337));
    /// assert_eq!(layer.parameters()[..2], [0.23550571390294128, 0.06653114721000164]);
    /// ```
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
    /// ```
    /// use micrograd_runtime::nn::{Activation, Layer, Neuron};
    ///
    /// let neuron = |w: Vec<f64>| Neuron { grad_w: vec![0.0; w.len()], w, b: 0.0, grad_b: 0.0, activation: Activation::Linear };
    /// let layer = Layer::from_neurons(vec![neuron(vec![1.0, 2.0]), neuron(vec![-1.0, 0.5])]);
    /// assert_eq!(layer.forward(&[1.0, 2.0]), [5.0, 0.0]);
    /// ```
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
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Layer, Module};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// let layer = Layer::new(3, 2, Activation::Tanh, &mut PythonRandom::new(1));
    /// let neurons = layer.neurons();
    /// assert_eq!(neurons.len(), 2);
    /// assert_eq!(neurons[1].parameters(), layer.parameters()[4..]);
    /// ```
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
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Layer, Module};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// assert_eq!(Layer::new(3, 2, Activation::Relu, &mut PythonRandom::new(1)).inputs(), 3);
    /// ```
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// How many neurons (outputs) it has.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Layer, Module};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// assert_eq!(Layer::new(3, 2, Activation::Relu, &mut PythonRandom::new(1)).outputs(), 2);
    /// ```
    pub fn outputs(&self) -> usize {
        self.parameters.len() / (self.inputs + 1)
    }

    /// The neurons' activation.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Layer, Module};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// let layer = Layer::new(3, 2, Activation::Tanh, &mut PythonRandom::new(1));
    /// assert_eq!(layer.activation(), Activation::Tanh);
    /// ```
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// Every neuron's output.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Layer, Module};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// let layer = Layer::new(2, 2, Activation::Tanh, &mut PythonRandom::new(5));
    /// let out = layer.forward(&[0.5, -0.5]);
    /// assert_eq!(out, layer.neurons().iter().map(|n| n.forward(&[0.5, -0.5])).collect::<Vec<_>>());
    /// ```
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
    /// ```
    /// use micrograd_runtime::nn::{Activation, Layer, Module};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// let mut layer = Layer::new(2, 2, Activation::Linear, &mut PythonRandom::new(5));
    /// layer.set_parameters(&[1.0, 2.0, 0.0, 3.0, 4.0, 0.0]);
    /// let mut d_x = [0.0; 2];
    /// layer.backward(&[1.0, -1.0], &[1.0, 0.5], &mut d_x);
    /// assert_eq!(d_x, [1.0 + 0.5 * 3.0, 2.0 + 0.5 * 4.0]); // Σₖ d_outₖ · wₖ
    /// assert_eq!(layer.grads(), [1.0, -1.0, 1.0, 0.5, -0.5, 0.5]); // d_outₖ · (x, 1)
    /// ```
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
        let (mut z, mut y) = (vec![0.0; outputs], vec![0.0; outputs]);
        layer_forward(&self.parameters, self.activation, x, &mut z, &mut y);
        let mut upstream = d_out.to_vec();
        layer_backward(
            &self.parameters,
            &mut self.grads,
            self.activation,
            x,
            (&z, &y),
            &mut upstream,
            d_x,
        );
    }

    /// The parameters and their gradients, without a copy.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Layer, Module};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// let mut layer = Layer::new(2, 1, Activation::Linear, &mut PythonRandom::new(5));
    /// layer.backward(&[1.0, 2.0], &[1.0], &mut []);
    /// let view = layer.parameters_mut();
    /// for (p, g) in view.values.iter_mut().zip(view.grads) {
    ///     *p -= 0.1 * g;
    /// }
    /// ```
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

crate::nn::flat_module!(Layer);
