//! The networks' forward and backward passes as `#[differentiable]` functions of whole layers
//! and whole networks over flat parameter slices.
//!
//! A layer's parameters are one slice, neuron by neuron, each neuron's weights then its bias
//! (the order of `Module::parameters`): neuron `k` of a layer with `n` inputs owns
//! `w[k * (n + 1)..(k + 1) * (n + 1)]`, its bias last.
//!
//! - [`relu1_block`] and [`relu2_block`] are micrograd's network and loss over a block of
//!   points: one or two ReLU hidden layers of at most [`WIDTH`] neurons, a linear output, and
//!   a loss, over parameters padded to fixed-size layers (`padded::padded_positions`). Their
//!   generated gradient runs the forward pass once per point, keeps the hidden activations in
//!   local arrays, reverses each point right after it, and skips the backward pass where the
//!   loss or a ReLU passes no gradient.
//! - [`dense`] and [`activate`] serve every other network, layer by layer: the pullback of a
//!   layer is the generated gradient of `Σₖ upstreamₖ · (bₖ + Σⱼ wₖⱼ xⱼ)`.

use crate::loss::{hinge, hinge_pullback, logistic, logistic_pullback};
use crate::loss::{squared_error, squared_error_pullback};
use crate::nn::{Activation, linear};
use crate::prelude::*;

/// The width of the hidden layers of [`relu1_block`] and [`relu2_block`]. Narrower layers are
/// padded with neurons whose weights and bias are zero (they output `relu(0) = 0` and pass no
/// gradient). The width is fixed so that the layers are fixed-size arrays: their loops have
/// constant bounds and no bounds checks, and the backward pass vectorizes.
pub(crate) const WIDTH: usize = 16;

/// The most inputs [`relu1_block`] and [`relu2_block`] take: each input count up to it is one
/// more copy of each. Wider networks go layer by layer.
pub(crate) const MAX_INPUTS: usize = 8;

/// `loss(score, label)` for the loss of code `loss` (`Loss::code`: hinge, logistic, squared).
#[differentiable(wrt(score))]
pub(crate) fn point_loss(score: f64, label: f64, loss: usize) -> f64 {
    if loss == 0 {
        hinge(score, label)
    } else if loss == 1 {
        logistic(score, label)
    } else {
        squared_error(score, label)
    }
}

/// `Σ scale · loss(score, label)` over a block of points for a network with one ReLU hidden
/// layer (`w1`) and a linear output neuron (`w2`); each point's score goes into `scores`.
///
/// The points are flat, `dim` numbers each (point `s` is `xs[dim * s..dim * (s + 1)]`). The
/// hidden layer has [`WIDTH`] neurons and is stored input by input: `w1[k]` is neuron `k`'s
/// bias and `w1[WIDTH * (j + 1) + k]` its weight of input `j`, so that the loops over neurons
/// have a constant length. Its pre-activations are summed in the same order as a neuron's
/// (`b + w₀x₀ + w₁x₁ + ..`).
///
/// `N = WIDTH * (dim + 1)`, the first layer's length, is a constant: each input count gets
/// its own copy ([`MAX_INPUTS`]) whose loops over inputs have a constant length, so that no
/// read or add of the first layer checks its index (a run-time `dim` cost an eighth more).
///
/// One function for the block rather than one call per point: the loop over points only adds
/// each point's loss into the total, so the generated gradient reverses each point right after
/// its forward pass, inside that loop, while its activations are in registers (nothing is
/// recorded), and skips the whole backward pass of a point whose loss passes no gradient.
#[differentiable(wrt(w1, w2))]
#[allow(clippy::too_many_arguments, clippy::manual_memcpy)] // `copy_from_slice` is outside the language
pub(crate) fn relu1_block<const N: usize>(
    w1: &[f64; N],
    w2: &[f64; 17],
    xs: &[f64],
    labels: &[f64],
    loss: usize,
    scale: f64,
    scores: &mut [f64],
) -> f64 {
    let dim = N / WIDTH - 1;
    let mut total = 0.0;
    for s in 0..labels.len() {
        let mut z1 = [0.0; WIDTH];
        for k in 0..WIDTH {
            z1[k] = w1[k];
        }
        for j in 0..dim {
            for k in 0..WIDTH {
                z1[k] += w1[WIDTH * (j + 1) + k] * xs[dim * s + j];
            }
        }
        let mut h1 = [0.0; WIDTH];
        for k in 0..WIDTH {
            h1[k] = z1[k].relu();
        }
        let mut score = w2[WIDTH];
        for j in 0..WIDTH {
            score += w2[j] * h1[j];
        }
        scores[s] = score;
        total += scale * point_loss(score, labels[s], loss);
    }
    total
}

