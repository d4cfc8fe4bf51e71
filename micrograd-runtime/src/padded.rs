//! The layout of the fused network functions (`dense::relu1_block`, `dense::relu2_block`), and
//! their loops over a block of points.

use crate::dense::{WIDTH, relu1_block_grad, relu2_block_grad};
use crate::loss::Loss;
use crate::mlp::Shape;

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
    /// The parameters in the padded layout, for the fused paths.
    pub(crate) padded: &'a [f64],
    pub(crate) loss: Loss,
    /// `1 / points`: the mean's factor.
    pub(crate) scale: f64,
}

impl Batch<'_> {
    /// A block of points through [`relu1_block_grad`]: adds the gradient into `d_p` (padded),
    /// writes the scores, returns the sum of the scaled losses. `flat` is a buffer for the
    /// points, one after another.
    pub(crate) fn relu1<X: AsRef<[f64]>>(
        &self,
        d_p: &mut [f64],
        (points, labels, scores): (&[X], &[f64], &mut [f64]),
        flat: &mut Vec<f64>,
    ) -> f64 {
        let dim = flatten(points, flat);
        let (w1, w2) = self.padded.split_at(WIDTH * (dim + 1));
        let (d_w1, d_w2) = d_p.split_at_mut(WIDTH * (dim + 1));
        let (w2, d_w2) = (fixed(w2), fixed_mut(d_w2));
        let (loss, scale) = (self.loss.code(), self.scale);
        relu1_block_grad(w1, d_w1, w2, d_w2, flat, dim, labels, loss, scale, scores)
    }

    /// A block of points through [`relu2_block_grad`], one call for the block: adds the
    /// gradient into `d_p` (padded), writes the scores, returns the sum of the scaled losses.
    /// `flat` is a buffer for the points, one after another.
    pub(crate) fn relu2<X: AsRef<[f64]>>(
        &self,
        d_p: &mut [f64],
        (points, labels, scores): (&[X], &[f64], &mut [f64]),
        flat: &mut Vec<f64>,
    ) -> f64 {
        let dim = flatten(points, flat);
        let first = WIDTH * (dim + 1);
        let (w1, rest) = self.padded.split_at(first);
        let (d_w1, d_rest) = d_p.split_at_mut(first);
        let (w2, w3) = rest.split_at(WIDTH * (WIDTH + 1));
        let (d_w2, d_w3) = d_rest.split_at_mut(WIDTH * (WIDTH + 1));
        let (w2, w3, d_w2, d_w3) = (fixed(w2), fixed(w3), fixed_mut(d_w2), fixed_mut(d_w3));
        let (loss, scale) = (self.loss.code(), self.scale);
        relu2_block_grad(
            w1, d_w1, w2, d_w2, w3, d_w3, flat, dim, labels, loss, scale, scores,
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

fn fixed<const N: usize>(w: &[f64]) -> &[f64; N] {
    w.try_into()
        .expect("internal error: a padded layer has its fixed size")
}

fn fixed_mut<const N: usize>(w: &mut [f64]) -> &mut [f64; N] {
    w.try_into()
        .expect("internal error: a padded layer has its fixed size")
}
