//! Programs organised as methods, as people write them: a linear model, a logistic regression,
//! a two-layer network whose layers are structs with methods of their own, a chain of springs
//! with an associated const, and a recurrent cell stepped over a sequence. Each `loss` calls
//! the model's other methods through `self`. Every gradient and Hessian is checked against
//! num-dual on a generic twin of the same program (dual numbers for gradients, hyper-dual
//! numbers for Hessians) and against central differences, the value bit for bit the method's.
#![deny(warnings)]

use crate::common;

use common::assert_near;
use common::oracle::{self, check};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

fn c<D: DualNum<Primitive = f64>>(x: f64) -> D {
    D::from(x)
}

// 1. A linear model with an L2 penalty.

#[derive(Differentiable, Clone)]
struct Linear {
    w: [f64; 3],
    b: f64,
}

impl Linear {
    const LAMBDA: f64 = 1e-2;

    #[differentiable(hvp)]
    fn predict(&self, x: &[f64]) -> f64 {
        let mut y = self.b;
        for i in 0..self.w.len() {
            y += self.w[i] * x[i];
        }
        y
    }

    #[differentiable(wrt(self), hessian)]
    fn loss(&self, xs: &[[f64; 3]], ys: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..ys.len() {
            let x = [xs[i][0], xs[i][1], xs[i][2]];
            let e = self.predict(&x) - ys[i];
            s += e * e;
        }
        s / ys.len() as f64 + Self::LAMBDA * self.w.iter().map(|w| w * w).sum::<f64>()
    }

    fn flat(&self) -> Vec<f64> {
        vec![self.w[0], self.w[1], self.w[2], self.b]
    }

    fn with(p: &[f64]) -> Linear {
        Linear {
            w: [p[0], p[1], p[2]],
            b: p[3],
        }
    }
}

fn linear_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D], xs: &[[f64; 3]], ys: &[f64]) -> D {
    let mut s = c::<D>(0.0);
    for (x, y) in xs.iter().zip(ys) {
        let e = p[3] + p[0] * c::<D>(x[0]) + p[1] * c::<D>(x[1]) + p[2] * c::<D>(x[2]) - c::<D>(*y);
        s += e * e;
    }
    let l2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
    s / c::<D>(ys.len() as f64) + l2 * c::<D>(Linear::LAMBDA)
}

#[test]
fn a_linear_model() {
    let xs = [
        [0.5, -1.0, 2.0],
        [1.5, 0.2, -0.3],
        [-0.7, 0.9, 0.4],
        [0.0, 1.1, -1.2],
    ];
    let ys = [1.0, -0.5, 0.3, 0.8];
    let m = Linear::with(&[0.2, -0.4, 0.6, 0.1]);
    let mut d_m = Linear::with(&[0.0; 4]);
    let value = m.loss_grad(&mut d_m, &xs, &ys);
    let f = |p: &[f64]| Linear::with(p).loss(&xs, &ys);
    let twin = |p: &[Dual64]| linear_twin(p, &xs, &ys);
    check!(
        "linear",
        &m.flat(),
        (value, &d_m.flat()),
        against = [central(f), dual(twin)]
    );
    let mut hess = [0.0; 16];
    m.loss_hessian(&xs, &ys, &mut hess);
    oracle::Hessian::new("linear", &m.flat(), &hess).dual(|p| linear_twin(p, &xs, &ys));
}

// 2. A logistic regression: the negative log-likelihood of boolean labels.

#[derive(Differentiable, Clone)]
struct Logistic {
    w: Vec<f64>,
    b: f64,
}

impl Logistic {
    #[differentiable(hvp)]
    fn logit(&self, x: &[f64]) -> f64 {
        self.w.iter().zip(x).map(|(w, x)| w * x).sum::<f64>() + self.b
    }

    #[differentiable(wrt(self), hessian)]
    fn nll(&self, xs: &[[f64; 2]], labels: &[bool]) -> f64 {
        let mut s = 0.0;
        for i in 0..xs.len() {
            let x = [xs[i][0], xs[i][1]];
            let p = self.logit(&x).sigmoid();
            s -= if labels[i] { p.ln() } else { (1.0 - p).ln() };
        }
        s
    }
}

fn logistic_twin<D: DualNum<Primitive = f64> + Copy>(
    p: &[D],
    xs: &[[f64; 2]],
    labels: &[bool],
) -> D {
    let mut s = c::<D>(0.0);
    for (x, label) in xs.iter().zip(labels) {
        let z = p[0] * c::<D>(x[0]) + p[1] * c::<D>(x[1]) + p[2];
        let prob = (c::<D>(1.0) + (-z).exp()).recip();
        s -= if *label {
            prob.ln()
        } else {
            (c::<D>(1.0) - prob).ln()
        };
    }
    s
}

