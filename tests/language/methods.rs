//! `#[differentiable]` on `&self` methods of a `#[derive(Differentiable)]` type: `self` is a
//! parameter struct, its shadow `d_self: &mut Self` right after the receiver
//! (`model.loss_grad(&mut d_model, ..)`), `wrt(self)` selects it and `wrt(x)` leaves it
//! constant; methods call each other as `self.forward(x)`, associated functions as
//! `Self::act(z)`, and read associated consts (`Self::K`). Every flavour is checked against
//! central differences of the plain method and against num-dual on a generic twin of the same
//! program (or the `Value` engine), the value bit for bit the method's.
#![deny(warnings)]

use crate::common;

use common::{assert_gradient, assert_near, assert_partial, assert_same_value};
use micrograd_runtime::prelude::*;
use nalgebra::SVector;
use num_dual::{Dual2SVec64, DualNum};

/// A neuron `scale · act(w · x + b)`, with `act(z) = tanh z + K z`.
#[derive(Differentiable, Clone, Debug, PartialEq)]
struct Model {
    w: [f64; 2],
    b: f64,
    scale: f64,
}

impl Model {
    const K: f64 = 0.25;

    /// An associated function without a receiver, called as `Self::act`.
    #[differentiable(hvp)]
    fn act(z: f64) -> f64 {
        z.tanh() + Self::K * z
    }

    #[differentiable(hessian)]
    fn forward(&self, x: &[f64]) -> f64 {
        self.scale * Self::act(self.w[0] * x[0] + self.w[1] * x[1] + self.b)
    }

    /// The mean squared error over the data, calling `self.forward` in a loop.
    #[differentiable(wrt(self), hessian)]
    fn loss(&self, data: &[[f64; 2]], labels: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..data.len() {
            let x = [data[i][0], data[i][1]];
            let e = self.forward(&x) - labels[i];
            s += e * e;
        }
        s / data.len() as f64
    }

    /// `wrt(x)`: the model is a constant, no shadow.
    #[differentiable(wrt(x), hessian)]
    fn sensitivity(&self, x: &[f64]) -> f64 {
        let y = self.forward(x);
        y * y + self.b * x[0]
    }

    /// Two outputs, their Jacobian with respect to `x`.
    #[differentiable(wrt(x), jacobian)]
    fn features(&self, x: &[f64]) -> [f64; 2] {
        [self.forward(x), self.w[0] * x[1] * x[1]]
    }

    #[differentiable(graph)]
    fn line(&self, x: f64) -> f64 {
        (self.w[0] * x + self.b).relu() * self.scale
    }
}

/// An associated function with `hessian`: `f_hessian` calls `Self::curve_hvp`.
impl Model {
    #[differentiable(hessian)]
    fn curve(x: f64, y: f64) -> f64 {
        Self::K * x * x * y + Self::act(y)
    }
}

/// `Model`'s `f64`s in field order, and back: what central differences and num-dual perturb.
impl Model {
    fn flat(&self) -> [f64; 4] {
        [self.w[0], self.w[1], self.b, self.scale]
    }

    fn with(v: &[f64]) -> Model {
        Model {
            w: [v[0], v[1]],
            b: v[2],
            scale: v[3],
        }
    }
}

/// `Model::loss` written again over any dual number, its parameters flattened.
fn loss_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D], data: &[[f64; 2]], labels: &[f64]) -> D {
    let mut s = D::from(0.0);
    for (x, label) in data.iter().zip(labels) {
        let z = p[0] * D::from(x[0]) + p[1] * D::from(x[1]) + p[2];
        let e = p[3] * (z.tanh() + z * D::from(Model::K)) - D::from(*label);
        s += e * e;
    }
    s / D::from(data.len() as f64)
}

/// num-dual's value, gradient and Hessian of `loss_twin` at `p`.
fn loss_reference(
    p: [f64; 4],
    data: &[[f64; 2]],
    labels: &[f64],
) -> (f64, [f64; 4], [[f64; 4]; 4]) {
    let (value, gradient, hessian) = num_dual::hessian(
        |v: SVector<Dual2SVec64<4>, 4>| loss_twin(v.as_slice(), data, labels),
        &SVector::from(p),
    );
    let mut h = [[0.0; 4]; 4];
    for (i, row) in h.iter_mut().enumerate() {
        for (j, entry) in row.iter_mut().enumerate() {
            *entry = hessian[(i, j)];
        }
    }
    (value, gradient.into(), h)
}

fn model() -> Model {
    Model {
        w: [0.7, -0.4],
        b: 0.15,
        scale: 1.3,
    }
}

