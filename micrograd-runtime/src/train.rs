//! micrograd's training loss over a data set: blocks of points, on every core.
//!
//! The points are cut into blocks of [`BLOCK`]; each block's loss and gradient are summed from
//! zero into a buffer of their own, and the blocks are then added into the network's gradients
//! in index order. What runs on which thread never changes a sum, so the result is the same bit
//! for bit on one thread or many (with the `parallel` feature, blocks run on rayon's pool).

use crate::dense::{MAX_INPUTS, WIDTH};
use crate::loss::Loss;
use crate::mlp::{Mlp, Record, Shape, backpropagate};
use crate::nn::Activation;
use crate::padded::{Batch, padded_positions};
use crate::tiled::{Tile, fits, record_len, tiled_point, tiled_positions, tiles};

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
    /// Their tiles, on the tiled path.
    tiles: Vec<Tile>,
    /// The blocks' gradients, added in index order (in the slots' layout); empty when there
    /// is one block.
    sum: Vec<f64>,
}

/// One block's gradient, loss and forward record.
#[derive(Clone, Debug, Default)]
struct Slot {
    grads: Vec<f64>,
    /// The block's points, one after another, for the fused paths.
    flat: Vec<f64>,
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
        let last = model.layers[model.layers.len() - 1];
        let values = last.at + last.inputs + last.outputs;
        self.size_slots(slots, model.parameters.len(), values);
    }

    /// Sizes `slots` slots with gradients of `grads` entries and records of `values`.
    fn size_slots(&mut self, slots: usize, grads: usize, values: usize) {
        if self.slots.len() < slots {
            self.slots.resize_with(slots, Slot::default);
        }
        for slot in &mut self.slots[..slots] {
            slot.grads.resize(grads, 0.0);
            slot.record.values.resize(values, 0.0);
            slot.record.pre.resize(values, 0.0);
            slot.record.d.resize(values, 0.0);
        }
    }

    /// Lays the parameters out for `path`: padded for the fused and tiled paths, as they are
    /// otherwise.
    fn prepare(&mut self, model: &Mlp, path: Path, slots: usize) {
        if self.layout != model.layers {
            self.positions.clear();
            self.tiles.clear();
            let len = match path {
                Path::Layers => {
                    self.positions.extend(0..model.parameters.len());
                    model.parameters.len()
                }
                Path::Tiled => {
                    self.tiles = tiles(&model.layers);
                    tiled_positions(&model.layers, &self.tiles, &mut self.positions)
                }
                Path::Relu1 | Path::Relu2 => padded_positions(&model.layers, &mut self.positions),
            };
            self.padded.clear();
            self.padded.resize(len, 0.0);
            self.layout.clone_from(&model.layers);
        }
        if path != Path::Layers {
            for (&at, &p) in self.positions.iter().zip(&model.parameters) {
                self.padded[at] = p;
            }
        }
        self.sum.clear();
        if slots > 1 {
            self.sum.resize(self.padded.len(), 0.0);
        }
        let values = if path == Path::Tiled {
            record_len(&self.tiles)
        } else {
            let last = model.layers[model.layers.len() - 1];
            last.at + last.inputs + last.outputs
        };
        self.size_slots(slots, self.padded.len(), values);
    }
}