#[test]
fn a_logistic_regression() {
    let xs = [
        [0.5, -1.0],
        [1.5, 0.2],
        [-0.7, 0.9],
        [0.3, 1.1],
        [-1.4, -0.2],
    ];
    let labels = [true, false, true, true, false];
    let point = [0.8, -0.3, 0.2];
    let with = |p: &[f64]| Logistic {
        w: p[..2].to_vec(),
        b: p[2],
    };
    let m = with(&point);
    let mut d_m = m.zeroed_like();
    let value = m.nll_grad(&mut d_m, &xs, &labels);
    let gradient = [d_m.w[0], d_m.w[1], d_m.b];
    let f = |p: &[f64]| with(p).nll(&xs, &labels);
    let twin = |p: &[Dual64]| logistic_twin(p, &xs, &labels);
    check!(
        "logistic",
        &point,
        (value, &gradient),
        against = [central(f), dual(twin)]
    );
    let mut hess = [0.0; 9];
    m.nll_hessian(&xs, &labels, &mut hess);
    oracle::Hessian::new("logistic", &point, &hess).dual(|p| logistic_twin(p, &xs, &labels));
}

// 3. A two-layer network whose layers call their own methods: `self.hidden.unit(k, x)` hands
// the nested struct on whole, with its part of `d_self`.

#[derive(Differentiable, Clone)]
struct Layer {
    w: [f64; 4],
    b: [f64; 2],
}

impl Layer {
    #[differentiable(hessian)]
    fn unit(&self, k: usize, x: &[f64]) -> f64 {
        (self.w[2 * k] * x[0] + self.w[2 * k + 1] * x[1] + self.b[k]).tanh()
    }
}

#[derive(Differentiable, Clone)]
struct Mlp {
    hidden: Layer,
    out: Layer,
    scale: f64,
}

impl Mlp {
    #[differentiable(hessian)]
    fn forward(&self, x: &[f64]) -> f64 {
        let h = [self.hidden.unit(0, x), self.hidden.unit(1, x)];
        self.scale * self.out.unit(0, &h) + self.out.unit(1, &h)
    }

    fn flat(&self) -> Vec<f64> {
        let mut v = self.hidden.w.to_vec();
        v.extend(self.hidden.b);
        v.extend(self.out.w);
        v.extend(self.out.b);
        v.push(self.scale);
        v
    }

    fn with(v: &[f64]) -> Mlp {
        let layer = |v: &[f64]| Layer {
            w: [v[0], v[1], v[2], v[3]],
            b: [v[4], v[5]],
        };
        Mlp {
            hidden: layer(&v[0..6]),
            out: layer(&v[6..12]),
            scale: v[12],
        }
    }
}

/// `Mlp::forward` over the 13 parameters and then the 2 inputs.
fn mlp_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    let unit =
        |l: &[D], k: usize, x: [D; 2]| (l[2 * k] * x[0] + l[2 * k + 1] * x[1] + l[4 + k]).tanh();
    let x = [p[13], p[14]];
    let h = [unit(&p[0..6], 0, x), unit(&p[0..6], 1, x)];
    p[12] * unit(&p[6..12], 0, h) + unit(&p[6..12], 1, h)
}

#[test]
fn a_network_of_layers() {
    let v: Vec<f64> = (0..13).map(|k| ((k * 7 % 11) as f64 - 5.0) / 6.0).collect();
    let mlp = Mlp::with(&v);
    let x = [0.4, -0.8];
    let mut point = v.clone();
    point.extend(x);
    let (mut d_mlp, mut d_x) = (Mlp::with(&[0.0; 13]), [0.0; 2]);
    let value = mlp.forward_grad(&mut d_mlp, &x, &mut d_x);
    let mut gradient = d_mlp.flat();
    gradient.extend(d_x);
    let f = |p: &[f64]| Mlp::with(p).forward(&p[13..]);
    check!(
        "mlp",
        &point,
        (value, &gradient),
        against = [central(f), dual(mlp_twin)]
    );
    let mut hess = vec![0.0; 15 * 15];
    let value = mlp.forward_hessian(&x, &mut hess);
    assert_eq!(value.to_bits(), mlp.forward(&x).to_bits());
    oracle::Hessian::new("mlp", &point, &hess).dual(mlp_twin);
}

// 4. A vertical chain of masses joined by springs, under gravity: the energy's gradient in the
// positions is minus the forces, its Hessian the stiffness matrix.

#[derive(Differentiable, Clone)]
struct Chain {
    k: [f64; 3],
    rest: f64,
    mass: f64,
}

impl Chain {
    const G: f64 = 9.81;

    #[differentiable(hvp)]
    fn spring(&self, i: usize, stretch: f64) -> f64 {
        0.5 * self.k[i] * (stretch - self.rest).powi(2)
    }