const DATA: [[f64; 2]; 4] = [[0.5, 1.0], [-1.2, 0.3], [2.0, -0.7], [0.1, 0.1]];
const LABELS: [f64; 4] = [0.4, -0.6, 1.1, 0.0];

#[test]
fn loss_grad_takes_the_shadow_after_the_receiver() {
    let m = model();
    let mut d_m = m.zeroed_like();
    let value = m.loss_grad(&mut d_m, &DATA, &LABELS);
    assert_same_value("loss", value, m.loss(&DATA, &LABELS), &m.flat());
    let f = |v: &[f64]| Model::with(v).loss(&DATA, &LABELS);
    assert_gradient("loss", f, &m.flat(), &d_m.flat());
    let (reference, gradient, _) = loss_reference(m.flat(), &DATA, &LABELS);
    assert_near("loss (num-dual)", value, reference, 1e-15);
    for (k, (d, g)) in d_m.flat().iter().zip(gradient).enumerate() {
        assert_near(&format!("loss d[{k}] (num-dual)"), *d, g, 1e-14);
    }
    // The shadow accumulates, like a `p: &S` parameter's.
    m.loss_grad(&mut d_m, &DATA, &LABELS);
    for (d, g) in d_m.flat().iter().zip(gradient) {
        assert_near("loss twice", *d, 2.0 * g, 1e-14);
    }
}

/// The same program on micrograd's `Value` engine.
#[test]
fn loss_against_the_value_engine() {
    use micrograd_runtime::Value;
    let m = model();
    let mut d_m = m.zeroed_like();
    let value = m.loss_grad(&mut d_m, &DATA, &LABELS);
    let p: Vec<Value> = m.flat().iter().map(|v| Value::new(*v)).collect();
    let mut s = Value::new(0.0);
    for (x, label) in DATA.iter().zip(LABELS) {
        let z = &(&(&p[0] * x[0]) + &(&p[1] * x[1])) + &p[2];
        let act = &z.tanh() + &(&z * Model::K);
        let e = &(&p[3] * &act) - label;
        s = &s + &(&e * &e);
    }
    let loss = &s / DATA.len() as f64;
    loss.backward();
    assert_near("loss (Value)", loss.data(), value, 1e-15);
    for (k, (v, d)) in p.iter().zip(d_m.flat()).enumerate() {
        assert_near(&format!("loss d[{k}] (Value)"), v.grad(), d, 1e-14);
    }
}

#[test]
fn loss_pullback_scales_by_the_seed() {
    let m = model();
    let mut d_m = m.zeroed_like();
    m.loss_pullback(&mut d_m, &DATA, &LABELS, &mut [], -2.5);
    let (_, gradient, _) = loss_reference(m.flat(), &DATA, &LABELS);
    for (d, g) in d_m.flat().iter().zip(gradient) {
        assert_near("loss_pullback", *d, -2.5 * g, 1e-14);
    }
}

#[test]
fn loss_jvp_hvp_and_hessian() {
    let m = model();
    let v = Model {
        w: [0.3, -1.1],
        b: 0.8,
        scale: -0.5,
    };
    let (reference, gradient, hessian) = loss_reference(m.flat(), &DATA, &LABELS);
    let exact = m.loss(&DATA, &LABELS);
    let (value, directional) = m.loss_jvp(&v, &DATA, &LABELS);
    assert_eq!(value.to_bits(), exact.to_bits(), "loss_jvp value");
    let along: f64 = gradient.iter().zip(v.flat()).map(|(g, v)| g * v).sum();
    assert_near("loss_jvp", directional, along, 1e-14);
    let f = |t: &[f64]| {
        let p: Vec<f64> = m
            .flat()
            .iter()
            .zip(v.flat())
            .map(|(p, v)| p + t[0] * v)
            .collect();
        Model::with(&p).loss(&DATA, &LABELS)
    };
    assert_partial("loss_jvp (central)", f, &[0.0], 0, directional);
    let mut hv = m.zeroed_like();
    // With no `f64` parameter, `f_hvp` returns the value alone and adds `H v` into the shadow.
    let value = m.loss_hvp(&v, &mut hv, &DATA, &LABELS);
    assert_eq!(value.to_bits(), exact.to_bits(), "loss_hvp value");
    for (i, row) in hessian.iter().enumerate() {
        let expected: f64 = row.iter().zip(v.flat()).map(|(h, v)| h * v).sum();
        assert_near(&format!("loss_hvp [{i}]"), hv.flat()[i], expected, 1e-13);
    }
    let mut hess = [0.0; 16];
    let value = m.loss_hessian(&DATA, &LABELS, &mut hess);
    assert_eq!(value.to_bits(), exact.to_bits(), "loss_hessian value");
    assert_near("loss (num-dual)", value, reference, 1e-15);
    for i in 0..4 {
        for j in 0..4 {
            let name = format!("loss_hessian [{i}][{j}]");
            assert_near(&name, hess[4 * i + j], hessian[i][j], 1e-13);
        }
    }
}