/// [`relu1_block`] with two ReLU hidden layers (`w1`, `w2`): micrograd's demo network.
#[differentiable(wrt(w1, w2, w3))]
#[allow(clippy::too_many_arguments, clippy::manual_memcpy)]
pub(crate) fn relu2_block<const N: usize>(
    w1: &[f64; N],
    w2: &[f64; 272],
    w3: &[f64; 17],
    xs: &[f64],
    labels: &[f64],
    loss: usize,
    scale: f64,
    scores: &mut [f64],
) -> f64 {
    let dim = N / WIDTH - 1;
    let mut total = 0.0;
    for s in 0..labels.len() {
        let mut z1 = [0.0; WIDTH];
        for k in 0..WIDTH {
            z1[k] = w1[k];
        }
        for j in 0..dim {
            for k in 0..WIDTH {
                z1[k] += w1[WIDTH * (j + 1) + k] * xs[dim * s + j];
            }
        }
        let mut h1 = [0.0; WIDTH];
        for k in 0..WIDTH {
            h1[k] = z1[k].relu();
        }
        let mut h2 = [0.0; WIDTH];
        for k in 0..WIDTH {
            let mut a = w2[17 * k + WIDTH];
            for j in 0..WIDTH {
                a += w2[17 * k + j] * h1[j];
            }
            h2[k] = a.relu();
        }
        let mut score = w3[WIDTH];
        for j in 0..WIDTH {
            score += w3[j] * h2[j];
        }
        scores[s] = score;
        total += scale * point_loss(score, labels[s], loss);
    }
    total
}

/// `Σₖ upstreamₖ · (bₖ + Σⱼ wₖⱼ xⱼ)`: a layer's weighted sums against the gradient `upstream`
/// of its pre-activations. Its generated gradient is the layer's backward pass:
/// `d_w[k, j] += upstreamₖ · xⱼ`, `d_b[k] += upstreamₖ`, `d_x[j] += Σₖ upstreamₖ · wₖⱼ`,
/// skipping the neurons whose `upstreamₖ` is zero.
#[differentiable(wrt(w, x))]
pub(crate) fn dense(w: &[f64], x: &[f64], upstream: &[f64]) -> f64 {
    let n = x.len();
    let mut total = 0.0;
    // Neurons in reverse: the generated gradient reverses each neuron right after its forward
    // step (a summing loop), so `d_x[j]` then adds the neurons from last to first, the order of
    // `relu2_block`'s reversed loop: the two training paths agree bit for bit.
    for k in (0..upstream.len()).rev() {
        let row = k * (n + 1);
        let mut a = w[row + n];
        for j in 0..n {
            a += w[row + j] * x[j];
        }
        total += upstream[k] * a;
    }
    total
}

/// The activation of code `kind` (`Activation::code`: ReLU, tanh, linear, sigmoid) at `z`.
#[differentiable]
pub(crate) fn activate(z: f64, kind: usize) -> f64 {
    if kind == 0 {
        z.relu()
    } else if kind == 1 {
        z.tanh()
    } else if kind == 3 {
        z.sigmoid()
    } else {
        z
    }
}

