//! T3 `moons-step`: one step of micrograd's demo. An MLP 2-16-16-1 (ReLU hidden layers, linear
//! output) scores 100 two-moons points; the loss is the mean hinge loss `(1 - y·score).relu()`
//! plus `1e-4 · Σ p²`, differentiated with respect to all 337 parameters.
//!
//! # Parameter layout
//! One flat slice `p` of [`PARAMS`] = 337 entries, in the order of the runtime's
//! `Mlp::parameters()` (layer by layer, neuron by neuron, each neuron's weights then its bias):
//!
//! | entries          | what                                                           |
//! |------------------|----------------------------------------------------------------|
//! | `p[3j..3j+2]`    | layer 1, neuron `j < 16`: weights of `x0`, `x1`                |
//! | `p[3j+2]`        | layer 1, neuron `j`: bias                                      |
//! | `p[48+17k+j]`    | layer 2, neuron `k < 16`: weight of `h1[j]`, `j < 16`          |
//! | `p[48+17k+16]`   | layer 2, neuron `k`: bias                                      |
//! | `p[320+k]`       | output neuron: weight of `h2[k]`                               |
//! | `p[336]`         | output neuron: bias                                            |
//!
//! Points are flat too, `xs = [x0, y0, x1, y1, ...]` (`Dataset::flat_points`), labels ±1.

use micrograd_runtime::Value;
use micrograd_runtime::data::{self, Dataset};
use micrograd_runtime::loss::Loss;
use micrograd_runtime::nn::{Activation, Mlp, Module};
use micrograd_runtime::prelude::*;
use nalgebra::DVector;
use num_dual::{Dual64, DualNum, Gradients};

/// The number of parameters of the 2-16-16-1 network.
pub const PARAMS: usize = 337;
/// The L2 regularization strength of micrograd's demo.
pub const ALPHA: f64 = 1e-4;

/// The task's inputs: micrograd's initial network (`Mlp::new` with seed 1337: weights uniform
/// in [-1, 1], biases 0) and `make_moons(100, 0.1, 1337)`.
pub struct Inputs {
    /// The runtime's network, a contender of its own.
    pub mlp: Mlp,
    /// Its parameters in the layout above.
    pub p: Vec<f64>,
    /// The data set.
    pub data: Dataset,
    /// `data`'s points, flattened.
    pub xs: Vec<f64>,
}

/// The task's inputs for `n` points (the benchmark uses 100).
pub fn inputs(n: usize) -> Inputs {
    let mlp = Mlp::new(2, &[16, 16, 1], Activation::Relu, 1337);
    let p = mlp.parameters();
    assert_eq!(p.len(), PARAMS);
    let data = data::make_moons(n, 0.1, 1337);
    let xs = data.flat_points();
    Inputs { mlp, p, data, xs }
}

/// The whole training loss as one `#[differentiable]` function. The hidden activations are
/// local arrays declared inside the per-sample loop, so the macro keeps each sample's arrays
/// for its reverse sweep.
#[differentiable(wrt(p))]
pub fn moons_loss(p: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let mut total = 0.0;
    for s in 0..ys.len() {
        let x0 = xs[2 * s];
        let x1 = xs[2 * s + 1];
        let mut h1 = [0.0; 16];
        for j in 0..16 {
            h1[j] = (p[3 * j + 2] + p[3 * j] * x0 + p[3 * j + 1] * x1).relu();
        }
        let mut h2 = [0.0; 16];
        for k in 0..16 {
            let mut a = p[48 + 17 * k + 16];
            for j in 0..16 {
                a += p[48 + 17 * k + j] * h1[j];
            }
            h2[k] = a.relu();
        }
        let mut score = p[336];
        for k in 0..16 {
            score += p[320 + k] * h2[k];
        }
        total += (1.0 - ys[s] * score).relu();
    }
    let mut reg = 0.0;
    for i in 0..p.len() {
        reg += p[i] * p[i];
    }
    total / ys.len() as f64 + 1e-4 * reg
}

/// The three layers of `p`, as fixed-size arrays (so that indexing needs no bounds checks).
fn layers(p: &[f64]) -> (&[f64; 48], &[f64; 272], &[f64; 17]) {
    let (l1, rest) = p.split_at(48);
    let (l2, l3) = rest.split_at(272);
    (
        l1.try_into().expect("337 parameters"),
        l2.try_into().expect("337 parameters"),
        l3.try_into().expect("337 parameters"),
    )
}

