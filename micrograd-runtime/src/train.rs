//! micrograd's training loss over a data set: blocks of points, on every core.
//!
//! The points are cut into blocks of [`BLOCK`]; each block's loss and gradient are summed from
//! zero into a buffer of their own, and the blocks are then added into the network's gradients
//! in index order. What runs on which thread never changes a sum, so the result is the same bit
//! for bit on one thread or many (with the `parallel` feature, blocks run on rayon's pool).

use crate::dense::{WIDTH, relu1_loss_grad, relu2_loss_grad};
use crate::loss::Loss;
use crate::mlp::{Mlp, Record, Shape, backpropagate};
use crate::nn::Activation;

/// Points per block: enough to pay for a block's reduction (one pass over the gradients), few
/// enough that 10⁵ points make work for every core.
pub(crate) const BLOCK: usize = 256;
/// Blocks in flight at once, whatever the number of threads, so that the buffers stay small.
const WAVE: usize = 16;

/// The buffers an [`Mlp`] keeps between steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct Workspace {
    slots: Vec<Slot>,
    /// The parameters in the fused path's padded layout ([`padded_positions`]).
    padded: Vec<f64>,
    /// Where each parameter lives in `padded`.
    positions: Vec<usize>,
    /// The layers `positions` was made for.
    layout: Vec<Shape>,
}

/// One block's gradient, loss and forward record.
#[derive(Clone, Debug, Default)]
struct Slot {
    grads: Vec<f64>,
    loss: f64,
    record: Record,
}

impl Workspace {
    /// The record of slot 0, sized for `model`.
    pub(crate) fn record(&mut self, model: &Mlp) -> &mut Record {
        self.size(model, 1);
        &mut self.slots[0].record
    }

    fn size(&mut self, model: &Mlp, slots: usize) {
        self.size_slots(model, slots, model.parameters.len());
    }

    /// Sizes `slots` slots with gradients of `grads` entries.
    fn size_slots(&mut self, model: &Mlp, slots: usize, grads: usize) {
        if self.slots.len() < slots {
            self.slots.resize_with(slots, Slot::default);
        }
        let last = model.layers[model.layers.len() - 1];
        let values = last.at + last.inputs + last.outputs;
        for slot in &mut self.slots[..slots] {
            slot.grads.resize(grads, 0.0);
            slot.record.values.resize(values, 0.0);
            slot.record.pre.resize(values, 0.0);
            slot.record.d.resize(values, 0.0);
        }
    }

    /// Lays the parameters out for `path`: padded for the fused paths, as they are otherwise.
    fn prepare(&mut self, model: &Mlp, path: Path, slots: usize) {
        if path == Path::Layers {
            self.size_slots(model, slots, model.parameters.len());
            return;
        }
        if self.layout != model.layers {
            self.positions.clear();
            let len = padded_positions(&model.layers, &mut self.positions);
            self.padded.clear();
            self.padded.resize(len, 0.0);
            self.layout.clone_from(&model.layers);
        }
        for (&at, &p) in self.positions.iter().zip(&model.parameters) {
            self.padded[at] = p;
        }
        self.size_slots(model, slots, self.padded.len());
    }
}

/// Where each parameter of `layers` lives in the layout of `dense::relu1_loss` and
/// `dense::relu2_loss`; returns the layout's length. Every hidden layer is padded with zeros to
/// [`WIDTH`] neurons (and the layers after the first to [`WIDTH`] inputs); the first is stored
/// input by input (biases, then each input's weights); the others neuron by neuron, bias last.
fn padded_positions(layers: &[Shape], positions: &mut Vec<usize>) -> usize {
    let mut start = 0;
    for (l, shape) in layers.iter().enumerate() {
        let inputs = if l == 0 { shape.inputs } else { WIDTH };
        let outputs = if l + 1 == layers.len() { 1 } else { WIDTH };
        for k in 0..shape.outputs {
            for j in 0..=shape.inputs {
                positions.push(match (l, j == shape.inputs) {
                    (0, true) => k,
                    (0, false) => WIDTH * (j + 1) + k,
                    (_, true) => start + k * (inputs + 1) + inputs,
                    (_, false) => start + k * (inputs + 1) + j,
                });
            }
        }
        start += outputs * (inputs + 1);
    }
    start
}

