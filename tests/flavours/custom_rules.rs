//! Every flavour of a function with `derivative(..)` rules, and of its callers, against
//! num-dual on generic twins (written from the closed form, not from the rules) and central
//! differences: since the rules are lowered into the IR (one operation whose pullback and
//! tangent read the rules' values), each flavour comes from the one pipeline.

use crate::common::{self, oracle};
use crate::forward::{Case, check, points};
use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

/// The dual numbers the generic twins run on.
trait Dual: DualNum<Primitive = f64, Real = f64> + Copy {}
impl<T: DualNum<Primitive = f64, Real = f64> + Copy> Dual for T {}

/// sin(x) eʸ + xⁿ y, computed in a way the macro does not read (an iterator and a closure).
#[differentiable(hessian, derivative(x = wave_dx, y = wave_dy))]
fn wave(x: f64, n: usize, y: f64) -> f64 {
    let power: f64 = std::iter::repeat_n(x, n).product();
    let scale = |t: f64| t * y.exp();
    scale(x.sin()) + power * y
}

/// ∂wave/∂x = cos(x) eʸ + n xⁿ⁻¹ y.
#[differentiable]
fn wave_dx(x: f64, n: usize, y: f64) -> f64 {
    x.cos() * y.exp() + (n as f64) * x.powi(n as i32 - 1) * y
}

/// ∂wave/∂y = sin(x) eʸ + xⁿ.
#[differentiable]
fn wave_dy(x: f64, n: usize, y: f64) -> f64 {
    x.sin() * y.exp() + x.powi(n as i32)
}

fn wave_twin<D: Dual>(x: D, n: usize, y: D) -> D {
    x.sin() * y.exp() + x.powi(n as i32) * y
}

const N: usize = 3;

#[test]
fn the_function_itself() {
    let case = Case::<2> {
        name: "wave",
        f: &|p| wave(p[0], N, p[1]),
        grad: &|p| {
            let (_, dx, dy) = wave_grad(p[0], N, p[1]);
            vec![dx, dy]
        },
        jvp: &|p, v| wave_jvp(p[0], v[0], N, p[1], v[1]),
        hvp: &|p, v| {
            let (y, hx, hy) = wave_hvp(p[0], v[0], N, p[1], v[1]);
            (y, vec![hx, hy])
        },
        dual: &|p| wave_twin(p[0], N, p[1]),
    };
    for (x, v) in points(2, -1.2, 1.4) {
        check(&case, &x, &v);
        let (value, dx, dy) = wave_grad(x[0], N, x[1]);
        oracle::Gradient::new("wave_grad", &x, (value, &[dx, dy]))
            .central(|p| wave(p[0], N, p[1]))
            .dual(|p| wave_twin(p[0], N, p[1]));
        // The pullback is the gradient times the seed.
        let seed = v[0];
        let (px, py) = wave_pullback(x[0], N, x[1], seed);
        assert_eq!((px, py), (seed * dx, seed * dy), "wave_pullback at {x:?}");
        let (value, hessian) = wave_hessian(x[0], N, x[1]);
        assert_eq!(value.to_bits(), wave(x[0], N, x[1]).to_bits());
        oracle::Hessian::new("wave_hessian", &x, hessian.as_flattened())
            .dual(|p| wave_twin(p[0], N, p[1]));
    }
}

/// The flavours along `wrt(y)` alone: `x` is held constant.
#[differentiable(hvp, wrt(y), derivative(x = wave_dx, y = wave_dy))]
fn wave_in_y(x: f64, n: usize, y: f64) -> f64 {
    wave(x, n, y)
}

#[test]
fn along_one_parameter() {
    for (p, v) in points(2, -1.2, 1.4) {
        let (x, y) = (p[0], p[1]);
        let (value, dy) = wave_in_y_grad(x, N, y);
        assert_eq!(value.to_bits(), wave(x, N, y).to_bits());
        common::assert_partial("wave_in_y_grad", |q| wave(x, N, q[0]), &[y], 0, dy);
        let (value, t) = wave_in_y_jvp(x, N, y, v[1]);
        assert_eq!(value.to_bits(), wave(x, N, y).to_bits());
        assert_eq!(t, dy * v[1]);
        // ∂²/∂y² = sin(x) eʸ, from num-dual's Hessian of the twin.
        let second = oracle::dual_hessian(|q| wave_twin(q[0], N, q[1]), &p)[1][1];
        let (_, hy) = wave_in_y_hvp(x, N, y, v[1]);
        common::assert_near("wave_in_y_hvp", hy, second * v[1], 1e-12);
    }
}

/// A caller of every flavour: its tangent calls `__wave_tangent`, its Hessian-vector product
/// `__wave_tangent_pullback`.
#[differentiable(hessian)]
fn uses_wave(a: f64, b: f64) -> f64 {
    let inner = wave(a * b, 3, b);
    inner + a.sin() * wave(b, 2, a)
}