/// The three layers of `d_p`, mutable.
fn layers_mut(d_p: &mut [f64]) -> (&mut [f64; 48], &mut [f64; 272], &mut [f64; 17]) {
    let (l1, rest) = d_p.split_at_mut(48);
    let (l2, l3) = rest.split_at_mut(272);
    (
        l1.try_into().expect("337 parameters"),
        l2.try_into().expect("337 parameters"),
        l3.try_into().expect("337 parameters"),
    )
}

/// The forward pass of one point: hidden activations and score.
#[inline(always)]
fn forward(
    l1: &[f64; 48],
    l2: &[f64; 272],
    l3: &[f64; 17],
    x0: f64,
    x1: f64,
) -> ([f64; 16], [f64; 16], f64) {
    let mut h1 = [0.0; 16];
    for j in 0..16 {
        h1[j] = (l1[3 * j + 2] + l1[3 * j] * x0 + l1[3 * j + 1] * x1).relu();
    }
    let mut h2 = [0.0; 16];
    for k in 0..16 {
        let mut a = l2[17 * k + 16];
        for j in 0..16 {
            a += l2[17 * k + j] * h1[j];
        }
        h2[k] = a.relu();
    }
    let mut score = l3[16];
    for k in 0..16 {
        score += l3[k] * h2[k];
    }
    (h1, h2, score)
}

/// The hand-written gradient, written for speed: adds `∂loss/∂p` into `d_p`, returns the loss.
///
/// The loss is a sum over points, so each point's reverse sweep runs right after its forward
/// pass (nothing is stored across points), and it uses what ReLU and hinge make zero: a point
/// whose hinge is inactive (`1 - y·score <= 0`) has no backward pass at all, and an inactive
/// hidden unit (`h = 0`) skips its row of weight updates.
pub fn moons_hand(p: &[f64], d_p: &mut [f64], xs: &[f64], ys: &[f64]) -> f64 {
    assert!(p.len() == PARAMS && d_p.len() == PARAMS && xs.len() == 2 * ys.len());
    let (l1, l2, l3) = layers(p);
    let (d1, d2, d3) = layers_mut(d_p);
    let n = ys.len() as f64;
    let mut total = 0.0;
    for (x, &y) in xs.chunks_exact(2).zip(ys) {
        let (x0, x1) = (x[0], x[1]);
        let (h1, h2, score) = forward(l1, l2, l3, x0, x1);
        let margin = 1.0 - y * score;
        if margin <= 0.0 {
            continue;
        }
        total += margin;
        let d_score = -y / n;
        d3[16] += d_score;
        let mut d_h1 = [0.0; 16];
        for k in 0..16 {
            d3[k] += d_score * h2[k];
            if h2[k] > 0.0 {
                let d_a = d_score * l3[k];
                d2[17 * k + 16] += d_a;
                for j in 0..16 {
                    d2[17 * k + j] += d_a * h1[j];
                    d_h1[j] += d_a * l2[17 * k + j];
                }
            }
        }
        for j in 0..16 {
            if h1[j] > 0.0 {
                let d_a = d_h1[j];
                d1[3 * j] += d_a * x0;
                d1[3 * j + 1] += d_a * x1;
                d1[3 * j + 2] += d_a;
            }
        }
    }
    let mut reg = 0.0;
    for (d, w) in d_p.iter_mut().zip(p) {
        reg += w * w;
        *d += 2.0 * ALPHA * w;
    }
    total / n + ALPHA * reg
}

/// The same fused gradient without the sparsity shortcuts of [`moons_hand`]: every point and
/// every hidden unit runs its full backward pass, multiplying by a 0/1 mask. A diagnostic
/// contender: it does exactly the arithmetic the generated gradient does, so the gap between
/// the two hand-written versions is what ReLU/hinge sparsity is worth.
pub fn moons_hand_dense(p: &[f64], d_p: &mut [f64], xs: &[f64], ys: &[f64]) -> f64 {
    assert!(p.len() == PARAMS && d_p.len() == PARAMS && xs.len() == 2 * ys.len());
    let (l1, l2, l3) = layers(p);
    let (d1, d2, d3) = layers_mut(d_p);
    let n = ys.len() as f64;
    let mut total = 0.0;
    for (x, &y) in xs.chunks_exact(2).zip(ys) {
        let (x0, x1) = (x[0], x[1]);
        let (h1, h2, score) = forward(l1, l2, l3, x0, x1);
        let hinge = (1.0 - y * score).relu();
        total += hinge;
        let d_score = if hinge > 0.0 { -y / n } else { 0.0 };
        d3[16] += d_score;
        let mut d_h1 = [0.0; 16];
        for k in 0..16 {
            d3[k] += d_score * h2[k];
            let d_a = if h2[k] > 0.0 { d_score * l3[k] } else { 0.0 };
            d2[17 * k + 16] += d_a;
            for j in 0..16 {
                d2[17 * k + j] += d_a * h1[j];
                d_h1[j] += d_a * l2[17 * k + j];
            }
        }
        for j in 0..16 {
            let d_a = if h1[j] > 0.0 { d_h1[j] } else { 0.0 };
            d1[3 * j] += d_a * x0;
            d1[3 * j + 1] += d_a * x1;
            d1[3 * j + 2] += d_a;
        }
    }
    let mut reg = 0.0;
    for (d, w) in d_p.iter_mut().zip(p) {
        reg += w * w;
        *d += 2.0 * ALPHA * w;
    }
    total / n + ALPHA * reg
}

