//! Nested derivatives: a `#[differentiable]` function calling another's `g_grad` or `g_jvp`,
//! differentiated through it by `f_grad`, `f_pullback` and `f_jvp` (every outer mode over
//! every inner one), also inside loops (gradient descent, whose steps call `g_grad`).
//!
//! References, never the macro's numbers: central differences of a twin of each caller whose
//! inner gradient is written out by hand (a closed form), and num-dual's second-order duals: a
//! generic twin evaluated on `Dual<Dual64>`, the inner gradient from the inner dual, the
//! outer derivative from the outer one.

use crate::common;

use micrograd_runtime::prelude::*;
use num_dual::{Dual, Dual64, DualNum};

/// The inner function, differentiated by its callers' `g_grad` with respect to `x` and `y`
/// only, as particle's force is the gradient of a potential in the position only: the outer
/// derivative with respect to `w` goes through the second derivatives `∂²g/∂x∂w`.
#[differentiable(hvp, wrt(x, y))]
fn g(x: f64, y: f64, w: f64) -> f64 {
    w * x * x * y + (x * w).sin() + y.exp() * w
}

/// `g` written out by hand, with its partials `(g, ∂g/∂x, ∂g/∂y, ∂g/∂w)`.
fn g_by_hand(x: f64, y: f64, w: f64) -> (f64, f64, f64, f64) {
    let value = w * x * x * y + (x * w).sin() + y.exp() * w;
    let dx = 2.0 * w * x * y + w * (x * w).cos();
    let dy = w * x * x + w * y.exp();
    let dw = x * x * y + x * (x * w).cos() + y.exp();
    (value, dx, dy, dw)
}

/// `g` on any dual number.
fn g_dual<D: DualNum<Primitive = f64> + Copy>(x: D, y: D, w: D) -> D {
    w * x * x * y + (x * w).sin() + y.exp() * w
}

/// `(g, ∂g/∂x, ∂g/∂y, ∂g/∂w)` on any dual number `D`, from one more level of duals.
fn g_grad_dual<D: DualNum<Primitive = f64> + Copy>(x: D, y: D, w: D) -> (D, D, D, D) {
    let (c, one) = (Dual::from_re, |v: D| Dual::new(v, D::one()));
    let dx = g_dual(one(x), c(y), c(w));
    let dy = g_dual(c(x), one(y), c(w));
    let dw = g_dual(c(x), c(y), one(w));
    (dx.re, dx.eps, dy.eps, dw.eps)
}

/// Reverse inside: the value and two partials of `g`, mixed.
#[differentiable(jvp)]
fn over_grad(x: f64, y: f64, w: f64) -> f64 {
    let (v, gx, gy) = g_grad(x, y, w);
    v + gx * gy + w * gx.sin()
}

fn over_grad_by_hand(x: f64, y: f64, w: f64) -> f64 {
    let (v, gx, gy, _) = g_by_hand(x, y, w);
    v + gx * gy + w * gx.sin()
}

fn over_grad_dual<D: DualNum<Primitive = f64> + Copy>(x: D, y: D, w: D) -> D {
    let (v, gx, gy, _) = g_grad_dual(x, y, w);
    v + gx * gy + w * gx.sin()
}

/// Forward inside, along a direction that depends on the caller's parameters.
#[differentiable(jvp)]
fn over_jvp(x: f64, y: f64, w: f64) -> f64 {
    let (v, t) = g_jvp(x, 1.0, y, x * w, w);
    v * t + t.powi(2)
}

fn over_jvp_by_hand(x: f64, y: f64, w: f64) -> f64 {
    let (v, gx, gy, _) = g_by_hand(x, y, w);
    let t = gx + gy * x * w;
    v * t + t.powi(2)
}

fn over_jvp_dual<D: DualNum<Primitive = f64> + Copy>(x: D, y: D, w: D) -> D {
    let (v, gx, gy, _) = g_grad_dual(x, y, w);
    let t = gx + gy * x * w;
    v * t + t.powi(2)
}

/// A bowl whose bottom moves with `w`: `(x - w)² + w y² + x⁴ / 10`.
#[differentiable(hvp, wrt(x, y))]
fn bowl(x: f64, y: f64, w: f64) -> f64 {
    (x - w).powi(2) + w * y * y + 0.1 * x.powi(4)
}

fn bowl_grad_by_hand(x: f64, y: f64, w: f64) -> (f64, f64) {
    (2.0 * (x - w) + 0.4 * x.powi(3), 2.0 * w * y)
}

