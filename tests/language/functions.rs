//! The functions added with the one-place table of issue 12 (`asinh acosh atanh`, `floor ceil
//! round trunc` with derivative 0, `clamp`, `powi` with a run-time exponent), against central
//! differences, closed forms, a differentiable caller and `f_graph`.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value, check1, check2};
use micrograd_runtime::prelude::*;

#[differentiable]
fn inverse_hyperbolic(x: f64) -> f64 {
    x.asinh() + (x * x + 1.5).acosh() + f64::atanh(x * 0.3)
}

#[test]
fn inverse_hyperbolic_functions() {
    let points = [-2.1, -0.4, 0.0, 0.7, 1.9];
    check1(
        "inverse_hyperbolic",
        inverse_hyperbolic,
        inverse_hyperbolic_grad,
        &points,
    );
    // Closed form at 0: asinh' = 1, (x² + 1.5).acosh()' = 0, atanh(0.3 x)' = 0.3.
    assert_eq!(inverse_hyperbolic_grad(0.0).1, 1.3);
}

#[differentiable]
fn steps(x: f64) -> f64 {
    x.floor() * x + x.ceil() + (x * 3.0).round() * x.sin() + x.trunc().exp()
}

#[test]
fn piecewise_constant_functions() {
    // Away from the jumps, where central differences see no step.
    check1("steps", steps, steps_grad, &[-1.3, -0.4, 0.2, 1.45, 2.6]);
    // Closed form: d/dx = floor x + round(3x) cos x.
    for x in [-1.3, 0.2, 2.6] {
        let exact = f64::floor(x) + (x * 3.0).round() * x.cos();
        assert_near("steps closed form", steps_grad(x).1, exact, 1e-15);
    }
}

#[differentiable(graph)]
fn clamped(x: f64, lo: f64) -> f64 {
    let hi = lo + 1.0;
    x.clamp(lo, hi) * 2.0 + (x * x).clamp(0.5, 2.0)
}

#[test]
fn clamp_gives_the_gradient_to_what_it_returns() {
    let points = [[-1.0, 0.0], [0.3, 0.0], [1.8, 0.0], [0.9, 0.5], [2.5, -0.3]];
    check2("clamped", clamped, clamped_grad, &points);
    // Below: all to lo (x² = 1 is inside its bounds: 2x to x); inside: all to x.
    assert_eq!(clamped_grad(-1.0, 0.0), (clamped(-1.0, 0.0), -2.0, 2.0));
    let (_, dx, dlo) = clamped_grad(0.9, 0.5);
    assert_eq!((dx, dlo), (2.0 + 2.0 * 0.9, 0.0));
    let nan = clamped_grad(f64::NAN, 0.0);
    assert!(nan.0.is_nan() && clamped(f64::NAN, 0.0).is_nan());
}

/// `clamp` panics when its bounds are crossed (or NaN), so `f_grad` does too, as `f` does.
#[test]
fn clamp_with_crossed_bounds_panics_like_f() {
    for grad in [true, false] {
        let outcome = std::panic::catch_unwind(|| {
            if grad {
                clamped_grad(0.3, f64::NAN).0
            } else {
                clamped(0.3, f64::NAN)
            }
        });
        assert!(outcome.is_err(), "grad {grad}: a NaN bound must panic");
    }
    let message = |result: std::thread::Result<f64>| {
        let payload = result.expect_err("lo > hi must panic");
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
    };
    let from_grad = message(std::panic::catch_unwind(|| crossed_grad(0.3, 1.0, 0.0).0));
    let from_f = message(std::panic::catch_unwind(|| crossed(0.3, 1.0, 0.0)));
    assert_eq!(from_grad, from_f);
}

#[differentiable]
fn crossed(x: f64, lo: f64, hi: f64) -> f64 {
    x.clamp(lo, hi)
}

#[differentiable]
fn power(x: f64, n: i32) -> f64 {
    x.powi(n) + x.powi(n - 1) * 0.5 + f64::powi(x, -n)
}

#[test]
fn powi_with_a_run_time_exponent() {
    for n in [-3, -1, 0, 1, 2, 5] {
        for x in [-1.7, 0.6, 2.2] {
            let (value, d) = power_grad(x, n);
            assert_same_value("power", value, power(x, n), &[x]);
            assert_gradient("power", |p| power(p[0], n), &[x], &[d]);
        }
    }
}

#[differentiable]
fn caller(x: f64, y: f64) -> f64 {
    clamped(x, y) * power(y, 3) + steps(x * 0.5) + inverse_hyperbolic(y * 0.2)
}

#[test]
fn through_a_caller_and_the_graph() {
    for [x, y] in [[0.3, 0.1], [1.7, 0.6], [-0.8, -0.9]] {
        let (value, dx, dy) = caller_grad(x, y);
        assert_same_value("caller", value, caller(x, y), &[x, y]);
        assert_gradient("caller", |p| caller(p[0], p[1]), &[x, y], &[dx, dy]);
        let graph = clamped_graph(x, y);
        let (v, gx, gy) = clamped_grad(x, y);
        assert_eq!(graph.node(graph.output().expect("output")).data(), v);
        assert_near("graph x", graph.find("x").expect("x").grad(), gx, 1e-12);
        assert_near("graph lo", graph.find("lo").expect("lo").grad(), gy, 1e-12);
    }
}
