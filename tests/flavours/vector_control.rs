//! Vector outputs returned from branches, `match` arms and loops (`return [x, y];` anywhere),
//! in every flavour: `f_jacobian`, `f_jvp` and `f_pullback`. Each against num-dual (`Dual64`
//! along each unit vector and along `v`, on a generic version of the function) and central
//! differences; values bit for bit `f`'s.

use crate::common;

use common::{assert_near, assert_partial};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

/// A function of `(x, y)` with two outputs, in every form a test compares.
struct Case<'a> {
    name: &'a str,
    f: &'a dyn Fn(f64, f64) -> [f64; 2],
    jacobian: &'a dyn Fn(f64, f64) -> ([f64; 2], [[f64; 2]; 2]),
    jvp: &'a dyn Fn(f64, f64, f64, f64) -> ([f64; 2], [f64; 2]),
    pullback: &'a dyn Fn(f64, f64, [f64; 2]) -> (f64, f64),
    dual: &'a dyn Fn(Dual64, Dual64) -> [Dual64; 2],
}

/// Checks every flavour of `case` at `(x, y)`.
fn check(case: &Case, [x, y]: [f64; 2]) {
    let name = case.name;
    let value = (case.f)(x, y);
    let (jac_value, jacobian) = (case.jacobian)(x, y);
    for i in 0..2 {
        assert_eq!(jac_value[i].to_bits(), value[i].to_bits(), "{name}: value");
        for (j, &entry) in jacobian[i].iter().enumerate() {
            let unit = |k: usize| if k == j { 1.0 } else { 0.0 };
            let dual = (case.dual)(Dual64::new(x, unit(0)), Dual64::new(y, unit(1)));
            assert_near(name, dual[i].re, value[i], 1e-14);
            assert_near(name, entry, dual[i].eps, 1e-12);
            let f = |p: &[f64]| (case.f)(p[0], p[1])[i];
            assert_partial(name, f, &[x, y], j, entry);
        }
    }
    let v = [0.6, -1.3];
    let (jvp_value, tangent) = (case.jvp)(x, v[0], y, v[1]);
    let dual = (case.dual)(Dual64::new(x, v[0]), Dual64::new(y, v[1]));
    for i in 0..2 {
        assert_eq!(
            jvp_value[i].to_bits(),
            value[i].to_bits(),
            "{name}: jvp value"
        );
        assert_near(name, tangent[i], dual[i].eps, 1e-12);
        let along = |t: &[f64]| (case.f)(x + t[0] * v[0], y + t[0] * v[1])[i];
        assert_partial(name, along, &[0.0], 0, tangent[i]);
    }
    let seed = [0.7, -2.0];
    let (d_x, d_y) = (case.pullback)(x, y, seed);
    for (j, d) in [d_x, d_y].into_iter().enumerate() {
        let expect = seed[0] * jacobian[0][j] + seed[1] * jacobian[1][j];
        assert_near(name, d, expect, 1e-13);
    }
}

/// `if` as the returned value.
#[differentiable(jacobian, jvp)]
fn swap(x: f64, y: f64) -> [f64; 2] {
    let p = x * y;
    if x > y { [p, x.sin()] } else { [y.exp(), p] }
}

fn swap_dual<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> [D; 2] {
    let p = x * y;
    if x.re() > y.re() {
        [p, x.sin()]
    } else {
        [y.exp(), p]
    }
}

#[test]
fn an_if_returns_an_array() {
    let case = Case {
        name: "swap",
        f: &swap,
        jacobian: &swap_jacobian,
        jvp: &swap_jvp,
        pullback: &swap_pullback,
        dual: &swap_dual,
    };
    for point in [[1.5, 0.5], [-0.5, 0.25]] {
        check(&case, point);
    }
}

/// `match` on an integer computed from the inputs, arms of every form, in a tuple.
#[differentiable(jacobian, jvp)]
fn quadrant(x: f64, y: f64) -> (f64, f64) {
    let mut k = 0;
    if x > 0.0 {
        k += 1;
    }
    if y > 0.0 {
        k += 2;
    }
    let r = (x * x + y * y).sqrt();
    match k {
        0 => (r, x * y),
        1 | 2 => {
            let t = x.atan2(y);
            (t * r, t)
        }
        k if k > 5 => (x, y),
        _ => (x.exp() - y, r * r),
    }
}

