//! A call returning `[f64; M]` assigned to a local array of that length (issue 25):
//! `h = step(&h, w);` in a free function and `h = self.layers[l].forward(&h);` /
//! `h = layer.forward(&h);` in a method, as a Rust user writes an MLP's forward pass (it was
//! "arrays are updated entry by entry"). The call's arguments read `h` itself: every output is
//! computed before `h` is written. `f_grad`, `f_jvp`, `f_hvp` and `f_hessian` against central
//! differences of the plain functions, num-dual twins and the `Value` engine; each value bit
//! for bit `f`'s.
#![deny(warnings)]

use crate::common;

use common::oracle;
use common::{assert_near, assert_same_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;
use num_dual::DualNum;

/// One step of a rotation-and-squash map, returning both coordinates.
#[differentiable(hvp)]
fn step(h: &[f64; 2], w: &[f64]) -> [f64; 2] {
    [
        (w[0] * h[0] - w[1] * h[1]).tanh(),
        (w[1] * h[0] + w[0] * h[1] + w[2]).sin(),
    ]
}

/// `n` steps from `x`, each assigned back to `h`.
#[differentiable(hessian)]
fn iterate(x: &[f64], w: &[f64], n: usize) -> f64 {
    let mut h = [x[0], x[1]];
    for _ in 0..n {
        h = step(&h, w);
    }
    h[0] * h[0] + 3.0 * h[1]
}

fn step_twin<D: DualNum<Primitive = f64> + Copy>(h: [D; 2], w: &[D]) -> [D; 2] {
    [
        (w[0] * h[0] - w[1] * h[1]).tanh(),
        (w[1] * h[0] + w[0] * h[1] + w[2]).sin(),
    ]
}

/// `iterate` over any dual number, `p` being `x` (2) then `w` (3).
fn iterate_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D], n: usize) -> D {
    let mut h = [p[0], p[1]];
    for _ in 0..n {
        h = step_twin(h, &p[2..]);
    }
    h[0] * h[0] + D::from(3.0) * h[1]
}

#[test]
fn a_free_functions_array_assigned_back_against_central_differences_and_num_dual() {
    for n in [0, 1, 4] {
        let (x, w) = ([0.3, -0.7], [0.9, 0.4, -0.2]);
        let point = [x[0], x[1], w[0], w[1], w[2]];
        let f = |p: &[f64]| iterate(&p[..2], &p[2..], n);
        let (mut d_x, mut d_w) = ([0.0; 2], [0.0; 3]);
        let value = iterate_grad(&x, &mut d_x, &w, &mut d_w, n);
        assert_eq!(value.to_bits(), iterate(&x, &w, n).to_bits());
        let gradient = [d_x[0], d_x[1], d_w[0], d_w[1], d_w[2]];
        let name = format!("iterate_grad, {n} steps");
        oracle::Gradient::new(&name, &point, (value, &gradient))
            .central(f)
            .dual(|p: &[num_dual::Dual64]| iterate_twin(p, n));
        let mut hess = vec![0.0; 25];
        let value = iterate_hessian(&x, &w, n, &mut hess);
        assert_eq!(value.to_bits(), iterate(&x, &w, n).to_bits());
        let name = format!("iterate_hessian, {n} steps");
        oracle::Hessian::new(&name, &point, &hess)
            .dual(|p: &[num_dual::HyperDual64]| iterate_twin(p, n));
        // The tangent along (1, 1, 1, 1, 1).
        let (value, directional) = iterate_jvp(&x, &[1.0; 2], &w, &[1.0; 3], n);
        assert_same_value("iterate_jvp", value, iterate(&x, &w, n), &point);
        assert_near(
            &format!("iterate_jvp, {n} steps"),
            directional,
            gradient.iter().sum(),
            1e-12,
        );
    }
}

#[derive(Differentiable, Clone, Debug)]
struct Neuron {
    w: Vec<f64>,
    b: f64,
}

impl Neuron {
    #[differentiable(hvp)]
    fn forward(&self, x: &[f64]) -> f64 {
        let mut s = self.b;
        for i in 0..self.w.len() {
            s += self.w[i] * x[i];
        }
        s.tanh()
    }
}

#[derive(Differentiable, Clone, Debug)]
struct Layer {
    neurons: Vec<Neuron>,
}

impl Layer {
    #[differentiable(hvp)]
    fn forward(&self, x: &[f64]) -> [f64; 2] {
        let mut out = [0.0; 2];
        for j in 0..self.neurons.len() {
            out[j] = self.neurons[j].forward(x);
        }
        out
    }
}

