//! T9 `grid`: `Mlp::train_loss` on networks off its fused path (tanh hidden layers, layers wider
//! than 16, more inputs), against a straightforward hand-written gradient of the same network:
//! row-major weights in `Mlp`'s layout (neuron by neuron, weights then bias), buffers allocated
//! once, one thread, one forward pass per point and the backward pass right after it, skipped
//! where the hinge passes no gradient. The loss is micrograd's: the mean hinge plus `alpha Σ p²`.
//!
//! A shape is named `ACTIVATION-INPUTS-HIDDEN..-1`: `tanh-2-16-16-1`, `relu-2-32-32-1`.
//!
//! [`cells`] is the grid measured (BENCHMARKS.md, T9): every hidden activation x widths
//! {4, 16, 64, 128} x hidden layers {1, 2, 4} x inputs {1, 2, 8, 64}, each hidden layer of
//! the cell's width, one output.

use micrograd_runtime::data;
use micrograd_runtime::loss::Loss;
use micrograd_runtime::nn::{Activation, Mlp, Module};

/// micrograd's L2 strength.
pub const ALPHA: f64 = 1e-4;

/// A network and data for one cell of the grid.
pub struct Inputs {
    /// The runtime's network.
    pub mlp: Mlp,
    /// Its parameters, in `Mlp`'s layout.
    pub p: Vec<f64>,
    /// The points, `inputs` numbers each.
    pub points: Vec<Vec<f64>>,
    /// Their labels, -1 or +1.
    pub labels: Vec<f64>,
}

/// The network `name` (`tanh-2-16-16-1`) and `n` points for it: two moons for two inputs,
/// otherwise uniform points labelled by the sign of a fixed linear function.
pub fn inputs(name: &str, n: usize) -> Inputs {
    let mut parts = name.split('-');
    let activation = match parts.next() {
        Some("tanh") => Activation::Tanh,
        Some("relu") => Activation::Relu,
        Some("sigmoid") => Activation::Sigmoid,
        Some("linear") => Activation::Linear,
        other => panic!("unknown activation {other:?} in {name}"),
    };
    let sizes: Vec<usize> = parts.map(|s| s.parse().expect("a layer size")).collect();
    let (inputs, layers) = sizes.split_first().expect("inputs and layers");
    assert_eq!(layers.last(), Some(&1), "{name}: one output");
    let mlp = Mlp::new(*inputs, layers, activation, 9);
    let (points, labels) = if *inputs == 2 {
        let moons = data::make_moons(n, 0.1, 9);
        let points = moons.points.iter().map(|p| p.to_vec()).collect();
        (points, moons.labels)
    } else {
        let flat = super::uniform(n * inputs, 9, -1.0, 1.0);
        let points: Vec<Vec<f64>> = flat.chunks(*inputs).map(<[f64]>::to_vec).collect();
        let labels = points
            .iter()
            .map(|x| {
                let s: f64 = x
                    .iter()
                    .enumerate()
                    .map(|(j, v)| v * (j as f64 - 0.4))
                    .sum();
                if s > 0.0 { 1.0 } else { -1.0 }
            })
            .collect();
        (points, labels)
    };
    Inputs {
        p: mlp.parameters(),
        mlp,
        points,
        labels,
    }
}

/// The hidden activations of the grid.
pub const ACTIVATIONS: [&str; 4] = ["relu", "tanh", "sigmoid", "linear"];

/// The grid's shapes, activation by activation, then hidden layers, width and inputs.
pub fn cells() -> Vec<String> {
    let mut cells = Vec::new();
    for activation in ACTIVATIONS {
        for depth in [1, 2, 4] {
            for width in [4, 16, 64, 128] {
                for inputs in [1, 2, 8, 64] {
                    let hidden = format!("-{width}").repeat(depth);
                    cells.push(format!("{activation}-{inputs}{hidden}-1"));
                }
            }
        }
    }
    cells
}

/// The hand-written gradient's buffers, sized once for a network.
pub struct Hand {
    /// Inputs of each layer, then its outputs: `sizes[0]` inputs, then each layer's size.
    sizes: Vec<usize>,
    activation: Activation,
    /// Every layer's input and output values, one after another (the input at 0).
    values: Vec<f64>,
    /// Every layer's pre-activations, at the same offsets as its outputs in `values`.
    pre: Vec<f64>,
    /// The gradient of the current layer's outputs, and of its inputs.
    d_out: Vec<f64>,
    d_in: Vec<f64>,
}

impl Hand {
    /// Buffers for the network of `inputs` inputs and layers `layers`.
    pub fn new(inputs: usize, layers: &[usize], activation: Activation) -> Hand {
        let mut sizes = vec![inputs];
        sizes.extend_from_slice(layers);
        let total: usize = sizes.iter().sum();
        let widest = *sizes.iter().max().expect("a size");
        Hand {
            sizes,
            activation,
            values: vec![0.0; total],
            pre: vec![0.0; total],
            d_out: vec![0.0; widest],
            d_in: vec![0.0; widest],
        }
    }

