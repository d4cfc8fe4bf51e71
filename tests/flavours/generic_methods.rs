//! Generic methods (issue 25): `impl<T: Float> Model<T>` with `#[derive(Differentiable)] struct
//! Model<T>` (the float declared by the `impl`, which the attribute reads from the method's
//! return type), a method generic itself (`fn scaled<U: Float>(&self, ..)` of an `f64` struct),
//! and a network of generic layers calling `self.layers[i].forward(x)`. Every flavour at `f64`
//! and `f32`, against central differences and num-dual on twins generic over `DualNum`; each
//! value bit for bit the method's at that type.

#![deny(warnings)]
#![allow(clippy::needless_range_loop)] // entries of several arrays by one index

use crate::common;

use common::assert_near;
use common::oracle;
use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;
use num_dual::DualNum;

/// A neuron `tanh(w · x + b)` over any float.
#[derive(Differentiable, Clone, Debug)]
pub struct Unit<T> {
    w: [T; 2],
    b: T,
}

impl<T: Float> Unit<T> {
    #[differentiable(hessian)]
    pub fn forward(&self, x: &[T]) -> T {
        (self.w[0] * x[0] + self.w[1] * x[1] + self.b).tanh()
    }

    /// Calls `forward`; `wrt(self)`: the data are constants.
    #[differentiable(wrt(self), hessian)]
    pub fn loss(&self, xs: &[[T; 2]], ys: &[T]) -> T {
        let mut s = T::zero();
        for k in 0..xs.len() {
            let x = [xs[k][0], xs[k][1]];
            let e = self.forward(&x) - ys[k];
            s = s + e * e;
        }
        s / T::from(xs.len()).unwrap()
    }
}

/// Layers of units, each called by index.
#[derive(Differentiable, Clone, Debug)]
pub struct Net<T> {
    units: Vec<Unit<T>>,
    scale: T,
}

impl<T: Float> Net<T> {
    #[differentiable(hvp)]
    pub fn sum(&self, x: &[T]) -> T {
        let mut s = T::zero();
        for i in 0..self.units.len() {
            s = s + self.units[i].forward(x);
        }
        s * self.scale
    }
}

/// An `f64` struct with a method generic over its own float (which reads no field: those are
/// `f64`s).
#[derive(Differentiable, Clone, Debug)]
pub struct Gain {
    k: f64,
}

impl Gain {
    #[differentiable(hessian)]
    pub fn scaled<U: Float>(&self, x: U) -> U {
        x * x * U::from(1.25).unwrap()
    }
}

/// An `f32` partial against an `f64` reference: to `f32`'s precision over a few operations.
fn near32(name: &str, computed: f32, reference: f64) {
    assert_near(name, f64::from(computed), reference, 1e-5);
}

const XS: [[f64; 2]; 3] = [[0.5, -1.0], [1.5, 0.25], [-0.75, 0.8]];
const YS: [f64; 3] = [0.3, -0.6, 0.1];

fn unit() -> Unit<f64> {
    Unit {
        w: [0.7, -0.4],
        b: 0.15,
    }
}

fn flat<T: Copy>(u: &Unit<T>) -> [T; 3] {
    [u.w[0], u.w[1], u.b]
}

fn with<T: Copy>(p: &[T]) -> Unit<T> {
    Unit {
        w: [p[0], p[1]],
        b: p[2],
    }
}

fn loss_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    let mut s = D::from(0.0);
    for (x, y) in XS.iter().zip(YS) {
        let e = (p[0] * D::from(x[0]) + p[1] * D::from(x[1]) + p[2]).tanh() - D::from(y);
        s += e * e;
    }
    s / D::from(3.0)
}

#[test]
fn loss_every_flavour_at_f64() {
    let u = unit();
    let point = flat(&u);
    let mut d_u = u.zeroed_like();
    let value = u.loss_grad(&mut d_u, &XS, &YS);
    oracle::Gradient::new("loss", &point, (value, &flat(&d_u)))
        .central(|p: &[f64]| with(p).loss(&XS, &YS))
        .dual(|p: &[num_dual::Dual64]| loss_twin(p));
    let mut d_p = u.zeroed_like();
    u.loss_pullback(&mut d_p, &XS, &YS, &mut [], 3.0);
    for k in 0..3 {
        assert_near("loss_pullback", flat(&d_p)[k], 3.0 * flat(&d_u)[k], 1e-15);
    }
    let v = with(&[0.3, -1.1, 0.8]);
    let (value, directional) = u.loss_jvp(&v, &XS, &YS);
    assert_eq!(value.to_bits(), u.loss(&XS, &YS).to_bits());
    let along: f64 = (0..3).map(|k| flat(&d_u)[k] * flat(&v)[k]).sum();
    assert_near("loss_jvp", directional, along, 1e-14);
    let mut hess = [0.0; 9];
    u.loss_hessian(&XS, &YS, &mut hess);
    oracle::Hessian::new("loss_hessian", &point, &hess)
        .dual(|p: &[num_dual::HyperDual64]| loss_twin(p));
    let mut hv = u.zeroed_like();
    u.loss_hvp(&v, &mut hv, &XS, &YS);
    for i in 0..3 {
        let expected: f64 = (0..3).map(|j| hess[3 * i + j] * flat(&v)[j]).sum();
        assert_near("loss_hvp", flat(&hv)[i], expected, 1e-13);
    }
}

