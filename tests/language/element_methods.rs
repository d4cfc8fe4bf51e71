//! Methods of the elements of a field (issue 25): micrograd's MLP as a Rust user writes it,
//! `Mlp { layers: Vec<Layer>, head: Neuron }`, `Layer { neurons: Vec<Neuron> }`, each level an
//! `impl` calling the next as `self.layers[l].forward(&h)` and `self.neurons[j].forward(x)`;
//! the gradient goes into `d_self.layers[l].neurons[j]`. Checked against the runtime's `Value`
//! engine on the same network, central differences of the plain methods and num-dual on a
//! twin; `f_jvp`, `f_hvp` and `f_hessian` against `Dual64` and `HyperDual64`.
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
        for j in 0..self.neurons.len() {
            out[j] = self.neurons[j].forward(x);
        }
        out
    }
}

#[derive(Differentiable, Clone, Debug)]
struct Mlp {
    layers: Vec<Layer>,
    head: Neuron,
}

impl Mlp {
    #[differentiable(hvp)]
    fn forward(&self, x: &[f64]) -> f64 {
        let mut h: [f64; 3] = self.layers[0].forward(x);
        for l in 1..self.layers.len() {
            // A copy for the call: `h` changes after it (the pullback reads what it passed).
            let input = h;
            let next: [f64; 3] = self.layers[l].forward(&input);
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
}

/// The network's builder and its oracles, for a module's own `Mlp`, `Layer` and `Neuron` (their
/// methods differ: `loop_methods` calls the same network through iterators): `mlp`, `flat`,
/// `with`, the data `XS` and `YS`, `neuron_twin` and `loss_twin` over dual numbers, and
/// `loss_value` on the `Value` engine.
///
/// `network!(pairs)` is the builder of the smaller network of `array_call_assign` and
/// `element_elements`, `Mlp { layers: Vec<Layer> }` of `Layer { neurons: Vec<Neuron> }`, two
/// `Neuron { w: Vec<f64>, b: f64 }` of two inputs each: `mlp`, `flat` and `with` (each module
/// writes its own twins, since the networks' methods differ).
macro_rules! network {
    (pairs) => {
        /// A network of `layers` layers of two neurons of two inputs (weights from a fixed
        /// sequence).
        fn mlp(layers: usize) -> Mlp {
            let mut k = 0.0_f64;
            let mut next = || {
                k += 1.0;
                (k * 0.9).sin() * 0.9
            };
            Mlp {
                layers: (0..layers)
                    .map(|_| Layer {
                        neurons: (0..2)
                            .map(|_| Neuron {
                                w: vec![next(), next()],
                                b: next(),
                            })
                            .collect(),
                    })
                    .collect(),
            }
        }

        $crate::element_methods::network!(entries);
    };
    (entries) => {
        /// Every `f64` of `m` in the order `for_each_entry` visits them (field order, depth first:
        /// per neuron `w` then `b`).
        fn flat(m: &Mlp) -> Vec<f64> {
            let mut m = m.clone();
            let mut out = Vec::new();
            m.for_each_entry::<f64>(&mut |x| out.push(*x));
            out
        }

        /// `m` with its `f64`s replaced by `p`, in [`flat`]'s order.
        fn with(m: &Mlp, p: &[f64]) -> Mlp {
            let mut m = m.clone();
            let mut k = 0;
            m.for_each_entry::<f64>(&mut |x| {
                *x = p[k];
                k += 1;
            });
            m
        }
    };
    () => {
        /// A 2-3-..-3-1 network with `layers` hidden layers (weights from a fixed sequence).
        fn mlp(layers: usize) -> Mlp {
            let mut k = 0.0_f64;
            let mut next = || {
                k += 1.0;
                (k * 0.7).sin() * 0.8
            };
            let mut neuron = |inputs: usize, linear: bool| Neuron {
                w: (0..inputs).map(|_| next()).collect(),
                b: next(),
                linear,
            };
            let layers = (0..layers)
                .map(|l| Layer {
                    neurons: (0..3)
                        .map(|_| neuron(if l == 0 { 2 } else { 3 }, false))
                        .collect(),
                })
                .collect();
            Mlp {
                layers,
                head: neuron(3, true),
            }
        }

        $crate::element_methods::network!(entries);

        const XS: [[f64; 2]; 3] = [[0.5, -1.0], [1.5, 0.25], [-0.75, 0.8]];
        const YS: [f64; 3] = [1.0, -1.0, 0.5];

        /// One neuron over any dual number, reading its parameters from `p` at `k` on.
        fn neuron_twin<D: DualNum<Primitive = f64> + Copy>(
            n: &Neuron,
            p: &[D],
            k: &mut usize,
            x: &[D],
        ) -> D {
            let mut s = p[*k + n.w.len()];
            for (i, input) in x.iter().take(n.w.len()).enumerate() {
                s += p[*k + i] * *input;
            }
            *k += n.w.len() + 1;
            if n.linear { s } else { s.tanh() }
        }

        /// `Mlp::loss` over any dual number, its parameters `p` in [`flat`]'s order.
        fn loss_twin<D: DualNum<Primitive = f64> + Copy>(m: &Mlp, p: &[D]) -> D {
            let mut total = D::from(0.0);
            for (x, y) in XS.iter().zip(YS) {
                let mut k = 0;
                let mut h: Vec<D> = x.iter().map(|&v| D::from(v)).collect();
                for layer in &m.layers {
                    h = layer
                        .neurons
                        .iter()
                        .map(|n| neuron_twin(n, p, &mut k, &h))
                        .collect();
                }
                let e = neuron_twin(&m.head, p, &mut k, &h) - D::from(y);
                total += e * e;
            }
            total / D::from(XS.len() as f64)
        }

        /// The same network's loss on micrograd's `Value` engine.
        fn loss_value(m: &Mlp, p: &[Value]) -> Value {
            let neuron = |n: &Neuron, k: &mut usize, x: &[Value]| {
                let mut s = p[*k + n.w.len()].clone();
                for (i, input) in x.iter().take(n.w.len()).enumerate() {
                    s = &s + &(&p[*k + i] * input);
                }
                *k += n.w.len() + 1;
                if n.linear { s } else { s.tanh() }
            };
            let mut total = Value::new(0.0);
            for (x, y) in XS.iter().zip(YS) {
                let mut k = 0;
                let mut h: Vec<Value> = x.iter().map(|&v| Value::new(v)).collect();
                for layer in &m.layers {
                    h = layer
                        .neurons
                        .iter()
                        .map(|n| neuron(n, &mut k, &h))
                        .collect();
                }
                let e = &neuron(&m.head, &mut k, &h) - y;
                total = &total + &(&e * &e);
            }
            &total / XS.len() as f64
        }
    };
}
pub(crate) use network;

network!();

#[test]
fn loss_grad_against_the_value_engine_central_differences_and_num_dual() {
    for layers in [1, 2, 3] {
        let m = mlp(layers);
        let mut d_m = m.zeroed_like();
        let value = m.loss_grad(&mut d_m, &XS, &YS);
        let point = flat(&m);
        let name = format!("mlp loss, {layers} hidden layers");
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
fn forward_pullback_and_jvp() {
    let m = mlp(2);
    let x = [0.3, -0.6];
    let mut d_m = m.zeroed_like();
    let mut d_x = [0.0; 2];
    m.forward_pullback(&mut d_m, &x, &mut d_x, 2.0);
    let mut g_m = m.zeroed_like();
    let mut g_x = [0.0; 2];
    let value = m.forward_grad(&mut g_m, &x, &mut g_x);
    assert_eq!(value.to_bits(), m.forward(&x).to_bits());
    for (k, (a, b)) in flat(&d_m).iter().zip(flat(&g_m)).enumerate() {
        assert_near(&format!("forward_pullback [{k}]"), *a, 2.0 * b, 1e-15);
    }
    let f = |v: &[f64]| m.forward(v);
    common::assert_gradient("forward d_x", f, &x, &g_x);
    let v = with(&m, &flat(&m).iter().map(|p| p.cos()).collect::<Vec<_>>());
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
fn loss_hvp_and_hessian_against_hyper_dual_numbers() {
    let m = mlp(2);
    let point = flat(&m);
    let n = point.len();
    let mut hess = vec![0.0; n * n];
    let value = m.loss_hessian(&XS, &YS, &mut hess);
    assert_eq!(value.to_bits(), m.loss(&XS, &YS).to_bits());
    oracle::Hessian::new("mlp loss_hessian", &point, &hess)
        .dual(|p: &[num_dual::HyperDual64]| loss_twin(&m, p));
    let v = with(
        &m,
        &point.iter().map(|p| (3.0 * p).sin()).collect::<Vec<_>>(),
    );
    let mut hv = m.zeroed_like();
    m.loss_hvp(&v, &mut hv, &XS, &YS);
    let hv = flat(&hv);
    let v = flat(&v);
    for i in 0..n {
        let expected: f64 = (0..n).map(|j| hess[i * n + j] * v[j]).sum();
        assert_near(&format!("loss_hvp [{i}]"), hv[i], expected, 1e-12);
    }
}
