//! `while`, `loop`, `break` (with a value), `continue` and labels (issue 11), against central
//! finite differences and the `Value` engine, at points away from the switches of the trip
//! counts and branches.

use crate::common;

use common::{assert_gradient, assert_same_value, check_slice, check_with_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// A projectile with drag from height `h`, integrated with a fixed step until it lands: the
/// trip count depends on the inputs.
#[differentiable]
fn projectile(h: f64, vx: f64, vy: f64) -> f64 {
    let dt = 0.01;
    let mut x = 0.0;
    let mut y = h;
    let mut u = vx;
    let mut v = vy;
    while y >= 0.0 {
        x += u * dt;
        y += v * dt;
        u -= 0.1 * u * dt;
        v -= (9.81 + 0.1 * v) * dt;
    }
    x + y
}

fn projectile_value(p: &[Value]) -> Value {
    let dt = 0.01;
    let (mut x, mut y) = (Value::new(0.0), p[0].clone());
    let (mut u, mut v) = (p[1].clone(), p[2].clone());
    while y.data() >= 0.0 {
        x = &x + &u * dt;
        y = &y + &v * dt;
        u = &u - 0.1 * &u * dt;
        v = &v - (9.81 + 0.1 * &v) * dt;
    }
    x + y
}

fn projectile_partials(p: &[f64]) -> Vec<f64> {
    let (value, a, b, c) = projectile_grad(p[0], p[1], p[2]);
    vec![value, a, b, c]
}

#[test]
fn while_with_a_data_dependent_trip_count() {
    check_with_value(
        "projectile",
        &|p| projectile(p[0], p[1], p[2]),
        &projectile_partials,
        &projectile_value,
        // 0 iterations (starts below the ground), 1, and many.
        &[
            &[-0.1, 1.0, 2.0],
            &[0.013, 2.0, -3.1],
            &[0.02, 3.0, 4.0],
            &[1.5, 10.3, 7.7],
        ],
    );
    // Below the ground nothing runs: x + y = h.
    assert_eq!(projectile_grad(-0.1, 1.0, 2.0), (-0.1, 1.0, 0.0, 0.0));
}

/// Newton's method for the cube root, leaving the `loop` with the converged value.
#[differentiable]
fn cube_root(a: f64) -> f64 {
    let mut x = 1.0;
    let root = loop {
        let next = x - (x * x * x - a) / (3.0 * x * x);
        if (next - x).abs() < 1e-10 {
            break next;
        }
        x = next;
    };
    root * 2.0
}

fn cube_root_value(p: &[Value]) -> Value {
    let mut x = Value::new(1.0);
    let root = loop {
        let next = &x - (&x * &x * &x - &p[0]) / (3.0 * &x * &x);
        if (next.data() - x.data()).abs() < 1e-10 {
            break next;
        }
        x = next;
    };
    root * 2.0
}

#[test]
fn loop_with_break_value() {
    check_with_value(
        "cube_root",
        &|p| cube_root(p[0]),
        &|p| {
            let (value, d) = cube_root_grad(p[0]);
            vec![value, d]
        },
        &cube_root_value,
        // One iteration (a = 1 is its own root), then many.
        &[&[1.0], &[2.0], &[27.5], &[0.3]],
    );
    // d/da 2·a^(1/3) = (2/3)·a^(-2/3), to the tolerance Newton converged to.
    let (_, d) = cube_root_grad(8.0);
    assert!((d - 2.0 / 12.0).abs() < 1e-9, "{d}");
}

/// `continue` and `break` in a `for`: skipped entries, and a stop when a level is crossed.
#[differentiable]
fn crossing(w: &[f64], level: f64) -> f64 {
    let mut acc = 0.0;
    for i in 0..w.len() {
        if w[i] < 0.0 {
            continue;
        }
        acc += (w[i] * level).tanh();
        if acc > level {
            break;
        }
        acc *= 0.9;
    }
    acc * level
}

fn crossing_value(p: &[Value]) -> Value {
    let (w, level) = (&p[..p.len() - 1], &p[p.len() - 1]);
    let mut acc = Value::new(0.0);
    for wi in w {
        if wi.data() < 0.0 {
            continue;
        }
        acc = &acc + (wi * level).tanh();
        if acc.data() > level.data() {
            break;
        }
        acc = &acc * 0.9;
    }
    acc * level
}

#[test]
fn continue_and_break_in_for() {
    let f = |p: &[f64]| crossing(&p[..p.len() - 1], p[p.len() - 1]);
    let g = |p: &[f64]| {
        let n = p.len() - 1;
        let mut d_w = vec![0.0; n];
        let (value, d_level) = crossing_grad(&p[..n], &mut d_w, p[n]);
        [vec![value], d_w, vec![d_level]].concat()
    };
    check_with_value(
        "crossing",
        &f,
        &g,
        &crossing_value,
        &[
            &[0.5],                           // no entries: no iteration
            &[0.7, 0.5],                      // one
            &[-0.3, 0.7, 0.2, -1.0, 0.5],     // skips, never crosses
            &[0.9, -0.2, 1.3, 0.8, 2.0, 0.6], // crosses at the third entry
        ],
    );
}

/// `continue` in a `while` whose condition reads a value the body overwrites.
#[differentiable]
fn halvings(x: f64) -> f64 {
    let mut y = x;
    let mut s = 0.0;
    while y > 0.1 {
        y *= 0.5;
        if y > 1.0 {
            continue;
        }
        s += y * y;
    }
    s + y
}

fn halvings_value(p: &[Value]) -> Value {
    let mut y = p[0].clone();
    let mut s = Value::new(0.0);
    while y.data() > 0.1 {
        y = &y * 0.5;
        if y.data() > 1.0 {
            continue;
        }
        s = &s + &y * &y;
    }
    s + y
}

#[test]
fn continue_in_while() {
    check_with_value(
        "halvings",
        &|p| halvings(p[0]),
        &|p| {
            let (value, d) = halvings_grad(p[0]);
            vec![value, d]
        },
        &halvings_value,
        &[&[0.05], &[0.15], &[0.7], &[5.3], &[37.0]],
    );
}

/// A local array overwritten in every iteration of a `while`.
#[differentiable]
fn relax(x: f64, rate: f64) -> f64 {
    let mut a = [0.0; 3];
    let mut y = x;
    let mut t = 0.0;
    while t < 1.0 {
        a[0] = y;
        a[1] = y * rate;
        a[2] = a[0] * a[1];
        y = y - 0.1 * a[2] + a[1] * 0.05;
        t += 0.25;
    }
    y + a[2]
}

fn relax_value(p: &[Value]) -> Value {
    let mut a = [Value::new(0.0), Value::new(0.0), Value::new(0.0)];
    let mut y = p[0].clone();
    let mut t = 0.0;
    while t < 1.0 {
        a[0] = y.clone();
        a[1] = &y * &p[1];
        a[2] = &a[0] * &a[1];
        y = &y - 0.1 * &a[2] + &a[1] * 0.05;
        t += 0.25;
    }
    y + &a[2]
}

#[test]
fn while_overwriting_a_local_array() {
    check_with_value(
        "relax",
        &|p| relax(p[0], p[1]),
        &|p| {
            let (value, a, b) = relax_grad(p[0], p[1]);
            vec![value, a, b]
        },
        &relax_value,
        &[&[0.5, 0.3], &[-1.2, 2.0], &[2.0, -0.7]],
    );
}

/// A `while` accumulation that reads only its inputs: nothing to record.
#[differentiable]
fn series(x: f64, terms: f64) -> f64 {
    let mut s = 0.0;
    let mut k = 0.0;
    while k < terms {
        s += x / (k + 1.0);
        k += 1.0;
    }
    s
}

#[test]
fn while_accumulation() {
    for terms in [0.0, 1.0, 7.0] {
        for x in [-1.5, 0.3, 2.0] {
            let (value, d, d_terms) = series_grad(x, terms);
            assert_same_value("series", value, series(x, terms), &[x]);
            assert_gradient("series", |p| series(p[0], terms), &[x], &[d]);
            assert_eq!(d_terms, 0.0);
        }
    }
    check_slice(
        "series of w",
        |w| series(w[0], w[1]),
        |w, d_w| {
            let (value, a, b) = series_grad(w[0], w[1]);
            d_w.copy_from_slice(&[a, b]);
            value
        },
        &[0.7, 3.5],
    );
}

/// A `while` condition that updates `x`, in a body that shadows `x` with a `let` (reduced
/// from random programs 432, 461, 600 and 1656 of seed 31): the condition's `x` is the
/// outer one, carried across iterations, and the body's `let` does not hide that.
#[differentiable]
fn shadowed_in_body(a: f64) -> f64 {
    let mut x = a;
    let mut g = 0.0;
    while g < 3.0
        && ({
            x *= 0.5 + 0.1 * a;
            x
        } > 0.1)
    {
        g += 1.0;
        let x = x * a;
        if x > 10.0 {
            continue;
        }
        g += 0.5 * x;
    }
    x + g
}

fn shadowed_in_body_value(p: &[Value]) -> Value {
    let mut x = p[0].clone();
    let mut g = Value::new(0.0);
    loop {
        if g.data() >= 3.0 {
            break;
        }
        x = &x * (0.5 + 0.1 * &p[0]);
        if x.data() <= 0.1 {
            break;
        }
        g = &g + 1.0;
        let x = &x * &p[0];
        if x.data() > 10.0 {
            continue;
        }
        g = &g + 0.5 * &x;
    }
    x + g
}

#[test]
fn a_body_let_does_not_hide_what_the_condition_assigns() {
    check_with_value(
        "shadowed_in_body",
        &|p| shadowed_in_body(p[0]),
        &|p| {
            let (value, d) = shadowed_in_body_grad(p[0]);
            vec![value, d]
        },
        &shadowed_in_body_value,
        // The condition fails at once, after one or two trips, and the `continue` path.
        &[&[0.15], &[0.9], &[2.3], &[30.0]],
    );
}
