//! Issue 25's list, audited in session 15: each construct the issue names, written as the
//! issue writes it, in every flavour of one `f64` output (`f_grad`, `f_pullback`, `f_jvp`,
//! `f_hvp`, `f_hessian`, `f_graph`), against central differences of `f` and num-dual twins
//! (dual numbers for the gradient and the directional derivative, hyper-duals for the Hessian),
//! the value bit for bit `f`'s. The constructs' own modules test them further (the table in
//! the report of session 15, `idioms`).

use crate::common;

use common::assert_near;
use common::oracle::{Gradient, Hessian};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};
use std::f64::consts::PI;

/// `f_hessian` of `f(x, y)`: the value and the 2x2 Hessian.
type HessianOf2 = fn(f64, f64) -> (f64, [[f64; 2]; 2]);

/// The flavours of `f(x, y)` at each point against `f` and its twin at `Dual64` and
/// `HyperDual64`.
struct Flavours {
    name: &'static str,
    f: fn(f64, f64) -> f64,
    grad: fn(f64, f64) -> (f64, f64, f64),
    pullback: fn(f64, f64, f64) -> (f64, f64),
    jvp: fn(f64, f64, f64, f64) -> (f64, f64),
    hvp: fn(f64, f64, f64, f64) -> (f64, f64, f64),
    hessian: HessianOf2,
    graph: fn(f64, f64) -> micrograd_runtime::Graph,
    dual: fn(&[Dual64]) -> Dual64,
    hyper: fn(&[HyperDual64]) -> HyperDual64,
}

impl Flavours {
    fn check(&self, points: &[[f64; 2]]) {
        let name = self.name;
        for p in points {
            let (x, y) = (p[0], p[1]);
            let exact = (self.f)(x, y);
            let (value, d_x, d_y) = (self.grad)(x, y);
            Gradient::new(name, p, (value, &[d_x, d_y]))
                .central(|q| (self.f)(q[0], q[1]))
                .dual(self.dual);
            let (p_x, p_y) = (self.pullback)(x, y, -0.5);
            assert_near(&format!("{name}_pullback"), p_x, -0.5 * d_x, 1e-12);
            assert_near(&format!("{name}_pullback"), p_y, -0.5 * d_y, 1e-12);
            let (value, tangent) = (self.jvp)(x, 0.7, y, -1.3);
            assert_eq!(
                value.to_bits(),
                exact.to_bits(),
                "{name}_jvp value at {p:?}"
            );
            let twin = (self.dual)(&[Dual64::new(x, 0.7), Dual64::new(y, -1.3)]);
            assert_near(&format!("{name}_jvp"), tangent, twin.eps, 1e-12);
            let (value, h) = (self.hessian)(x, y);
            assert_eq!(
                value.to_bits(),
                exact.to_bits(),
                "{name}_hessian value at {p:?}"
            );
            let entries = [h[0][0], h[0][1], h[1][0], h[1][1]];
            Hessian::new(name, p, &entries).dual(self.hyper);
            let (value, hv_x, hv_y) = (self.hvp)(x, 0.7, y, -1.3);
            assert_eq!(
                value.to_bits(),
                exact.to_bits(),
                "{name}_hvp value at {p:?}"
            );
            let rows = [0.7 * h[0][0] - 1.3 * h[0][1], 0.7 * h[1][0] - 1.3 * h[1][1]];
            assert_near(&format!("{name}_hvp"), hv_x, rows[0], 1e-12);
            assert_near(&format!("{name}_hvp"), hv_y, rows[1], 1e-12);
            let graph = (self.graph)(x, y);
            let output = graph.node(graph.output().expect("backward was called"));
            assert_eq!(
                output.data().to_bits(),
                exact.to_bits(),
                "{name}_graph at {p:?}"
            );
            for (input, partial) in [("x", d_x), ("y", d_y)] {
                let node = graph.find(input).expect("an input node");
                assert_near(
                    &format!("{name}_graph {input}"),
                    node.grad(),
                    partial,
                    1e-12,
                );
            }
        }
    }
}