impl Mlp {
    /// micrograd's training loss: the mean of `loss(score, label)` over the data plus
    /// `alpha · Σ p²` over the parameters. Adds its gradient into the gradients (call
    /// [`Module::zero_grad`](crate::nn::Module::zero_grad) first) and returns the loss and the
    /// scores.
    ///
    /// Every network runs one forward pass per point, the backward pass right after it where
    /// the loss passes a gradient, and allocates nothing once [`Mlp::train_loss_into`] has run
    /// once. The gradients are generated code over fixed-size arrays: micrograd's demo shape
    /// (one or two ReLU hidden layers at most 16 wide, at most 8 inputs) as one function of the
    /// whole network; any other network whose layers and inputs are at most 128 wide layer by
    /// layer, each padded to a power of two (unless that would more than double its parameters);
    /// wider ones layer by layer over slices, slower per parameter.
    ///
    /// ```
    /// use micrograd_runtime::data::make_moons;
    /// use micrograd_runtime::loss::Loss;
    /// use micrograd_runtime::nn::{Activation, Mlp, Module};
    ///
    /// let moons = make_moons(20, 0.1, 1);
    /// let mut model = Mlp::new(2, &[8, 1], Activation::Relu, 2);
    /// model.zero_grad();
    /// let (loss, scores) = model.train_loss(&moons.points, &moons.labels, Loss::Hinge, 1e-4);
    /// assert_eq!(scores.len(), 20);
    /// assert_eq!(scores[3], model.forward(&moons.points[3])[0]);
    /// assert!(loss > 0.0 && model.grads().iter().any(|g| *g != 0.0));
    /// ```
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
    /// ```
    /// use micrograd_runtime::data::make_moons;
    /// use micrograd_runtime::loss::Loss;
    /// use micrograd_runtime::nn::{Activation, Mlp};
    ///
    /// let moons = make_moons(20, 0.1, 1);
    /// let mut model = Mlp::new(2, &[8, 1], Activation::Relu, 2);
    /// let mut scores = vec![0.0; 20];
    /// let loss = model.train_loss_into(&moons.points, &moons.labels, Loss::Hinge, 0.0, &mut scores);
    /// assert_eq!((loss, scores), model.clone().train_loss(&moons.points, &moons.labels, Loss::Hinge, 0.0));
    /// ```
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
        self.check_batch(points, labels, scores);
        let scale = 1.0 / points.len() as f64;
        let path = self.path();
        let mut work = std::mem::take(&mut self.work);
        work.prepare(self, path, points.len().div_ceil(BLOCK).min(WAVE));
        let Workspace {
            slots,
            padded,
            positions,
            sum,
            tiles,
            ..
        } = &mut work;
        let batch = Batch {
            padded,
            tiles,
            loss,
            scale,
        };
        let mut total = 0.0;
        let wave = BLOCK * WAVE;
        let waves = points.chunks(wave).zip(labels.chunks(wave));
        for (start, ((xs, ys), ss)) in (0..).step_by(wave).zip(waves.zip(scores.chunks_mut(wave))) {
            let slots = &mut slots[..xs.len().div_ceil(BLOCK)];
            self.run_blocks(path, &batch, start, slots, (xs, ys, ss));
            for slot in slots.iter() {
                total += slot.loss;
                if !sum.is_empty() {
                    sum.iter_mut().zip(&slot.grads).for_each(|(s, g)| *s += g);
                }
            }
        }
        // One block is its own sum (0 + g is g, bit for bit).
        let sum = if sum.is_empty() {
            &slots[0].grads
        } else {
            &*sum
        };
        // Every point and label has passed its check: only now do the gradients change.
        for (g, &at) in self.grads.iter_mut().zip(positions.iter()) {
            *g += sum[at];
        }
        self.work = work;
        total + self.regularize(alpha)
    }

    /// Each slot's block: its loss and gradient, from zero, and its scores. The points start
    /// at index `start` of the whole batch.
    fn run_blocks<X: AsRef<[f64]> + Sync>(
        &self,
        path: Path,
        batch: &Batch<'_>,
        start: usize,
        slots: &mut [Slot],
        (points, labels, scores): (&[X], &[f64], &mut [f64]),
    ) {
        let run = |(i, (slot, ((xs, ys), ss))): (usize, (&mut Slot, Block<'_, X>))| {
            self.run_block(path, batch, start + i * BLOCK, slot, (xs, ys, ss));
        };
        #[cfg(feature = "parallel")]
        if slots.len() > 1 {
            use rayon::prelude::*;
            let blocks = points.par_chunks(BLOCK).zip(labels.par_chunks(BLOCK));
            let blocks = blocks.zip(scores.par_chunks_mut(BLOCK));
            return slots.par_iter_mut().zip(blocks).enumerate().for_each(run);
        }
        let blocks = points.chunks(BLOCK).zip(labels.chunks(BLOCK));
        let blocks = blocks.zip(scores.chunks_mut(BLOCK));
        slots.iter_mut().zip(blocks).enumerate().for_each(run);
    }

    /// One block's loss and gradient, from zero, and its scores, after checking its points
    /// and labels (here, while they are in cache, rather than in a pass of their own).
    fn run_block<X: AsRef<[f64]>>(
        &self,
        path: Path,
        batch: &Batch<'_>,
        start: usize,
        slot: &mut Slot,
        (points, labels, scores): (&[X], &[f64], &mut [f64]),
    ) {
        for (i, (x, &label)) in points.iter().zip(labels).enumerate() {
            self.check_input(x.as_ref());
            batch.loss.check_label(start + i, label);
        }
        slot.grads.fill(0.0);
        slot.loss = match path {
            Path::Relu1 => {
                batch.fused(1, &mut slot.grads, (points, labels, scores), &mut slot.flat)
            }
            Path::Relu2 => {
                batch.fused(2, &mut slot.grads, (points, labels, scores), &mut slot.flat)
            }
            Path::Tiled => {
                let mut total = 0.0;
                let (w, tiles) = (batch.padded, batch.tiles);
                let loss = (batch.loss, batch.scale);
                for ((x, &label), score) in points.iter().zip(labels).zip(scores) {
                    let (grads, record) = (&mut slot.grads[..], &mut slot.record);
                    let at = (loss.0, label, loss.1);
                    let (value, s) = tiled_point(tiles, (w, grads), record, x.as_ref(), at);
                    total += value;
                    *score = s;
                }
                total
            }
            Path::Layers => {
                let mut total = 0.0;
                for ((x, &label), score) in points.iter().zip(labels).zip(scores) {
                    let (value, s) = self.layers_point(batch, slot, x.as_ref(), label);
                    total += value;
                    *score = s;
                }
                total
            }
        };
    }

    /// Which generated gradient serves this network.
    fn path(&self) -> Path {
        let (hidden, output) = self.layers.split_at(self.layers.len() - 1);
        let fused = output[0].activation == Activation::Linear
            && self.inputs() <= MAX_INPUTS
            && hidden
                .iter()
                .all(|l| l.activation == Activation::Relu && l.outputs <= WIDTH);
        match hidden.len() {
            1 if fused => Path::Relu1,
            2 if fused => Path::Relu2,
            _ if fits(&self.layers) => Path::Tiled,
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

    /// The checks of the whole batch; its points and labels are checked block by block.
    fn check_batch<X>(&self, points: &[X], labels: &[f64], scores: &[f64]) {
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
    }
}

/// A block's points, labels and scores.
type Block<'a, X> = ((&'a [X], &'a [f64]), &'a mut [f64]);

/// The generated gradient a network's training loss runs through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    /// At most [`MAX_INPUTS`] inputs, one ReLU hidden layer of at most [`WIDTH`] neurons,
    /// linear output: `relu1_block`.
    Relu1,
    /// Two such layers: `relu2_block`, micrograd's demo network.
    Relu2,
    /// Any other network of layers at most `tiled::MAX_TILE` wide: layer by layer, each
    /// padded to a tile of constant size (`tiled`).
    Tiled,
    /// Wider networks: layer by layer, `dense` and `activate`.
    Layers,
}
