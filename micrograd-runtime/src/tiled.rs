//! The tiled path of `Mlp::train_loss`: any depth and any hidden activation, layers up to
//! [`MAX_TILE`] wide, each padded to a tile of constant size.
//!
//! What makes the fused blocks (`dense::relu2_block`) fast is less their shape than their
//! arrays: every loop has a constant length, so no read or add checks its index, and the loops
//! unroll and vectorize. A tile gives any layer that: its inputs padded to `I` and its neurons
//! to `O`, powers of two from 4 to [`MAX_TILE`] (the output neuron alone, `O = 1`), with zero
//! weights and biases. Each tile size has its own copy of the generated layer gradient
//! (`dense::dense_tile_pullback`), and the runtime picks the copy per layer.
//!
//! Before: `z[k] = w[k·(n+1) + n] + Σ_{j<n} w[k·(n+1) + j] x[j]`, `n` and the row read at run
//! time, every read checked. After: the same sum over a row of `I + 1` of a `[f64; L]`, `j < I`
//! constant, plus `I - n` products of a zero weight, which add exact zeros: the same sums in
//! the same order, so the same bits as the layers path. A padded neuron's adjoint is zero (its
//! outgoing weights are), so the generated gradient's test on it skips its row.

use crate::dense::{activation_pullback, dense_tile_grad};
use crate::loss::Loss;
use crate::mlp::{Record, Shape};
use crate::nn::Activation;
use crate::padded::{fixed, fixed_mut};
use crate::prelude::*;

/// The widest tile: wider layers go layer by layer.
pub(crate) const MAX_TILE: usize = 128;
/// The tile sizes of inputs and hidden neurons.
const TILES: [usize; 6] = [4, 8, 16, 32, 64, MAX_TILE];

/// One layer padded to a tile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Tile {
    /// `I`, its padded inputs.
    pub(crate) inputs: usize,
    /// `O`, its padded neurons.
    pub(crate) outputs: usize,
    pub(crate) activation: Activation,
    /// Its first parameter in the tiled layout.
    pub(crate) start: usize,
    /// Its input's first entry in a tiled record.
    pub(crate) at: usize,
}

impl Tile {
    fn parameters(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.outputs * (self.inputs + 1)
    }
}

fn tile_size(n: usize) -> Option<usize> {
    TILES.into_iter().find(|&t| t >= n)
}

/// The tile sizes `(I, O)` of layer `l` of `layers`, or `None` if it is wider than
/// [`MAX_TILE`] (or is a last layer of more than one output).
fn tile_sizes(layers: &[Shape], l: usize) -> Option<(usize, usize)> {
    let shape = layers[l];
    let outputs = if l + 1 == layers.len() {
        (shape.outputs == 1).then_some(1)?
    } else {
        tile_size(shape.outputs)?
    };
    Some((tile_size(shape.inputs)?, outputs))
}

/// Whether `layers` (a network of one output) take the tiled path: none wider than
/// [`MAX_TILE`], and padding at most doubles the parameters (a layer of 65 neurons is cheaper
/// unpadded). Allocates nothing: it runs at every step.
pub(crate) fn fits(layers: &[Shape]) -> bool {
    let (mut padded, mut real) = (0, 0);
    for (l, shape) in layers.iter().enumerate() {
        let Some((inputs, outputs)) = tile_sizes(layers, l) else {
            return false;
        };
        padded += outputs * (inputs + 1);
        real += shape.outputs * (shape.inputs + 1);
    }
    padded <= 2 * real
}

/// The tiles of `layers`, which [`fits`].
pub(crate) fn tiles(layers: &[Shape]) -> Vec<Tile> {
    let (mut start, mut at) = (0, 0);
    let mut tiles = Vec::with_capacity(layers.len());
    for (l, shape) in layers.iter().enumerate() {
        let (inputs, outputs) = tile_sizes(layers, l).expect("internal error: a tiled network");
        let tile = Tile {
            inputs,
            outputs,
            activation: shape.activation,
            start,
            at,
        };
        start = tile.parameters().end;
        at += inputs;
        tiles.push(tile);
    }
    tiles
}

/// Where each parameter of `layers` lives in the layout of `tiles` (row by row, neuron `k`'s
/// weights at `start + k (I + 1)`, its bias at `start + k (I + 1) + I`); returns its length.
pub(crate) fn tiled_positions(
    layers: &[Shape],
    tiles: &[Tile],
    positions: &mut Vec<usize>,
) -> usize {
    for (shape, tile) in layers.iter().zip(tiles) {
        for k in 0..shape.outputs {
            let row = tile.start + k * (tile.inputs + 1);
            positions.extend((0..shape.inputs).map(|j| row + j));
            positions.push(row + tile.inputs);
        }
    }
    tiles.last().map_or(0, |t| t.parameters().end)
}

/// The length of a tiled record: the padded input and every tile's neurons.
pub(crate) fn record_len(tiles: &[Tile]) -> usize {
    tiles[0].inputs + tiles.iter().map(|t| t.outputs).sum::<usize>()
}