/// `Flavours` of `$f` (built with `hessian, graph`) and its generic twin `$twin`.
macro_rules! flavours {
    ($f:ident, $twin:ident; $grad:ident, $pullback:ident, $jvp:ident, $hvp:ident, $hessian:ident, $graph:ident) => {
        Flavours {
            name: stringify!($f),
            f: $f,
            grad: $grad,
            pullback: |x, y, seed| $pullback(x, y, seed),
            jvp: $jvp,
            hvp: |x, v_x, y, v_y| $hvp(x, v_x, y, v_y),
            hessian: $hessian,
            graph: $graph,
            dual: $twin::<Dual64>,
            hyper: $twin::<HyperDual64>,
        }
    };
}

const K: f64 = 3.0;
const MAX: usize = 4;
const N: usize = 3;
const W: [f64; 3] = [0.5, 1.5, -2.0];

const fn half(n: usize) -> usize {
    n / 2
}

/// `let pi = PI;` and `x * (K * K)`: names the function cannot see, typed by use.
#[differentiable(hessian, graph)]
fn outside(x: f64, y: f64) -> f64 {
    let pi = PI;
    x * (K * K) + (y * pi).sin()
}

fn outside_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    p[0] * (K * K) + (p[1] * PI).sin()
}

/// Integer-valued `if`, `match` and blocks; an integer array indexing a float one.
#[differentiable(hessian, graph)]
fn integers(x: f64, y: f64) -> f64 {
    let m = if MAX < N { MAX } else { N };
    let j = match m {
        3 => 1,
        _ => 0,
    };
    let b = {
        let t = 2;
        t * 2
    };
    let idx = [1, 0, 1];
    let v = [x, y];
    let mut s = 0.0;
    for i in 0..m {
        s += v[idx[i]] * (i + j + b) as f64;
    }
    s * y
}

fn integers_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    let (m, j, b) = (3usize, 1usize, 4usize);
    let idx = [1, 0, 1];
    let mut s = D::zero();
    for i in 0..m {
        s += p[idx[i]] * (i + j + b) as f64;
    }
    s * p[1]
}

#[differentiable(hessian)]
fn by_ref(x: &f64, y: f64) -> f64 {
    x * x * y
}

/// `&f64` parameters, `assert!`, `assert_eq!`, `debug_assert!`, a `const fn` in a bound, and
/// `%` on floats.
#[differentiable(hessian, graph)]
fn tail(x: f64, y: f64) -> f64 {
    assert!(x.is_finite(), "x must be finite");
    assert_eq!(half(6), 3);
    debug_assert!(y > -100.0);
    let mut s = by_ref(&x, y) + by_ref(&(x * y), 1.0);
    for i in 0..half(6) {
        s += x.powi(i as i32 + 1) * 0.1;
    }
    s + (x * 3.0) % 1.5 + x % (y + 4.0)
}

fn tail_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    let (x, y) = (p[0], p[1]);
    let mut s = x * x * y + (x * y) * (x * y);
    for i in 0..3 {
        s += x.powi(i + 1) * 0.1;
    }
    // fmod: x - trunc(x / y) y, the quotient a constant.
    let fmod = |a: D, b: D| a - b * (a.re() / b.re()).trunc();
    s + fmod(x * 3.0, D::from(1.5)) + fmod(x, y + 4.0)
}

