//! Rules of `derivative(..)` written with generic arguments (`rule::<3>`, `rule::<T>`): every
//! flavour calls the rule, and the rule's own generated functions, with the arguments as
//! written, against num-dual twins written from the closed form and central differences.

use crate::common::{self, oracle};
use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;
use num_dual::DualNum;

/// x³, by a loop the macro does not read; its rule is the power rule at `K = 3`.
#[differentiable(hessian, derivative(x = power_dx::<3>))]
fn cube(x: f64) -> f64 {
    std::iter::repeat_n(x, 3).product()
}

/// d/dx xᴷ = K xᴷ⁻¹: `K` is none of its parameters' types, so only the turbofish says which
/// power, and a call without it does not compile.
#[differentiable]
fn power_dx<const K: usize>(x: f64) -> f64 {
    let mut p = K as f64;
    for _ in 1..K {
        p *= x;
    }
    p
}

fn cube_twin<D: DualNum<Primitive = f64, Real = f64> + Copy>(p: &[D]) -> D {
    p[0].powi(3)
}

#[differentiable(hvp)]
fn uses_cube(a: f64, b: f64) -> f64 {
    cube(a * b) + b
}

fn uses_cube_twin<D: DualNum<Primitive = f64, Real = f64> + Copy>(p: &[D]) -> D {
    (p[0] * p[1]).powi(3) + p[1]
}

#[test]
fn a_rule_picked_by_a_const_argument() {
    for x in [-1.3, 0.4, 2.1] {
        let (value, dx) = cube_grad(x);
        oracle::Gradient::new("cube_grad", &[x], (value, &[dx]))
            .central(|q| cube(q[0]))
            .dual(cube_twin);
        let (_, tangent) = cube_jvp(x, 0.7);
        common::assert_near("cube_jvp", tangent, 0.7 * dx, 1e-15);
        let (_, [[h]]) = cube_hessian(x);
        oracle::Hessian::new("cube_hessian", &[x], &[h]).dual(cube_twin);
        // A caller's second order goes through `power_dx_pullback::<3>`.
        let p = [x, 0.9];
        let (value, da, db) = uses_cube_grad(p[0], p[1]);
        oracle::Gradient::new("uses_cube_grad", &p, (value, &[da, db]))
            .central(|q| uses_cube(q[0], q[1]))
            .dual(uses_cube_twin);
        let second = oracle::dual_hessian(uses_cube_twin, &p);
        let v = [0.3, -1.1];
        let (_, ha, hb) = uses_cube_hvp(p[0], v[0], p[1], v[1]);
        for (k, h) in [ha, hb].into_iter().enumerate() {
            let reference = second[k][0] * v[0] + second[k][1] * v[1];
            common::assert_near("uses_cube_hvp", h, reference, 1e-12);
        }
    }
}

/// A generic function whose rule names its float: `logistic_dx::<T>`.
#[differentiable(hessian, derivative(x = logistic_dx::<T>))]
fn logistic<T: Float>(x: T) -> T {
    T::one() / (T::one() + (-x).exp())
}

#[differentiable]
fn logistic_dx<T: Float>(x: T) -> T {
    let s = T::one() / (T::one() + (-x).exp());
    s * (T::one() - s)
}

fn logistic_twin<D: DualNum<Primitive = f64, Real = f64> + Copy>(p: &[D]) -> D {
    (D::one() + (-p[0]).exp()).recip()
}

#[test]
fn a_rule_given_the_float() {
    for x in [-2.0, 0.3, 1.7] {
        let (value, dx) = logistic_grad(x);
        oracle::Gradient::new("logistic_grad", &[x], (value, &[dx]))
            .central(|q| logistic(q[0]))
            .dual(logistic_twin);
        let (_, [[h]]) = logistic_hessian(x);
        oracle::Hessian::new("logistic_hessian", &[x], &[h]).dual(logistic_twin);
        let (value, dx32) = logistic_grad(x as f32);
        assert_eq!(value.to_bits(), logistic(x as f32).to_bits());
        assert!((f64::from(dx32) - dx).abs() < 1e-6, "{dx32} {dx}");
    }
}
