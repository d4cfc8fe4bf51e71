//! micrograd's own worked examples, written as `#[differentiable]` functions.

// `readme` is micrograd's expression verbatim, `c += c + 1.0` included.
#![allow(clippy::misrefactored_assign_op)]

use micrograd_runtime::prelude::*;

/// micrograd's README expression.
#[differentiable]
fn readme(a: f64, b: f64) -> f64 {
    let mut c = a + b;
    let mut d = a * b + b.powi(3);
    c += c + 1.0;
    c += 1.0 + c + (-a);
    d += d * 2.0 + (b + a).relu();
    d += 3.0 * d + (b - a).relu();
    let e = c - d;
    let f = e.powi(2);
    let mut g = f / 2.0;
    g += 10.0 / f;
    g
}

#[test]
fn readme_example_matches_micrograd() {
    let (g, dg_da, dg_db) = readme_grad(-4.0, 2.0);
    assert_eq!(format!("{g:.4}"), "24.7041");
    assert_eq!(format!("{dg_da:.4}"), "138.8338");
    assert_eq!(format!("{dg_db:.4}"), "645.5773");
    assert_eq!(g.to_bits(), readme(-4.0, 2.0).to_bits());
}

/// micrograd's `test_sanity_check` (test/test_engine.py).
#[differentiable]
fn sanity(x: f64) -> f64 {
    let z = 2.0 * x + 2.0 + x;
    let q = z.relu() + z * x;
    let h = (z * z).relu();
    h + q + q * x
}

#[test]
fn sanity_check_matches_micrograd() {
    // By hand at x = -4: z = -10, q = 40, h = 100, y = -20; dz/dx = 3,
    // dq/dx = 3x + z = -22, dh/dx = 2z * 3 = -60, dy/dx = -60 + (1 + x) * -22 + q = 46.
    assert_eq!(sanity_grad(-4.0), (-20.0, 46.0));
    assert_eq!(sanity(-4.0), -20.0);
}

/// The chain `L = (a * b + c) * f` of the lecture, node by node.
#[differentiable]
fn chain(a: f64, b: f64, c: f64, f: f64) -> f64 {
    let e = a * b;
    let d = e + c;
    d * f
}

#[test]
fn chain_gradients_match_the_hand_derivation() {
    // dL/da = f * b, dL/db = f * a, dL/dc = f, dL/df = d = a * b + c.
    assert_eq!(
        chain_grad(2.0, -3.0, 10.0, -2.0),
        (-8.0, 6.0, -4.0, -2.0, 4.0)
    );
    assert_eq!(chain(2.0, -3.0, 10.0, -2.0), -8.0);
}

/// The lecture's neuron, `o = tanh(x1 w1 + x2 w2 + b)`.
#[differentiable]
fn neuron(x1: f64, x2: f64, w1: f64, w2: f64, b: f64) -> f64 {
    let n = x1 * w1 + x2 * w2 + b;
    n.tanh()
}

/// The same neuron with `tanh` spelled out through `exp`.
#[differentiable]
fn neuron_exp(x1: f64, x2: f64, w1: f64, w2: f64, b: f64) -> f64 {
    let n = x1 * w1 + x2 * w2 + b;
    let e = (2.0 * n).exp();
    (e - 1.0) / (e + 1.0)
}

const NEURON: (f64, f64, f64, f64, f64) = (2.0, 0.0, -3.0, 1.0, 6.881_373_587_019_543);

#[test]
fn neuron_matches_the_lecture() {
    let (x1, x2, w1, w2, b) = NEURON;
    let (o, dx1, dx2, dw1, dw2, db) = neuron_grad(x1, x2, w1, w2, b);
    assert_eq!(o.to_bits(), neuron(x1, x2, w1, w2, b).to_bits());
    // b makes n = ln(1 + sqrt 2), so o = 1 / sqrt 2 and do/dn = 1 - o^2 = 1/2.
    let close = |name, got: f64, want: f64| assert!((got - want).abs() < 1e-12, "{name}: {got}");
    close("o", o, std::f64::consts::FRAC_1_SQRT_2);
    close("db", db, 0.5);
    close("dx1", dx1, -1.5);
    close("dw1", dw1, 1.0);
    close("dx2", dx2, 0.5);
    close("dw2", dw2, 0.0);
}

#[test]
fn exp_decomposed_neuron_agrees_with_tanh() {
    let points = [
        NEURON,
        (0.5, -1.0, 0.3, 0.8, -0.2),
        (-1.5, 2.0, 0.7, -0.4, 0.1),
    ];
    for (x1, x2, w1, w2, b) in points {
        let t = neuron_grad(x1, x2, w1, w2, b);
        let e = neuron_exp_grad(x1, x2, w1, w2, b);
        assert_eq!(e.0.to_bits(), neuron_exp(x1, x2, w1, w2, b).to_bits());
        let pairs = [
            (t.0, e.0),
            (t.1, e.1),
            (t.2, e.2),
            (t.3, e.3),
            (t.4, e.4),
            (t.5, e.5),
        ];
        for (i, (a, b)) in pairs.into_iter().enumerate() {
            assert!((a - b).abs() < 1e-12, "entry {i}: tanh {a}, exp {b}");
        }
    }
}

/// micrograd's `a + a` bug report: the gradient of a reused value accumulates.
#[differentiable]
fn twice(a: f64) -> f64 {
    a + a
}

#[test]
fn a_plus_a_has_gradient_two() {
    for a in [-3.0, 0.0, 1.5] {
        assert_eq!(twice_grad(a), (twice(a), 2.0));
    }
}