/// `.skip`, `.take`, `.step_by` anywhere in a chain and in a `zip`, `array.map` (of a name and
/// of an array literal), a closure
/// bound by `let`, and a sub-slice's `iter()` in a reduction.
#[differentiable(hessian, graph)]
fn chains(x: f64, y: f64) -> f64 {
    let w = [x, y, x * y, x + y, x - y];
    let a: f64 = w.iter().skip(1).step_by(2).take(2).map(|v| v * v).sum();
    let b: f64 = w.iter().zip(w.iter().skip(1)).map(|(p, q)| p * q).sum();
    let param = [x, y];
    let m = param.map(|t| 4.0 * t - 2.0);
    let n = [x, y * x].map(|t| t * t);
    let sq = |t: f64| t * t + y;
    let c: f64 = w[1..4].iter().sum();
    a + b + m[0] * m[1] + sq(x) + sq(y) + c + n[0] * n[1]
}

fn chains_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    let (x, y) = (p[0], p[1]);
    let w = [x, y, x * y, x + y, x - y];
    let a = w[1] * w[1] + w[3] * w[3];
    let b = w[0] * w[1] + w[1] * w[2] + w[2] * w[3] + w[3] * w[4];
    let m = [x * 4.0 - 2.0, y * 4.0 - 2.0];
    let sq = |t: D| t * t + y;
    let n = [x * x, y * x * (y * x)];
    a + b + m[0] * m[1] + sq(x) + sq(y) + (w[1] + w[2] + w[3]) + n[0] * n[1]
}

/// `[first, .., last]` and `[a, rest @ ..]`, `break 'label value`, a `const` array iterated, and
/// `f64 as usize` counting a loop.
#[differentiable(hessian, graph)]
fn shapes(x: f64, y: f64) -> f64 {
    let [first, .., last] = [x, y, x * y];
    let [a, rest @ ..] = [x, y, 2.0];
    let v = 'outer: loop {
        let mut t = x;
        for i in 0..10 {
            t = t * 0.5 + y;
            if i == 3 {
                break 'outer t;
            }
        }
    };
    let mut s = 0.0;
    for w in W {
        s += w * x;
    }
    let n = (x.abs() * 2.0) as usize;
    for _ in 0..n {
        s += y * 0.25;
    }
    first * last + a * rest[1] + v + s
}

fn shapes_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    let (x, y) = (p[0], p[1]);
    let mut t = x;
    for _ in 0..4 {
        t = t * 0.5 + y;
    }
    let mut s = x * (W[0] + W[1] + W[2]);
    for _ in 0..(x.re().abs() * 2.0) as usize {
        s += y * 0.25;
    }
    x * (x * y) + x * 2.0 + t + s
}

#[test]
fn outside_names_in_every_flavour() {
    let points = [[0.5, -1.0], [1.25, 0.3]];
    flavours!(outside, outside_twin; outside_grad, outside_pullback, outside_jvp, outside_hvp, outside_hessian, outside_graph).check(&points);
}

#[test]
fn integer_values_in_every_flavour() {
    flavours!(integers, integers_twin; integers_grad, integers_pullback, integers_jvp, integers_hvp, integers_hessian, integers_graph).check(&[[0.5, -1.0], [1.25, 0.3]]);
}

#[test]
fn the_tail_in_every_flavour() {
    // Points away from `%`'s jumps.
    flavours!(tail, tail_twin; tail_grad, tail_pullback, tail_jvp, tail_hvp, tail_hessian, tail_graph).check(&[[0.7, -1.0], [-0.7, -1.0], [-5.3, 0.3], [9.1, 0.3]]);
}

#[test]
fn chains_in_every_flavour() {
    flavours!(chains, chains_twin; chains_grad, chains_pullback, chains_jvp, chains_hvp, chains_hessian, chains_graph).check(&[[0.5, -1.0], [1.25, 0.3]]);
}

#[test]
fn patterns_and_labels_in_every_flavour() {
    // Points away from the jumps of `(2 |x|) as usize`.
    flavours!(shapes, shapes_twin; shapes_grad, shapes_pullback, shapes_jvp, shapes_hvp, shapes_hessian, shapes_graph).check(&[[0.8, -1.0], [1.3, 0.3]]);
}
