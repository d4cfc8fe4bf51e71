//! The multi-layer perceptron: layers chained over one flat parameter vector.

use crate::dense::{layer_backward, layer_forward};
use crate::loss;
use crate::nn::{Activation, Layer, Module};
use crate::rng::PythonRandom;
use crate::train::Workspace;
use std::fmt;

/// A multi-layer perceptron: hidden layers with one activation, and a linear output layer.
///
/// Its parameters are one vector, layer by layer in [`Module::parameters`] order, so that an
/// optimizer steps them in place ([`Mlp::parameters_mut`]) and the training loss is one
/// generated gradient over whole layers ([`Mlp::train_loss`]).
///
/// A model is its shape and its parameters: that is what `==` compares and what `{:?}` shows
/// (in a line of bounded length, whatever the data it trained on), never its gradients or the
/// buffers a training step keeps.
///
/// ```
/// use micrograd_runtime::nn::{Activation, Mlp, Module};
///
/// let mut model = Mlp::new(2, &[16, 16, 1], Activation::Relu, 1337);
/// assert_eq!(
///     format!("{model:?}"),
///     "Mlp { shape: 2-16-16-1, activations: relu-relu-linear, parameters: 337 }"
/// );
/// let before = model.clone();
/// model.backward(&[0.5, -1.0], &[1.0]); // changes the gradients only
/// assert_eq!(model, before);
/// ```
#[derive(Clone)]
pub struct Mlp {
    pub(crate) layers: Vec<Shape>,
    pub(crate) parameters: Vec<f64>,
    pub(crate) grads: Vec<f64>,
    /// Buffers of the backward and training passes, kept so that a step does not allocate.
    pub(crate) work: Workspace,
}

/// A module's parameters as one mutable slice beside their gradients, in
/// [`Module::parameters`] order: what an optimizer steps, without a copy.
///
/// ```
/// use micrograd_runtime::nn::{Activation, Mlp};
/// use micrograd_runtime::optim::{Optimizer, Sgd};
///
/// let mut model = Mlp::new(2, &[4, 1], Activation::Relu, 1);
/// model.backward(&[0.5, -1.0], &[1.0]);
/// let view = model.parameters_mut();
/// Sgd::new(0.1).step(view.values, view.grads);
/// ```
#[derive(Debug)]
pub struct ParametersMut<'a> {
    /// The parameters, to be updated in place.
    pub values: &'a mut [f64],
    /// Their gradients, as the last backward passes left them.
    pub grads: &'a [f64],
}

/// Where one layer lives in the flat vectors of an [`Mlp`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Shape {
    pub(crate) inputs: usize,
    pub(crate) outputs: usize,
    pub(crate) activation: Activation,
    /// Its first parameter.
    pub(crate) start: usize,
    /// Its input's first entry in a record of activations (the network's input is at 0).
    pub(crate) at: usize,
}

impl Shape {
    pub(crate) fn parameters(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.outputs * (self.inputs + 1)
    }
}

impl PartialEq for Mlp {
    /// Two networks are equal when their layers (inputs, sizes, activations) and parameters
    /// are: the same function. Gradients and buffers are state of a training step, not of the
    /// model, so a model saved and loaded back is equal to the one saved.
    fn eq(&self, other: &Mlp) -> bool {
        (&self.layers, &self.parameters) == (&other.layers, &other.parameters)
    }
}

impl fmt::Debug for Mlp {
    /// `Mlp { shape: 2-16-16-1, activations: relu-relu-linear, parameters: 337 }`; beyond
    /// 8 layers, the first and last 4 and a count of the others, so that the line stays short.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sizes = std::iter::once(self.inputs()).chain(self.layers.iter().map(|l| l.outputs));
        let names = self.layers.iter().map(|l| l.activation.name());
        f.debug_struct("Mlp")
            .field("shape", &Dashed(sizes.collect()))
            .field("activations", &Dashed(names.collect()))
            .field("parameters", &self.parameters.len())
            .finish()
    }
}

/// Layers shown whole in [`Mlp`]'s `Debug`; a deeper network shows its first and last
/// `DEBUG_LAYERS / 2`.
const DEBUG_LAYERS: usize = 8;

/// Items joined by `-`, the middle ones elided past [`DEBUG_LAYERS`] + 1 (the input counts).
struct Dashed<T>(Vec<T>);