#[derive(Differentiable, Clone, Debug)]
struct Mlp {
    layers: Vec<Layer>,
}

impl Mlp {
    /// The layers by index, each output assigned back to `h`.
    #[differentiable(hessian)]
    fn by_index(&self, x: &[f64]) -> f64 {
        let mut h = [x[0], x[1]];
        for l in 0..self.layers.len() {
            h = self.layers[l].forward(&h);
        }
        h[0] + 2.0 * h[1] * h[1]
    }

    /// The same through `for layer in &self.layers`.
    #[differentiable(hessian)]
    fn by_loop(&self, x: &[f64]) -> f64 {
        let mut h = [x[0], x[1]];
        for layer in &self.layers {
            h = layer.forward(&h);
        }
        h[0] + 2.0 * h[1] * h[1]
    }
}

// The network `mlp(layers)` and its entries `flat`, `with`, as `element_elements` and
// `array_call_assign` build them.
crate::element_methods::network!(pairs);

/// The network over any dual number: `p` is the model's entries (`flat`'s order: per neuron
/// `w` then `b`) then `x`.
fn mlp_twin<D: DualNum<Primitive = f64> + Copy>(layers: usize, p: &[D]) -> D {
    let n = p.len() - 2;
    let mut h = [p[n], p[n + 1]];
    let mut k = 0;
    for _ in 0..layers {
        let mut out = [D::from(0.0); 2];
        for o in out.iter_mut() {
            *o = (p[k + 2] + p[k] * h[0] + p[k + 1] * h[1]).tanh();
            k += 3;
        }
        h = out;
    }
    h[0] + D::from(2.0) * h[1] * h[1]
}

/// The same on the `Value` engine.
fn mlp_value(layers: usize, p: &[Value]) -> Value {
    let n = p.len() - 2;
    let mut h = vec![p[n].clone(), p[n + 1].clone()];
    let mut k = 0;
    for _ in 0..layers {
        let mut out = Vec::new();
        for _ in 0..2 {
            let s = &(&p[k + 2] + &(&p[k] * &h[0])) + &(&p[k + 1] * &h[1]);
            out.push(s.tanh());
            k += 3;
        }
        h = out;
    }
    &h[0] + &(&(&h[1] * &h[1]) * 2.0)
}

#[test]
fn a_methods_array_assigned_back_against_the_value_engine_central_differences_and_num_dual() {
    for layers in [1, 3] {
        let m = mlp(layers);
        let x = [0.4, -0.8];
        let mut point = flat(&m);
        point.extend(x);
        for by_loop in [false, true] {
            let f = |p: &[f64]| {
                let (model, x) = (with(&m, p), &p[p.len() - 2..]);
                if by_loop {
                    model.by_loop(x)
                } else {
                    model.by_index(x)
                }
            };
            let (mut d_m, mut d_x) = (m.zeroed_like(), [0.0; 2]);
            let value = if by_loop {
                m.by_loop_grad(&mut d_m, &x, &mut d_x)
            } else {
                m.by_index_grad(&mut d_m, &x, &mut d_x)
            };
            let mut gradient = flat(&d_m);
            gradient.extend(d_x);
            let name = format!("mlp, {layers} layers, by_loop {by_loop}");
            oracle::Gradient::new(&name, &point, (value, &gradient))
                .central(f)
                .dual(|p: &[num_dual::Dual64]| mlp_twin(layers, p))
                .value(|p: &[Value]| mlp_value(layers, p));
        }
        // `f_hessian` over the model's entries then `x`, against num-dual's.
        let mut hess = vec![0.0; point.len() * point.len()];
        let value = m.by_loop_hessian(&x, &mut hess);
        assert_eq!(value.to_bits(), m.by_loop(&x).to_bits());
        oracle::Hessian::new("mlp by_loop_hessian", &point, &hess)
            .dual(|p: &[num_dual::HyperDual64]| mlp_twin(layers, p));
        // `f_jvp` along every entry and `x` at once: the gradient's sum.
        let (value, directional) =
            m.by_index_jvp(&with(&m, &vec![1.0; point.len()]), &x, &[1.0; 2]);
        assert_eq!(value.to_bits(), m.by_index(&x).to_bits());
        let (mut d_m, mut d_x) = (m.zeroed_like(), [0.0; 2]);
        m.by_index_grad(&mut d_m, &x, &mut d_x);
        let sum = flat(&d_m).iter().sum::<f64>() + d_x[0] + d_x[1];
        assert_near("mlp by_index_jvp", directional, sum, 1e-12);
    }
}
