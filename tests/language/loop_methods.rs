//! Methods called on a loop's variable (issue 25): micrograd's MLP as a Rust user writes it
//! with iterators, `for layer in &self.layers { h = layer.forward(&input); }`,
//! `for (j, neuron) in self.neurons.iter().enumerate() { out[j] = neuron.forward(x); }` and
//! `for layer in self.layers.iter()`, each the loop by index over the field's elements
//! (`methods::read::element_loop`), so the gradient goes into `d_self.layers[l].neurons[j]`.
//! Checked against the runtime's `Value` engine on the same network, central differences of
//! the plain methods and num-dual twins (`Dual64`, and `HyperDual64` for `f_hvp`/`f_hessian`).
#![deny(warnings)]

use crate::common;

use common::assert_near;
use common::oracle::{self, check};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;
use num_dual::DualNum;

#[derive(Differentiable, Clone, Debug)]
struct Neuron {
    w: Vec<f64>,
    b: f64,
    linear: bool,
}

impl Neuron {
    #[differentiable(hvp)]
    fn forward(&self, x: &[f64]) -> f64 {
        let mut s = self.b;
        for i in 0..self.w.len() {
            s += self.w[i] * x[i];
        }
        if self.linear { s } else { s.tanh() }
    }
}

#[derive(Differentiable, Clone, Debug)]
struct Layer {
    neurons: Vec<Neuron>,
}

impl Layer {
    #[differentiable(hvp)]
    fn forward(&self, x: &[f64]) -> [f64; 3] {
        let mut out = [0.0; 3];
        for (j, neuron) in self.neurons.iter().enumerate() {
            out[j] = neuron.forward(x);
        }
        out
    }

    /// The sum of the layer's outputs, its neurons by `for .. in &self.neurons`.
    #[differentiable(hvp)]
    fn total(&self, x: &[f64]) -> f64 {
        let mut s = 0.0;
        for neuron in &self.neurons {
            s += neuron.forward(x);
        }
        s
    }
}

#[derive(Differentiable, Clone, Debug)]
struct Mlp {
    layers: Vec<Layer>,
    head: Neuron,
}

impl Mlp {
    /// The first layer's neurons read two inputs of the three.
    #[differentiable(hvp)]
    fn forward(&self, x: &[f64]) -> f64 {
        let mut h = [x[0], x[1], 0.0];
        for layer in &self.layers {
            // A copy for the call: `h` changes after it (the pullback reads what it passed).
            let input = h;
            let next: [f64; 3] = layer.forward(&input);
            h = next;
        }
        self.head.forward(&h)
    }

    /// The mean squared error over the data; `wrt(self)`: the data are constants.
    #[differentiable(wrt(self), hessian)]
    fn loss(&self, xs: &[[f64; 2]], ys: &[f64]) -> f64 {
        let mut s = 0.0;
        for k in 0..xs.len() {
            let x = [xs[k][0], xs[k][1]];
            let e = self.forward(&x) - ys[k];
            s += e * e;
        }
        s / xs.len() as f64
    }

    /// Every layer's total on the same input, through `self.layers.iter()`.
    #[differentiable(hvp)]
    fn spread(&self, x: &[f64]) -> f64 {
        let mut s = 0.0;
        for layer in self.layers.iter() {
            s += layer.total(x) * layer.total(x);
        }
        s
    }
}

// The network and its oracles, as `element_methods` builds them.
crate::element_methods::network!();

/// `Mlp::spread` at `x` over any dual number.
fn spread_twin<D: DualNum<Primitive = f64> + Copy>(m: &Mlp, p: &[D], x: &[f64]) -> D {
    let x: Vec<D> = x.iter().map(|&v| D::from(v)).collect();
    let mut k = 0;
    let mut s = D::from(0.0);
    for layer in &m.layers {
        let mut t = D::from(0.0);
        for n in &layer.neurons {
            t += neuron_twin(n, p, &mut k, &x);
        }
        s += t * t;
    }
    s
}