fn uses_wave_twin<D: Dual>(p: &[D]) -> D {
    let (a, b) = (p[0], p[1]);
    wave_twin(a * b, N, b) + a.sin() * wave_twin(b, 2, a)
}

#[test]
fn a_caller_of_every_flavour() {
    let case = Case::<2> {
        name: "uses_wave",
        f: &|p| uses_wave(p[0], p[1]),
        grad: &|p| {
            let (_, da, db) = uses_wave_grad(p[0], p[1]);
            vec![da, db]
        },
        jvp: &|p, v| uses_wave_jvp(p[0], v[0], p[1], v[1]),
        hvp: &|p, v| {
            let (y, ha, hb) = uses_wave_hvp(p[0], v[0], p[1], v[1]);
            (y, vec![ha, hb])
        },
        dual: &uses_wave_twin,
    };
    for (x, v) in points(2, -1.1, 1.2) {
        check(&case, &x, &v);
        let (value, da, db) = uses_wave_grad(x[0], x[1]);
        oracle::Gradient::new("uses_wave_grad", &x, (value, &[da, db]))
            .central(|p| uses_wave(p[0], p[1]))
            .dual(uses_wave_twin);
        let (value, hessian) = uses_wave_hessian(x[0], x[1]);
        assert_eq!(value.to_bits(), uses_wave(x[0], x[1]).to_bits());
        oracle::Hessian::new("uses_wave_hessian", &x, hessian.as_flattened()).dual(uses_wave_twin);
    }
}

/// A Jacobian of more outputs than parameters, by columns in forward mode: through
/// `__wave_tangent`, constants among the arguments.
#[differentiable(jacobian, jvp)]
fn wave_pair(a: f64) -> [f64; 2] {
    [wave(a, 2, 0.5), wave(0.3, 3, a) * a]
}

#[test]
fn a_jacobian_through_the_rules() {
    for a in [-0.9, 0.2, 1.3] {
        let (value, jacobian) = wave_pair_jacobian(a);
        assert_eq!(value, wave_pair(a));
        let twins: [fn(&[Dual64]) -> Dual64; 2] = [
            |p| wave_twin(p[0], 2, Dual64::from(0.5)),
            |p| wave_twin(Dual64::from(0.3), N, p[0]) * p[0],
        ];
        for (k, twin) in twins.into_iter().enumerate() {
            let (_, gradient) = oracle::dual_gradient(twin, &[a]);
            common::assert_near("wave_pair_jacobian", jacobian[k][0], gradient[0], 1e-12);
        }
    }
}

/// A derivative of a derivative: `wave_grad` inside a differentiated function, through
/// `wave_grad_pullback`, which `wave` prints from `__wave_tangent_pullback`.
#[differentiable]
fn slope_product(a: f64, b: f64) -> f64 {
    let (value, dx, dy) = wave_grad(a, 2, b);
    value + dx * dy
}

fn slope_product_twin<D: Dual>(p: &[D]) -> D {
    let (a, b) = (p[0], p[1]);
    let dx = a.cos() * b.exp() + a * b * D::from(2.0);
    let dy = a.sin() * b.exp() + a * a;
    wave_twin(a, 2, b) + dx * dy
}

#[test]
fn a_derivative_of_the_rules() {
    for (x, _) in points(2, -1.0, 1.0) {
        let (value, da, db) = slope_product_grad(x[0], x[1]);
        oracle::Gradient::new("slope_product_grad", &x, (value, &[da, db]))
            .central(|p| slope_product(p[0], p[1]))
            .dual(slope_product_twin);
    }
}

/// `f_graph`, which the rules' back end refused: the body is one node named after the function,
/// whose partials are the rules' values.
#[differentiable(graph, derivative(x = wave_dx, y = wave_dy))]
fn wave_graphed(x: f64, n: usize, y: f64) -> f64 {
    wave(x, n, y)
}

/// A caller's graph: the call one node, its partials from `wave_graphed_pullback`.
#[differentiable(graph)]
fn graphed_caller(a: f64, b: f64) -> f64 {
    wave_graphed(a * b, 3, b) + a
}

fn graphed_caller_twin<D: Dual>(p: &[D]) -> D {
    wave_twin(p[0] * p[1], N, p[1]) + p[0]
}