fn bowl_dual<D: DualNum<Primitive = f64> + Copy>(x: D, y: D, w: D) -> D {
    (x - w).powi(2) + w * y * y + x.powi(4) * 0.1
}

/// Gradient descent on the bowl for `steps` steps, reverse inside: where it ends.
#[differentiable(jvp)]
fn descend(x0: f64, y0: f64, w: f64, steps: usize) -> f64 {
    let mut x = x0;
    let mut y = y0;
    for _ in 0..steps {
        let (_, gx, gy) = bowl_grad(x, y, w);
        x -= 0.1 * gx;
        y -= 0.1 * gy;
    }
    x * x + y
}

fn descend_by_hand(x0: f64, y0: f64, w: f64, steps: usize) -> f64 {
    let (mut x, mut y) = (x0, y0);
    for _ in 0..steps {
        let (gx, gy) = bowl_grad_by_hand(x, y, w);
        x -= 0.1 * gx;
        y -= 0.1 * gy;
    }
    x * x + y
}

/// `(∂bowl/∂x, ∂bowl/∂y)` on any dual number, from one more level of duals.
fn bowl_grad_dual<D: DualNum<Primitive = f64> + Copy>(x: D, y: D, w: D) -> (D, D) {
    let (c, one) = (Dual::from_re, |v: D| Dual::new(v, D::one()));
    (
        bowl_dual(one(x), c(y), c(w)).eps,
        bowl_dual(c(x), one(y), c(w)).eps,
    )
}

fn descend_dual<D: DualNum<Primitive = f64> + Copy>(x0: D, y0: D, w: D, steps: usize) -> D {
    let (mut x, mut y) = (x0, y0);
    for _ in 0..steps {
        let (gx, gy) = bowl_grad_dual(x, y, w);
        x -= gx * 0.1;
        y -= gy * 0.1;
    }
    x * x + y
}

/// Gradient descent until the gradient is small (or 60 steps), forward inside: the loop's
/// trip count depends on the inner gradient, as saddle's does.
#[differentiable(jvp)]
fn settle(x0: f64, y0: f64, w: f64) -> f64 {
    let mut x = x0;
    let mut y = y0;
    let mut steps = 0;
    loop {
        let (_, gx) = bowl_jvp(x, 1.0, y, 0.0, w);
        let (_, gy) = bowl_jvp(x, 0.0, y, 1.0, w);
        if (gx * gx + gy * gy).sqrt() < 1e-3 || steps == 60 {
            break;
        }
        x -= 0.1 * gx;
        y -= 0.1 * gy;
        steps += 1;
    }
    x * w + y
}

fn settle_by_hand(x0: f64, y0: f64, w: f64) -> f64 {
    let (mut x, mut y, mut steps) = (x0, y0, 0);
    loop {
        let (gx, gy) = bowl_grad_by_hand(x, y, w);
        if (gx * gx + gy * gy).sqrt() < 1e-3 || steps == 60 {
            break;
        }
        x -= 0.1 * gx;
        y -= 0.1 * gy;
        steps += 1;
    }
    x * w + y
}

fn settle_dual<D: DualNum<Primitive = f64> + Copy>(x0: D, y0: D, w: D) -> D {
    let (mut x, mut y, mut steps) = (x0, y0, 0);
    loop {
        let (gx, gy) = bowl_grad_dual(x, y, w);
        let (gxr, gyr) = (gx.re(), gy.re());
        if (gxr * gxr + gyr * gyr).sqrt() < 1e-3 || steps == 60 {
            break;
        }
        x -= gx * 0.1;
        y -= gy * 0.1;
        steps += 1;
    }
    x * w + y
}

/// An inner function differentiated with respect to everything (no `wrt`), every partial of
/// its `spring_grad` read by the caller.
#[differentiable(hvp)]
fn spring(x: f64, k: f64) -> f64 {
    0.5 * k * x * x + 0.25 * x.powi(4)
}

#[differentiable(jvp)]
fn energy(x: f64, k: f64) -> f64 {
    let (e, fx, fk) = spring_grad(x, k);
    e + fx * fx + fk
}

/// `spring`'s partials by hand: `(k x + x³, x² / 2)`.
fn energy_by_hand(x: f64, k: f64) -> f64 {
    let e = 0.5 * k * x * x + 0.25 * x.powi(4);
    let (fx, fk) = (k * x + x.powi(3), 0.5 * x * x);
    e + fx * fx + fk
}

/// The points every caller is checked at.
const POINTS: [[f64; 3]; 4] = [
    [0.3, -0.4, 0.7],
    [1.1, 0.2, -0.5],
    [-0.8, 0.9, 1.3],
    [0.05, -1.2, 0.4],
];