/// How many points have an active hinge (a non-zero backward pass) at `p`.
pub fn active_points(p: &[f64], xs: &[f64], ys: &[f64]) -> usize {
    let (l1, l2, l3) = layers(p);
    xs.chunks_exact(2)
        .zip(ys)
        .filter(|(x, y)| 1.0 - *y * forward(l1, l2, l3, x[0], x[1]).2 > 0.0)
        .count()
}

/// The runtime's `Mlp`: `zero_grad`, then `train_loss` (one generated gradient of the whole
/// network per point), then `grads`. Returns the loss and the 337 partials.
pub fn moons_mlp(mlp: &mut Mlp, data: &Dataset) -> (f64, Vec<f64>) {
    mlp.zero_grad();
    let (loss, _scores) = mlp.train_loss(&data.points, &data.labels, Loss::Hinge, ALPHA);
    (loss, mlp.grads())
}

/// One step of the main job (`examples/moons.rs`) on the runtime's `Mlp`: `zero_grad`, the
/// loss, gradient and scores (`train_loss_into`), the accuracy, and the SGD update through
/// `parameters_mut`. Returns the loss and the accuracy.
pub fn moons_mlp_step(
    mlp: &mut Mlp,
    data: &Dataset,
    scores: &mut [f64],
    sgd: &mut micrograd_runtime::optim::Sgd,
) -> (f64, f64) {
    use micrograd_runtime::optim::Optimizer;
    mlp.zero_grad();
    let loss = mlp.train_loss_into(&data.points, &data.labels, Loss::Hinge, ALPHA, scores);
    let accuracy = data::accuracy(scores, &data.labels);
    let view = mlp.parameters_mut();
    sgd.step(view.values, view.grads);
    (loss, accuracy)
}

/// `reverse`: the 337 parameters on the tape, the data as constants. Returns the loss and the
/// 337 partials.
pub fn moons_reverse(tape: &reverse::Tape, p: &[f64], xs: &[f64], ys: &[f64]) -> (f64, Vec<f64>) {
    use super::reverse_relu as relu;
    use reverse::Gradient;
    tape.clear();
    let p = tape.add_vars(p);
    let mut total = tape.add_var(0.0);
    for (x, &y) in xs.chunks_exact(2).zip(ys) {
        let h1: Vec<_> = (0..16)
            .map(|j| relu(p[3 * j + 2] + p[3 * j] * x[0] + p[3 * j + 1] * x[1]))
            .collect();
        let h2: Vec<_> = (0..16)
            .map(|k| {
                let mut a = p[48 + 17 * k + 16];
                for j in 0..16 {
                    a = a + p[48 + 17 * k + j] * h1[j];
                }
                relu(a)
            })
            .collect();
        let mut score = p[336];
        for k in 0..16 {
            score = score + p[320 + k] * h2[k];
        }
        total = total + relu(1.0 - y * score);
    }
    let mut reg = tape.add_var(0.0);
    for pi in &p {
        reg = reg + *pi * *pi;
    }
    let loss = total / ys.len() as f64 + ALPHA * reg;
    let grads = loss.grad();
    (loss.val(), grads.wrt(&p))
}