#[test]
fn a_graph_through_the_rules() {
    for (p, _) in points(2, -1.0, 1.0) {
        let graph = wave_graphed_graph(p[0], N, p[1]);
        let output = graph.node(graph.output().expect("backward was called"));
        let x = graph.find("x").expect("input x").grad();
        let y = graph.find("y").expect("input y").grad();
        oracle::Gradient::new("wave_graphed_graph", &p, (output.data(), &[x, y]))
            .central(|q| wave(q[0], N, q[1]))
            .dual(|q| wave_twin(q[0], N, q[1]));
        assert!(graph.to_dot().contains("wave_graphed"), "the body's node");
        let graph = graphed_caller_graph(p[0], p[1]);
        let output = graph.node(graph.output().expect("backward was called"));
        let a = graph.find("a").expect("input a").grad();
        let b = graph.find("b").expect("input b").grad();
        oracle::Gradient::new("graphed_caller_graph", &p, (output.data(), &[a, b]))
            .central(|q| graphed_caller(q[0], q[1]))
            .dual(graphed_caller_twin);
    }
}

/// A `&f64` parameter, which the rules' back end passed to rules typed `fn(f64, ..)`: the rules
/// take the function's parameters as written, `&f64` too.
#[differentiable(hessian, derivative(x = scaled_sine_dx, k = scaled_sine_dk))]
fn scaled_sine(x: &f64, k: f64) -> f64 {
    k * x.sin()
}

#[differentiable]
fn scaled_sine_dx(x: &f64, k: f64) -> f64 {
    k * x.cos()
}

#[differentiable]
fn scaled_sine_dk(x: &f64, k: f64) -> f64 {
    let _ = k;
    x.sin()
}

fn scaled_sine_twin<D: Dual>(p: &[D]) -> D {
    p[1] * p[0].sin()
}

#[test]
fn a_borrowed_float() {
    for (p, v) in points(2, -1.3, 1.3) {
        let (x, k) = (p[0], p[1]);
        let (value, dx, dk) = scaled_sine_grad(&x, k);
        oracle::Gradient::new("scaled_sine_grad", &p, (value, &[dx, dk]))
            .central(|q| scaled_sine(&q[0], q[1]))
            .dual(scaled_sine_twin);
        let (_, t) = scaled_sine_jvp(&x, v[0], k, v[1]);
        common::assert_near("scaled_sine_jvp", t, dx * v[0] + dk * v[1], 1e-15);
        let (_, hessian) = scaled_sine_hessian(&x, k);
        oracle::Hessian::new("scaled_sine_hessian", &p, hessian.as_flattened())
            .dual(scaled_sine_twin);
    }
}

/// A function generic over its float with `derivative(..)`, which the rules' back end refused
/// (its rules were `f64`s): the rules are generic too, and every flavour is printed in `T`.
#[differentiable(hessian, derivative(x = softplus_dx))]
fn softplus<T: Float>(x: T) -> T {
    // A formula the macro does not read: `ln_1p` of a branch-free `exp`.
    x.max(T::zero()) + (-x.abs()).exp().ln_1p()
}

#[differentiable]
fn softplus_dx<T: Float>(x: T) -> T {
    T::one() / (T::one() + (-x).exp())
}

#[differentiable(hvp)]
fn softplus_caller<T: Float>(a: T, b: T) -> T {
    softplus(a * b) * b
}

fn softplus_twin<D: Dual>(p: &[D]) -> D {
    (D::one() + p[0].exp()).ln()
}

fn softplus_caller_twin<D: Dual>(p: &[D]) -> D {
    softplus_twin(&[p[0] * p[1]]) * p[1]
}

#[test]
fn a_generic_float() {
    for (p, v) in points(2, -1.5, 1.5) {
        let x = p[0];
        let (value, dx) = softplus_grad(x);
        oracle::Gradient::new("softplus_grad", &[x], (value, &[dx]))
            .central(|q| softplus(q[0]))
            .dual(softplus_twin);
        let (_, [[h]]) = softplus_hessian(x);
        oracle::Hessian::new("softplus_hessian", &[x], &[h]).dual(softplus_twin);
        let (value, da, db) = softplus_caller_grad(p[0], p[1]);
        oracle::Gradient::new("softplus_caller_grad", &p, (value, &[da, db]))
            .central(|q| softplus_caller(q[0], q[1]))
            .dual(softplus_caller_twin);
        let second = oracle::dual_hessian(softplus_caller_twin, &p);
        let (_, ha, hb) = softplus_caller_hvp(p[0], v[0], p[1], v[1]);
        for (k, h) in [ha, hb].into_iter().enumerate() {
            let reference = second[k][0] * v[0] + second[k][1] * v[1];
            common::assert_near("softplus_caller_hvp", h, reference, 1e-12);
        }
        // In `f32`: the value bit for bit `f`'s, the gradient the `f64` one's to f32 precision.
        let (value, dx32) = softplus_grad(x as f32);
        assert_eq!(value.to_bits(), softplus(x as f32).to_bits());
        assert!((f64::from(dx32) - dx).abs() < 1e-6, "{dx32} {dx}");
    }
}
