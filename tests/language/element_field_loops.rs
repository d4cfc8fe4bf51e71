//! Loops over a field of an element of `self` (issue 25's left list, session 14): `for n in
//! &self.layers[0].neurons { .. n.forward(x) .. }`, and the nested `for l in &self.layers { for
//! n in &l.neurons { .. } }`, read as loops by index whose bound is the element's field's length
//! (`self.layers[i].neurons.len()`, a call of integers the lowering prints back as written);
//! they were "`for` runs over .." and "reads a field of an element". `f_grad` against central
//! differences, num-dual on a twin and the `Value` engine, `f_hessian` against `HyperDual64`;
//! each value bit for bit the method's; layers of different widths.
#![deny(warnings)]

use crate::common;

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
    fn forward(&self, x: f64) -> f64 {
        (self.w[0] * x + self.b).tanh()
    }
}

#[derive(Differentiable, Clone, Debug)]
struct Layer {
    neurons: Vec<Neuron>,
}

#[derive(Differentiable, Clone, Debug)]
struct Net {
    layers: Vec<Layer>,
}

impl Net {
    /// The first layer's neurons, then every neuron of every layer times `x`.
    #[differentiable(hessian)]
    fn total(&self, x: f64) -> f64 {
        let mut s = 0.0;
        for n in &self.layers[0].neurons {
            s += n.forward(x);
        }
        for l in &self.layers {
            for n in &l.neurons {
                s += n.forward(x) * x;
            }
        }
        s
    }
}

/// Layers of 2, 1 and 3 neurons.
fn net() -> Net {
    let mut k = 0.0_f64;
    let mut next = || {
        k += 1.0;
        (k * 0.7).sin() * 0.8
    };
    let layers = [2, 1, 3].map(|width| Layer {
        neurons: (0..width)
            .map(|_| Neuron {
                w: vec![next()],
                b: next(),
            })
            .collect(),
    });
    Net {
        layers: layers.to_vec(),
    }
}

/// Every `f64` of `m`, in `for_each_entry`'s order (per neuron `w` then `b`).
fn flat(m: &Net) -> Vec<f64> {
    let mut m = m.clone();
    let mut out = Vec::new();
    m.for_each_entry::<f64>(&mut |x| out.push(*x));
    out
}

fn with(m: &Net, p: &[f64]) -> Net {
    let mut m = m.clone();
    let mut k = 0;
    m.for_each_entry::<f64>(&mut |x| {
        *x = p[k];
        k += 1;
    });
    m
}

/// `total` over any dual number: `p` is the entries (`w`, `b` per neuron, the first layer's
/// `first` neurons first) then `x`.
fn total_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D], first: usize) -> D {
    let x = p[p.len() - 1];
    let neuron = |k: usize| (p[2 * k] * x + p[2 * k + 1]).tanh();
    let mut s = D::from(0.0);
    for k in 0..first {
        s += neuron(k);
    }
    for k in 0..(p.len() - 1) / 2 {
        s += neuron(k) * x;
    }
    s
}

fn total_value(p: &[Value], first: usize) -> Value {
    let x = &p[p.len() - 1];
    let neuron = |k: usize| (&(&p[2 * k] * x) + &p[2 * k + 1]).tanh();
    let mut s = Value::new(0.0);
    for k in 0..first {
        s = &s + &neuron(k);
    }
    for k in 0..(p.len() - 1) / 2 {
        s = &s + &(&neuron(k) * x);
    }
    s
}

#[test]
fn loops_over_an_elements_field_against_three_references() {
    let m = net();
    let first = m.layers[0].neurons.len();
    for x in [0.4, -1.3] {
        let mut d_m = m.zeroed_like();
        let (value, d_x) = m.total_grad(&mut d_m, x);
        assert_eq!(value.to_bits(), m.total(x).to_bits());
        let mut point = flat(&m);
        point.push(x);
        let mut gradient = flat(&d_m);
        gradient.push(d_x);
        oracle::Gradient::new("total", &point, (value, &gradient))
            .central(|p: &[f64]| with(&m, p).total(p[p.len() - 1]))
            .dual(|p: &[num_dual::Dual64]| total_twin(p, first))
            .value(|p| total_value(p, first));
        // The last layer's last neuron, reached only by the nested loop, has its gradient.
        assert!(d_m.layers[2].neurons[2].b != 0.0);
        let mut hess = vec![0.0; point.len() * point.len()];
        let value = m.total_hessian(x, &mut hess);
        assert_eq!(value.to_bits(), m.total(x).to_bits());
        oracle::Hessian::new("total_hessian", &point, &hess)
            .dual(|p: &[num_dual::HyperDual64]| total_twin(p, first));
    }
}