    #[differentiable(hessian)]
    fn energy(&self, x: &[f64]) -> f64 {
        let mut e = 0.0;
        for i in 0..self.k.len() {
            e += self.spring(i, x[i + 1] - x[i]);
        }
        for xi in x {
            e += self.mass * Self::G * xi;
        }
        e
    }

    /// The energy as a function of the positions alone.
    #[differentiable(wrt(x), hessian)]
    fn potential(&self, x: &[f64]) -> f64 {
        self.energy(x)
    }
}

/// `Chain::energy` over `k`, `rest`, `mass`, then the 4 positions.
fn chain_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    let x = &p[5..9];
    let mut e = c::<D>(0.0);
    for i in 0..3 {
        let s = x[i + 1] - x[i] - p[3];
        e += c::<D>(0.5) * p[i] * s * s;
    }
    for xi in x {
        e += p[4] * c::<D>(Chain::G) * *xi;
    }
    e
}

#[test]
fn a_chain_of_springs() {
    let chain = Chain {
        k: [3.0, 1.5, 2.2],
        rest: 0.4,
        mass: 0.3,
    };
    let x = [0.0, 0.5, 0.7, 1.4];
    let mut point = vec![3.0, 1.5, 2.2, 0.4, 0.3];
    point.extend(x);
    let with = |p: &[f64]| Chain {
        k: [p[0], p[1], p[2]],
        rest: p[3],
        mass: p[4],
    };
    let (mut d_chain, mut d_x) = (chain.zeroed_like(), [0.0; 4]);
    let value = chain.energy_grad(&mut d_chain, &x, &mut d_x);
    let mut gradient = d_chain.k.to_vec();
    gradient.extend([d_chain.rest, d_chain.mass]);
    gradient.extend(d_x);
    let f = |p: &[f64]| with(p).energy(&p[5..]);
    check!(
        "chain",
        &point,
        (value, &gradient),
        against = [central(f), dual(chain_twin)]
    );
    let mut hess = vec![0.0; 9 * 9];
    chain.energy_hessian(&x, &mut hess);
    oracle::Hessian::new("chain", &point, &hess).dual(chain_twin);
    // In the positions alone: the stiffness matrix, the lower-right block.
    let mut stiffness = [0.0; 16];
    let value = chain.potential_hessian(&x, &mut stiffness);
    assert_eq!(value.to_bits(), chain.potential(&x).to_bits());
    for i in 0..4 {
        for j in 0..4 {
            assert_near(
                "stiffness",
                stiffness[4 * i + j],
                hess[9 * (5 + i) + 5 + j],
                1e-15,
            );
        }
    }
}

// 5. A recurrent cell stepped over a sequence, its state threaded through `self.step`.

#[derive(Differentiable, Clone)]
struct Rnn {
    wh: f64,
    wx: f64,
    b: f64,
    wo: f64,
}

impl Rnn {
    #[differentiable(hvp)]
    fn step(&self, h: f64, x: f64) -> f64 {
        (self.wh * h + self.wx * x + self.b).tanh()
    }

    #[differentiable(wrt(self), hessian)]
    fn run(&self, xs: &[f64]) -> f64 {
        let mut h = 0.0;
        for &x in xs {
            h = self.step(h, x);
        }
        self.wo * h
    }
}

fn rnn_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D], xs: &[f64]) -> D {
    let mut h = c::<D>(0.0);
    for x in xs {
        h = (p[0] * h + p[1] * c::<D>(*x) + p[2]).tanh();
    }
    p[3] * h
}

#[test]
fn a_recurrent_cell() {
    let xs = [0.5, -1.0, 0.3, 0.9, -0.2, 0.1];
    let point = [0.9, 0.6, -0.1, 1.3];
    let with = |p: &[f64]| Rnn {
        wh: p[0],
        wx: p[1],
        b: p[2],
        wo: p[3],
    };
    let rnn = with(&point);
    let mut d_rnn = rnn.zeroed_like();
    let value = rnn.run_grad(&mut d_rnn, &xs);
    let gradient = [d_rnn.wh, d_rnn.wx, d_rnn.b, d_rnn.wo];
    let f = |p: &[f64]| with(p).run(&xs);
    check!(
        "rnn",
        &point,
        (value, &gradient),
        against = [central(f), dual(|p| rnn_twin(p, &xs))]
    );
    let mut hess = [0.0; 16];
    rnn.run_hessian(&xs, &mut hess);
    oracle::Hessian::new("rnn", &point, &hess).dual(|p| rnn_twin(p, &xs));
    let (value, along) = rnn.run_jvp(&with(&[1.0, 0.0, -1.0, 0.5]), &xs);
    assert_eq!(value.to_bits(), rnn.run(&xs).to_bits());
    let expected = gradient[0] - gradient[2] + 0.5 * gradient[3];
    assert_near("rnn_jvp", along, expected, 1e-14);
}
