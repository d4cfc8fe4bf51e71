//! Custom derivatives (`derivative(x = rule)`) and `detach`, against central differences of
//! the plain functions and closed forms.

use crate::common;

use common::{assert_gradient, assert_same_value, check1, check2};
use micrograd_runtime::prelude::*;

/// A foreign `erf` the macro cannot read: Abramowitz and Stegun 7.1.26 would be too coarse for
/// central differences, so this is the Maclaurin series, summed until the terms vanish (the
/// `while` on a tolerance, the `as f64` of a counter and `Vec` are all outside the language).
fn series_erf(x: f64) -> f64 {
    let mut terms = Vec::new();
    let (mut term, mut n) = (x, 0_u32);
    while term.abs() > 1e-17 * x.abs().max(1e-300) || n == 0 {
        terms.push(term / f64::from(2 * n + 1));
        n += 1;
        term *= -x * x / f64::from(n);
    }
    terms.iter().rev().sum::<f64>() * 2.0 / std::f64::consts::PI.sqrt()
}

#[differentiable(derivative(x = erf_dx))]
fn erf(x: f64) -> f64 {
    series_erf(x)
}

/// erf'(x) = 2/√π · e^(-x²).
#[differentiable]
fn erf_dx(x: f64) -> f64 {
    2.0 / std::f64::consts::PI.sqrt() * (-x * x).exp()
}

#[test]
fn a_foreign_function_with_a_rule() {
    check1("erf", erf, erf_grad, &[-2.0, -0.7, 0.0, 0.3, 1.0, 2.5]);
    assert_eq!(erf_pullback(0.5, 3.0), 3.0 * erf_dx(0.5));
    // The series is the real erf: erf(1) to 1e-15.
    assert!((erf(1.0) - 0.842_700_792_949_714_9).abs() < 1e-15);
}

/// Uses `erf` inside a loop, in a sum and in a product.
#[differentiable]
fn probit_loss(w: &[f64], scale: f64) -> f64 {
    let mut loss = 0.0;
    for i in 0..w.len() {
        let p = 0.5 * (1.0 + erf(w[i] * scale));
        loss -= p.ln();
    }
    loss
}

#[test]
fn a_rule_inside_a_loop_of_another_function() {
    let w = [0.3, -1.2, 0.8, 2.0];
    for scale in [0.5, 1.3] {
        let mut d_w = [0.0; 4];
        let (value, d_scale) = probit_loss_grad(&w, &mut d_w, scale);
        assert_same_value("probit_loss", value, probit_loss(&w, scale), &w);
        let mut gradient = d_w.to_vec();
        gradient.push(d_scale);
        let point = [&w[..], &[scale]].concat();
        assert_gradient(
            "probit_loss",
            |p| probit_loss(&p[..4], p[4]),
            &point,
            &gradient,
        );
    }
}

/// The real cube root by Newton's method: an iterative solver, differentiated through the
/// implicit function theorem rather than through its iterations.
#[differentiable(derivative(a = newton_cbrt_da))]
fn newton_cbrt(a: f64) -> f64 {
    let mut x = if a.abs() > 1.0 { a / 3.0 } else { a.signum() };
    for _ in 0..100 {
        let step = (x * x * x - a) / (3.0 * x * x);
        x -= step;
        if step.abs() <= 1e-16 * x.abs() {
            break;
        }
    }
    x
}

/// x³ = a gives dx/da = 1 / (3x²), at the solution: the rule calls the solver, whose own rule
/// makes this one `#[differentiable]` too.
#[differentiable]
fn newton_cbrt_da(a: f64) -> f64 {
    let x = newton_cbrt(a);
    1.0 / (3.0 * x * x)
}

#[differentiable]
fn uses_the_solver(a: f64, b: f64) -> f64 {
    newton_cbrt(a * b) * b + newton_cbrt_da(a)
}

#[test]
fn an_iterative_solver_with_an_implicit_rule() {
    check1(
        "newton_cbrt",
        newton_cbrt,
        newton_cbrt_grad,
        &[-8.0, -0.5, 0.2, 2.0, 27.0],
    );
    for a in [-8.0, 2.0, 27.0] {
        let (_, d) = newton_cbrt_grad(a);
        let x: f64 = a.cbrt();
        assert!(
            (d - 1.0 / (3.0 * x * x)).abs() <= 1e-14 * d.abs(),
            "closed form at {a}"
        );
    }
    // Through a call, and the rule itself differentiated (second derivative of the solver).
    check2(
        "uses_the_solver",
        uses_the_solver,
        uses_the_solver_grad,
        &[[2.0, 1.5], [-3.0, 0.5]],
    );
}

