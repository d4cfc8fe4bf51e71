//! micrograd's own worked examples, written as `#[differentiable]` functions.

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