/// `f`, `f_grad`, `f_pullback` and `f_jvp` of a function of three `f64`s.
type Flavours = (
    fn(f64, f64, f64) -> f64,
    fn(f64, f64, f64) -> (f64, f64, f64, f64),
    fn(f64, f64, f64, f64) -> (f64, f64, f64),
    fn(f64, f64, f64, f64, f64, f64) -> (f64, f64),
);

/// Checks `f_grad`, `f_pullback` and `f_jvp` of a caller of three `f64`s against central
/// differences of `by_hand` and against `dual` on `Dual64`.
fn check(
    name: &str,
    (f, grad, pullback, jvp): Flavours,
    by_hand: impl Fn(f64, f64, f64) -> f64,
    dual: impl Fn(Dual64, Dual64, Dual64) -> Dual64,
) {
    for point @ [x, y, w] in POINTS {
        let (value, dx, dy, dw) = grad(x, y, w);
        common::assert_same_value(name, value, f(x, y, w), &point);
        common::assert_near(name, value, by_hand(x, y, w), 1e-13);
        common::assert_gradient(name, |p| by_hand(p[0], p[1], p[2]), &point, &[dx, dy, dw]);
        let unit = |k: usize| {
            let e = |i: usize| if i == k { 1.0 } else { 0.0 };
            dual(
                Dual64::new(x, e(0)),
                Dual64::new(y, e(1)),
                Dual64::new(w, e(2)),
            )
            .eps
        };
        for (k, partial) in [dx, dy, dw].into_iter().enumerate() {
            common::assert_near(
                &format!("{name} d/d{k} by num-dual"),
                partial,
                unit(k),
                1e-12,
            );
        }
        let (px, py, pw) = pullback(x, y, w, -1.5);
        for (seeded, partial) in [(px, dx), (py, dy), (pw, dw)] {
            common::assert_near(&format!("{name}_pullback"), seeded, -1.5 * partial, 1e-13);
        }
        let v = [0.4, -0.9, 0.6];
        let (value, tangent) = jvp(x, v[0], y, v[1], w, v[2]);
        common::assert_same_value(name, value, f(x, y, w), &point);
        let reference = dual(
            Dual64::new(x, v[0]),
            Dual64::new(y, v[1]),
            Dual64::new(w, v[2]),
        );
        common::assert_near(&format!("{name}_jvp"), tangent, reference.eps, 1e-12);
    }
}

#[test]
fn reverse_inside() {
    let flavours: Flavours = (over_grad, over_grad_grad, over_grad_pullback, over_grad_jvp);
    check("over_grad", flavours, over_grad_by_hand, over_grad_dual);
}

#[test]
fn forward_inside() {
    let flavours: Flavours = (over_jvp, over_jvp_grad, over_jvp_pullback, over_jvp_jvp);
    check("over_jvp", flavours, over_jvp_by_hand, over_jvp_dual);
}

#[test]
fn gradient_descent_reverse_inside() {
    for steps in [0, 1, 7] {
        let f = move |x, y, w| descend(x, y, w, steps);
        let name = format!("descend {steps} steps");
        for point @ [x, y, w] in POINTS {
            let (value, dx, dy, dw) = descend_grad(x, y, w, steps);
            common::assert_same_value(&name, value, f(x, y, w), &point);
            let by_hand = |p: &[f64]| descend_by_hand(p[0], p[1], p[2], steps);
            common::assert_gradient(&name, by_hand, &point, &[dx, dy, dw]);
            let (px, py, pw) = descend_pullback(x, y, w, steps, 2.0);
            common::assert_near(&name, px + py + pw, 2.0 * (dx + dy + dw), 1e-13);
            let v = [0.4, -0.9, 0.6];
            let (_, tangent) = descend_jvp(x, v[0], y, v[1], w, v[2], steps);
            let reference = descend_dual(
                Dual64::new(x, v[0]),
                Dual64::new(y, v[1]),
                Dual64::new(w, v[2]),
                steps,
            );
            common::assert_near(&format!("{name} jvp"), tangent, reference.eps, 1e-12);
            common::assert_near(
                &format!("{name} jvp"),
                tangent,
                dx * v[0] + dy * v[1] + dw * v[2],
                1e-12,
            );
        }
    }
}