#[test]
fn loss_grad_against_the_value_engine_central_differences_and_num_dual() {
    for layers in [1, 2, 3] {
        let m = mlp(layers);
        let mut d_m = m.zeroed_like();
        let value = m.loss_grad(&mut d_m, &XS, &YS);
        assert_eq!(value.to_bits(), m.loss(&XS, &YS).to_bits());
        let point = flat(&m);
        let name = format!("looped mlp loss, {layers} hidden layers");
        check!(
            &name,
            &point,
            (value, &flat(&d_m)),
            against = [
                central(|p: &[f64]| with(&m, p).loss(&XS, &YS)),
                dual(|p: &[num_dual::Dual64]| loss_twin(&m, p)),
                value(|p: &[Value]| loss_value(&m, p)),
            ]
        );
        // The gradient lands in each element's own shadow.
        assert!(d_m.layers[layers - 1].neurons[2].b != 0.0);
    }
}

#[test]
fn loss_hessian_and_forward_flavours() {
    let m = mlp(2);
    let point = flat(&m);
    let n = point.len();
    let mut hess = vec![0.0; n * n];
    let value = m.loss_hessian(&XS, &YS, &mut hess);
    assert_eq!(value.to_bits(), m.loss(&XS, &YS).to_bits());
    oracle::Hessian::new("looped mlp loss_hessian", &point, &hess)
        .dual(|p: &[num_dual::HyperDual64]| loss_twin(&m, p));
    // `forward`'s pullback, gradient in `x` and directional derivative.
    let x = [0.3, -0.6];
    let mut g_m = m.zeroed_like();
    let mut g_x = [0.0; 2];
    let value = m.forward_grad(&mut g_m, &x, &mut g_x);
    assert_eq!(value.to_bits(), m.forward(&x).to_bits());
    common::assert_gradient("forward d_x", |v: &[f64]| m.forward(v), &x, &g_x);
    let mut d_m = m.zeroed_like();
    let mut d_x = [0.0; 2];
    m.forward_pullback(&mut d_m, &x, &mut d_x, 2.0);
    for (k, (a, b)) in flat(&d_m).iter().zip(flat(&g_m)).enumerate() {
        assert_near(&format!("forward_pullback [{k}]"), *a, 2.0 * b, 1e-15);
    }
    let v = with(&m, &point.iter().map(|p| p.cos()).collect::<Vec<_>>());
    let (value, directional) = m.forward_jvp(&v, &x, &[0.5, 1.0]);
    assert_eq!(value.to_bits(), m.forward(&x).to_bits());
    let along: f64 = flat(&g_m)
        .iter()
        .zip(flat(&v))
        .map(|(g, v)| g * v)
        .sum::<f64>()
        + 0.5 * g_x[0]
        + g_x[1];
    assert_near("forward_jvp", directional, along, 1e-14);
}

#[test]
fn spread_through_iter_against_num_dual() {
    for layers in [1, 3] {
        let m = mlp(layers);
        let x = [0.4, -0.9, 0.2];
        let point = flat(&m);
        let mut d_m = m.zeroed_like();
        let mut d_x = [0.0; 3];
        let value = m.spread_grad(&mut d_m, &x, &mut d_x);
        assert_eq!(value.to_bits(), m.spread(&x).to_bits());
        oracle::Gradient::new("spread_grad", &point, (value, &flat(&d_m)))
            .central(|p: &[f64]| with(&m, p).spread(&x))
            .dual(|p: &[num_dual::Dual64]| spread_twin(&m, p, &x));
        common::assert_gradient("spread d_x", |v: &[f64]| m.spread(v), &x, &d_x);
        let second =
            oracle::dual_hessian(|p: &[num_dual::HyperDual64]| spread_twin(&m, p, &x), &point);
        let v = with(
            &m,
            &point.iter().map(|p| (3.0 * p).sin()).collect::<Vec<_>>(),
        );
        let mut hv = m.zeroed_like();
        let mut hv_x = [0.0; 3];
        m.spread_hvp(&v, &mut hv, &x, &[0.0; 3], &mut hv_x);
        let v = flat(&v);
        for (i, got) in flat(&hv).iter().enumerate() {
            let expected: f64 = (0..point.len()).map(|j| second[i][j] * v[j]).sum();
            assert_near(&format!("spread_hvp [{i}]"), *got, expected, 1e-12);
        }
    }
}