    /// The mean hinge loss over the points plus `alpha Σ p²`; adds its gradient into `d_p`.
    pub fn loss_grad(
        &mut self,
        p: &[f64],
        d_p: &mut [f64],
        points: &[Vec<f64>],
        labels: &[f64],
        alpha: f64,
    ) -> f64 {
        let scale = 1.0 / points.len() as f64;
        let mut total = 0.0;
        for (x, &y) in points.iter().zip(labels) {
            let score = self.forward(p, x);
            let margin = 1.0 - y * score;
            if margin > 0.0 {
                total += scale * margin;
                self.backward(p, d_p, -y * scale);
            }
        }
        let mut l2 = 0.0;
        for (p, d) in p.iter().zip(d_p.iter_mut()) {
            l2 += p * p;
            *d += 2.0 * alpha * p;
        }
        total + alpha * l2
    }

    fn act(activation: Activation, z: f64) -> f64 {
        match activation {
            Activation::Relu => z.max(0.0),
            Activation::Tanh => z.tanh(),
            Activation::Sigmoid => 1.0 / (1.0 + (-z).exp()),
            _ => z,
        }
    }

    fn forward(&mut self, p: &[f64], x: &[f64]) -> f64 {
        let n0 = self.sizes[0];
        self.values[..n0].copy_from_slice(x);
        let (mut at, mut start) = (0, 0);
        for l in 1..self.sizes.len() {
            let (inputs, outputs) = (self.sizes[l - 1], self.sizes[l]);
            let last = l + 1 == self.sizes.len();
            let (before, after) = self.values.split_at_mut(at + inputs);
            let x = &before[at..];
            for k in 0..outputs {
                let row = &p[start + k * (inputs + 1)..start + (k + 1) * (inputs + 1)];
                let mut a = row[inputs];
                for j in 0..inputs {
                    a += row[j] * x[j];
                }
                self.pre[at + inputs + k] = a;
                after[k] = if last {
                    a
                } else {
                    Hand::act(self.activation, a)
                };
            }
            start += outputs * (inputs + 1);
            at += inputs;
        }
        self.values[at]
    }

    fn backward(&mut self, p: &[f64], d_p: &mut [f64], d_score: f64) {
        let layers = self.sizes.len() - 1;
        let mut start: usize = (1..=layers)
            .map(|l| self.sizes[l] * (self.sizes[l - 1] + 1))
            .sum();
        let mut at: usize = self.sizes[..layers].iter().sum();
        self.d_out[0] = d_score;
        for l in (1..=layers).rev() {
            let (inputs, outputs) = (self.sizes[l - 1], self.sizes[l]);
            start -= outputs * (inputs + 1);
            at -= inputs;
            let x = &self.values[at..at + inputs];
            let d_x = &mut self.d_in[..inputs];
            d_x.fill(0.0);
            for k in 0..outputs {
                let z = self.pre[at + inputs + k];
                let d_z = match (l == layers, self.activation) {
                    (true, _) => self.d_out[k],
                    (false, Activation::Relu) => {
                        if z > 0.0 {
                            self.d_out[k]
                        } else {
                            0.0
                        }
                    }
                    (false, Activation::Tanh) => {
                        let t = self.values[at + inputs + k];
                        self.d_out[k] * (1.0 - t * t)
                    }
                    (false, Activation::Sigmoid) => {
                        let s = self.values[at + inputs + k];
                        self.d_out[k] * (s * (1.0 - s))
                    }
                    (false, _) => self.d_out[k],
                };
                if d_z == 0.0 {
                    continue;
                }
                let row = start + k * (inputs + 1);
                for j in 0..inputs {
                    d_p[row + j] += d_z * x[j];
                    d_x[j] += d_z * p[row + j];
                }
                d_p[row + inputs] += d_z;
            }
            std::mem::swap(&mut self.d_in, &mut self.d_out);
        }
    }
}

/// The runtime's loss and gradient of the same network (into its gradients).
pub fn mlp_loss(mlp: &mut Mlp, inputs: &Inputs, scores: &mut [f64]) -> f64 {
    mlp.zero_grad();
    mlp.train_loss_into(&inputs.points, &inputs.labels, Loss::Hinge, ALPHA, scores)
}

/// Panics unless `Mlp` and the hand-written gradient agree to 1e-9 relative on `name`.
pub fn check(name: &str, n: usize) {
    let inputs = inputs(name, n);
    let sizes = inputs.mlp.sizes();
    let mut hand = Hand::new(inputs.mlp.inputs(), &sizes, inputs.mlp.activation());
    let mut want = vec![0.0; inputs.p.len()];
    let value = hand.loss_grad(&inputs.p, &mut want, &inputs.points, &inputs.labels, ALPHA);
    want.push(value);
    let mut mlp = inputs.mlp.clone();
    let mut scores = vec![0.0; n];
    let value = mlp_loss(&mut mlp, &inputs, &mut scores);
    let mut got = mlp.grads();
    got.push(value);
    super::assert_close(name, &got, &want);
}