/// `wrt(x)`: the gradient, JVP and Hessian in `x` alone, the model a constant.
#[test]
fn wrt_an_input_leaves_self_constant() {
    let m = model();
    let x = [0.6, -0.9];
    let f = |x: &[f64]| m.sensitivity(x);
    let mut d_x = [0.0; 2];
    let value = m.sensitivity_grad(&x, &mut d_x);
    assert_same_value("sensitivity", value, f(&x), &x);
    assert_gradient("sensitivity", f, &x, &d_x);
    let (value, directional) = m.sensitivity_jvp(&x, &[1.0, 2.0]);
    assert_eq!(value.to_bits(), f(&x).to_bits());
    assert_near("sensitivity_jvp", directional, d_x[0] + 2.0 * d_x[1], 1e-14);
    let mut hess = [0.0; 4];
    m.sensitivity_hessian(&x, &mut hess);
    for i in 0..2 {
        let row = |x: &[f64]| {
            let mut d = [0.0; 2];
            m.sensitivity_grad(x, &mut d);
            d[i]
        };
        for j in 0..2 {
            assert_partial("sensitivity_hessian", row, &x, j, hess[2 * i + j]);
        }
    }
}

/// `forward` is called by the others; its own flavours, with `self` and `x` differentiated.
#[test]
fn forward_in_every_flavour() {
    let m = model();
    let x = [0.6, -0.9];
    let mut point = m.flat().to_vec();
    point.extend(x);
    let f = |v: &[f64]| Model::with(v).forward(&v[4..]);
    let (mut d_m, mut d_x) = (m.zeroed_like(), [0.0; 2]);
    let value = m.forward_grad(&mut d_m, &x, &mut d_x);
    assert_same_value("forward", value, f(&point), &point);
    let mut gradient = d_m.flat().to_vec();
    gradient.extend(d_x);
    assert_gradient("forward", f, &point, &gradient);
    let mut hess = [0.0; 36];
    let value = m.forward_hessian(&x, &mut hess);
    assert_eq!(value.to_bits(), m.forward(&x).to_bits());
    for i in 0..6 {
        let row = |v: &[f64]| {
            let (mut d_m, mut d_x) = (m.zeroed_like(), [0.0; 2]);
            Model::with(v).forward_grad(&mut d_m, &v[4..], &mut d_x);
            let mut d = d_m.flat().to_vec();
            d.extend(d_x);
            d[i]
        };
        for j in 0..6 {
            assert_partial("forward_hessian", row, &point, j, hess[6 * i + j]);
        }
    }
}

#[test]
fn associated_function_called_as_type_path() {
    let (value, d) = Model::act_grad(0.3);
    assert_eq!(value.to_bits(), Model::act(0.3).to_bits());
    assert_near("act", d, common::derivative(Model::act, 0.3), 1e-9);
}

#[test]
fn associated_function_hessian() {
    let (x, y) = (0.7, -0.3);
    let (value, h) = Model::curve_hessian(x, y);
    assert_eq!(value.to_bits(), Model::curve(x, y).to_bits());
    // ∂²/∂x² = 2Ky, ∂²/∂x∂y = 2Kx, ∂²/∂y² = act''(y) = -2 tanh y (1 - tanh² y).
    let t = y.tanh();
    let k = Model::K;
    let expected = [
        [2.0 * k * y, 2.0 * k * x],
        [2.0 * k * x, -2.0 * t * (1.0 - t * t)],
    ];
    for i in 0..2 {
        for j in 0..2 {
            assert_near(
                &format!("curve_hessian [{i}][{j}]"),
                h[i][j],
                expected[i][j],
                1e-15,
            );
        }
    }
}

#[test]
fn features_jacobian_in_x() {
    let m = model();
    let x = [0.6, -0.9];
    // Row-major: output `i`'s partials in `x` are `block[2 * i..2 * i + 2]`.
    let mut block = [0.0; 4];
    let (value, _) = m.features_jacobian(&x, &mut block);
    let exact = m.features(&x);
    for i in 0..2 {
        assert_eq!(value[i].to_bits(), exact[i].to_bits(), "features value {i}");
        for j in 0..2 {
            let entry = block[2 * i + j];
            assert_partial("features", |x| m.features(x)[i], &x, j, entry);
        }
    }
}