impl<T: fmt::Display> fmt::Debug for Dashed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items = &self.0;
        let (head, tail) = if items.len() > DEBUG_LAYERS + 1 {
            (DEBUG_LAYERS / 2, DEBUG_LAYERS / 2)
        } else {
            (items.len(), 0)
        };
        for (i, item) in items[..head].iter().enumerate() {
            let dash = if i == 0 { "" } else { "-" };
            write!(f, "{dash}{item}")?;
        }
        if tail > 0 {
            write!(f, "-..({} more)..", items.len() - head - tail)?;
            for item in &items[items.len() - tail..] {
                write!(f, "-{item}")?;
            }
        }
        Ok(())
    }
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
        Mlp::from_layers(layers)
    }

    /// The network of these layers, input side first.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Layer, Mlp};
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// let mut random = PythonRandom::new(1337);
    /// let hidden = Layer::new(2, 4, Activation::Tanh, &mut random);
    /// let output = Layer::new(4, 1, Activation::Linear, &mut random);
    /// let model = Mlp::from_layers(vec![hidden, output]);
    /// assert_eq!(model, Mlp::new(2, &[4, 1], Activation::Tanh, 1337)); // the same draws
    /// ```
    ///
    /// # Panics
    /// If there are none, or a layer's inputs are not the previous layer's outputs.
    pub fn from_layers(layers: Vec<Layer>) -> Mlp {
        assert!(!layers.is_empty(), "an Mlp needs at least one layer");
        let mut shapes: Vec<Shape> = Vec::with_capacity(layers.len());
        let (mut start, mut at) = (0, 0);
        for layer in &layers {
            if let Some(previous) = shapes.last() {
                assert!(
                    previous.outputs == layer.inputs(),
                    "layer {} takes {} inputs but the layer before has {} outputs",
                    shapes.len(),
                    layer.inputs(),
                    previous.outputs
                );
            }
            let shape = Shape {
                inputs: layer.inputs(),
                outputs: layer.outputs(),
                activation: layer.activation(),
                start,
                at,
            };
            start = shape.parameters().end;
            at += shape.inputs;
            shapes.push(shape);
        }
        Mlp {
            layers: shapes,
            parameters: layers.iter().flat_map(Module::parameters).collect(),
            grads: layers.iter().flat_map(Module::grads).collect(),
            work: Workspace::default(),
        }
    }

    /// The layers, copied out (parameters, gradients, activation).
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Mlp, Module};
    ///
    /// let model = Mlp::new(2, &[4, 1], Activation::Relu, 1);
    /// let layers = model.layers();
    /// assert_eq!((layers[0].activation(), layers[1].activation()), (Activation::Relu, Activation::Linear));
    /// ```
    pub fn layers(&self) -> Vec<Layer> {
        self.layers
            .iter()
            .map(|shape| {
                let range = shape.parameters();
                Layer::from_parts(
                    shape.inputs,
                    shape.activation,
                    self.parameters[range.clone()].to_vec(),
                    self.grads[range].to_vec(),
                )
            })
            .collect()
    }

    /// How many inputs it reads.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Mlp, Module};
    ///
    /// assert_eq!(Mlp::new(3, &[4, 1], Activation::Relu, 1).inputs(), 3);
    /// ```
    pub fn inputs(&self) -> usize {
        self.layers[0].inputs
    }

    /// The layer sizes, output last: `[16, 16, 1]`.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Mlp, Module};
    ///
    /// assert_eq!(Mlp::new(2, &[16, 16, 1], Activation::Relu, 1).sizes(), [16, 16, 1]);
    /// ```
    pub fn sizes(&self) -> Vec<usize> {
        self.layers.iter().map(|l| l.outputs).collect()
    }

    /// The hidden layers' activation (the output layer's is linear).
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Mlp, Module};
    ///
    /// assert_eq!(Mlp::new(2, &[4, 1], Activation::Tanh, 1).activation(), Activation::Tanh);
    /// ```
    pub fn activation(&self) -> Activation {
        if self.layers.len() > 1 {
            self.layers[0].activation
        } else {
            Activation::Linear
        }
    }

    /// The parameters and their gradients, without a copy: what an optimizer steps.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Mlp, Module};
    /// use micrograd_runtime::optim::{Optimizer, Sgd};
    ///
    /// let mut model = Mlp::new(2, &[4, 1], Activation::Relu, 1);
    /// model.backward(&[1.0, 1.0], &[1.0]);
    /// let before = model.parameters();
    /// let view = model.parameters_mut();
    /// Sgd::new(0.1).step(view.values, view.grads);
    /// assert_ne!(model.parameters(), before);
    /// ```
    pub fn parameters_mut(&mut self) -> ParametersMut<'_> {
        ParametersMut {
            values: &mut self.parameters,
            grads: &self.grads,
        }
    }

    /// The network's outputs for input `x`.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Mlp, Module};
    ///
    /// let model = Mlp::new(2, &[4, 3], Activation::Relu, 1);
    /// let out = model.forward(&[0.5, -1.0]);
    /// let hidden = model.layers()[0].forward(&[0.5, -1.0]);
    /// assert_eq!(out, model.layers()[1].forward(&hidden));
    /// ```
    ///
    /// # Panics
    /// If `x` does not have [`Mlp::inputs`] entries.
    pub fn forward(&self, x: &[f64]) -> Vec<f64> {
        self.check_input(x);
        let mut activations = x.to_vec();
        for shape in &self.layers {
            let mut out = vec![0.0; shape.outputs];
            let w = &self.parameters[shape.parameters()];
            layer_forward(w, shape.activation, &activations, &mut [], &mut out);
            activations = out;
        }
        activations
    }

    /// Given `d_out` = ∂loss/∂outputs at input `x`, adds ∂loss/∂parameters into the gradients.
    ///
    /// ```
    /// use micrograd_runtime::gradcheck::check_gradient;
    /// use micrograd_runtime::nn::{Activation, Mlp, Module};
    ///
    /// let mut model = Mlp::new(2, &[3, 1], Activation::Tanh, 4);
    /// model.backward(&[0.5, -1.0], &[1.0]);
    /// let score = |p: &[f64]| {
    ///     let mut m = model.clone();
    ///     m.set_parameters(p);
    ///     m.forward(&[0.5, -1.0])[0]
    /// };
    /// let check = check_gradient(score, &model.parameters(), &model.grads());
    /// assert!(check.relative_error < 1e-6, "{check}");
    /// ```
    ///
    /// # Panics
    /// If `x` or `d_out` has the wrong size.
    pub fn backward(&mut self, x: &[f64], d_out: &[f64]) {
        self.check_input(x);
        let outputs = self.layers[self.layers.len() - 1].outputs;
        assert!(
            d_out.len() == outputs,
            "the network has {outputs} outputs but d_out has {} entries",
            d_out.len()
        );
        let mut work = std::mem::take(&mut self.work);
        let record = work.record(self);
        self.record(x, record);
        backpropagate(
            &self.layers,
            &self.parameters,
            &mut self.grads,
            record,
            d_out,
        );
        self.work = work;
    }

    /// `alpha · Σ p²` over every weight and bias; adds its gradient into the gradients.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Mlp, Module};
    ///
    /// let mut model = Mlp::new(2, &[2, 1], Activation::Relu, 1);
    /// let p = model.parameters();
    /// let penalty = model.regularize(0.5);
    /// assert!((penalty - 0.5 * p.iter().map(|p| p * p).sum::<f64>()).abs() < 1e-15);
    /// assert_eq!(model.grads(), p.iter().map(|p| 2.0 * 0.5 * p).collect::<Vec<_>>());
    /// ```
    pub fn regularize(&mut self, alpha: f64) -> f64 {
        loss::sum_of_squares_pullback(&self.parameters, &mut self.grads, alpha);
        alpha * loss::sum_of_squares(&self.parameters)
    }

    /// The forward pass at `x`, every layer's pre-activations and outputs kept in `record`;
    /// returns the network's outputs.
    pub(crate) fn record<'r>(&self, x: &[f64], record: &'r mut Record) -> &'r [f64] {
        record.values[..x.len()].copy_from_slice(x);
        for shape in &self.layers {
            let (inputs, outputs) = record.values.split_at_mut(shape.at + shape.inputs);
            let out = shape.at + shape.inputs..shape.at + shape.inputs + shape.outputs;
            layer_forward(
                &self.parameters[shape.parameters()],
                shape.activation,
                &inputs[shape.at..],
                &mut record.pre[out],
                &mut outputs[..shape.outputs],
            );
        }
        let last = self.layers[self.layers.len() - 1];
        &record.values[last.at + last.inputs..]
    }

    pub(crate) fn check_input(&self, x: &[f64]) {
        let inputs = self.inputs();
        assert!(
            x.len() == inputs,
            "the network takes {inputs} inputs but was given {}",
            x.len()
        );
    }
}

