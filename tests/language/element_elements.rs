//! A method of an element's element (issue 25, left from session 12):
//! `self.layers[l].neurons[j].forward(x)` in a method of `Mlp { layers: Vec<Layer> }`, `Layer {
//! neurons: Vec<Neuron> }`, read as `__micrograd_element::neurons::forward(l, j, &self.layers,
//! x)` and printed back as `self.layers[l].neurons[j].forward_pullback(&mut
//! d_self.layers[l].neurons[j], ..)`; it was "reads a field of an element". `f_grad` against
//! central differences, num-dual and the `Value` engine, `f_hessian` against `HyperDual64`,
//! `f_jvp` against the gradient; each value bit for bit the method's.
#![deny(warnings)]

use crate::common;

use common::assert_near;
use common::oracle;
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;
use num_dual::DualNum;

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

#[derive(Differentiable, Clone, Debug)]
struct Mlp {
    layers: Vec<Layer>,
}

impl Mlp {
    /// Every neuron of every layer on the same input, weighted by its place.
    #[differentiable(hessian)]
    fn weighted(&self, x: &[f64]) -> f64 {
        let mut s = 0.0;
        for l in 0..self.layers.len() {
            for j in 0..2 {
                s += self.layers[l].neurons[j].forward(x) * (j as f64 + 1.0);
            }
        }
        s
    }

    /// One neuron picked by the caller, squared.
    #[differentiable(hessian)]
    fn picked(&self, x: &[f64], l: usize, j: usize) -> f64 {
        let y = self.layers[l].neurons[j].forward(x);
        y * y
    }
}

// The network `mlp(layers)` and its entries `flat`, `with`, as `element_elements` and
// `array_call_assign` build them.
crate::element_methods::network!(pairs);

/// `weighted` over any dual number: `p` is the model's entries then `x`.
fn weighted_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    let n = p.len() - 2;
    let x = [p[n], p[n + 1]];
    let mut s = D::from(0.0);
    for (k, j) in (0..n / 3).map(|k| (k, k % 2)) {
        let y = (p[3 * k + 2] + p[3 * k] * x[0] + p[3 * k + 1] * x[1]).tanh();
        s += y * D::from(j as f64 + 1.0);
    }
    s
}

fn weighted_value(p: &[Value]) -> Value {
    let n = p.len() - 2;
    let mut s = Value::new(0.0);
    for k in 0..n / 3 {
        let z = &(&p[3 * k + 2] + &(&p[3 * k] * &p[n])) + &(&p[3 * k + 1] * &p[n + 1]);
        s = &s + &(&z.tanh() * ((k % 2) as f64 + 1.0));
    }
    s
}

#[test]
fn an_elements_element_against_the_value_engine_central_differences_and_num_dual() {
    for layers in [1, 3] {
        let m = mlp(layers);
        let x = [0.4, -0.8];
        let mut point = flat(&m);
        point.extend(x);
        let (mut d_m, mut d_x) = (m.zeroed_like(), [0.0; 2]);
        let value = m.weighted_grad(&mut d_m, &x, &mut d_x);
        assert_eq!(value.to_bits(), m.weighted(&x).to_bits());
        let mut gradient = flat(&d_m);
        gradient.extend(d_x);
        let name = format!("weighted, {layers} layers");
        oracle::Gradient::new(&name, &point, (value, &gradient))
            .central(|p: &[f64]| with(&m, p).weighted(&p[p.len() - 2..]))
            .dual(|p: &[num_dual::Dual64]| weighted_twin(p))
            .value(weighted_value);
        // The gradient lands in the last neuron's own shadow.
        assert!(d_m.layers[layers - 1].neurons[1].b != 0.0);
        let mut hess = vec![0.0; point.len() * point.len()];
        let value = m.weighted_hessian(&x, &mut hess);
        assert_eq!(value.to_bits(), m.weighted(&x).to_bits());
        oracle::Hessian::new("weighted_hessian", &point, &hess)
            .dual(|p: &[num_dual::HyperDual64]| weighted_twin(p));
        let ones = with(&m, &vec![1.0; point.len()]);
        let (value, directional) = m.weighted_jvp(&ones, &x, &[1.0; 2]);
        assert_eq!(value.to_bits(), m.weighted(&x).to_bits());
        assert_near("weighted_jvp", directional, gradient.iter().sum(), 1e-12);
    }
}

#[test]
fn a_picked_neuron_gets_its_gradient_and_no_other() {
    let m = mlp(2);
    let x = [0.3, 0.6];
    for (l, j) in [(0, 1), (1, 0)] {
        let (mut d_m, mut d_x) = (m.zeroed_like(), [0.0; 2]);
        let value = m.picked_grad(&mut d_m, &x, &mut d_x, l, j);
        assert_eq!(value.to_bits(), m.picked(&x, l, j).to_bits());
        let mut point = flat(&m);
        point.extend(x);
        let mut gradient = flat(&d_m);
        gradient.extend(d_x);
        oracle::Gradient::new("picked", &point, (value, &gradient))
            .central(|p: &[f64]| with(&m, p).picked(&p[p.len() - 2..], l, j));
        let k = 3 * (2 * l + j);
        for (i, g) in flat(&d_m).iter().enumerate() {
            assert_eq!(
                *g != 0.0,
                (k..k + 3).contains(&i),
                "entry {i} of ({l}, {j})"
            );
        }
    }
}