/// A foreign function of several parameters, an integer among them.
fn foreign_power_sum(x: f64, n: usize, y: f64) -> f64 {
    (1..=n).map(|k| x.powi(k as i32) * y).sum()
}

#[differentiable(derivative(x = power_sum_dx, y = power_sum_dy))]
fn power_sum(x: f64, n: usize, y: f64) -> f64 {
    foreign_power_sum(x, n, y)
}

/// ∂/∂x Σ_{k=1..n} xᵏ y = y Σ k xᵏ⁻¹.
#[differentiable]
fn power_sum_dx(x: f64, n: usize, y: f64) -> f64 {
    let mut sum = 0.0;
    for k in 1..=n {
        sum += (k as f64) * x.powi(k as i32 - 1);
    }
    sum * y
}

/// ∂/∂y Σ xᵏ y = Σ xᵏ.
#[differentiable]
fn power_sum_dy(x: f64, n: usize, y: f64) -> f64 {
    let mut sum = 0.0;
    for k in 1..=n {
        sum += x.powi(k as i32);
    }
    sum + 0.0 * y
}

#[differentiable(wrt(y), derivative(x = power_sum_dx, y = power_sum_dy))]
fn power_sum_in_y(x: f64, n: usize, y: f64) -> f64 {
    foreign_power_sum(x, n, y)
}

#[test]
fn several_parameters_and_wrt() {
    for (x, n, y) in [(0.5, 3, 2.0), (-1.5, 5, 0.25)] {
        let (value, dx, dy) = power_sum_grad(x, n, y);
        assert_same_value("power_sum", value, power_sum(x, n, y), &[x, y]);
        assert_gradient(
            "power_sum",
            |p| power_sum(p[0], n, p[1]),
            &[x, y],
            &[dx, dy],
        );
        assert_eq!(power_sum_in_y_grad(x, n, y), (value, dy));
        assert_eq!(power_sum_pullback(x, n, y, 2.0), (2.0 * dx, 2.0 * dy));
    }
}

/// `detach`: a · stop(a) has derivative stop(a); the detached path passes nothing.
#[differentiable]
fn detached_product(a: f64, b: f64) -> f64 {
    let scale = (a * b).detach();
    a * scale + f64::detach(b).sin() * b
}

#[test]
fn detach_stops_the_gradient_and_keeps_the_value() {
    for (a, b) in [(3.0, 0.5), (-1.25, 2.0)] {
        let (value, da, db) = detached_product_grad(a, b);
        assert_same_value("detached", value, detached_product(a, b), &[a, b]);
        assert_eq!(value, a * (a * b) + b.sin() * b);
        // ∂/∂a (a · stop(ab) + sin(stop(b)) b) = stop(ab); ∂/∂b = sin(stop(b)).
        assert_eq!((da, db), (a * b, b.sin()));
    }
    assert_eq!(
        detached_product_pullback(3.0, 0.5, 2.0),
        (3.0, 2.0 * 0.5_f64.sin())
    );
}

/// A stop-gradient target, as in a bootstrapped regression: the loss pulls `w` towards a
/// target computed from `w` itself, but only `w`'s prediction moves.
#[differentiable]
fn bootstrapped(w: f64, x: f64) -> f64 {
    let target = (0.9 * w * x + 1.0).detach();
    (w * x - target).powi(2)
}

#[test]
fn detach_in_a_bootstrapped_target() {
    let (w, x) = (0.7, 2.0);
    let (_, dw, dx) = bootstrapped_grad(w, x);
    let residual = w * x - (0.9 * w * x + 1.0);
    assert!((dw - 2.0 * residual * x).abs() < 1e-15);
    assert!((dx - 2.0 * residual * w).abs() < 1e-15);
}

/// The same foreign erf, with forward mode and the Hessian: its tangent and the tangent's
/// pullback come from the rule and the rule's own pullback.
#[differentiable(hessian, derivative(x = erf_dx))]
fn erf_second(x: f64) -> f64 {
    series_erf(x)
}

#[differentiable(hessian, derivative(x = power_sum_dx, y = power_sum_dy))]
fn power_sum_second(x: f64, n: usize, y: f64) -> f64 {
    foreign_power_sum(x, n, y)
}

/// Calls both from a function whose Hessian is asked for.
#[differentiable(hessian)]
fn second_order_caller(a: f64, b: f64) -> f64 {
    erf_second(a * b) + power_sum_second(a, 3, b) * b
}

#[differentiable]
fn second_order_caller_plain(a: f64, b: f64) -> f64 {
    erf(a * b) + power_sum(a, 3, b) * b
}

