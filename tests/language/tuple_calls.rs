//! Calls of `#[differentiable]` functions returning tuples, bound without a type: `let r =
//! pair(x); r.0 + r.1` (desugar/tuple_calls.rs marks the `let` with the fields read), a
//! field of the call itself, `pair(x).1`, and `let (a, b, ..) = pair(x);`. The caller's macro
//! cannot see the tuple's width; each output's pullback is seeded through
//! `calls::tuple_unit(k, seed, 0.0)`, whose width rustc infers. Every flavour against central
//! differences and num-dual twins, the value bit for bit `f`'s; generic floats at `f32`;
//! a method of a `#[derive(Differentiable)]` type. And an array a call returned, bound
//! without a type and taken apart later, `let [a, b, c] = oc;` (counted.rs).

use crate::common;

use common::oracle::{Hessian, check};

use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

#[differentiable(hvp, jacobian)]
fn triple<T: Float>(x: T, y: T) -> (T, T, T) {
    (x * y, x.sin(), (y * x).exp())
}

fn triple_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> (D, D, D) {
    (x * y, x.sin(), (y * x).exp())
}

/// Bound without a type and read by its fields, in an `assert!` too, in a loop and a closure.
#[differentiable(hessian, graph)]
fn fields<T: Float>(x: T, y: T) -> T {
    let r = triple(x, y + y);
    assert!(r.0 > T::from(-100.0).unwrap());
    let mut s = r.0 * r.2;
    for i in 0..3 {
        s = s + r.2 * T::from(i).unwrap() * x;
    }
    let scaled = |t: T| t * r.0;
    s + scaled(y)
}

fn fields_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    let r = triple_twin(x, y + y);
    let mut s = r.0 * r.2;
    for i in 0..3 {
        s += r.2 * D::from(f64::from(i)) * x;
    }
    s + y * r.0
}

/// A field of the call itself, and a call whose middle output alone is read.
#[differentiable(hessian)]
fn direct(x: f64, y: f64) -> f64 {
    let middle = triple(y, x);
    triple(x, y).1 * triple(y, x * 0.5).0 + middle.1
}

fn direct_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    triple_twin(x, y).1 * triple_twin(y, x * D::from(0.5)).0 + triple_twin(y, x).1
}

/// Taken apart later (`let (a, b, c) = r;`), and by a pattern with a rest.
#[differentiable(hessian)]
fn apart(x: f64, y: f64) -> f64 {
    let r = triple(x, y);
    let (a, b, c) = r;
    let (_, p, ..) = triple(y, x);
    let (u, v, ..) = triple(x * y, 0.5);
    a * b + c * p + u - v
}

fn apart_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    let (a, b, c) = triple_twin(x, y);
    let p = triple_twin(y, x).1;
    let (u, v, _) = triple_twin(x * y, D::from(0.5));
    a * b + c * p + u - v
}

/// A caller returning a tuple itself, with `f_jacobian`.
#[differentiable(jacobian, hvp)]
fn outer(x: f64, y: f64) -> (f64, f64) {
    let r = triple(x, y);
    (r.0 * r.1, r.2 + r.0)
}

fn outer_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> (D, D) {
    let r = triple_twin(x, y);
    (r.0 * r.1, r.2 + r.0)
}

#[derive(Differentiable, Clone, Debug)]
struct Model {
    w: f64,
    b: f64,
}

impl Model {
    #[differentiable(hvp)]
    fn two(&self, x: f64) -> (f64, f64) {
        (self.w * x + self.b, (self.w * self.b).sin())
    }

    /// A method's tuple bound without a type, through `self.two(..)` and `Self::two(self, ..)`.
    #[differentiable(hessian)]
    fn loss(&self, x: f64) -> f64 {
        let r = self.two(x);
        let s = Self::two(self, x * 2.0);
        r.0 * r.1 + s.1 * s.0
    }
}

fn model_twin<D: DualNum<Primitive = f64> + Copy>(w: D, b: D, x: D) -> D {
    let two = |x: D| (w * x + b, (w * b).sin());
    let (r, s) = (two(x), two(x * D::from(2.0)));
    r.0 * r.1 + s.1 * s.0
}

const POINTS: [[f64; 2]; 4] = [[0.3, 0.7], [-0.4, 0.2], [1.3, -0.6], [0.8, 1.1]];

fn dual2(f: fn(Dual64, Dual64) -> Dual64) -> impl Fn(&[Dual64]) -> Dual64 {
    move |q| f(q[0], q[1])
}

fn hyper2(
    f: fn(HyperDual64, HyperDual64) -> HyperDual64,
) -> impl Fn(&[HyperDual64]) -> HyperDual64 {
    move |q| f(q[0], q[1])
}

#[test]
fn a_tuple_bound_without_a_type_read_by_its_fields() {
    for p in POINTS {
        let (value, d_x, d_y) = fields_grad(p[0], p[1]);
        check!(
            "fields_grad",
            &p,
            (value, &[d_x, d_y]),
            against = [central(|q| fields(q[0], q[1])), dual(dual2(fields_twin))]
        );
        assert_eq!(fields_pullback(p[0], p[1], 1.0), (d_x, d_y));
        let (value, h) = fields_hessian(p[0], p[1]);
        assert_eq!(value.to_bits(), fields(p[0], p[1]).to_bits());
        Hessian::new("fields_hessian", &p, h.as_flattened()).dual(hyper2(fields_twin));
        let (value, tangent) = fields_jvp(p[0], 0.3, p[1], -1.2);
        assert_eq!(value.to_bits(), fields(p[0], p[1]).to_bits());
        let reference = fields_twin(Dual64::new(p[0], 0.3), Dual64::new(p[1], -1.2)).eps;
        common::assert_near("fields_jvp", tangent, reference, 1e-12);
        let graph = fields_graph(p[0], p[1]);
        let output = graph.node(graph.output().expect("backward was called"));
        assert_eq!(output.data().to_bits(), fields(p[0], p[1]).to_bits());
        let x = graph.find("x").expect("input x");
        common::assert_near("fields_graph d_x", x.grad(), d_x, 1e-12);
    }
}

