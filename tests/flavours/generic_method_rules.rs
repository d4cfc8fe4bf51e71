//! `derivative(..)` on an associated function of a generic `impl<T: Float>` (issue 25): the
//! function's float is the `impl`'s (read from its signature, as a method's), its rule a sibling
//! named through `Self::` (which itself names no `Self`), and a `&self` method of the `impl`
//! calling it. Every flavour at `f64` and `f32`, against central differences and num-dual twins;
//! each value bit for bit the function's at that type.

use crate::common;

use common::{assert_near, oracle};
use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;
use num_dual::DualNum;

#[derive(Differentiable, Clone, Debug)]
pub struct Soft<T> {
    k: T,
}

impl<T: Float> Soft<T> {
    /// softplus(x), computed stably; its body is not differentiated.
    #[differentiable(hessian, derivative(x = Self::smooth_dx))]
    pub fn smooth(x: T) -> T {
        x.max(T::zero()) + (-x.abs()).exp().ln_1p()
    }

    /// The logistic function, softplus' derivative. It names no `Self`: its float alone says
    /// it belongs to the `impl`.
    #[differentiable]
    pub fn smooth_dx(x: T) -> T {
        T::one() / (T::one() + (-x).exp())
    }

    /// softplus(k x) · k, through the rule, in every flavour.
    #[differentiable(hessian)]
    pub fn loss(&self, x: T) -> T {
        Self::smooth(self.k * x) * self.k
    }
}

fn smooth_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    (D::one() + p[0].exp()).ln()
}

/// `p = [k, x]`.
fn loss_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    smooth_twin(&[p[0] * p[1]]) * p[0]
}

const POINTS: [[f64; 2]; 4] = [[0.7, -1.3], [1.5, 0.4], [-0.6, 2.1], [2.0, 30.0]];

#[test]
fn an_associated_rule_at_f64() {
    for [_, x] in POINTS {
        let (value, dx) = Soft::smooth_grad(x);
        assert_eq!(value.to_bits(), Soft::smooth(x).to_bits());
        oracle::Gradient::new("smooth_grad", &[x], (value, &[dx]))
            .central(|q| Soft::smooth(q[0]))
            .dual(|q: &[num_dual::Dual64]| smooth_twin(q));
        let (value, t) = Soft::smooth_jvp(x, -2.0);
        assert_eq!(value.to_bits(), Soft::smooth(x).to_bits());
        assert_near("smooth_jvp", t, -2.0 * dx, 1e-15);
        let (_, [[h]]) = Soft::smooth_hessian(x);
        oracle::Hessian::new("smooth_hessian", &[x], &[h])
            .dual(|q: &[num_dual::HyperDual64]| smooth_twin(q));
    }
}

#[test]
fn a_method_calling_it_at_f64() {
    for point @ [k, x] in POINTS {
        let soft = Soft { k };
        let mut d_soft = soft.zeroed_like();
        let (value, dx) = soft.loss_grad(&mut d_soft, x);
        assert_eq!(value.to_bits(), soft.loss(x).to_bits());
        oracle::Gradient::new("loss_grad", &point, (value, &[d_soft.k, dx]))
            .central(|q| Soft { k: q[0] }.loss(q[1]))
            .dual(|q: &[num_dual::Dual64]| loss_twin(q));
        let mut d_pull = soft.zeroed_like();
        let d_x = soft.loss_pullback(&mut d_pull, x, 0.5);
        assert_near("loss_pullback self", d_pull.k, 0.5 * d_soft.k, 1e-15);
        assert_near("loss_pullback x", d_x, 0.5 * dx, 1e-15);
        let (value, t) = soft.loss_jvp(&Soft { k: 0.25 }, x, -1.0);
        assert_eq!(value.to_bits(), soft.loss(x).to_bits());
        assert_near("loss_jvp", t, 0.25 * d_soft.k - dx, 1e-14);
        let mut hess = [0.0; 4];
        soft.loss_hessian(x, &mut hess);
        oracle::Hessian::new("loss_hessian", &point, &hess)
            .dual(|q: &[num_dual::HyperDual64]| loss_twin(q));
    }
}

#[test]
fn both_at_f32() {
    for [k, x] in POINTS {
        let (k32, x32) = (k as f32, x as f32);
        let (value, dx) = Soft::smooth_grad(x32);
        assert_eq!(value.to_bits(), Soft::smooth(x32).to_bits());
        let (_, reference) = oracle::dual_gradient(smooth_twin, &[f64::from(x32)]);
        assert_near("smooth_grad f32", f64::from(dx), reference[0], 1e-6);
        let soft = Soft { k: k32 };
        let mut d_soft = soft.zeroed_like();
        let (value, dx) = soft.loss_grad(&mut d_soft, x32);
        assert_eq!(value.to_bits(), soft.loss(x32).to_bits());
        let point = [f64::from(k32), f64::from(x32)];
        let (_, reference) = oracle::dual_gradient(loss_twin, &point);
        assert_near(
            "loss_grad f32 self",
            f64::from(d_soft.k),
            reference[0],
            1e-5,
        );
        assert_near("loss_grad f32 x", f64::from(dx), reference[1], 1e-5);
        let mut hess = [0.0f32; 4];
        soft.loss_hessian(x32, &mut hess);
        let h64 = oracle::dual_hessian(loss_twin, &point);
        for i in 0..2 {
            for j in 0..2 {
                assert_near(
                    "loss_hessian f32",
                    f64::from(hess[2 * i + j]),
                    h64[i][j],
                    1e-4,
                );
            }
        }
    }
}
