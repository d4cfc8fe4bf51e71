//! Parameter structs in forward mode and second order: the tangent of `p: &S` is a `v_p: &S`
//! right after it, and `f_hvp` adds `H v` into a shadow `d_p: &mut S`, as `f_grad` adds the
//! gradient. Checked on flattened structs against num-dual and central differences.

use super::programs::{Dual, c};
use super::{Case, check, hessian, points};
use micrograd_runtime::prelude::*;

#[derive(Differentiable, Clone, Debug)]
pub struct Layer {
    w: Vec<f64>,
    b: f64,
}

#[derive(Differentiable, Clone, Debug)]
pub struct Net {
    hidden: Layer,
    out: [f64; 2],
    steps: usize,
}

#[differentiable(hvp)]
fn neuron(l: &Layer, x: &[f64]) -> f64 {
    let mut s = l.b;
    for i in 0..l.w.len() {
        s += l.w[i] * x[i];
    }
    s.tanh()
}

/// A nested struct handed whole to a call, an array field, an integer field.
#[differentiable(hvp)]
fn net(p: &Net, x: &[f64]) -> f64 {
    let h = neuron(&p.hidden, x);
    let mut y = p.out[1];
    for _ in 0..p.steps {
        y = y * p.out[0] + h * h;
    }
    y
}

const X: [f64; 2] = [0.6, -1.1];

/// `(w0, w1, b, o0, o1)` as a `Net` of two steps.
fn unflat(p: &[f64]) -> Net {
    Net {
        hidden: Layer {
            w: p[..2].to_vec(),
            b: p[2],
        },
        out: [p[3], p[4]],
        steps: 2,
    }
}

fn flat(n: &Net) -> Vec<f64> {
    let mut v = n.hidden.w.clone();
    v.extend([n.hidden.b, n.out[0], n.out[1]]);
    v
}

fn net_dual<D: Dual>(p: &[D]) -> D {
    let h = (p[2] + p[0] * X[0] + p[1] * X[1]).tanh();
    let mut y = p[4];
    for _ in 0..2 {
        y = y * p[3] + h * h;
    }
    y + c::<D>(0.0)
}

#[test]
fn a_nested_parameter_struct_in_jvp_and_hvp() {
    let case = Case::<5> {
        name: "net",
        f: &|p| net(&unflat(p), &X),
        grad: &|p| {
            let p = unflat(p);
            let mut d_p = p.zeroed_like();
            net_grad(&p, &mut d_p, &X, &mut [0.0; 2]);
            flat(&d_p)
        },
        jvp: &|p, v| net_jvp(&unflat(p), &unflat(v), &X, &[0.0; 2]),
        hvp: &|p, v| {
            let p = unflat(p);
            let mut hv = p.zeroed_like();
            let value = net_hvp(&p, &unflat(v), &mut hv, &X, &[0.0; 2], &mut [0.0; 2]);
            (value, flat(&hv))
        },
        dual: &net_dual,
    };
    for (p, v) in points(5, -1.0, 1.0) {
        check(&case, &p, &v);
    }
}

/// The struct held constant (`wrt(x)`): the callee's tangent and its shadow are zeroed structs.
#[differentiable(hvp, wrt(x))]
fn net_in_x(p: &Net, x: &[f64]) -> f64 {
    net(p, x) * x[0]
}

fn net_in_x_dual<D: Dual>(q: &[f64], x: &[D]) -> D {
    let h = (x[0] * q[0] + x[1] * q[1] + q[2]).tanh();
    let mut y: D = c(q[4]);
    for _ in 0..2 {
        y = y * q[3] + h * h;
    }
    y * x[0]
}

#[test]
fn a_constant_struct_passed_to_a_call() {
    let p = unflat(&[0.3, -0.8, 0.1, 0.9, -0.4]);
    let dual = |x: &[num_dual::Dual2SVec64<2>]| net_in_x_dual(&flat(&p), x);
    let case = Case::<2> {
        name: "net_in_x",
        f: &|x| net_in_x(&p, x),
        grad: &|x| {
            let mut d_x = vec![0.0; 2];
            net_in_x_grad(&p, x, &mut d_x);
            d_x
        },
        jvp: &|x, v| net_in_x_jvp(&p, x, v),
        hvp: &|x, v| {
            let mut hv = vec![0.0; 2];
            let value = net_in_x_hvp(&p, x, v, &mut hv);
            (value, hv)
        },
        dual: &dual,
    };
    for (x, v) in points(2, -1.0, 1.0) {
        check(&case, &x, &v);
    }
}

/// A struct beside an `f64` and a slice: `f_hessian` numbers `p`'s entries in declaration order
/// (`hidden.w`, `hidden.b`, `out`; the integer `steps` has none), then `a`, then `x`.
#[differentiable(hessian)]
fn net_scaled(p: &Net, a: f64, x: &[f64]) -> f64 {
    net(p, x) * a.sin() + p.out[0] * a * x[1]
}

fn net_scaled_dual<D: Dual>(q: &[D]) -> D {
    let (a, x) = (q[5], &q[6..8]);
    let h = (q[2] + q[0] * x[0] + q[1] * x[1]).tanh();
    let mut y = q[4];
    for _ in 0..2 {
        y = y * q[3] + h * h;
    }
    y * a.sin() + q[3] * a * x[1]
}

fn net_scaled_grad_flat(q: &[f64]) -> Vec<f64> {
    let p = unflat(&q[..5]);
    let mut d_p = p.zeroed_like();
    let mut d_x = [0.0; 2];
    let (_, d_a) = net_scaled_grad(&p, &mut d_p, q[5], &q[6..8], &mut d_x);
    let mut d = flat(&d_p);
    d.push(d_a);
    d.extend(d_x);
    d
}

#[test]
fn hessian_of_a_parameter_struct() {
    for (q, _) in points(8, -1.0, 1.0) {
        let p = unflat(&q[..5]);
        let mut h = [0.0; 64];
        let value = net_scaled_hessian(&p, q[5], &q[6..8], &mut h);
        assert_eq!(value.to_bits(), net_scaled(&p, q[5], &q[6..8]).to_bits());
        hessian::check::<8>(
            "net_scaled",
            &h,
            &net_scaled_grad_flat,
            &net_scaled_dual,
            &q,
        );
    }
}

/// The struct alone (`wrt(p)`): its five entries are the whole Hessian.
#[differentiable(hessian, wrt(p))]
fn net_squared(p: &Net, x: &[f64]) -> f64 {
    net(p, x).powi(2)
}

fn net_squared_dual<D: Dual>(q: &[D]) -> D {
    net_dual(q).powi(2)
}

#[test]
fn hessian_of_a_parameter_struct_alone() {
    let grad = |q: &[f64]| {
        let p = unflat(q);
        let mut d_p = p.zeroed_like();
        net_squared_grad(&p, &mut d_p, &X);
        flat(&d_p)
    };
    for (q, _) in points(5, -1.0, 1.0) {
        let p = unflat(&q);
        let mut h = [0.0; 25];
        let value = net_squared_hessian(&p, &X, &mut h);
        assert_eq!(value.to_bits(), net_squared(&p, &X).to_bits());
        hessian::check::<5>("net_squared", &h, &grad, &net_squared_dual, &q);
    }
}
