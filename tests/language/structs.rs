//! Parameter structs (`p: &S` with `#[derive(Differentiable)]`): `f_grad` takes the shadow
//! `d_p: &mut S` after `p` and adds the gradient into the matching fields. Each gradient is
//! checked against central differences of `f` over the struct's `f64`s, flattened, and the value
//! bit for bit against `f`'s.
#![deny(warnings)]

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::prelude::*;

/// A struct's `f64`s in field order, and back: what central differences perturb.
trait Flat: Sized {
    fn flat(&self) -> Vec<f64>;
    fn with(&self, values: &[f64]) -> Self;
}

#[derive(Differentiable, Clone, Debug, PartialEq)]
struct Line {
    w: [f64; 2],
    b: f64,
}

impl Flat for Line {
    fn flat(&self) -> Vec<f64> {
        vec![self.w[0], self.w[1], self.b]
    }
    fn with(&self, v: &[f64]) -> Line {
        Line {
            w: [v[0], v[1]],
            b: v[2],
        }
    }
}

#[derive(Differentiable, Clone, Debug, PartialEq)]
struct Layer {
    w: Vec<f64>,
    b: f64,
}

impl Flat for Layer {
    fn flat(&self) -> Vec<f64> {
        let mut v = self.w.clone();
        v.push(self.b);
        v
    }
    fn with(&self, v: &[f64]) -> Layer {
        let n = self.w.len();
        Layer {
            w: v[..n].to_vec(),
            b: v[n],
        }
    }
}

/// Nested structs, an array, and fields that are not differentiated.
#[derive(Differentiable, Clone, Debug, PartialEq)]
struct Net {
    hidden: Layer,
    out: [f64; 3],
    scale: f64,
    n: usize,
    on: bool,
}

impl Flat for Net {
    fn flat(&self) -> Vec<f64> {
        let mut v = self.hidden.flat();
        v.extend(self.out);
        v.push(self.scale);
        v
    }
    fn with(&self, v: &[f64]) -> Net {
        let k = self.hidden.w.len() + 1;
        Net {
            hidden: self.hidden.with(&v[..k]),
            out: [v[k], v[k + 1], v[k + 2]],
            scale: v[k + 3],
            ..self.clone()
        }
    }
}

/// Checks `grad(p, d_p)` against `f(p)`: the value bit for bit, `d_p` (zeroed first) against
/// central differences, and that the fields without a derivative were left alone.
fn check<S: Flat + Differentiable + PartialEq + std::fmt::Debug>(
    name: &str,
    f: impl Fn(&S) -> f64,
    grad: impl Fn(&S, &mut S) -> f64,
    p: &S,
) {
    let mut d_p = p.zeroed_like();
    let value = grad(p, &mut d_p);
    assert_same_value(name, value, f(p), &p.flat());
    assert_gradient(name, |v| f(&p.with(v)), &p.flat(), &d_p.flat());
    assert_eq!(d_p.with(&p.flat()), *p, "{name}: the shadow's other fields");
}

#[differentiable]
fn line(p: &Line, x: f64) -> f64 {
    (p.w[0] * x + p.w[1] * x * x + p.b).tanh()
}

#[test]
fn a_struct_of_an_array_and_an_f64() {
    let p = Line {
        w: [0.3, -0.7],
        b: 0.2,
    };
    let mut d_p = p.zeroed_like();
    let (value, d_x) = line_grad(&p, &mut d_p, 1.5);
    assert_same_value("line", value, line(&p, 1.5), &p.flat());
    assert_gradient("line", |v| line(&p.with(v), 1.5), &p.flat(), &d_p.flat());
    assert_near(
        "line d_x",
        d_x,
        common::derivative(|x| line(&p, x), 1.5),
        1e-6,
    );
    check(
        "line",
        |p| line(p, -0.4),
        |p, d| line_grad(p, d, -0.4).0,
        &p,
    );
}

#[test]
fn the_shadow_accumulates() {
    let p = Line {
        w: [0.3, -0.7],
        b: 0.2,
    };
    let mut once = p.zeroed_like();
    line_grad(&p, &mut once, 0.5);
    let mut twice = p.zeroed_like();
    line_grad(&p, &mut twice, 0.5);
    line_grad(&p, &mut twice, 0.5);
    assert_eq!(
        twice.flat(),
        once.flat().iter().map(|d| 2.0 * d).collect::<Vec<_>>()
    );
    twice.zero();
    assert_eq!(twice.flat(), vec![0.0; 3]);
}

/// Fields as loop bounds (`p.w.len()`, `p.n`), iterated (`for w in &p.w`, `.iter()`), sliced
/// (`&p.w[a..b]`), and a `bool` field.
#[differentiable]
fn loops(p: &Net, x: &[f64]) -> f64 {
    let mut s = p.hidden.b;
    for i in 0..p.hidden.w.len() {
        s += p.hidden.w[i] * x[i];
    }
    for w in &p.hidden.w {
        s += 0.1 * w * w;
    }
    let squares: f64 = p.hidden.w.iter().map(|w| w * w).sum();
    let mut y = 0.0;
    for k in 0..p.n {
        y += p.out[k] * (s + k as f64).tanh();
    }
    let head = dot(&p.hidden.w[0..2], &x[1..3]);
    let y = if p.on { y * p.scale } else { y - p.scale };
    y + squares * head
}