#[test]
fn rules_give_forward_mode_and_second_order() {
    // erf'' = -2x erf'.
    for x in [-0.8, 0.4, 1.5] {
        let (value, tangent) = erf_second_jvp(x, 0.5);
        assert_eq!(value.to_bits(), erf(x).to_bits());
        assert_eq!(tangent, erf_dx(x) * 0.5);
        let (_, hv) = erf_second_hvp(x, 0.5);
        assert!((hv - (-2.0 * x * erf_dx(x) * 0.5)).abs() < 1e-15);
        let (_, [[h]]) = erf_second_hessian(x);
        assert!((h + 2.0 * x * erf_dx(x)).abs() < 1e-15);
    }
    // Σ xᵏ y (k = 1..3): ∂²/∂x² = y (2 + 6x), ∂²/∂x∂y = 1 + 2x + 3x², ∂²/∂y² = 0.
    let (x, y) = (0.7, -1.3);
    let (_, hessian) = power_sum_second_hessian(x, 3, y);
    let mixed = 1.0 + 2.0 * x + 3.0 * x * x;
    let expect = [[y * (2.0 + 6.0 * x), mixed], [mixed, 0.0]];
    for i in 0..2 {
        for j in 0..2 {
            assert!((hessian[i][j] - expect[i][j]).abs() < 1e-14, "{hessian:?}");
        }
    }
    // Through a caller: its Hessian against central differences of its gradient, and its
    // value and gradient against the same function built on the first-order rules.
    for (a, b) in [(0.6, 0.9), (-1.1, 0.4)] {
        let (value, hessian) = second_order_caller_hessian(a, b);
        assert_eq!(value.to_bits(), second_order_caller_plain(a, b).to_bits());
        assert_eq!(
            second_order_caller_grad(a, b),
            second_order_caller_plain_grad(a, b)
        );
        for (j, row) in hessian.iter().enumerate() {
            let h = 1e-6;
            let at = |d: f64| {
                let (_, da, db) = if j == 0 {
                    second_order_caller_grad(a + d, b)
                } else {
                    second_order_caller_grad(a, b + d)
                };
                [da, db]
            };
            let (hi, lo) = (at(h), at(-h));
            for i in 0..2 {
                let central = (hi[i] - lo[i]) / (2.0 * h);
                assert!(
                    (row[i] - central).abs() < 1e-6,
                    "H[{j}][{i}] {} vs {central}",
                    row[i]
                );
            }
        }
        assert!((hessian[0][1] - hessian[1][0]).abs() < 1e-12);
    }
}

/// Rules on associated functions: the rules are siblings in one `impl`, named through
/// `Self::`, and a caller in the same `impl` differentiates through them. The names differ from
/// the free functions above, so a call left unqualified would fail to build, not find those.
struct Special;

impl Special {
    #[differentiable(hessian, derivative(x = Self::gauss_dx))]
    fn gauss(x: f64) -> f64 {
        series_erf(x)
    }

    /// erf'(x) = 2/√π · e^(-x²).
    #[differentiable(hvp)]
    fn gauss_dx(x: f64) -> f64 {
        2.0 / std::f64::consts::PI.sqrt() * (-x * x).exp()
    }

    #[differentiable(hvp)]
    fn model(a: f64, b: f64) -> f64 {
        Self::gauss(a * b) + a
    }
}

#[test]
fn rules_on_associated_functions() {
    check1(
        "Special::gauss",
        Special::gauss,
        Special::gauss_grad,
        &[-1.5, 0.2, 0.9],
    );
    for x in [-0.8, 0.4] {
        // erf'' = -2x erf'.
        let (value, [[h]]) = Special::gauss_hessian(x);
        assert_eq!(value.to_bits(), Special::gauss(x).to_bits());
        assert!((h + 2.0 * x * erf_dx(x)).abs() < 1e-15);
        assert_eq!(Special::gauss_jvp(x, 2.0), (value, 2.0 * erf_dx(x)));
    }
    // d/da (erf(ab) + a) = b erf'(ab) + 1, and its derivatives along (1, 0) and (0, 1).
    let (a, b) = (0.3, -0.7);
    let (value, da, db) = Special::model_grad(a, b);
    assert_eq!(value.to_bits(), Special::model(a, b).to_bits());
    assert!((da - (b * erf_dx(a * b) + 1.0)).abs() < 1e-15);
    assert!((db - a * erf_dx(a * b)).abs() < 1e-15);
    check2(
        "Special::model",
        Special::model,
        Special::model_grad,
        &[[a, b], [1.2, 0.4]],
    );
    let (_, haa, hab) = Special::model_hvp(a, 1.0, b, 0.0);
    let second = -2.0 * a * b * erf_dx(a * b); // erf''(ab)
    assert!((haa - b * b * second).abs() < 1e-14);
    assert!((hab - (erf_dx(a * b) + a * b * second)).abs() < 1e-14);
}