/// The loss, generic over num-dual's dual numbers.
pub fn moons_generic<D: DualNum<Primitive = f64> + Copy>(p: &[D], xs: &[f64], ys: &[f64]) -> D {
    use super::dual_relu as relu;
    let mut total = D::from(0.0);
    for (x, &y) in xs.chunks_exact(2).zip(ys) {
        let mut h1 = [D::from(0.0); 16];
        for j in 0..16 {
            h1[j] = relu(p[3 * j + 2] + p[3 * j] * x[0] + p[3 * j + 1] * x[1]);
        }
        let mut h2 = [D::from(0.0); 16];
        for k in 0..16 {
            let mut a = p[48 + 17 * k + 16];
            for j in 0..16 {
                a += p[48 + 17 * k + j] * h1[j];
            }
            h2[k] = relu(a);
        }
        let mut score = p[336];
        for k in 0..16 {
            score += p[320 + k] * h2[k];
        }
        total += relu(-(score * y) + 1.0);
    }
    let mut reg = D::from(0.0);
    for pi in p {
        reg += *pi * *pi;
    }
    total / ys.len() as f64 + reg * ALPHA
}

/// num-dual's `Gradients::gradient` on a `DVector` of the 337 parameters: for a dynamic size
/// it runs one forward pass on `Dual64` per parameter (337 passes).
pub fn moons_num_dual(p: &DVector<f64>, xs: &[f64], ys: &[f64]) -> (f64, DVector<f64>) {
    Gradients::gradient(
        |p: DVector<Dual64>, _: &()| moons_generic(p.as_slice(), xs, ys),
        p,
        &(),
    )
}

/// micrograd's way on `micrograd_runtime::Value`: a leaf per parameter, the graph of the whole
/// loss, `backward`. Returns the loss and the 337 partials.
pub fn moons_value(p: &[f64], xs: &[f64], ys: &[f64]) -> (f64, Vec<f64>) {
    let p: Vec<Value> = p.iter().map(|&pi| Value::new(pi)).collect();
    let mut total = Value::new(0.0);
    for (x, &y) in xs.chunks_exact(2).zip(ys) {
        let h1: Vec<Value> = (0..16)
            .map(|j| (&p[3 * j + 2] + &p[3 * j] * x[0] + &p[3 * j + 1] * x[1]).relu())
            .collect();
        let h2: Vec<Value> = (0..16)
            .map(|k| {
                let mut a = p[48 + 17 * k + 16].clone();
                for j in 0..16 {
                    a += &p[48 + 17 * k + j] * &h1[j];
                }
                a.relu()
            })
            .collect();
        let mut score = p[336].clone();
        for k in 0..16 {
            score += &p[320 + k] * &h2[k];
        }
        total += (1.0 - y * score).relu();
    }
    let mut reg = Value::new(0.0);
    for pi in &p {
        reg += pi * pi;
    }
    let loss = total / ys.len() as f64 + ALPHA * reg;
    loss.backward();
    (loss.data(), p.iter().map(Value::grad).collect())
}

/// Asserts that every contender agrees with [`moons_hand`] to 1e-9 relative, on `n` points.
/// With `slow`, num-dual (337 forward passes) is checked too.
pub fn check(n: usize, slow: bool) {
    let Inputs {
        mut mlp,
        p,
        data,
        xs,
    } = inputs(n);
    let ys = &data.labels;
    let with_value = |d: &[f64], value: f64| -> Vec<f64> {
        let mut v = d.to_vec();
        v.push(value);
        v
    };
    let mut d_p = vec![0.0; PARAMS];
    let value = moons_hand(&p, &mut d_p, &xs, ys);
    let want = with_value(&d_p, value);
    assert!(
        (value - moons_loss(&p, &xs, ys)).abs() <= 1e-12 * value.abs(),
        "T3 hand-written loss"
    );

    let mut d_p = vec![0.0; PARAMS];
    let value = moons_hand_dense(&p, &mut d_p, &xs, ys);
    super::assert_close("T3 hand-written dense", &with_value(&d_p, value), &want);

    let mut d_p = vec![0.0; PARAMS];
    let value = moons_loss_grad(&p, &mut d_p, &xs, ys);
    assert_eq!(
        value.to_bits(),
        moons_loss(&p, &xs, ys).to_bits(),
        "moons_loss_grad value"
    );
    super::assert_close("T3 generated", &with_value(&d_p, value), &want);

    let (value, d) = moons_mlp(&mut mlp, &data);
    super::assert_close("T3 Mlp", &with_value(&d, value), &want);

    let tape = reverse::Tape::new();
    let (value, d) = moons_reverse(&tape, &p, &xs, ys);
    super::assert_close("T3 reverse", &with_value(&d, value), &want);

    let (value, d) = moons_value(&p, &xs, ys);
    super::assert_close("T3 Value", &with_value(&d, value), &want);

    if slow {
        let (value, d) = moons_num_dual(&DVector::from_column_slice(&p), &xs, ys);
        super::assert_close("T3 num-dual", &with_value(d.as_slice(), value), &want);
    }
}
