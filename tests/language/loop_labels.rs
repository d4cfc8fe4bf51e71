//! Labelled `break` / `continue` in nested loops, `return` from inside loops, calls inside
//! loops with exits, and such loops through `f_pullback` and `f_graph` (issue 11), against
//! central finite differences and the `Value` engine.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value, check_with_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// `break 'outer` and `continue 'outer` from a `loop` inside a `while`, and an unlabelled
/// `break` of the inner loop.
#[differentiable(graph)]
fn grid(x: f64, y: f64) -> f64 {
    let mut s = 0.0;
    let mut a = x;
    'outer: while a < 3.0 {
        a += 0.5;
        let mut b = y;
        loop {
            b *= 1.5;
            if b * a > 20.0 {
                break 'outer;
            }
            if b > 4.0 {
                continue 'outer;
            }
            s += a * b;
            if s > 50.0 {
                break;
            }
        }
        s = s * 0.9 + a;
    }
    s + a
}

fn grid_value(p: &[Value]) -> Value {
    let mut s = Value::new(0.0);
    let mut a = p[0].clone();
    'outer: while a.data() < 3.0 {
        a = &a + 0.5;
        let mut b = p[1].clone();
        loop {
            b = &b * 1.5;
            if b.data() * a.data() > 20.0 {
                break 'outer;
            }
            if b.data() > 4.0 {
                continue 'outer;
            }
            s = &s + &a * &b;
            if s.data() > 50.0 {
                break;
            }
        }
        s = &s * 0.9 + &a;
    }
    s + a
}

#[test]
fn labelled_break_and_continue_in_nested_loops() {
    check_with_value(
        "grid",
        &|p| grid(p[0], p[1]),
        &|p| {
            let (value, a, b) = grid_grad(p[0], p[1]);
            vec![value, a, b]
        },
        &grid_value,
        // No outer iteration; `continue 'outer` only; `break 'outer`; the inner `break`.
        &[
            &[3.2, 1.0],
            &[1.1, 0.9],
            &[0.3, 3.7],
            &[2.2, 2.5],
            &[-4.1, 0.35],
            &[2.9, 2.62],
        ],
    );
}

/// `return` from inside a doubly nested loop.
#[differentiable]
fn search(x: f64, rate: f64) -> f64 {
    let mut s = x;
    for i in 0..6 {
        for j in 0..4 {
            s = s * rate + ((i * j) as f64) * 0.01;
            if s > 3.0 {
                return s * s;
            }
        }
        s -= 0.1;
    }
    s
}

fn search_value(p: &[Value]) -> Value {
    let mut s = p[0].clone();
    for i in 0..6 {
        for j in 0..4 {
            s = &s * &p[1] + ((i * j) as f64) * 0.01;
            if s.data() > 3.0 {
                return &s * &s;
            }
        }
        s = &s - 0.1;
    }
    s
}

#[test]
fn return_from_a_doubly_nested_loop() {
    check_with_value(
        "search",
        &|p| search(p[0], p[1]),
        &|p| {
            let (value, a, b) = search_grad(p[0], p[1]);
            vec![value, a, b]
        },
        &search_value,
        // Returns in the first iteration, later, or never.
        &[&[3.5, 1.01], &[1.3, 1.07], &[0.4, 0.93], &[-0.7, 1.02]],
    );
}

/// One step of a damped oscillator: called from inside a `while` with an exit.
#[differentiable]
fn step(x: f64, v: f64, k: f64) -> f64 {
    x + 0.05 * v - 0.01 * k * x.tanh()
}

/// Steps until the energy falls under a level, leaving with `break` if it grows too large.
#[differentiable]
fn settle(x: f64, v: f64, k: f64) -> f64 {
    let mut p = x;
    let mut q = v;
    let mut e = p * p + q * q;
    while e > 0.5 {
        let next = step(p, q, k);
        q = q * 0.9 - 0.05 * k * p;
        p = next;
        e = p * p + q * q;
        if e > 100.0 {
            break;
        }
    }
    e + p
}

fn settle_value(a: &[Value]) -> Value {
    let (mut p, mut q, k) = (a[0].clone(), a[1].clone(), &a[2]);
    let mut e = &p * &p + &q * &q;
    while e.data() > 0.5 {
        let next = &p + 0.05 * &q - 0.01 * k * p.tanh();
        q = &q * 0.9 - 0.05 * k * &p;
        p = next;
        e = &p * &p + &q * &q;
        if e.data() > 100.0 {
            break;
        }
    }
    e + p
}