#[test]
fn a_tuple_bound_without_a_type_at_f32() {
    let (x, y) = (0.3f32, 0.7f32);
    let (value, d_x, d_y) = fields_grad(x, y);
    assert_eq!(value.to_bits(), fields(x, y).to_bits());
    let (_, d_x64, d_y64) = fields_grad(f64::from(x), f64::from(y));
    common::assert_near("fields_grad f32 d_x", f64::from(d_x), d_x64, 1e-5);
    common::assert_near("fields_grad f32 d_y", f64::from(d_y), d_y64, 1e-5);
}

#[test]
fn a_field_of_a_call_and_a_tuple_taken_apart() {
    for p in POINTS {
        let (value, d_x, d_y) = direct_grad(p[0], p[1]);
        check!(
            "direct_grad",
            &p,
            (value, &[d_x, d_y]),
            against = [central(|q| direct(q[0], q[1])), dual(dual2(direct_twin))]
        );
        let (value, h) = direct_hessian(p[0], p[1]);
        assert_eq!(value.to_bits(), direct(p[0], p[1]).to_bits());
        Hessian::new("direct_hessian", &p, h.as_flattened()).dual(hyper2(direct_twin));
        let (value, d_x, d_y) = apart_grad(p[0], p[1]);
        check!(
            "apart_grad",
            &p,
            (value, &[d_x, d_y]),
            against = [central(|q| apart(q[0], q[1])), dual(dual2(apart_twin))]
        );
        let (value, h) = apart_hessian(p[0], p[1]);
        assert_eq!(value.to_bits(), apart(p[0], p[1]).to_bits());
        Hessian::new("apart_hessian", &p, h.as_flattened()).dual(hyper2(apart_twin));
    }
}

#[test]
fn a_tuple_returning_caller_of_a_tuple_bound_without_a_type() {
    for p in POINTS {
        let (value, jacobian) = outer_jacobian(p[0], p[1]);
        assert_eq!(value, outer(p[0], p[1]));
        for (k, seed) in [(1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
            let reference = |v: [f64; 2]| {
                let (a, b) = outer_twin(Dual64::new(p[0], v[0]), Dual64::new(p[1], v[1]));
                [a.eps, b.eps]
            };
            let column = reference(if k == 0 { [1.0, 0.0] } else { [0.0, 1.0] });
            for i in 0..2 {
                let label = format!("outer_jacobian J[{i}][{k}]");
                common::assert_near(&label, jacobian[i][k], column[i], 1e-12);
            }
            let row = jacobian[k];
            let pulled = outer_pullback(p[0], p[1], seed);
            assert_eq!(pulled, (row[0], row[1]), "outer_pullback at {p:?}");
        }
    }
}

#[test]
fn a_methods_tuple_bound_without_a_type() {
    for p in [[0.7, -0.2, 0.3], [-1.1, 0.4, 0.9], [0.5, 1.3, -0.6]] {
        let m = Model { w: p[0], b: p[1] };
        let mut d = Model { w: 0.0, b: 0.0 };
        let (value, d_x) = m.loss_grad(&mut d, p[2]);
        let loss = |q: &[f64]| Model { w: q[0], b: q[1] }.loss(q[2]);
        check!(
            "loss_grad",
            &p,
            (value, &[d.w, d.b, d_x]),
            against = [
                central(loss),
                dual(|q: &[Dual64]| model_twin(q[0], q[1], q[2]))
            ]
        );
    }
}

#[differentiable(hvp)]
fn sub3(a: f64, b: f64) -> [f64; 3] {
    [a - b, a * b, (a + b).sin()]
}

fn sub3_twin<D: DualNum<Primitive = f64> + Copy>(a: D, b: D) -> [D; 3] {
    [a - b, a * b, (a + b).sin()]
}

/// An array a call returned, bound without a type and taken apart later (`let [a, b, c] =
/// oc;`, counted.rs reads it as an array use), with a rest too.
#[differentiable(hessian)]
fn taken(x: f64, y: f64) -> f64 {
    let oc = sub3(x, y);
    let [a, b, c] = oc;
    let [p, .., q] = oc;
    a * b + c * p * q
}

fn taken_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    let [a, b, c] = sub3_twin(x, y);
    a * b + c * a * c
}

#[test]
fn an_array_bound_without_a_type_taken_apart_later() {
    for p in POINTS {
        let (value, d_x, d_y) = taken_grad(p[0], p[1]);
        check!(
            "taken_grad",
            &p,
            (value, &[d_x, d_y]),
            against = [central(|q| taken(q[0], q[1])), dual(dual2(taken_twin))]
        );
        let (value, h) = taken_hessian(p[0], p[1]);
        assert_eq!(value.to_bits(), taken(p[0], p[1]).to_bits());
        Hessian::new("taken_hessian", &p, h.as_flattened()).dual(hyper2(taken_twin));
    }
}