#[test]
fn loss_at_f32() {
    let u = Unit {
        w: [0.7f32, -0.4],
        b: 0.15,
    };
    let xs: Vec<[f32; 2]> = XS.iter().map(|x| [x[0] as f32, x[1] as f32]).collect();
    let ys: Vec<f32> = YS.iter().map(|&y| y as f32).collect();
    let mut d_u = u.zeroed_like();
    let value = u.loss_grad(&mut d_u, &xs, &ys);
    assert_eq!(value.to_bits(), u.loss(&xs, &ys).to_bits());
    let (_, reference) =
        oracle::dual_gradient(loss_twin, &[0.7f32 as f64, -0.4f32 as f64, 0.15f32 as f64]);
    for k in 0..3 {
        near32("loss f32", flat(&d_u)[k], reference[k]);
    }
    let mut hess = [0.0f32; 9];
    u.loss_hessian(&xs, &ys, &mut hess);
    let h64 = oracle::dual_hessian(
        |p: &[num_dual::HyperDual64]| loss_twin(p),
        &[0.7f32 as f64, -0.4f32 as f64, 0.15f32 as f64],
    );
    for i in 0..3 {
        for j in 0..3 {
            near32("loss_hessian f32", hess[3 * i + j], h64[i][j]);
        }
    }
}

#[test]
fn net_calls_generic_elements_at_f64_and_f32() {
    let net = Net {
        units: vec![unit(), with(&[-0.2, 0.9, 0.4])],
        scale: 1.5,
    };
    let x = [0.6, -0.3];
    let mut d_net = net.zeroed_like();
    let mut d_x = [0.0; 2];
    let value = net.sum_grad(&mut d_net, &x, &mut d_x);
    let twin = |p: &[num_dual::Dual64]| {
        let unit = |q: &[num_dual::Dual64]| (q[0] * x[0] + q[1] * x[1] + q[2]).tanh();
        (unit(&p[0..3]) + unit(&p[3..6])) * p[6]
    };
    let point = [0.7, -0.4, 0.15, -0.2, 0.9, 0.4, 1.5];
    let gradient: Vec<f64> = flat(&d_net.units[0])
        .into_iter()
        .chain(flat(&d_net.units[1]))
        .chain([d_net.scale])
        .collect();
    let plain = |p: &[f64]| {
        Net {
            units: vec![with(&p[0..3]), with(&p[3..6])],
            scale: p[6],
        }
        .sum(&x)
    };
    oracle::Gradient::new("net sum", &point, (value, &gradient))
        .central(plain)
        .dual(twin);
    let x32 = [0.6f32, -0.3];
    let net32 = Net {
        units: vec![
            Unit {
                w: [0.7f32, -0.4],
                b: 0.15,
            },
            Unit {
                w: [-0.2, 0.9],
                b: 0.4,
            },
        ],
        scale: 1.5f32,
    };
    let mut d32 = net32.zeroed_like();
    let value = net32.sum_grad(&mut d32, &x32, &mut [0.0; 2]);
    assert_eq!(value.to_bits(), net32.sum(&x32).to_bits());
    near32("net sum f32 scale", d32.scale, gradient[6]);
    near32("net sum f32 units[1].b", d32.units[1].b, gradient[5]);
}

#[test]
fn a_method_generic_over_its_own_float() {
    let g = Gain { k: 1.25 };
    let mut d_g = g.zeroed_like();
    let (value, d_x) = g.scaled_grad(&mut d_g, 0.8f64);
    assert_eq!(value.to_bits(), g.scaled(0.8f64).to_bits());
    assert_near("scaled d_x", d_x, 2.0 * 0.8 * 1.25, 1e-15);
    let mut d_g32 = g.zeroed_like();
    let (value, d_x) = g.scaled_grad(&mut d_g32, 0.8f32);
    assert_eq!(value.to_bits(), g.scaled(0.8f32).to_bits());
    near32("scaled f32 d_x", d_x, 2.0 * 0.8 * 1.25);
}