#[test]
fn line_graph_and_grad() {
    let m = model();
    let graph = m.line_graph(0.5);
    let mut d_m = m.zeroed_like();
    let (value, d_x) = m.line_grad(&mut d_m, 0.5);
    let output = graph.output().expect("the graph's output");
    assert_eq!(graph.node(output).data().to_bits(), value.to_bits());
    assert_eq!(graph.find("x").map(|n| n.grad()), Some(d_x));
    // A field's leaf is labelled by its binding, as `p_b` of a parameter `p` is.
    assert_eq!(graph.find("self_b").map(|n| n.grad()), Some(d_m.b));
    assert_gradient("line", |v| Model::with(v).line(0.5), &m.flat(), &d_m.flat());
    assert_near(
        "line d_x",
        d_x,
        common::derivative(|x| m.line(x), 0.5),
        1e-9,
    );
}

/// A parameter named `d_self`: the shadow of `self` is `d_self_`, as the shadow of `w` is
/// `d_w_` beside a parameter `d_w`.
#[derive(Differentiable, Clone, Debug, PartialEq)]
struct Pair {
    a: f64,
    b: f64,
}

impl Pair {
    #[differentiable]
    fn scaled(&self, d_self: f64) -> f64 {
        self.a * d_self + self.b * self.b
    }
}

#[test]
fn a_parameter_named_d_self() {
    let p = Pair { a: 0.5, b: -1.5 };
    let mut d_p = p.zeroed_like();
    let (value, d_scale) = p.scaled_grad(&mut d_p, 3.0);
    assert_eq!(value.to_bits(), p.scaled(3.0).to_bits());
    assert_eq!((d_p.a, d_p.b, d_scale), (3.0, -3.0, 0.5));
}

/// A model written in `f32` throughout gets the same methods in `f32`.
#[derive(Differentiable, Clone, Debug, PartialEq)]
struct Small {
    w: [f32; 2],
    b: f32,
}

impl Small {
    #[differentiable(hvp)]
    fn forward(&self, x: &[f32]) -> f32 {
        (self.w[0] * x[0] + self.w[1] * x[1] + self.b).tanh()
    }

    #[differentiable(wrt(self), hessian)]
    fn loss(&self, xs: &[[f32; 2]], ys: &[f32]) -> f32 {
        let mut s = 0.0;
        for i in 0..xs.len() {
            let x = [xs[i][0], xs[i][1]];
            let e = self.forward(&x) - ys[i];
            s += e * e;
        }
        s
    }
}

#[test]
fn f32_methods() {
    let m = Small {
        w: [0.7, -0.4],
        b: 0.15,
    };
    let xs = [[0.5f32, 1.0], [-1.2, 0.3], [2.0, -0.7]];
    let ys = [0.4f32, -0.6, 1.1];
    let mut d_m = m.zeroed_like();
    let value = m.loss_grad(&mut d_m, &xs, &ys);
    assert_eq!(value.to_bits(), m.loss(&xs, &ys).to_bits());
    // The reference: the same loss in f64 over the same f32 inputs, by central differences.
    let f = |p: &[f64]| {
        let mut s = 0.0;
        for (x, y) in xs.iter().zip(ys) {
            let z = p[0] * f64::from(x[0]) + p[1] * f64::from(x[1]) + p[2];
            let e = z.tanh() - f64::from(y);
            s += e * e;
        }
        s
    };
    let point = [f64::from(m.w[0]), f64::from(m.w[1]), f64::from(m.b)];
    let gradient = [d_m.w[0], d_m.w[1], d_m.b].map(f64::from);
    for (k, g) in gradient.iter().enumerate() {
        let mut moved = point;
        let h = 1e-6;
        moved[k] += h;
        let up = f(&moved);
        moved[k] -= 2.0 * h;
        let central = (up - f(&moved)) / (2.0 * h);
        assert!(
            (g - central).abs() < 1e-4,
            "f32 loss d[{k}]: {g} against {central}"
        );
    }
    let mut hess = [0.0f32; 9];
    let value = m.loss_hessian(&xs, &ys, &mut hess);
    assert_eq!(value.to_bits(), m.loss(&xs, &ys).to_bits());
    for i in 0..3 {
        for j in 0..3 {
            assert!(
                (hess[3 * i + j] - hess[3 * j + i]).abs() < 1e-6,
                "symmetric"
            );
        }
    }
}
