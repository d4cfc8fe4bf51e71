use micrograd_runtime::prelude::*;

/// micrograd's README expression.
#[differentiable(graph, show_code)]
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