#[test]
fn calls_inside_a_while_with_an_exit() {
    check_with_value(
        "settle",
        &|p| settle(p[0], p[1], p[2]),
        &|p| {
            let (value, a, b, c) = settle_grad(p[0], p[1], p[2]);
            vec![value, a, b, c]
        },
        &settle_value,
        &[&[0.3, 0.2, 1.0], &[1.2, -0.8, 2.0], &[2.0, 1.5, 0.7]],
    );
}

/// A differentiable caller of loops with exits: their `f_pullback`s.
#[differentiable]
fn caller(a: f64, b: f64) -> f64 {
    let s = grid(a, b * 0.5);
    let t = search(b, 1.0 + a * 0.01);
    s * t
}

#[test]
fn through_f_pullback() {
    for p in [[0.3, 1.9], [1.1, 1.6], [-1.93, 3.1]] {
        let (value, da, db) = caller_grad(p[0], p[1]);
        assert_same_value("caller", value, caller(p[0], p[1]), &p);
        assert_gradient("caller", |q| caller(q[0], q[1]), &p, &[da, db]);
    }
}

#[test]
fn through_f_graph() {
    for p in [[1.1, 0.9], [0.3, 3.7], [2.2, 2.5]] {
        let graph = grid_graph(p[0], p[1]);
        let output = graph.node(graph.output().expect("backward was called"));
        assert_eq!(output.data(), grid(p[0], p[1]));
        let (_, da, db) = grid_grad(p[0], p[1]);
        let x = graph.find("x").expect("input x");
        let y = graph.find("y").expect("input y");
        assert_near("grid graph d/dx", x.grad(), da, 1e-12);
        assert_near("grid graph d/dy", y.grad(), db, 1e-12);
    }
}

/// A `while` in a branch in a `for`: its trip count is exported by the branch and recorded per
/// iteration of the `for`.
#[differentiable]
fn nested_while(w: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        let mut y = w[i] * x;
        if y > 0.0 {
            while y > 0.3 {
                y = y * 0.7 + 0.01 * s;
            }
        }
        s += y * y;
    }
    s
}

fn nested_while_value(p: &[Value]) -> Value {
    let (w, x) = (&p[..p.len() - 1], &p[p.len() - 1]);
    let mut s = Value::new(0.0);
    for wi in w {
        let mut y = wi * x;
        if y.data() > 0.0 {
            while y.data() > 0.3 {
                y = &y * 0.7 + 0.01 * &s;
            }
        }
        s = &s + &y * &y;
    }
    s
}

/// `f_grad` of a function of a slice and an `f64`.
type SliceGrad<'a> = &'a dyn Fn(&[f64], &mut [f64], f64) -> (f64, f64);

/// `return` from a single loop, and a function that ends in a `loop` it leaves by `return`.
#[differentiable]
fn first_above(w: &[f64], level: f64) -> f64 {
    for i in 0..w.len() {
        if w[i] > level {
            return w[i] * level;
        }
    }
    let mut t = level;
    loop {
        t *= 0.5;
        if t < 0.1 {
            return t + w[0];
        }
    }
}

#[test]
fn trip_counts_inside_loops_and_returns_from_loops() {
    let slice_check = |name: &str,
                       f: &dyn Fn(&[f64], f64) -> f64,
                       g: SliceGrad,
                       v: &dyn Fn(&[Value]) -> Value,
                       points: &[&[f64]]| {
        let f = |p: &[f64]| f(&p[..p.len() - 1], p[p.len() - 1]);
        let g = |p: &[f64]| {
            let n = p.len() - 1;
            let mut d_w = vec![0.0; n];
            let (value, d_last) = g(&p[..n], &mut d_w, p[n]);
            [vec![value], d_w, vec![d_last]].concat()
        };
        check_with_value(name, &f, &g, v, points);
    };
    slice_check(
        "nested_while",
        &nested_while,
        &nested_while_grad,
        &nested_while_value,
        &[&[0.5, -0.2, 1.7, 0.9, 1.3], &[2.5, 0.1, 0.8], &[-1.0, 0.7]],
    );
    for p in [[0.2, 0.9, 1.4, 0.5], [0.2, 0.3, 0.1, 0.7]] {
        let (w, level) = (&p[..3], p[3]);
        let mut d_w = [0.0; 3];
        let (value, d_level) = first_above_grad(w, &mut d_w, level);
        assert_same_value("first_above", value, first_above(w, level), &p);
        let f = |q: &[f64]| first_above(&q[..3], q[3]);
        assert_gradient("first_above", f, &p, &[d_w[0], d_w[1], d_w[2], d_level]);
    }
}
