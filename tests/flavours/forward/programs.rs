//! The functions under test, each with a generic twin for num-dual, and one test per
//! construct of the language.

use super::{Case, check, points};
use micrograd_runtime::prelude::*;
use num_dual::DualNum;

/// The dual numbers the generic twins run on.
pub trait Dual: DualNum<Primitive = f64, Real = f64> + Copy {}
impl<T: DualNum<Primitive = f64, Real = f64> + Copy> Dual for T {}

pub fn c<D: Dual>(x: f64) -> D {
    D::from(x)
}

pub fn relu<D: Dual>(x: D) -> D {
    if x.re() > 0.0 { x } else { c(0.0) }
}

fn max<D: Dual>(a: D, b: D) -> D {
    if a.re() > b.re() { a } else { b }
}

fn min<D: Dual>(a: D, b: D) -> D {
    if a.re() < b.re() { a } else { b }
}

/// Straight-line code over most functions of `f64`.
#[differentiable(hvp)]
fn line(a: f64, b: f64) -> f64 {
    let c = a * b + a.sin() - b / (1.0 + a * a);
    let d = c.exp().ln_1p() + (a - b).powi(3) + b.tanh() * a.sqrt();
    d / b.cosh() + a.powf(b) + a.recip() * b.ln() + b.sigmoid()
}

fn line_dual<D: Dual>(p: &[D]) -> D {
    let (a, b) = (p[0], p[1]);
    let cc = a * b + a.sin() - b / (c::<D>(1.0) + a * a);
    let d = cc.exp().ln_1p() + (a - b).powi(3) + b.tanh() * a.sqrt();
    d / b.cosh() + a.powd(b) + a.recip() * b.ln() + c::<D>(1.0) / (c::<D>(1.0) + (-b).exp())
}

#[test]
fn straight_line() {
    let case = Case::<2> {
        name: "line",
        f: &|p| line(p[0], p[1]),
        grad: &|p| {
            let (_, da, db) = line_grad(p[0], p[1]);
            vec![da, db]
        },
        jvp: &|p, v| line_jvp(p[0], v[0], p[1], v[1]),
        hvp: &|p, v| {
            let (y, ha, hb) = line_hvp(p[0], v[0], p[1], v[1]);
            (y, vec![ha, hb])
        },
        dual: &line_dual,
    };
    for (x, v) in points(2, 0.3, 1.7) {
        check(&case, &x, &v);
    }
}

/// `if` / `else if` / `else`, and the functions with kinks.
#[differentiable(hvp)]
fn branches(a: f64, b: f64) -> f64 {
    let mut y = a * b;
    if a > b {
        y = y.sin() * a;
    } else if a > 0.5 * b {
        y = y.exp();
    } else {
        y = (y * y).sqrt() + b;
    }
    let z = (a - b).abs() + a.max(b) * b.min(2.0 * a);
    y * z + (a - 1.0).relu() * b
}

fn branches_dual<D: Dual>(p: &[D]) -> D {
    let (a, b) = (p[0], p[1]);
    let mut y = a * b;
    if a.re() > b.re() {
        y = y.sin() * a;
    } else if a.re() > 0.5 * b.re() {
        y = y.exp();
    } else {
        y = (y * y).sqrt() + b;
    }
    let diff = a - b;
    let abs = if diff.re() < 0.0 { -diff } else { diff };
    let z = abs + max(a, b) * min(b, a * 2.0);
    y * z + relu(a - 1.0) * b
}

#[test]
fn if_else_and_kinks() {
    let case = Case::<2> {
        name: "branches",
        f: &|p| branches(p[0], p[1]),
        grad: &|p| {
            let (_, da, db) = branches_grad(p[0], p[1]);
            vec![da, db]
        },
        jvp: &|p, v| branches_jvp(p[0], v[0], p[1], v[1]),
        hvp: &|p, v| {
            let (y, ha, hb) = branches_hvp(p[0], v[0], p[1], v[1]);
            (y, vec![ha, hb])
        },
        dual: &branches_dual,
    };
    for (x, v) in points(2, 0.1, 2.0) {
        check(&case, &x, &v);
    }
}

/// Every loop form: a range, items, `while`, `continue`, `break`, and a `loop` value.
#[differentiable(hvp)]
fn loops(w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += w[i] * w[(i + 1) % w.len()];
    }
    let mut p = 1.0;
    for x in w.iter() {
        p *= 1.0 + 0.1 * x.sin();
    }
    let mut r = 1.0;
    let mut t = s;
    while r > 0.1 {
        t = (t * r).tanh() + t * w[0];
        r *= 0.5;
    }
    let mut acc = 0.0;
    for (i, x) in w.iter().enumerate() {
        if i == 1 {
            continue;
        }
        acc += x.exp();
        if acc > 4.0 {
            break;
        }
    }
    let mut q = s;
    let found = loop {
        q = q * 0.5 + 0.1 * q.sin();
        if q.abs() < 0.05 {
            break q * p;
        }
    };
    s + p * t + acc + found
}

fn loops_dual<D: Dual>(w: &[D]) -> D {
    let n = w.len();
    let mut s: D = c(0.0);
    for i in 0..n {
        s += w[i] * w[(i + 1) % n];
    }
    let mut p: D = c(1.0);
    for x in w {
        p *= c::<D>(1.0) + x.sin() * 0.1;
    }
    let mut t = s;
    let mut r = 1.0_f64;
    while r > 0.1 {
        t = (t * c::<D>(r)).tanh() + t * w[0];
        r *= 0.5;
    }
    let mut acc: D = c(0.0);
    for (i, x) in w.iter().enumerate() {
        if i == 1 {
            continue;
        }
        acc += x.exp();
        if acc.re() > 4.0 {
            break;
        }
    }
    let mut q = s;
    let found = loop {
        q = q * 0.5 + q.sin() * 0.1;
        if q.re().abs() < 0.05 {
            break q * p;
        }
    };
    s + p * t + acc + found
}

/// A slice function as a case: `f(w)`, its gradient, JVP and HVP.
macro_rules! slice_case {
    ($n:literal, $f:ident, $grad:ident, $jvp:ident, $hvp:ident, $dual:ident) => {
        Case::<$n> {
            name: stringify!($f),
            f: &|p| $f(p),
            grad: &|p| {
                let mut d = vec![0.0; p.len()];
                $grad(p, &mut d);
                d
            },
            jvp: &|p, v| $jvp(p, v),
            hvp: &|p, v| {
                let mut hv = vec![0.0; p.len()];
                let y = $hvp(p, v, &mut hv);
                (y, hv)
            },
            dual: &$dual,
        }
    };
}

#[test]
fn every_loop_form() {
    for (x, v) in points(1, -1.0, 1.0) {
        check(
            &slice_case!(1, loops, loops_grad, loops_jvp, loops_hvp, loops_dual),
            &x,
            &v,
        );
    }
    for (x, v) in points(2, -1.0, 1.0) {
        check(
            &slice_case!(2, loops, loops_grad, loops_jvp, loops_hvp, loops_dual),
            &x,
            &v,
        );
    }
    for (x, v) in points(5, -1.0, 1.0) {
        check(
            &slice_case!(5, loops, loops_grad, loops_jvp, loops_hvp, loops_dual),
            &x,
            &v,
        );
    }
}
