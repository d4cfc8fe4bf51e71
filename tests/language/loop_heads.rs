//! Loop heads over array literals and reversed items (`w.iter().rev()`, with `enumerate`, `zip`,
//! `chunks`, `windows`), and exits across a plain `{ .. }` block (issue 11). Each against
//! central finite differences and the `Value` engine, and through the pullback.

use crate::common;

use common::{assert_near, check_with_value};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// `f_grad` of `f(w: &[f64], x: f64)`.
type SliceGrad = fn(&[f64], &mut [f64], f64) -> (f64, f64);
/// `f_pullback` of `f(w: &[f64], x: f64)`.
type SlicePullback = fn(&[f64], &mut [f64], f64, f64) -> f64;

/// Checks `f(w, x)` (the point is `w` then `x`) against the Value engine and its pullback.
fn check_slice_fn(
    name: &str,
    f: fn(&[f64], f64) -> f64,
    g: SliceGrad,
    pullback: SlicePullback,
    v: &dyn Fn(&[Value], &Value) -> Value,
    points: &[&[f64]],
) {
    let split = |p: &[f64]| (p[..p.len() - 1].to_vec(), p[p.len() - 1]);
    let grad = |p: &[f64]| {
        let (w, x) = split(p);
        let mut d_w = vec![0.0; w.len()];
        let (value, d_x) = g(&w, &mut d_w, x);
        [vec![value], d_w, vec![d_x]].concat()
    };
    let value = |p: &[Value]| v(&p[..p.len() - 1], &p[p.len() - 1]);
    check_with_value(
        name,
        &|p| f(split(p).0.as_slice(), split(p).1),
        &grad,
        &value,
        points,
    );
    for p in points {
        let (w, x) = split(p);
        let out = grad(p);
        let mut e_w = vec![0.0; w.len()];
        let e_x = pullback(&w, &mut e_w, x, 0.75);
        assert_near(
            &format!("{name}_pullback"),
            e_x,
            0.75 * out[out.len() - 1],
            1e-12,
        );
        for (e, d) in e_w.iter().zip(&out[1..]) {
            assert_near(&format!("{name}_pullback"), *e, 0.75 * d, 1e-12);
        }
    }
}

const POINTS: [&[f64]; 4] = [
    &[0.6],
    &[0.4, 0.6],
    &[0.3, -1.2, 0.8, 0.5, 1.1],
    &[0.9, 0.2, -0.4, 1.3, -0.7, 0.5, 0.8],
];

/// An array literal, evaluated once before the loop although the body changes what it reads.
#[differentiable]
fn literal(x: f64, y: f64) -> f64 {
    let mut s = x;
    for v in [s, s * y, y.tanh()] {
        s = s * v + 1.0;
    }
    for &v in [x, y].iter() {
        s += v * s;
    }
    for (i, v) in [y, x * x].into_iter().enumerate() {
        s -= v * (i as f64 + 0.5);
    }
    s
}

fn literal_value(p: &[Value]) -> Value {
    let (x, y) = (&p[0], &p[1]);
    let mut s = x.clone();
    for v in [s.clone(), &s * y, y.tanh()] {
        s = &s * &v + 1.0;
    }
    for v in [x, y] {
        s = &s + v * &s;
    }
    for (i, v) in [y.clone(), x * x].iter().enumerate() {
        s = &s - v * (i as f64 + 0.5);
    }
    s
}

#[test]
fn over_array_literals() {
    check_with_value(
        "literal",
        &|p| literal(p[0], p[1]),
        &|p| {
            let (value, dx, dy) = literal_grad(p[0], p[1]);
            vec![value, dx, dy]
        },
        &literal_value,
        &[&[0.5, 0.3], &[-0.8, 1.2], &[1.1, -0.4]],
    );
    let (dx, dy) = literal_pullback(0.5, 0.3, 2.0);
    let (_, gx, gy) = literal_grad(0.5, 0.3);
    assert_near("literal_pullback", dx, 2.0 * gx, 1e-12);
    assert_near("literal_pullback", dy, 2.0 * gy, 1e-12);
}

/// `w.iter().rev()`, by reference and with `enumerate` on either side of `rev`.
#[differentiable]
fn reversed(w: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    for &v in w.iter().rev() {
        s = s * x + v;
    }
    for (i, v) in w.iter().rev().enumerate() {
        s += v * (i as f64) * x;
    }
    for (i, &v) in w.iter().enumerate().rev() {
        s = (s + v * (i as f64)).tanh();
    }
    s
}

fn reversed_value(w: &[Value], x: &Value) -> Value {
    let mut s = Value::new(0.0);
    for v in w.iter().rev() {
        s = &s * x + v;
    }
    for (i, v) in w.iter().rev().enumerate() {
        s = &s + v * (i as f64) * x;
    }
    for (i, v) in w.iter().enumerate().rev() {
        s = (&s + v * (i as f64)).tanh();
    }
    s
}

#[test]
fn reversed_items() {
    check_slice_fn(
        "reversed",
        reversed,
        reversed_grad,
        reversed_pullback,
        &reversed_value,
        &POINTS,
    );
}