/// Calls `f::<I, O, L>` for `tile`'s sizes, `L = O (I + 1)` its parameters.
macro_rules! by_tile {
    ($tile:expr, $f:ident $args:tt) => {
        by_tile!(@ $tile, $f $args;
            (4, 1) (8, 1) (16, 1) (32, 1) (64, 1) (128, 1)
            (4, 4) (8, 4) (16, 4) (32, 4) (64, 4) (128, 4)
            (4, 8) (8, 8) (16, 8) (32, 8) (64, 8) (128, 8)
            (4, 16) (8, 16) (16, 16) (32, 16) (64, 16) (128, 16)
            (4, 32) (8, 32) (16, 32) (32, 32) (64, 32) (128, 32)
            (4, 64) (8, 64) (16, 64) (32, 64) (64, 64) (128, 64)
            (4, 128) (8, 128) (16, 128) (32, 128) (64, 128) (128, 128))
    };
    (@ $tile:expr, $f:ident $args:tt; $(($i:literal, $o:literal))*) => {
        match ($tile.inputs, $tile.outputs) {
            $(($i, $o) => $f::<$i, $o, { $o * ($i + 1) }> $args,)*
            (i, o) => unreachable!("internal error: no tile of {i} inputs and {o} neurons"),
        }
    };
}

/// One point through the tiled network: its forward pass into `record`, then, unless the loss
/// passes no gradient, its backward pass into `grads` (tiled). Returns the scaled loss and
/// the score.
pub(crate) fn tiled_point(
    tiles: &[Tile],
    (w, grads): (&[f64], &mut [f64]),
    record: &mut Record,
    x: &[f64],
    (loss, label, scale): (Loss, f64, f64),
) -> (f64, f64) {
    record.values[..x.len()].copy_from_slice(x);
    // The padded inputs: zero whatever path used this record before.
    record.values[x.len()..tiles[0].inputs].fill(0.0);
    for tile in tiles {
        let (inputs, outputs) = record.values.split_at_mut(tile.at + tile.inputs);
        let out = tile.at + tile.inputs..tile.at + tile.inputs + tile.outputs;
        let (x, y) = (&inputs[tile.at..], &mut outputs[..tile.outputs]);
        let w = &w[tile.parameters()];
        by_tile!(
            tile,
            forward(w, tile.activation, x, &mut record.pre[out.clone()], y)
        );
    }
    let score = record.values[record.values.len() - 1];
    let (value, d_score) = loss.grad(score, label);
    if d_score != 0.0 {
        let last = record.d.len() - 1;
        record.d[last] = d_score * scale;
        for tile in tiles.iter().rev() {
            let (before, after) = record.d.split_at_mut(tile.at + tile.inputs);
            // At the first layer, a gradient of the input that nothing reads.
            let d_x = &mut before[tile.at..];
            d_x.fill(0.0);
            let out = tile.at + tile.inputs..tile.at + tile.inputs + tile.outputs;
            let upstream = &mut after[..tile.outputs];
            let kept = (&record.pre[out.clone()], &record.values[out]);
            activation_pullback(tile.activation, kept, upstream);
            let x = &record.values[tile.at..tile.at + tile.inputs];
            let range = tile.parameters();
            by_tile!(
                tile,
                backward(&w[range.clone()], &mut grads[range], x, d_x, upstream)
            );
        }
    }
    (scale * value, score)
}

/// One tile's forward pass: pre-activations into `z`, outputs into `y`, summed as
/// `nn::linear` sums a neuron (`b`, then each input in order).
fn forward<const I: usize, const O: usize, const L: usize>(
    w: &[f64],
    activation: Activation,
    x: &[f64],
    z: &mut [f64],
    y: &mut [f64],
) {
    let (w, x): (&[f64; L], &[f64; I]) = (fixed(w), fixed(x));
    let (z, y): (&mut [f64; O], &mut [f64; O]) = (fixed_mut(z), fixed_mut(y));
    for (z, row) in z.iter_mut().zip(w.chunks_exact(I + 1)) {
        let mut a = row[I];
        for (w, x) in row.iter().zip(x) {
            a += w * x;
        }
        *z = a;
    }
    // `dense::activate`'s functions, one loop per activation rather than a test per neuron.
    match activation {
        Activation::Relu => y.iter_mut().zip(z).for_each(|(y, z)| *y = z.relu()),
        Activation::Tanh => y.iter_mut().zip(z).for_each(|(y, z)| *y = z.tanh()),
        Activation::Sigmoid => y.iter_mut().zip(z).for_each(|(y, z)| *y = z.sigmoid()),
        Activation::Linear => y.copy_from_slice(z),
    }
}

/// One tile's backward pass from ∂loss/∂pre-activations `upstream`: the generated gradient of
/// `dense::dense_tile`, into `d_w` and `d_x`. Its value (the layer's weighted sums again) is
/// not used, and once inlined the compiler drops it: no array read can fail, so nothing
/// keeps that loop alive.
#[inline(always)]
fn backward<const I: usize, const O: usize, const L: usize>(
    w: &[f64],
    d_w: &mut [f64],
    x: &[f64],
    d_x: &mut [f64],
    upstream: &mut [f64],
) {
    let (w, x, upstream): (&[f64; L], &[f64; I], &[f64; O]) = (fixed(w), fixed(x), fixed(upstream));
    dense_tile_grad(w, fixed_mut(d_w), x, fixed_mut(d_x), upstream);
}
