//! Values read only through a function that passes no gradient (`x.detach()`, `x.floor()`,
//! `signum`, the sign operand of `copysign`) get no adjoint (`diff/activity.rs`, `flowing`):
//! the loops computing them record nothing and are not walked back. The gradients must stay the
//! chain rule's with those functions' derivatives zero, against num-dual twins that hold the
//! same values constant and against central differences where the function is smooth.

use crate::common;

use common::oracle::{Hessian, check, dual_gradient};
use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

/// LogSumExp with its shift detached, as JAX's `logsumexp` stops the gradient at its max.
#[differentiable(hvp)]
fn lse(x: &[f64]) -> f64 {
    let a = x.iter().copied().fold(f64::NEG_INFINITY, f64::max).detach();
    let s = x.iter().map(|&xi| (xi - a).exp()).sum::<f64>();
    a + s.ln()
}

/// The same without the shift (no overflow at the points below): the same function of `x`.
fn lse_twin<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    x.iter().fold(D::zero(), |s, &xi| s + xi.exp()).ln()
}

/// Each entry times the detached sum: d/dxᵢ is the sum alone, not twice it.
#[differentiable]
fn scaled(x: &[f64]) -> f64 {
    let m = x.iter().sum::<f64>().detach();
    x.iter().map(|&v| v * m).sum::<f64>()
}

/// `scaled` with the sum held constant in dual numbers.
fn scaled_twin(x: &[Dual64]) -> Dual64 {
    let m = Dual64::from_re(x.iter().map(|v| v.re).sum::<f64>());
    x.iter().fold(Dual64::from_re(0.0), |s, &v| s + v * m)
}

/// A loop's sum read through `floor` and through `sqrt`: only the second passes a gradient.
#[differentiable]
fn stepped(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v * v;
    }
    let k = s.floor();
    k * x[0] + s.sqrt()
}

/// A loop's sum read only as the sign `copysign` gives `a`: no gradient reaches `x`.
#[differentiable]
fn signed(a: f64, x: &[f64]) -> f64 {
    let mut t = 0.0;
    for v in x {
        t += v.sin();
    }
    a.copysign(t) * a + t.signum() * x[0]
}

#[test]
fn detached_shift_of_logsumexp() {
    for x in [
        vec![0.3, -1.2, 2.5, 0.7],
        vec![1.0, 1.0, 1.0],
        vec![-3.0, 4.0, 4.0, 0.5, -0.25],
    ] {
        let mut d_x = vec![0.0; x.len()];
        let value = lse_grad(&x, &mut d_x);
        let twin = lse_twin::<Dual64>;
        check!(
            "lse",
            &x,
            (value, &d_x),
            against = [central(lse), dual(twin)]
        );
    }
}

#[test]
fn detached_shift_of_logsumexp_second_order() {
    let x = [0.3, -1.2, 2.5, 0.7];
    let n = x.len();
    let mut entries = vec![0.0; n * n];
    for j in 0..n {
        let v: Vec<f64> = (0..n).map(|k| f64::from(k == j)).collect();
        let mut hv = vec![0.0; n];
        let value = lse_hvp(&x, &v, &mut hv);
        assert_same_value("lse_hvp", value, lse(&x), &x);
        for i in 0..n {
            entries[i * n + j] = hv[i];
        }
    }
    Hessian::new("lse", &x, &entries).dual(lse_twin::<HyperDual64>);
    let (value, directional) = lse_jvp(&x, &[1.0, -2.0, 0.5, 3.0]);
    assert_same_value("lse_jvp", value, lse(&x), &x);
    let (_, gradient) = dual_gradient(lse_twin::<Dual64>, &x);
    let expected: f64 = gradient
        .iter()
        .zip([1.0, -2.0, 0.5, 3.0])
        .map(|(g, v)| g * v)
        .sum();
    assert_near("lse_jvp", directional, expected, 1e-14);
}

#[test]
fn detached_sum_is_a_constant_factor() {
    let x = [0.5, -1.5, 2.0];
    let mut d_x = [0.0; 3];
    let value = scaled_grad(&x, &mut d_x);
    check!("scaled", &x, (value, &d_x), against = [dual(scaled_twin)]);
    assert_same_value("scaled", value, scaled(&x), &x);
    // not the undetached 2 Σ x = 2
    assert_eq!(d_x, [1.0, 1.0, 1.0]);
}

#[test]
fn floor_and_copysign_of_a_loop_pass_no_gradient() {
    for x in [vec![0.4, 1.3, -0.6], vec![1.7, 0.2]] {
        let mut d_x = vec![0.0; x.len()];
        let value = stepped_grad(&x, &mut d_x);
        assert_same_value("stepped", value, stepped(&x), &x);
        assert_gradient("stepped", stepped, &x, &d_x);
    }
    for (a, x) in [(1.5, vec![0.4, 1.3, -0.6]), (-0.7, vec![-1.0, -0.2])] {
        let mut d_x = vec![0.0; x.len()];
        let (value, d_a) = signed_grad(a, &x, &mut d_x);
        assert_same_value("signed", value, signed(a, &x), &x);
        let mut point = vec![a];
        point.extend(&x);
        let mut gradient = vec![d_a];
        gradient.extend(&d_x);
        assert_gradient("signed", |p| signed(p[0], &p[1..]), &point, &gradient);
    }
}