impl Mlp {
    /// micrograd's training loss: the mean of `loss(score, label)` over the data plus
    /// `alpha · Σ p²` over the parameters. Adds its gradient into the gradients (call
    /// [`Module::zero_grad`](crate::nn::Module::zero_grad) first) and returns the loss and the
    /// scores.
    ///
    /// # Panics
    /// If the network has more than one output, a point has the wrong size, the counts of
    /// points and labels differ, or a label does not suit `loss`.
    pub fn train_loss<X: AsRef<[f64]> + Sync>(
        &mut self,
        points: &[X],
        labels: &[f64],
        loss: Loss,
        alpha: f64,
    ) -> (f64, Vec<f64>) {
        let mut scores = vec![0.0; points.len()];
        let value = self.train_loss_into(points, labels, loss, alpha, &mut scores);
        (value, scores)
    }

    /// [`Mlp::train_loss`] writing the scores into `scores`, so that a training loop allocates
    /// nothing once the network has run one step.
    ///
    /// # Panics
    /// As [`Mlp::train_loss`], and if `scores` does not have one entry per point.
    pub fn train_loss_into<X: AsRef<[f64]> + Sync>(
        &mut self,
        points: &[X],
        labels: &[f64],
        loss: Loss,
        alpha: f64,
        scores: &mut [f64],
    ) -> f64 {
        self.check_batch(points, labels, loss, scores);
        let scale = 1.0 / points.len() as f64;
        let path = self.path();
        let mut work = std::mem::take(&mut self.work);
        work.prepare(self, path, points.len().div_ceil(BLOCK).min(WAVE));
        let Workspace {
            slots,
            padded,
            positions,
            ..
        } = &mut work;
        let mut total = 0.0;
        let wave = BLOCK * WAVE;
        let waves = points.chunks(wave).zip(labels.chunks(wave));
        for ((xs, ys), ss) in waves.zip(scores.chunks_mut(wave)) {
            let slots = &mut slots[..xs.len().div_ceil(BLOCK)];
            let batch = Batch {
                path,
                padded,
                loss,
                scale,
            };
            self.run_blocks(&batch, slots, xs, ys, ss);
            for slot in slots.iter() {
                total += slot.loss;
                if path == Path::Layers {
                    self.grads
                        .iter_mut()
                        .zip(&slot.grads)
                        .for_each(|(g, b)| *g += b);
                } else {
                    let padded = positions.iter().map(|&at| slot.grads[at]);
                    self.grads.iter_mut().zip(padded).for_each(|(g, b)| *g += b);
                }
            }
        }
        self.work = work;
        total + self.regularize(alpha)
    }

    /// Each slot's block: its loss and gradient, from zero, and its scores.
    fn run_blocks<X: AsRef<[f64]> + Sync>(
        &self,
        batch: &Batch<'_>,
        slots: &mut [Slot],
        points: &[X],
        labels: &[f64],
        scores: &mut [f64],
    ) {
        #[cfg(feature = "parallel")]
        if slots.len() > 1 {
            use rayon::prelude::*;
            let blocks = slots
                .par_iter_mut()
                .zip(points.par_chunks(BLOCK).zip(labels.par_chunks(BLOCK)))
                .zip(scores.par_chunks_mut(BLOCK));
            return blocks
                .for_each(|((slot, (xs, ys)), ss)| self.run_block(batch, slot, xs, ys, ss));
        }
        let blocks = slots
            .iter_mut()
            .zip(points.chunks(BLOCK).zip(labels.chunks(BLOCK)))
            .zip(scores.chunks_mut(BLOCK));
        blocks.for_each(|((slot, (xs, ys)), ss)| self.run_block(batch, slot, xs, ys, ss));
    }

    /// One block's loss and gradient, from zero, and its scores.
    fn run_block<X: AsRef<[f64]>>(
        &self,
        batch: &Batch<'_>,
        slot: &mut Slot,
        points: &[X],
        labels: &[f64],
        scores: &mut [f64],
    ) {
        slot.grads.fill(0.0);
        slot.loss = 0.0;
        for ((x, &label), score) in points.iter().zip(labels).zip(scores) {
            let (value, s) = match batch.path {
                Path::Relu1 => batch.relu1(&mut slot.grads, x.as_ref(), label),
                Path::Relu2 => batch.relu2(&mut slot.grads, x.as_ref(), label),
                Path::Layers => self.layers_point(batch, slot, x.as_ref(), label),
            };
            slot.loss += value;
            *score = s;
        }
    }