fn quadrant_dual<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> [D; 2] {
    let k = usize::from(x.re() > 0.0) + 2 * usize::from(y.re() > 0.0);
    let r = (x * x + y * y).sqrt();
    match k {
        0 => [r, x * y],
        1 | 2 => {
            let t = x.atan2(y);
            [t * r, t]
        }
        _ => [x.exp() - y, r * r],
    }
}

#[test]
fn a_match_returns_a_tuple() {
    let f = |x, y| {
        let (a, b) = quadrant(x, y);
        [a, b]
    };
    let jacobian = |x, y| {
        let ((a, b), j) = quadrant_jacobian(x, y);
        ([a, b], j)
    };
    let jvp = |x, v_x, y, v_y| {
        let ((a, b), (v_a, v_b)) = quadrant_jvp(x, v_x, y, v_y);
        ([a, b], [v_a, v_b])
    };
    let pullback = |x, y, seed: [f64; 2]| quadrant_pullback(x, y, (seed[0], seed[1]));
    let case = Case {
        name: "quadrant",
        f: &f,
        jacobian: &jacobian,
        jvp: &jvp,
        pullback: &pullback,
        dual: &quadrant_dual,
    };
    for point in [[-1.5, -0.5], [0.5, -0.25], [-0.3, 0.7], [1.2, 0.9]] {
        check(&case, point);
    }
}

/// `return [..]` from inside a `for` loop (with a value the loop carries) and at its end.
#[differentiable(jacobian, jvp)]
fn escape(x: f64, y: f64) -> [f64; 2] {
    let mut z = x;
    for i in 0..8 {
        z = z * y + 0.25;
        if z.abs() > 2.0 {
            return [z, i as f64 * x];
        }
    }
    [z * x, z]
}

fn escape_dual<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> [D; 2] {
    let mut z = x;
    for i in 0..8 {
        z = z * y + 0.25;
        if z.re().abs() > 2.0 {
            return [z, x * i as f64];
        }
    }
    [z * x, z]
}

#[test]
fn a_loop_returns_an_array() {
    let case = Case {
        name: "escape",
        f: &escape,
        jacobian: &escape_jacobian,
        jvp: &escape_jvp,
        pullback: &escape_pullback,
        dual: &escape_dual,
    };
    // Escapes at the first iteration, at a later one, and never.
    for point in [[2.5, 1.0], [1.0, 1.5], [0.5, 0.5]] {
        check(&case, point);
    }
}

/// An early `return` from a branch and from a `while` loop, then the tail.
#[differentiable(jacobian, jvp)]
fn early(x: f64, y: f64) -> (f64, f64) {
    if x < 0.0 {
        return (x * y, y);
    }
    let mut s = x;
    while s < 10.0 {
        s = s * 2.0 + y;
        if s > 5.0 * y {
            return (s, s * y);
        }
    }
    (s.ln(), x)
}

fn early_dual<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> [D; 2] {
    if x.re() < 0.0 {
        return [x * y, y];
    }
    let mut s = x;
    while s.re() < 10.0 {
        s = s * 2.0 + y;
        if s.re() > 5.0 * y.re() {
            return [s, s * y];
        }
    }
    [s.ln(), x]
}

#[test]
fn early_returns_of_a_tuple() {
    let f = |x, y| {
        let (a, b) = early(x, y);
        [a, b]
    };
    let jacobian = |x, y| {
        let ((a, b), j) = early_jacobian(x, y);
        ([a, b], j)
    };
    let jvp = |x, v_x, y, v_y| {
        let ((a, b), (v_a, v_b)) = early_jvp(x, v_x, y, v_y);
        ([a, b], [v_a, v_b])
    };
    let pullback = |x, y, seed: [f64; 2]| early_pullback(x, y, (seed[0], seed[1]));
    let case = Case {
        name: "early",
        f: &f,
        jacobian: &jacobian,
        jvp: &jvp,
        pullback: &pullback,
        dual: &early_dual,
    };
    // The branch, the loop's return, and the tail.
    for point in [[-1.0, 0.5], [1.0, 1.5], [3.0, 5.0]] {
        check(&case, point);
    }
}
