//! What a `#[differentiable]` function returning `[f64; M]` returned, bound without a type
//! (issue 25): `let oc = sub3(o, c);` followed by `dot3(&oc, &d)`, `oc[1]`, `oc.iter()`. The
//! caller reads the outputs in a loop over the callee's hidden output count (`__sub3_outputs`),
//! each output's pullback seeded through `calls::unit`, so it needs no annotation: free
//! functions, a callee of a `const` length, a call in a loop, `Self::helper` and `self.forward(x)`
//! in methods, a generic float at `f64` and `f32`, a caller returning `[f64; 2]`, and `g(x)[k]`
//! written directly. Every flavour against central differences of `f` and num-dual twins
//! (hyper-duals for the Hessian), the value bit for bit `f`'s.

use crate::common;

use common::oracle::{Gradient, Hessian, dual_gradient};
use common::{assert_near, assert_partial};
use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

#[differentiable(hvp)]
fn sub3(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[0] - b[0] * a[1], a[1] - b[1].sin(), a[2] * a[2] - b[2]]
}

fn sub3_dual<D: DualNum<Primitive = f64> + Copy>(a: &[D; 3], b: &[D; 3]) -> [D; 3] {
    [a[0] - b[0] * a[1], a[1] - b[1].sin(), a[2] * a[2] - b[2]]
}

#[differentiable(hvp)]
fn dot3(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn dot3_dual<D: DualNum<Primitive = f64> + Copy>(a: &[D; 3], b: &[D; 3]) -> D {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The ray: `oc` passed by reference, indexed and iterated, never annotated.
#[differentiable(hessian)]
fn ray(p: &[f64]) -> f64 {
    let origin = [p[0], p[1], p[2]];
    let center = [p[3], p[4], p[5]];
    let d = [p[6], p[7], p[8]];
    let oc = sub3(&origin, &center);
    let b = dot3(&oc, &d);
    let c = dot3(&oc, &oc) - 1.0;
    let s: f64 = oc.iter().sum();
    b * b - c + oc[1] * s
}

fn ray_dual<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    let origin = [p[0], p[1], p[2]];
    let center = [p[3], p[4], p[5]];
    let d = [p[6], p[7], p[8]];
    let oc = sub3_dual(&origin, &center);
    let b = dot3_dual(&oc, &d);
    let c = dot3_dual(&oc, &oc) - D::one();
    let s = oc[0] + oc[1] + oc[2];
    b * b - c + oc[1] * s
}

const POINTS: [[f64; 9]; 3] = [
    [0.5, -1.0, 2.0, 0.1, 0.2, -0.3, 1.0, 0.5, -0.25],
    [-2.0, 0.75, 1.5, 1.0, -1.0, 0.5, 0.3, -0.6, 0.9],
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
];

#[test]
fn an_unannotated_array_result_in_every_flavour() {
    let v = [0.3, -0.2, 0.5, 1.0, -0.7, 0.1, 0.25, 0.4, -0.9];
    for p in POINTS {
        let mut d = [0.0; 9];
        let value = ray_grad(&p, &mut d);
        Gradient::new("ray_grad", &p, (value, &d))
            .central(ray)
            .dual(ray_dual);
        let mut pulled = [0.0; 9];
        ray_pullback(&p, &mut pulled, -1.5);
        for k in 0..9 {
            assert_near("ray_pullback", pulled[k], -1.5 * d[k], 1e-12);
        }
        let (value, tangent) = ray_jvp(&p, &v);
        assert_eq!(value.to_bits(), ray(&p).to_bits(), "ray_jvp value");
        let twin: Vec<Dual64> = (0..9).map(|k| Dual64::new(p[k], v[k])).collect();
        assert_near("ray_jvp", tangent, ray_dual(&twin).eps, 1e-12);
        let mut h = [0.0; 81];
        let value = ray_hessian(&p, &mut h);
        assert_eq!(value.to_bits(), ray(&p).to_bits(), "ray_hessian value");
        Hessian::new("ray_hessian", &p, &h).dual(ray_dual);
        let mut hv = [0.0; 9];
        let value = ray_hvp(&p, &v, &mut hv);
        assert_eq!(value.to_bits(), ray(&p).to_bits(), "ray_hvp value");
        for i in 0..9 {
            let row: f64 = (0..9).map(|j| h[i * 9 + j] * v[j]).sum();
            assert_near("ray_hvp", hv[i], row, 1e-12);
        }
    }
}

const KS: f64 = -10.0;

/// `g(x)[k]` written directly, `k` a loop's counter, and beside a name the function cannot see
/// in an assertion.
#[differentiable(jvp)]
fn entries(p: &[f64]) -> f64 {
    let a = [p[0], p[1], p[2]];
    let b = [p[3], p[4], p[5]];
    assert!(sub3(&a, &b)[0] > KS);
    let mut s = 0.0;
    for k in 0..3 {
        s += sub3(&a, &b)[k] * p[6 + k];
    }
    s * sub3(&b, &a)[2]
}

fn entries_dual<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    let (a, b) = ([p[0], p[1], p[2]], [p[3], p[4], p[5]]);
    let r = sub3_dual(&a, &b);
    let s = r[0] * p[6] + r[1] * p[7] + r[2] * p[8];
    s * sub3_dual(&b, &a)[2]
}