/// `zip` under `rev` (which pairs from the front of the shorter), `rev` under `zip`, and an
/// array literal as the other side of `zip`.
#[differentiable]
fn zipped(w: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    let head = &w[..w.len() / 2];
    for (a, b) in w.iter().zip(head).rev() {
        s = s * x + a * b;
    }
    for (&a, &b) in w.iter().rev().zip(head) {
        s += (a - b * x).tanh();
    }
    for (a, b) in w.iter().zip([x, 2.0, x * x]) {
        s += a * b;
    }
    s
}

fn zipped_value(w: &[Value], x: &Value) -> Value {
    let mut s = Value::new(0.0);
    let head = &w[..w.len() / 2];
    for (a, b) in w.iter().zip(head).rev() {
        s = &s * x + a * b;
    }
    for (a, b) in w.iter().rev().zip(head) {
        s = &s + (a - b * x).tanh();
    }
    for (a, b) in w.iter().zip([x.clone(), Value::new(2.0), x * x]) {
        s = &s + a * &b;
    }
    s
}

#[test]
fn reversed_pairs() {
    check_slice_fn(
        "zipped",
        zipped,
        zipped_grad,
        zipped_pullback,
        &zipped_value,
        &POINTS,
    );
}

/// Reversed chunks (the short last chunk first) and windows.
#[differentiable]
fn parts(w: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    for c in w.chunks(2).rev() {
        s = s * x + c[0] * c[c.len() - 1];
    }
    for (i, p) in w.windows(3).rev().enumerate() {
        s += (p[0] * x - p[2]).tanh() * (i as f64 + 1.0);
    }
    for c in w.chunks_exact(2).rev() {
        s = s * 0.5 + c[1];
    }
    s
}

fn parts_value(w: &[Value], x: &Value) -> Value {
    let mut s = Value::new(0.0);
    for c in w.chunks(2).rev() {
        s = &s * x + &c[0] * &c[c.len() - 1];
    }
    for (i, p) in w.windows(3).rev().enumerate() {
        s = &s + (&p[0] * x - &p[2]).tanh() * (i as f64 + 1.0);
    }
    for c in w.chunks_exact(2).rev() {
        s = &s * 0.5 + &c[1];
    }
    s
}

#[test]
fn reversed_chunks_and_windows() {
    check_slice_fn(
        "parts",
        parts,
        parts_grad,
        parts_pullback,
        &parts_value,
        &POINTS,
    );
}

/// `break`, `continue` and `return` inside plain `{ .. }` blocks of loop bodies, and a labelled
/// `break` from a block in an inner loop.
#[differentiable]
fn blocks(w: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    while i < w.len() {
        let v = w[i];
        i += 1;
        {
            let t = v * x;
            if t < -0.5 {
                continue;
            }
            s += t.tanh();
        }
        {
            if s > 1.5 {
                break;
            }
        }
        s *= 0.9;
    }
    'outer: for a in w {
        for b in w {
            {
                let p = a * b;
                if p > 1.2 {
                    break 'outer;
                }
                s += p * 0.1;
            }
        }
    }
    for v in w {
        {
            if v * s > 2.5 {
                return s * v;
            }
        }
        s += 0.1 * v;
    }
    s
}

fn blocks_value(w: &[Value], x: &Value) -> Value {
    let mut s = Value::new(0.0);
    for v in w {
        let t = v * x;
        if t.data() < -0.5 {
            continue;
        }
        s = &s + t.tanh();
        if s.data() > 1.5 {
            break;
        }
        s = &s * 0.9;
    }
    'outer: for a in w {
        for b in w {
            let p = a * b;
            if p.data() > 1.2 {
                break 'outer;
            }
            s = &s + &p * 0.1;
        }
    }
    for v in w {
        if v.data() * s.data() > 2.5 {
            return &s * v;
        }
        s = &s + 0.1 * v;
    }
    s
}

#[test]
fn exits_across_blocks() {
    let points: [&[f64]; 5] = [
        &[0.6],
        &[0.4, 0.6],
        &[0.3, -1.2, 0.8, 0.5, 1.1],
        &[0.9, 0.2, -0.4, 1.3, -0.7, 0.5, 1.8],
        &[2.0, 1.5, 0.3, 1.7],
    ];
    check_slice_fn(
        "blocks",
        blocks,
        blocks_grad,
        blocks_pullback,
        &blocks_value,
        &points,
    );
}

/// `return` inside a plain block of the function body, and the block's tail as the value.
#[differentiable]
fn block_return(x: f64) -> f64 {
    let y = x * x;
    {
        let z = y - 1.0;
        if z > 0.0 {
            return z.tanh();
        }
        y * 3.0 + z
    }
}

#[test]
fn return_across_a_function_block() {
    check_with_value(
        "block_return",
        &|p| block_return(p[0]),
        &|p| {
            let (value, d) = block_return_grad(p[0]);
            vec![value, d]
        },
        &|p| {
            let y = &p[0] * &p[0];
            let z = &y - 1.0;
            if z.data() > 0.0 {
                z.tanh()
            } else {
                y * 3.0 + z
            }
        },
        &[&[0.5], &[-0.7], &[1.6], &[-2.5]],
    );
}