#[test]
fn gradient_descent_forward_inside() {
    let name = "settle";
    for point @ [x, y, w] in [[0.3, -0.4, 0.7], [1.1, 0.2, 0.5], [-0.8, 0.9, 1.3]] {
        let (value, dx, dy, dw) = settle_grad(x, y, w);
        common::assert_same_value(name, value, settle(x, y, w), &point);
        common::assert_near(name, value, settle_by_hand(x, y, w), 1e-13);
        let unit = |k: usize| {
            let e = |i: usize| if i == k { 1.0 } else { 0.0 };
            settle_dual(
                Dual64::new(x, e(0)),
                Dual64::new(y, e(1)),
                Dual64::new(w, e(2)),
            )
            .eps
        };
        // The trip count is piecewise constant: central differences hold between its jumps.
        let by_hand = |p: &[f64]| settle_by_hand(p[0], p[1], p[2]);
        common::assert_gradient(name, by_hand, &point, &[dx, dy, dw]);
        for (k, partial) in [dx, dy, dw].into_iter().enumerate() {
            common::assert_near(
                &format!("{name} d/d{k} by num-dual"),
                partial,
                unit(k),
                1e-12,
            );
        }
        let (_, tangent) = settle_jvp(x, 1.0, y, 2.0, w, -1.0);
        common::assert_near(name, tangent, dx + 2.0 * dy - dw, 1e-12);
    }
}

#[test]
fn inner_gradient_with_respect_to_everything() {
    for point @ [x, k] in [[0.3, 1.5], [-1.2, 0.4], [0.9, -0.7]] {
        let (value, dx, dk) = energy_grad(x, k);
        common::assert_same_value("energy", value, energy(x, k), &point);
        common::assert_gradient("energy", |p| energy_by_hand(p[0], p[1]), &point, &[dx, dk]);
        let (_, tangent) = energy_jvp(x, 0.5, k, -2.0);
        common::assert_near("energy_jvp", tangent, 0.5 * dx - 2.0 * dk, 1e-12);
    }
}

/// Associated functions: the caller names the callee's gradient through `Self::`, and the
/// callee's nested flavours reach its second order without naming it.
struct Field;

impl Field {
    #[differentiable(hvp, wrt(x))]
    fn energy(x: f64, w: f64) -> f64 {
        w * x.powi(3)
    }

    /// `w ∂energy/∂x = 3 w² x²`.
    #[differentiable(jvp)]
    fn pull(x: f64, w: f64) -> f64 {
        let (_, force) = Self::energy_grad(x, w);
        force * w
    }

    /// The same through `energy_jvp`.
    #[differentiable(jvp)]
    fn pull_forward(x: f64, w: f64) -> f64 {
        let (_, force) = Self::energy_jvp(x, 1.0, w);
        force * w
    }
}

#[test]
fn associated_functions() {
    for [x, w] in [[0.5, 2.0], [-1.5, 0.25]] {
        // 3 w² x²: d/dx = 6 w² x, d/dw = 6 w x².
        let (dx, dw) = (6.0 * w * w * x, 6.0 * w * x * x);
        for (value, d_x, d_w) in [Field::pull_grad(x, w), Field::pull_forward_grad(x, w)] {
            common::assert_near("pull", value, 3.0 * w * w * x * x, 1e-14);
            common::assert_near("pull d/dx", d_x, dx, 1e-14);
            common::assert_near("pull d/dw", d_w, dw, 1e-14);
        }
        let (_, t) = Field::pull_jvp(x, 1.0, w, -0.5);
        common::assert_near("pull_jvp", t, dx - 0.5 * dw, 1e-14);
        let (_, t) = Field::pull_forward_jvp(x, 1.0, w, -0.5);
        common::assert_near("pull_forward_jvp", t, dx - 0.5 * dw, 1e-14);
    }
}

/// In `f32`: `x³ w`, its gradient in `x` only.
#[differentiable(hvp, wrt(x))]
fn cubic32(x: f32, w: f32) -> f32 {
    x * x * x * w
}

/// `3 x² w · w`, through `cubic32_grad`.
#[differentiable(jvp)]
fn over32(x: f32, w: f32) -> f32 {
    let (_, d_x) = cubic32_grad(x, w);
    d_x * w
}

#[test]
fn in_f32() {
    let (x, w) = (1.5f32, -0.5f32);
    let (value, d_x, d_w) = over32_grad(x, w);
    assert_eq!(value, over32(x, w));
    // 3 x² w²: d/dx = 6 x w², d/dw = 6 x² w.
    assert!((d_x - 6.0 * x * w * w).abs() < 1e-5, "{d_x}");
    assert!((d_w - 6.0 * x * x * w).abs() < 1e-5, "{d_w}");
    let (_, t) = over32_jvp(x, 1.0, w, 2.0);
    assert!((t - (d_x + 2.0 * d_w)).abs() < 1e-5, "{t}");
}