#[test]
fn an_output_of_a_call_indexed_directly() {
    for p in POINTS {
        let mut d = [0.0; 9];
        let value = entries_grad(&p, &mut d);
        Gradient::new("entries_grad", &p, (value, &d))
            .central(entries)
            .dual(entries_dual);
        let v = [1.0, 0.5, -0.5, 0.25, 0.0, 2.0, -1.0, 0.3, 0.7];
        let (_, tangent) = entries_jvp(&p, &v);
        let twin: Vec<Dual64> = (0..9).map(|k| Dual64::new(p[k], v[k])).collect();
        assert_near("entries_jvp", tangent, entries_dual(&twin).eps, 1e-12);
    }
}

/// A call bound in a loop, each iteration's outputs their own, read after a later write.
#[differentiable(hvp)]
fn swept(p: &[f64], c: &[f64; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..p.len() / 3 {
        let point = [p[3 * i], p[3 * i + 1], p[3 * i + 2]];
        let oc = sub3(&point, c);
        s += dot3(&oc, &oc) * oc[i % 3];
    }
    s
}

fn swept_dual<D: DualNum<Primitive = f64> + Copy>(p: &[D], c: &[D; 3]) -> D {
    let mut s = D::zero();
    for i in 0..p.len() / 3 {
        let point = [p[3 * i], p[3 * i + 1], p[3 * i + 2]];
        let oc = sub3_dual(&point, c);
        s += dot3_dual(&oc, &oc) * oc[i % 3];
    }
    s
}

#[test]
fn a_call_bound_in_a_loop() {
    let p = [
        0.5, -1.0, 2.0, 0.1, 0.2, -0.3, 1.0, 0.5, -0.25, 0.7, 0.3, -0.1,
    ];
    let c = [0.2, -0.4, 0.6];
    let mut d_p = [0.0; 12];
    let mut d_c = [0.0; 3];
    let value = swept_grad(&p, &mut d_p, &c, &mut d_c);
    let mut point = p.to_vec();
    point.extend(c);
    let split = |q: &[f64]| (q[..12].to_vec(), [q[12], q[13], q[14]]);
    let gradient: Vec<f64> = d_p.iter().chain(&d_c).copied().collect();
    Gradient::new("swept_grad", &point, (value, &gradient))
        .central(|q| {
            let (p, c) = split(q);
            swept(&p, &c)
        })
        .dual(|q| swept_dual(&q[..12], &[q[12], q[13], q[14]]));
    // The Hessian-vector product along (v_p, 0) against the gradient of the dual directional
    // derivative, by central differences of the jvp of the twin.
    let v: Vec<f64> = (0..12).map(|k| 0.1 * k as f64 - 0.5).collect();
    let (mut hv_p, mut hv_c) = ([0.0; 12], [0.0; 3]);
    let also = swept_hvp(&p, &v, &mut hv_p, &c, &[0.0; 3], &mut hv_c);
    assert_eq!(also.to_bits(), swept(&p, &c).to_bits(), "swept_hvp value");
    let directional = |q: &[f64]| {
        let twin: Vec<Dual64> = (0..12).map(|k| Dual64::new(q[k], v[k])).collect();
        let c = [q[12], q[13], q[14]].map(Dual64::from);
        swept_dual(&twin, &c).eps
    };
    for (j, &entry) in hv_p.iter().chain(&hv_c).enumerate() {
        assert_partial("swept_hvp", directional, &point, j, entry);
    }
}

const M: usize = 3;

/// A callee of a `const` length, differentiated through `__scale_into` (`returned.rs`).
#[differentiable(jvp)]
fn scale(w: &[f64; M], s: f64) -> [f64; M] {
    let mut r = [0.0; M];
    for i in 0..M {
        r[i] = s * w[i] * w[i];
    }
    r
}

#[differentiable(jvp)]
fn scaled_sum(w: &[f64; M], s: f64) -> f64 {
    let h = scale(w, s);
    h[0] * h[2] + h.iter().map(|x| x.sin()).sum::<f64>()
}

fn scaled_sum_dual<D: DualNum<Primitive = f64> + Copy>(q: &[D]) -> D {
    let h: Vec<D> = (0..M).map(|i| q[M] * q[i] * q[i]).collect();
    h[0] * h[2] + h[0].sin() + h[1].sin() + h[2].sin()
}

#[test]
fn a_callee_of_a_const_length() {
    let w = [0.4, -1.2, 0.9];
    let s = 1.3;
    let mut d_w = [0.0; M];
    let (value, d_s) = scaled_sum_grad(&w, &mut d_w, s);
    let point = [w[0], w[1], w[2], s];
    let gradient = [d_w[0], d_w[1], d_w[2], d_s];
    Gradient::new("scaled_sum_grad", &point, (value, &gradient))
        .central(|q| scaled_sum(&[q[0], q[1], q[2]], q[3]))
        .dual(scaled_sum_dual);
    let (_, tangent) = scaled_sum_jvp(&w, &[1.0, 0.0, -1.0], s, 0.5);
    let twin = [
        Dual64::new(w[0], 1.0),
        Dual64::new(w[1], 0.0),
        Dual64::new(w[2], -1.0),
        Dual64::new(s, 0.5),
    ];
    assert_near("scaled_sum_jvp", tangent, scaled_sum_dual(&twin).eps, 1e-12);
}

/// A caller returning `[f64; 2]` (its Jacobian's rows each a reverse sweep through the loop).
#[differentiable(jacobian)]
fn pair(p: &[f64]) -> [f64; 2] {
    let a = [p[0], p[1], p[2]];
    let oc = sub3(&a, &[p[3], p[4], p[5]]);
    [oc[0] * oc[1], dot3(&oc, &a)]
}

fn pair_dual<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> [D; 2] {
    let a = [p[0], p[1], p[2]];
    let oc = sub3_dual(&a, &[p[3], p[4], p[5]]);
    [oc[0] * oc[1], dot3_dual(&oc, &a)]
}

#[test]
fn a_caller_returning_an_array() {
    for p in POINTS {
        let p = &p[..6];
        let mut block = [0.0; 12];
        let (value, _) = pair_jacobian(p, &mut block);
        for i in 0..2 {
            assert_eq!(value[i].to_bits(), pair(p)[i].to_bits(), "pair value {i}");
            let (_, row) = dual_gradient(|q| pair_dual(q)[i], p);
            for j in 0..6 {
                assert_near("pair_jacobian", block[i * 6 + j], row[j], 1e-12);
                assert_partial("pair_jacobian", |q| pair(q)[i], p, j, block[i * 6 + j]);
            }
        }
    }
}

mod shapes {
    use micrograd_runtime::prelude::*;

    #[differentiable(hvp)]
    pub fn polar(r: f64, theta: f64) -> [f64; 2] {
        [r * theta.cos(), r * theta.sin()]
    }
}

/// A callee reached by a path, `shapes::polar`.
#[differentiable(hvp)]
fn through_path(r: f64, theta: f64) -> f64 {
    let xy = shapes::polar(r, theta);
    xy[0] * xy[1] + xy[1]
}

#[test]
fn a_callee_by_its_path() {
    for (r, t) in [(1.5, 0.3), (-0.5, 2.0)] {
        let (value, d_r, d_t) = through_path_grad(r, t);
        Gradient::new("through_path_grad", &[r, t], (value, &[d_r, d_t]))
            .central(|q| through_path(q[0], q[1]))
            .dual(|q| {
                let (x, y) = (q[0] * q[1].cos(), q[0] * q[1].sin());
                x * y + y
            });
        let (value, hv_r, hv_t) = through_path_hvp(r, 1.0, t, 0.0);
        assert_eq!(value.to_bits(), through_path(r, t).to_bits());
        let gradient = |q: &[f64]| through_path_grad(q[0], q[1]);
        assert_partial("through_path_hvp", |q| gradient(q).1, &[r, t], 0, hv_r);
        assert_partial("through_path_hvp", |q| gradient(q).2, &[r, t], 0, hv_t);
    }
}

/// Methods: `self.forward(x)` and `Self::spread(..)`, each returning `[f64; 2]`, bound without
/// a type.
#[derive(Differentiable, Clone, Copy, Default)]
struct Layer {
    w: [f64; 2],
    b: f64,
}

impl Layer {
    #[differentiable(jvp)]
    fn forward(&self, x: f64) -> [f64; 2] {
        [(self.w[0] * x + self.b).tanh(), self.w[1] * x * x]
    }

    #[differentiable(jvp)]
    fn spread(a: f64, b: f64) -> [f64; 2] {
        [a + b, a * b]
    }

    #[differentiable(jvp)]
    fn loss(&self, x: f64) -> f64 {
        let h = self.forward(x);
        let s = Self::spread(h[0], h[1]);
        s[0] * s[1] + h[1]
    }
}

fn loss_dual<D: DualNum<Primitive = f64> + Copy>(q: &[D]) -> D {
    let (w0, w1, b, x) = (q[0], q[1], q[2], q[3]);
    let h = [(w0 * x + b).tanh(), w1 * x * x];
    let s = [h[0] + h[1], h[0] * h[1]];
    s[0] * s[1] + h[1]
}

#[test]
fn methods_returning_arrays_bound_without_a_type() {
    for q in [[0.5, -0.3, 0.2, 1.1], [-1.0, 0.7, 0.0, -0.4]] {
        let layer = Layer {
            w: [q[0], q[1]],
            b: q[2],
        };
        let mut d_layer = Layer::default();
        let (value, d_x) = layer.loss_grad(&mut d_layer, q[3]);
        let gradient = [d_layer.w[0], d_layer.w[1], d_layer.b, d_x];
        let at = |q: &[f64]| {
            let layer = Layer {
                w: [q[0], q[1]],
                b: q[2],
            };
            layer.loss(q[3])
        };
        Gradient::new("loss_grad", &q, (value, &gradient))
            .central(at)
            .dual(loss_dual);
        let direction = Layer {
            w: [0.2, -0.1],
            b: 0.5,
        };
        let (value, tangent) = layer.loss_jvp(&direction, q[3], 0.3);
        assert_eq!(value.to_bits(), layer.loss(q[3]).to_bits());
        let twin: Vec<Dual64> = [(q[0], 0.2), (q[1], -0.1), (q[2], 0.5), (q[3], 0.3)]
            .iter()
            .map(|&(x, v)| Dual64::new(x, v))
            .collect();
        assert_near("loss_jvp", tangent, loss_dual(&twin).eps, 1e-12);
    }
}

/// A generic float: `h` of `mix::<T>`, at `f64` and `f32`.
#[differentiable]
fn mix<T: Float>(a: T, b: T) -> [T; 2] {
    [a * b, a - b * b]
}

#[differentiable]
fn mixed<T: Float>(a: T, b: T) -> T {
    let h = mix(a, b);
    h[0] * h[1] + h[1]
}

#[test]
fn a_generic_float_at_f64_and_f32() {
    for (a, b) in [(0.5, 1.5), (-2.0, 0.25)] {
        let (value, d_a, d_b) = mixed_grad(a, b);
        Gradient::new("mixed_grad", &[a, b], (value, &[d_a, d_b]))
            .central(|q| mixed(q[0], q[1]))
            .dual(|q| {
                let h = [q[0] * q[1], q[0] - q[1] * q[1]];
                h[0] * h[1] + h[1]
            });
        let (value, d_a32, d_b32) = mixed_grad(a as f32, b as f32);
        assert_eq!(value.to_bits(), mixed(a as f32, b as f32).to_bits());
        assert_near("mixed_grad f32", f64::from(d_a32), d_a, 1e-5);
        assert_near("mixed_grad f32", f64::from(d_b32), d_b, 1e-5);
    }
}
