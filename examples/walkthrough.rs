//! micrograd's worked examples, with gradients written at compile time.
//!
//! `cargo run --example walkthrough` prints micrograd's README expression, the `L = -8` chain of
//! the lecture, and its tanh neuron (written with `tanh` and again with `exp`), each gradient
//! computed by the `_grad` function `#[differentiable]` generates, and checks micrograd's numbers.

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

/// The lecture's first graph: `e = a * b`, `d = e + c`, `L = d * f`.
#[differentiable]
fn chain(a: f64, b: f64, c: f64, f: f64) -> f64 {
    let e = a * b;
    let d = e + c;
    d * f
}

/// The lecture's neuron: `o = tanh(x1 w1 + x2 w2 + b)`.
#[differentiable]
fn neuron(x1: f64, w1: f64, x2: f64, w2: f64, b: f64) -> f64 {
    let n = x1 * w1 + x2 * w2 + b;
    n.tanh()
}

/// The same neuron with `tanh` broken into `(e^2n - 1) / (e^2n + 1)`, as the lecture does.
#[differentiable]
fn neuron_exp(x1: f64, w1: f64, x2: f64, w2: f64, b: f64) -> f64 {
    let n = x1 * w1 + x2 * w2 + b;
    let e = (2.0 * n).exp();
    (e - 1.0) / (e + 1.0)
}

fn main() {
    let mut failures = Vec::new();
    // Prints a result next to the reference it must match, and remembers a mismatch.
    let mut check = |what: &str, got: f64, reference: (&str, f64), tol: f64| {
        let (source, expected) = reference;
        let ok = (got - expected).abs() <= tol;
        let flag = if ok { "" } else { "  MISMATCH" };
        println!("  {what:<8} = {got:>9.4}   ({source}: {expected}){flag}");
        if !ok {
            failures.push(format!("{what}: {got} instead of {expected} ({source})"));
        }
    };
    let micrograd = |expected: f64| ("micrograd", expected);

    println!("micrograd's README expression at a = -4, b = 2:");
    let (g, dg_da, dg_db) = readme_grad(-4.0, 2.0);
    check("g", g, micrograd(24.7041), 5e-5);
    check("dg/da", dg_da, micrograd(138.8338), 5e-5);
    check("dg/db", dg_db, micrograd(645.5773), 5e-5);

    println!("L = (a * b + c) * f at a = 2, b = -3, c = 10, f = -2:");
    let (l, dl_da, dl_db, dl_dc, dl_df) = chain_grad(2.0, -3.0, 10.0, -2.0);
    check("L", l, micrograd(-8.0), 0.0);
    check("dL/da", dl_da, micrograd(6.0), 0.0);
    check("dL/db", dl_db, micrograd(-4.0), 0.0);
    check("dL/dc", dl_dc, micrograd(-2.0), 0.0);
    check("dL/df", dl_df, micrograd(4.0), 0.0);

    // b = 6.8813735870195432 makes n = atanh(1/√2), so o = 1/√2 = 0.7071 and do/dn = 1 - o² = 0.5.
    let (x1, w1, x2, w2, b) = (2.0, -3.0, 0.0, 1.0, 6.881_373_587_019_543);
    println!("o = tanh(x1 w1 + x2 w2 + b) at x1 = 2, w1 = -3, x2 = 0, w2 = 1, b = 6.8814:");
    let (o, do_dx1, do_dw1, do_dx2, do_dw2, do_db) = neuron_grad(x1, w1, x2, w2, b);
    check("o", o, micrograd(std::f64::consts::FRAC_1_SQRT_2), 1e-12);
    check("do/dx1", do_dx1, micrograd(-1.5), 1e-12);
    check("do/dw1", do_dw1, micrograd(1.0), 1e-12);
    check("do/dx2", do_dx2, micrograd(0.5), 1e-12);
    check("do/dw2", do_dw2, micrograd(0.0), 1e-12);
    check("do/db", do_db, micrograd(0.5), 1e-12);

    println!("the same neuron with tanh written as (e^2n - 1) / (e^2n + 1):");
    let (o2, d2_dx1, d2_dw1, d2_dx2, d2_dw2, d2_db) = neuron_exp_grad(x1, w1, x2, w2, b);
    check("o", o2, ("tanh", o), 1e-12);
    check("do/dx1", d2_dx1, ("tanh", do_dx1), 1e-12);
    check("do/dw1", d2_dw1, ("tanh", do_dw1), 1e-12);
    check("do/dx2", d2_dx2, ("tanh", do_dx2), 1e-12);
    check("do/dw2", d2_dw2, ("tanh", do_dw2), 1e-12);
    check("do/db", d2_db, ("tanh", do_db), 1e-12);

    assert!(
        failures.is_empty(),
        "the gradients differ from their references: {failures:?}"
    );
    // Each `_grad` returns its function's value bit for bit.
    assert_eq!(
        readme(-4.0, 2.0).to_bits(),
        g.to_bits(),
        "readme_grad's value"
    );
    assert_eq!(
        chain(2.0, -3.0, 10.0, -2.0).to_bits(),
        l.to_bits(),
        "chain_grad's value"
    );
    assert_eq!(
        neuron(x1, w1, x2, w2, b).to_bits(),
        o.to_bits(),
        "neuron_grad's value"
    );
    assert_eq!(
        neuron_exp(x1, w1, x2, w2, b).to_bits(),
        o2.to_bits(),
        "neuron_exp_grad's value"
    );
    println!("every value and gradient matches micrograd");
}
