//! Closures bound by `let` and called (issue 25): each call is the body inlined with its
//! parameters bound. Against central differences and the `Value` engine, the value bit for
//! bit `f`'s.

use crate::common;

use common::{assert_near, derivative};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

#[differentiable(hessian)]
fn squares(a: f64, b: f64) -> f64 {
    let k = 0.5;
    let sq = |t: f64| t * t;
    let scaled = |t: f64, u: f64| k * t.tanh() + sq(u);
    sq(a) + sq(b) * a + scaled(a * b, b)
}

fn value_squares(a: f64, b: f64) -> (f64, f64) {
    let (a, b) = (Value::new(a), Value::new(b));
    let y = &a * &a + &b * &b * &a + 0.5 * (&a * &b).tanh() + &b * &b;
    y.backward();
    (a.grad(), b.grad())
}

#[test]
fn bound_closures_against_references() {
    for (a, b) in [(0.3, -1.2), (1.5, 0.7), (-2.0, 0.25)] {
        let (value, d_a, d_b) = squares_grad(a, b);
        assert_eq!(value.to_bits(), squares(a, b).to_bits());
        assert_near("d_a", d_a, derivative(|a| squares(a, b), a), 1e-6);
        assert_near("d_b", d_b, derivative(|b| squares(a, b), b), 1e-6);
        let (v_a, v_b) = value_squares(a, b);
        assert_near("d_a Value", d_a, v_a, 1e-12);
        assert_near("d_b Value", d_b, v_b, 1e-12);
    }
}