/// One layer's forward pass over its flat parameters `w`: pre-activations into `z` and
/// outputs into `out` (either may be empty, to skip it).
pub(crate) fn layer_forward(
    w: &[f64],
    activation: Activation,
    x: &[f64],
    z: &mut [f64],
    out: &mut [f64],
) {
    let n = x.len();
    for (k, row) in w.chunks_exact(n + 1).enumerate() {
        let pre = linear(&row[..n], row[n], x);
        if let Some(z) = z.get_mut(k) {
            *z = pre;
        }
        if let Some(out) = out.get_mut(k) {
            *out = activate(pre, activation.code());
        }
    }
}

/// One layer's backward pass from its pre-activations `z` and outputs `y`: turns `upstream`
/// (∂loss/∂outputs) into ∂loss/∂z in place, then adds ∂loss/∂w into `d_w` and ∂loss/∂x into
/// `d_x` (none if `d_x` is empty: a first layer). Through the pullbacks, which return no
/// value, so the layer's weighted sums are not computed again.
pub(crate) fn layer_backward(
    w: &[f64],
    d_w: &mut [f64],
    activation: Activation,
    x: &[f64],
    (z, y): (&[f64], &[f64]),
    upstream: &mut [f64],
    d_x: &mut [f64],
) {
    activation_pullback(activation, (z, y), upstream);
    // An empty shadow skips its slice: `d_x` at a first layer, `upstream` always.
    dense_pullback(w, d_w, x, d_x, upstream, &mut [], 1.0);
}

/// Turns `upstream` (∂loss/∂outputs) into ∂loss/∂pre-activations in place, from the
/// pre-activations `z` and the outputs `y` the forward pass kept.
pub(crate) fn activation_pullback(
    activation: Activation,
    (z, y): (&[f64], &[f64]),
    upstream: &mut [f64],
) {
    match activation {
        Activation::Linear => {}
        // The macro's rules for tanh, `d · (1 - y²)`, and sigmoid, `d · (y (1 - y))`
        // (micrograd-codegen's math.rs), on the output the forward pass kept:
        // `activate_pullback` would compute `y` again from `z`, the costliest part of such a
        // layer's backward pass. The same bits (tested).
        Activation::Tanh => {
            for (d, y) in upstream.iter_mut().zip(y) {
                *d *= 1.0 - y * y;
            }
        }
        Activation::Sigmoid => {
            for (d, y) in upstream.iter_mut().zip(y) {
                *d *= y * (1.0 - y);
            }
        }
        Activation::Relu => {
            for (d, z) in upstream.iter_mut().zip(z) {
                *d = activate_pullback(*z, activation.code(), *d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_on_the_kept_output_are_the_generated_pullback_bit_for_bit() {
        let all = [
            Activation::Relu,
            Activation::Tanh,
            Activation::Sigmoid,
            Activation::Linear,
        ];
        for activation in all {
            let code = activation.code();
            for i in -400..=400 {
                let z = f64::from(i) * 0.0173 + 1e-3;
                for d in [1.0, -0.37, 3.5e-3] {
                    let y = activate(z, code);
                    let mut kept = [d];
                    activation_pullback(activation, (&[z], &[y]), &mut kept);
                    let want = activate_pullback(z, code, d);
                    assert_eq!(kept[0].to_bits(), want.to_bits(), "{activation:?} {z}");
                }
            }
        }
    }
}

/// [`dense`] over a layer padded to `O` neurons of `I` inputs (`L = O · (I + 1)` parameters):
/// fixed-size arrays, so that its loops have constant bounds.
#[differentiable(wrt(w, x))]
pub(crate) fn dense_tile<const I: usize, const O: usize, const L: usize>(
    w: &[f64; L],
    x: &[f64; I],
    upstream: &[f64; O],
) -> f64 {
    let mut total = 0.0;
    for k in (0..O).rev() {
        let row = k * (I + 1);
        let mut a = w[row + I];
        for j in 0..I {
            a += w[row + j] * x[j];
        }
        total += upstream[k] * a;
    }
    total
}