    /// Which generated gradient serves this network.
    fn path(&self) -> Path {
        let (hidden, output) = self.layers.split_at(self.layers.len() - 1);
        let fused = output[0].activation == Activation::Linear
            && hidden
                .iter()
                .all(|l| l.activation == Activation::Relu && l.outputs <= WIDTH);
        match hidden.len() {
            1 if fused => Path::Relu1,
            2 if fused => Path::Relu2,
            _ => Path::Layers,
        }
    }

    /// One point layer by layer: the forward record, then the backward pass unless the loss
    /// passes no gradient.
    fn layers_point(&self, batch: &Batch<'_>, slot: &mut Slot, x: &[f64], y: f64) -> (f64, f64) {
        let (loss, scale) = (batch.loss, batch.scale);
        let score = self.record(x, &mut slot.record)[0];
        let (value, d_score) = loss.grad(score, y);
        if d_score != 0.0 {
            let layers: &[Shape] = &self.layers;
            backpropagate(
                layers,
                &self.parameters,
                &mut slot.grads,
                &mut slot.record,
                &[d_score * scale],
            );
        }
        (scale * value, score)
    }

    fn check_batch<X: AsRef<[f64]>>(
        &self,
        points: &[X],
        labels: &[f64],
        loss: Loss,
        scores: &[f64],
    ) {
        assert!(
            self.layers[self.layers.len() - 1].outputs == 1,
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
        assert!(
            scores.len() == points.len(),
            "{} points but room for {} scores",
            points.len(),
            scores.len()
        );
        for x in points {
            self.check_input(x.as_ref());
        }
        loss.check_labels(labels);
    }
}

/// The generated gradient a network's training loss runs through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    /// One ReLU hidden layer of at most [`WIDTH`] neurons, linear output: `relu1_loss`.
    Relu1,
    /// Two such layers: `relu2_loss`, micrograd's demo network.
    Relu2,
    /// Any other network: layer by layer, `dense` and `activate`.
    Layers,
}

/// What every block of one call needs to know.
struct Batch<'a> {
    path: Path,
    /// The parameters laid out for `path`.
    padded: &'a [f64],
    loss: Loss,
    /// `1 / points`: the mean's factor.
    scale: f64,
}

impl Batch<'_> {
    /// One point through [`relu1_loss_grad`] on the padded parameters: (scaled loss, score).
    fn relu1(&self, d_p: &mut [f64], x: &[f64], y: f64) -> (f64, f64) {
        let (w1, w2) = self.padded.split_at(WIDTH * (x.len() + 1));
        let (d_w1, d_w2) = d_p.split_at_mut(WIDTH * (x.len() + 1));
        let (w2, d_w2) = (fixed(w2), fixed_mut(d_w2));
        relu1_loss_grad(w1, d_w1, w2, d_w2, x, y, self.loss.code(), self.scale, 0.0)
    }

    /// One point through [`relu2_loss_grad`] on the padded parameters: (scaled loss, score).
    fn relu2(&self, d_p: &mut [f64], x: &[f64], y: f64) -> (f64, f64) {
        let (w1, rest) = self.padded.split_at(WIDTH * (x.len() + 1));
        let (d_w1, d_rest) = d_p.split_at_mut(WIDTH * (x.len() + 1));
        let (w2, w3) = rest.split_at(WIDTH * (WIDTH + 1));
        let (d_w2, d_w3) = d_rest.split_at_mut(WIDTH * (WIDTH + 1));
        let (w2, w3, d_w2, d_w3) = (fixed(w2), fixed(w3), fixed_mut(d_w2), fixed_mut(d_w3));
        let (loss, scale) = (self.loss.code(), self.scale);
        relu2_loss_grad(w1, d_w1, w2, d_w2, w3, d_w3, x, y, loss, scale, 0.0)
    }
}

fn fixed<const N: usize>(w: &[f64]) -> &[f64; N] {
    w.try_into()
        .expect("internal error: a padded layer has its fixed size")
}

fn fixed_mut<const N: usize>(w: &mut [f64]) -> &mut [f64; N] {
    w.try_into()
        .expect("internal error: a padded layer has its fixed size")
}
