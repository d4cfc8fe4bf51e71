//! `match` on integers and booleans (issue 12): ranges, guards, or-patterns, bindings and
//! constants, as a statement and as an expression, against central differences, a
//! differentiable caller, `f_graph` and the `Value` engine.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

const LIMIT: i64 = 7;

#[differentiable(graph)]
fn piecewise(x: f64, k: i64) -> f64 {
    let y = match k {
        0 => x * x,
        1 | 2 => x.tanh() * 3.0,
        -3..=-1 => x.exp(),
        LIMIT => x - 1.0,
        n @ 3..5 if n % 2 == 0 => x * (n as f64),
        n if n > 10 => {
            let t = x.sin();
            t * t + (n as f64)
        }
        _ => 0.5,
    };
    let mut s = y;
    match x > 0.5 {
        true => s *= x,
        false => {
            s += x.sigmoid();
        }
    }
    match k % 3 {
        0 => {}
        _ => s = s * 2.0 - x,
    }
    s
}

/// The same function on micrograd's run-time engine.
fn piecewise_value(x0: f64, k: i64) -> (f64, f64) {
    let x = Value::new(x0);
    let y = match k {
        0 => &x * &x,
        1 | 2 => x.tanh() * 3.0,
        -3..=-1 => x.exp(),
        LIMIT => &x - 1.0,
        n @ 3..5 if n % 2 == 0 => &x * (n as f64),
        n if n > 10 => {
            let t = x.tanh() * 0.0 + Value::new(x0.sin());
            &t * &t + (n as f64)
        }
        _ => Value::new(0.5),
    };
    let s = if x0 > 0.5 { y * &x } else { y + x.sigmoid() };
    let s = if k % 3 == 0 { s } else { s * 2.0 - &x };
    s.backward();
    (s.data(), x.grad())
}

const KS: [i64; 12] = [-4, -3, -1, 0, 1, 2, 3, 4, 5, 7, 8, 12];
const XS: [f64; 4] = [-1.3, 0.2, 0.7, 1.9];

#[test]
fn match_against_differences_and_value() {
    for k in KS {
        for x in XS {
            let (value, d) = piecewise_grad(x, k);
            assert_same_value("piecewise", value, piecewise(x, k), &[x]);
            assert_gradient("piecewise", |p| piecewise(p[0], k), &[x], &[d]);
            if k <= 10 {
                // The Value engine has no `sin`: the arm k > 10 is checked by differences only.
                let (reference, dv) = piecewise_value(x, k);
                assert_near("piecewise vs Value", value, reference, 1e-15);
                assert_near("piecewise d/dx vs Value", d, dv, 1e-12);
            }
        }
    }
}

#[differentiable]
fn choose(x: f64, flag: bool, w: &[f64]) -> f64 {
    let v = match flag {
        true => piecewise(x, 1) * w[0],
        false => piecewise(w[1], 4),
    };
    match w.len() {
        0..=1 => v,
        len => v + w[len - 1],
    }
}

#[test]
fn match_through_a_caller_and_the_graph() {
    let w = [0.4, -0.9, 1.3];
    for flag in [true, false] {
        for x in XS {
            let mut d_w = [0.0; 3];
            let (value, d_x) = choose_grad(x, flag, &w, &mut d_w);
            assert_same_value("choose", value, choose(x, flag, &w), &[x]);
            let f = |p: &[f64]| choose(p[0], flag, &p[1..]);
            assert_gradient(
                "choose",
                f,
                &[x, w[0], w[1], w[2]],
                &[d_x, d_w[0], d_w[1], d_w[2]],
            );
            let graph = piecewise_graph(x, 4);
            assert_eq!(
                graph.node(graph.output().expect("output")).data(),
                piecewise(x, 4)
            );
            let node = graph.find("x").expect("x");
            assert_near(
                "piecewise graph",
                node.grad(),
                piecewise_grad(x, 4).1,
                1e-12,
            );
        }
    }
}

/// An arm's binding is seen by its guard and body only: the next arm's `n` is the local one.
/// (The binding used to stay in scope for the arms after it, so `f_grad` read `k` there.)
#[differentiable]
fn bindings_stay_in_their_arm(x: f64, k: i32) -> f64 {
    let n = 10;
    let y = match k {
        n if n > 3 => x * n as f64,
        _ => x * n as f64,
    };
    let z = match k {
        n if n < -3 => return y - n as f64,
        _ => y * (x + n as f64),
    };
    z + 0.5
}

#[test]
fn arm_bindings_do_not_leak() {
    for (x, k) in [(2.0, 1), (2.0, 5), (-1.5, -5), (0.7, 0)] {
        let (value, d) = bindings_stay_in_their_arm_grad(x, k);
        let f = |p: &[f64]| bindings_stay_in_their_arm(p[0], k);
        assert_same_value("bindings_stay_in_their_arm", value, f(&[x]), &[x]);
        assert_gradient("bindings_stay_in_their_arm", f, &[x], &[d]);
    }
    // k = 1: y = 10 x, and y (x + 10) + 0.5: 10 x^2 + 100 x + 0.5.
    assert_eq!(bindings_stay_in_their_arm_grad(2.0, 1), (240.5, 140.0));
}
