use micrograd_runtime::prelude::*;

/// A line fitted to points held as `(x, y)` pairs.
#[differentiable]
fn fit(a: f64, b: f64) -> f64 {
    let pts = [(0.0, 1.0), (1.0, 2.5), (2.0, 4.1)];
    let mut s = 0.0;
    for &(x, y) in &pts {
        let r = a * x + b - y;
        s += r * r;
    }
    s
}

/// Particles `(position, velocity)` stepped in place.
#[differentiable]
fn step(x0: f64, v0: f64) -> f64 {
    let mut ps = [(x0, v0); 2];
    for i in 0..ps.len() {
        let (x, v) = ps[i];
        ps[i] = (x + 0.1 * v, v - 0.1 * x);
        ps[i].1 *= 0.9;
    }
    ps[0].0 * ps[1].1
}