#[differentiable]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len() {
        s += a[i] * b[i];
    }
    s
}

fn net() -> Net {
    Net {
        hidden: Layer {
            w: vec![0.5, -0.25, 0.75],
            b: 0.1,
        },
        out: [0.9, -1.1, 0.4],
        scale: 1.3,
        n: 3,
        on: true,
    }
}

#[test]
fn fields_as_loop_bounds_iterated_and_sliced() {
    let x = [0.2, -0.6, 1.1];
    for (n, on) in [(3, true), (2, false), (0, true)] {
        let p = Net { n, on, ..net() };
        let name = format!("loops n={n} on={on}");
        check(
            &name,
            |p| loops(p, &x),
            |p, d| loops_grad(p, d, &x, &mut [0.0; 3]),
            &p,
        );
    }
}

#[differentiable]
fn neuron(l: &Layer, x: &[f64]) -> f64 {
    let mut s = l.b;
    for i in 0..l.w.len() {
        s += l.w[i] * x[i];
    }
    s.tanh()
}

/// Calls pass a nested struct (`&p.hidden`) and the struct itself (`p`), while the caller
/// also reads fields of both directly.
#[differentiable]
fn model(p: &Net, x: &[f64]) -> f64 {
    let h = neuron(&p.hidden, x);
    p.out[0] * h + p.out[1] * h * h + p.scale * p.hidden.b
}

#[differentiable]
fn loss(p: &Net, x: &[f64], target: f64) -> f64 {
    let e = model(p, x) - target;
    let mut l2 = 0.0;
    for w in &p.hidden.w {
        l2 += w * w;
    }
    e * e + 1e-2 * l2 + 1e-2 * p.out[2].powi(2)
}

#[test]
fn calls_pass_structs_and_their_shadows() {
    let x = [0.2, -0.6, 1.1];
    let p = net();
    check(
        "model",
        |p| model(p, &x),
        |p, d| model_grad(p, d, &x, &mut [0.0; 3]),
        &p,
    );
    check(
        "loss",
        |p| loss(p, &x, 0.3),
        |p, d| loss_grad(p, d, &x, &mut [0.0; 3], 0.3).0,
        &p,
    );
}

/// `wrt` selects one struct among several parameters: the other is a constant, with no shadow.
#[differentiable(wrt(q))]
fn two(p: &Line, q: &Line, x: f64) -> f64 {
    let u = line(p, x);
    u * line(q, x) + q.b * p.w[1]
}

#[test]
fn wrt_selects_one_struct() {
    let p = Line {
        w: [0.3, -0.7],
        b: 0.2,
    };
    let q = Line {
        w: [-0.5, 0.4],
        b: 0.9,
    };
    check(
        "two",
        |q| two(&p, q, 0.8),
        |q, d| two_grad(&p, q, d, 0.8),
        &q,
    );
}

/// `#[differentiable]` on associated functions: `f_grad` and `f_pullback` are siblings in the
/// same `impl`, and calls between them go through `Self::`.
impl Layer {
    #[differentiable]
    fn act(l: &Layer, x: &[f64]) -> f64 {
        let mut s = l.b;
        for i in 0..l.w.len() {
            s += l.w[i] * x[i];
        }
        s.relu() + 0.1 * s
    }

    #[differentiable]
    fn square(l: &Layer, x: &[f64]) -> f64 {
        let a = Self::act(l, x);
        a * a
    }
}

#[test]
fn associated_functions_in_an_impl_block() {
    let x = [0.2, -0.6, 1.1];
    let l = net().hidden;
    check(
        "act",
        |l| Layer::act(l, &x),
        |l, d| Layer::act_grad(l, d, &x, &mut [0.0; 3]),
        &l,
    );
    let sq = |l: &Layer, d: &mut Layer| Layer::square_grad(l, d, &x, &mut [0.0; 3]);
    check("square", |l| Layer::square(l, &x), sq, &l);
}

/// `model` (a nested struct handed to a call, an array, an `f64` field read twice) against the
/// same program on the `Value` engine.
#[test]
fn model_against_the_value_engine() {
    use micrograd_runtime::Value;
    let x = [0.2, -0.6, 1.1];
    let p = net();
    let mut d_p = p.zeroed_like();
    let value = model_grad(&p, &mut d_p, &x, &mut [0.0; 3]);
    let v = |f: f64| Value::new(f);
    let (w, b): (Vec<Value>, Value) = (p.hidden.w.iter().map(|w| v(*w)).collect(), v(p.hidden.b));
    let (out, scale) = (p.out.map(v), v(p.scale));
    let mut s = b.clone();
    for (wi, xi) in w.iter().zip(x) {
        s = &s + &(wi * xi);
    }
    let h = s.tanh();
    let y = &(&(&out[0] * &h) + &(&(&out[1] * &h) * &h)) + &(&scale * &b);
    y.backward();
    assert_near("model (Value)", y.data(), value, 1e-12);
    let mut grads: Vec<f64> = w.iter().map(Value::grad).collect();
    grads.push(b.grad());
    grads.extend(out.iter().map(Value::grad));
    grads.push(scale.grad());
    for (k, (g, d)) in grads.iter().zip(d_p.flat()).enumerate() {
        assert_near(&format!("model d[{k}] (Value)"), *g, d, 1e-12);
    }
}
