//! How a `#[differentiable]` caller reaches its callees: only through what the macro wrote
//! (micrograd_runtime::calls). A user's own functions named like the generated ones
//! (`curve_tangent`, a tangent line; `curve_tangent_pullback`) neither collide with the hidden
//! callee flavours nor get called by them, and a pullback takes its seed bare or as a caller
//! passes it. The compile-fail side (a hand-written `g_pullback` beside a plain `g`, callees
//! built without `jvp` or `hvp`) is in tests/ui.

use micrograd_runtime::calls::ByCaller;
use micrograd_runtime::prelude::*;

/// A curve, and the user's own unrelated functions whose names the macro's flavours once took.
#[differentiable]
fn curve(t: f64) -> f64 {
    t.sin() * t
}

/// The slope of the curve's tangent line at `t`, written by hand: deliberately wrong by a
/// factor 2, so that a caller that used it would fail the checks below.
fn curve_tangent(t: f64, v: f64) -> f64 {
    2.0 * (t.cos() * t + t.sin()) * v
}

fn curve_tangent_pullback(t: f64, v: f64, seed: f64) -> (f64, f64) {
    (2.0 * seed * v, 2.0 * seed * t)
}

#[differentiable(hvp)]
fn bend(t: f64) -> f64 {
    (0.5 * t).cos() * t
}

fn bend_tangent(t: f64) -> f64 {
    -t
}

/// Through `curve`, built without forward mode: the reverse sweep only.
#[differentiable]
fn model(a: f64, b: f64) -> f64 {
    curve(a * b) + bend(a - b)
}

/// Through `bend` only, which has `hvp`: forward mode and second order too.
#[differentiable(hvp)]
fn model2(a: f64, b: f64) -> f64 {
    a * bend(a - b)
}

fn value(a: f64, b: f64) -> f64 {
    (a * b).sin() * (a * b) + (0.5 * (a - b)).cos() * (a - b)
}

fn value2(a: f64, b: f64) -> f64 {
    a * (0.5 * (a - b)).cos() * (a - b)
}

fn central(f: impl Fn(f64, f64) -> f64, a: f64, b: f64) -> (f64, f64) {
    let h = 1e-6;
    (
        (f(a + h, b) - f(a - h, b)) / (2.0 * h),
        (f(a, b + h) - f(a, b - h)) / (2.0 * h),
    )
}

#[test]
fn callers_go_through_the_generated_flavours_only() {
    let _ = (
        curve_tangent(1.0, 1.0),
        curve_tangent_pullback(1.0, 1.0, 1.0),
    );
    let _ = bend_tangent(1.0);
    for (a, b) in [(0.7, -1.3), (1.9, 0.4), (-0.2, 2.5)] {
        let (v, da, db) = model_grad(a, b);
        assert_eq!(v, model(a, b));
        assert!((v - value(a, b)).abs() < 1e-12);
        let (ea, eb) = central(value, a, b);
        assert!((da - ea).abs() < 1e-7 * (1.0 + ea.abs()), "{da} vs {ea}");
        assert!((db - eb).abs() < 1e-7 * (1.0 + eb.abs()), "{db} vs {eb}");
        // Forward mode through `bend`'s hidden tangent, not the user's `bend_tangent`.
        let (v, da, db) = model2_grad(a, b);
        assert_eq!(v, model2(a, b));
        let (ea, eb) = central(value2, a, b);
        assert!((da - ea).abs() < 1e-7 * (1.0 + ea.abs()), "{da} vs {ea}");
        assert!((db - eb).abs() < 1e-7 * (1.0 + eb.abs()), "{db} vs {eb}");
        let (w, t) = model2_jvp(a, 0.3, b, -0.8);
        assert_eq!(w, v);
        assert!((t - (0.3 * da - 0.8 * db)).abs() < 1e-12);
        // The Hessian-vector product against central differences of the gradient.
        let (_, ha, hb) = model2_hvp(a, 1.0, b, 0.0);
        let h = 1e-5;
        let ga = (model2_grad(a + h, b).1 - model2_grad(a - h, b).1) / (2.0 * h);
        let gb = (model2_grad(a + h, b).2 - model2_grad(a - h, b).2) / (2.0 * h);
        assert!((ha - ga).abs() < 1e-6 * (1.0 + ga.abs()), "{ha} vs {ga}");
        assert!((hb - gb).abs() < 1e-6 * (1.0 + gb.abs()), "{hb} vs {gb}");
    }
}

#[test]
fn a_pullback_takes_the_seed_bare_or_from_a_caller() {
    for t in [-1.5, 0.0, 0.8] {
        let bare = curve_pullback(t, 2.5);
        assert_eq!(bare, curve_pullback(t, ByCaller(2.5)));
        assert!((bare - 2.5 * (t.cos() * t + t.sin())).abs() < 1e-12);
    }
}

/// A parameter named `seed`: the stubs of the flavours this function is built without take a
/// seed of their own, named apart from it (random programs, seed 1, program 76).
#[differentiable(wrt(seed))]
fn seeded(seed: f64, a: f64) -> f64 {
    (seed * a).tanh() + seed
}

#[test]
fn a_parameter_named_seed() {
    for (s, a) in [(0.3, 1.7), (-1.1, 0.4)] {
        let (v, d) = seeded_grad(s, a);
        assert_eq!(v, seeded(s, a));
        let e = (seeded(s + 1e-6, a) - seeded(s - 1e-6, a)) / 2e-6;
        assert!((d - e).abs() < 1e-8, "{d} vs {e}");
        assert_eq!(seeded_pullback(s, a, 2.0).0, 2.0 * d);
    }
}