/// One point's forward record: the input and every layer's outputs (`values`), the
/// pre-activations (`pre`), and the gradient of each value (`d`), all laid out as [`Shape::at`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Record {
    pub(crate) values: Vec<f64>,
    pub(crate) pre: Vec<f64>,
    pub(crate) d: Vec<f64>,
}

/// The backward pass of [`Mlp::record`]'s record: adds `d_out`'s pullback into `grads`.
pub(crate) fn backpropagate(
    layers: &[Shape],
    parameters: &[f64],
    grads: &mut [f64],
    record: &mut Record,
    d_out: &[f64],
) {
    let last = layers[layers.len() - 1];
    let out = last.at + last.inputs;
    record.d[out..out + d_out.len()].copy_from_slice(d_out);
    for shape in layers.iter().rev() {
        let (before, after) = record.d.split_at_mut(shape.at + shape.inputs);
        // The network's input needs no gradient: the first layer computes none.
        let d_x: &mut [f64] = if shape.at == 0 {
            &mut []
        } else {
            &mut before[shape.at..]
        };
        d_x.fill(0.0);
        let range = shape.parameters();
        let out = shape.at + shape.inputs..shape.at + shape.inputs + shape.outputs;
        layer_backward(
            &parameters[range.clone()],
            &mut grads[range],
            shape.activation,
            &record.values[shape.at..shape.at + shape.inputs],
            (&record.pre[out.clone()], &record.values[out]),
            &mut after[..shape.outputs],
            d_x,
        );
    }
}

crate::nn::flat_module!(Mlp);
