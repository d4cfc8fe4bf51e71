//! The multi-layer perceptron: layers chained, and micrograd's training loss.

use crate::loss::{self, Loss};
use crate::nn::{Activation, Layer, Module};
use crate::rng::PythonRandom;

/// A multi-layer perceptron: hidden layers with one activation, and a linear output layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    /// The layers, input side first.
    pub layers: Vec<Layer>,
}

impl Mlp {
    /// `Mlp::new(2, &[16, 16, 1], Activation::Relu, seed)` is micrograd's `MLP(2, [16, 16, 1])`
    /// after `random.seed(seed)`: the same weights, drawn with CPython's generator
    /// ([`PythonRandom`]) in micrograd's order (layer by layer, neuron by neuron), biases 0.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Mlp, Module};
    ///
    /// // micrograd: random.seed(1337); MLP(2, [16, 16, 1]).parameters()[:3]
    /// let model = Mlp::new(2, &[16, 16, 1], Activation::Relu, 1337);
    /// assert_eq!(model.parameters()[..3], [0.23550571390294128, 0.06653114721000164, 0.0]);
    /// ```
    ///
    /// # Panics
    /// If `inputs` is 0 or `sizes` is empty or holds a 0.
    pub fn new(inputs: usize, sizes: &[usize], hidden: Activation, seed: u64) -> Mlp {
        assert!(
            inputs > 0 && !sizes.is_empty() && !sizes.contains(&0),
            "an Mlp needs inputs and non-empty layers, got {inputs} inputs and layers {sizes:?}"
        );
        let mut random = PythonRandom::new(seed);
        let mut layers = Vec::new();
        let mut fan_in = inputs;
        for (i, &size) in sizes.iter().enumerate() {
            let activation = if i + 1 == sizes.len() {
                Activation::Linear
            } else {
                hidden
            };
            layers.push(Layer::new(fan_in, size, activation, &mut random));
            fan_in = size;
        }
        Mlp { layers }
    }

    /// How many inputs it reads.
    pub fn inputs(&self) -> usize {
        self.layers.first().map_or(0, Layer::inputs)
    }

    /// The layer sizes, output last: `[16, 16, 1]`.
    pub fn sizes(&self) -> Vec<usize> {
        self.layers.iter().map(|l| l.neurons.len()).collect()
    }

    /// The hidden layers' activation (the output layer's is linear).
    pub fn activation(&self) -> Activation {
        let first = self.layers.first().and_then(|l| l.neurons.first());
        if self.layers.len() > 1 {
            first.map_or(Activation::Linear, |n| n.activation)
        } else {
            Activation::Linear
        }
    }

    /// The network's outputs for input `x`.
    ///
    /// # Panics
    /// If `x` does not have [`Mlp::inputs`] entries.
    pub fn forward(&self, x: &[f64]) -> Vec<f64> {
        self.check_input(x);
        let mut activations = x.to_vec();
        for layer in &self.layers {
            activations = layer.forward(&activations);
        }
        activations
    }

    /// Given `d_out` = ∂loss/∂outputs at input `x`, adds ∂loss/∂parameters into the gradients.
    ///
    /// # Panics
    /// If `x` or `d_out` has the wrong size.
    pub fn backward(&mut self, x: &[f64], d_out: &[f64]) {
        self.check_input(x);
        let outputs = self.sizes().last().copied().unwrap_or(0);
        assert!(
            d_out.len() == outputs,
            "the network has {outputs} outputs but d_out has {} entries",
            d_out.len()
        );
        let mut inputs = vec![x.to_vec()];
        for layer in &self.layers[..self.layers.len() - 1] {
            let next = layer.forward(inputs.last().map_or(&[][..], Vec::as_slice));
            inputs.push(next);
        }
        let mut d = d_out.to_vec();
        for (i, layer) in self.layers.iter_mut().enumerate().rev() {
            let mut d_x = if i == 0 {
                Vec::new()
            } else {
                vec![0.0; inputs[i].len()]
            };
            layer.backward(&inputs[i], &d, &mut d_x);
            d = d_x;
        }
    }

    /// micrograd's training loss: the mean of `loss(score, label)` over the data plus
    /// `alpha · Σ p²` over the parameters. Adds its gradient into the gradients (call
    /// [`Module::zero_grad`] first) and returns the loss and the scores.
    ///
    /// # Panics
    /// If the network has more than one output, a point has the wrong size, the counts of
    /// points and labels differ, or a label does not suit `loss`.
    pub fn train_loss<X: AsRef<[f64]>>(
        &mut self,
        points: &[X],
        labels: &[f64],
        loss: Loss,
        alpha: f64,
    ) -> (f64, Vec<f64>) {
        assert!(
            self.sizes().last() == Some(&1),
            "train_loss needs one output, the network has {:?}",
            self.sizes()
        );
        assert!(
            points.len() == labels.len(),
            "{} points but {} labels",
            points.len(),
            labels.len()
        );
        assert!(!points.is_empty(), "train_loss needs at least one point");
        loss.check_labels(labels);
        let scale = 1.0 / points.len() as f64;
        let mut total = 0.0;
        let mut scores = Vec::with_capacity(points.len());
        for (x, label) in points.iter().zip(labels) {
            let score = self.forward(x.as_ref())[0];
            let (value, d_score) = loss.grad(score, *label);
            self.backward(x.as_ref(), &[d_score * scale]);
            total += value;
            scores.push(score);
        }
        (total * scale + self.regularize(alpha), scores)
    }

    /// `alpha · Σ p²` over every weight and bias; adds its gradient into the gradients.
    pub fn regularize(&mut self, alpha: f64) -> f64 {
        let mut sum = 0.0;
        for neuron in self.layers.iter_mut().flat_map(|l| l.neurons.iter_mut()) {
            sum += loss::sum_of_squares(&neuron.w) + neuron.b * neuron.b;
            loss::sum_of_squares_pullback(&neuron.w, &mut neuron.grad_w, alpha);
            let mut d_b = [0.0];
            loss::sum_of_squares_pullback(&[neuron.b], &mut d_b, alpha);
            neuron.grad_b += d_b[0];
        }
        alpha * sum
    }

    fn check_input(&self, x: &[f64]) {
        let inputs = self.inputs();
        assert!(
            x.len() == inputs,
            "the network takes {inputs} inputs but was given {}",
            x.len()
        );
    }
}

impl Module for Mlp {
    fn parameters(&self) -> Vec<f64> {
        self.layers.iter().flat_map(Layer::parameters).collect()
    }

    fn grads(&self) -> Vec<f64> {
        self.layers.iter().flat_map(Layer::grads).collect()
    }

    fn set_parameters(&mut self, values: &[f64]) {
        let expected = self.parameter_count();
        assert!(
            values.len() == expected,
            "expected {expected} parameters, got {}",
            values.len()
        );
        let mut rest = values;
        for layer in &mut self.layers {
            let (mine, others) = rest.split_at(layer.parameter_count());
            layer.set_parameters(mine);
            rest = others;
        }
    }

    fn zero_grad(&mut self) {
        self.layers.iter_mut().for_each(Layer::zero_grad);
    }

    fn parameter_count(&self) -> usize {
        self.layers.iter().map(Module::parameter_count).sum()
    }
}
