//! The layout of the fused network functions (`dense::relu1_block`, `dense::relu2_block`), and
//! their loops over a block of points.

use crate::dense::{WIDTH, relu1_block_grad, relu2_block_grad};
use crate::loss::Loss;
use crate::mlp::Shape;
use crate::tiled::Tile;

/// Where each parameter of `layers` lives in the layout of `dense::relu1_block` and
/// `dense::relu2_block`; returns the layout's length. Every hidden layer is padded with zeros to
/// [`WIDTH`] neurons (and the layers after the first to [`WIDTH`] inputs); the first is stored
/// input by input (biases, then each input's weights); the others neuron by neuron, bias last.
pub(crate) fn padded_positions(layers: &[Shape], positions: &mut Vec<usize>) -> usize {
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

/// What every block of one call needs to know.
pub(crate) struct Batch<'a> {
    /// The parameters in the padded layout, for the fused and tiled paths.
    pub(crate) padded: &'a [f64],
    /// The layers' tiles, for the tiled path.
    pub(crate) tiles: &'a [Tile],
    pub(crate) loss: Loss,
    /// `1 / points`: the mean's factor.
    pub(crate) scale: f64,
}

impl Batch<'_> {
    /// A block of points through [`relu1_block_grad`] (one hidden layer) or
    /// [`relu2_block_grad`] (two), one call for the block: adds the gradient into `d_p`
    /// (padded), writes the scores, returns the sum of the scaled losses. `flat` is a buffer for
    /// the points, one after another.
    pub(crate) fn fused<X: AsRef<[f64]>>(
        &self,
        hidden: usize,
        d_p: &mut [f64],
        (points, labels, scores): (&[X], &[f64], &mut [f64]),
        flat: &mut Vec<f64>,
    ) -> f64 {
        let dim = flatten(points, flat);
        let (block, two) = ((&flat[..], labels, scores), hidden == 2);
        // One arm per input count up to `MAX_INPUTS`: the first layer's length is a constant.
        match dim {
            1 => self.block::<{ WIDTH * 2 }>(two, d_p, block),
            2 => self.block::<{ WIDTH * 3 }>(two, d_p, block),
            3 => self.block::<{ WIDTH * 4 }>(two, d_p, block),
            4 => self.block::<{ WIDTH * 5 }>(two, d_p, block),
            5 => self.block::<{ WIDTH * 6 }>(two, d_p, block),
            6 => self.block::<{ WIDTH * 7 }>(two, d_p, block),
            7 => self.block::<{ WIDTH * 8 }>(two, d_p, block),
            8 => self.block::<{ WIDTH * 9 }>(two, d_p, block),
            dim => unreachable!("internal error: {dim} inputs take the layers path"),
        }
    }

    /// [`Batch::fused`] for a first layer of `N = WIDTH * (inputs + 1)` parameters.
    fn block<const N: usize>(
        &self,
        two: bool,
        d_p: &mut [f64],
        (xs, labels, scores): (&[f64], &[f64], &mut [f64]),
    ) -> f64 {
        let (w1, rest) = self.padded.split_at(N);
        let (d_w1, d_rest) = d_p.split_at_mut(N);
        let (w1, d_w1) = (fixed::<N>(w1), fixed_mut::<N>(d_w1));
        let (loss, scale) = (self.loss.code(), self.scale);
        if !two {
            let (w2, d_w2) = (fixed(rest), fixed_mut(d_rest));
            return relu1_block_grad(w1, d_w1, w2, d_w2, xs, labels, loss, scale, scores);
        }
        let (w2, w3) = rest.split_at(WIDTH * (WIDTH + 1));
        let (d_w2, d_w3) = d_rest.split_at_mut(WIDTH * (WIDTH + 1));
        let (w2, w3, d_w2, d_w3) = (fixed(w2), fixed(w3), fixed_mut(d_w2), fixed_mut(d_w3));
        relu2_block_grad(
            w1, d_w1, w2, d_w2, w3, d_w3, xs, labels, loss, scale, scores,
        )
    }
}

/// Copies `points` into `flat`, one after another; returns the size of a point.
fn flatten<X: AsRef<[f64]>>(points: &[X], flat: &mut Vec<f64>) -> usize {
    flat.clear();
    for x in points {
        flat.extend_from_slice(x.as_ref());
    }
    points[0].as_ref().len()
}

pub(crate) fn fixed<const N: usize>(w: &[f64]) -> &[f64; N] {
    w.try_into()
        .expect("internal error: a padded layer has its fixed size")
}

pub(crate) fn fixed_mut<const N: usize>(w: &mut [f64]) -> &mut [f64; N] {
    w.try_into()
        .expect("internal error: a padded layer has its fixed size")
}
