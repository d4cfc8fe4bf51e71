use micrograd_runtime::prelude::*;

/// A `while` whose trip count depends on the inputs: a projectile until it lands.
#[differentiable(graph)]
fn projectile(vx: f64, vy: f64) -> f64 {
    let dt = 0.01;
    let mut x = 0.0;
    let mut y = 0.0;
    let mut v = vy;
    while y >= 0.0 {
        x += vx * dt;
        y += v * dt;
        v -= 9.81 * dt;
    }
    x
}

/// Newton's method in a `loop` that `break`s with the converged value.
#[differentiable]
fn cube_root(a: f64) -> f64 {
    let mut x = 1.0;
    let root = loop {
        let next = x - (x * x * x - a) / (3.0 * x * x);
        if (next - x).abs() < 1e-10 {
            break next;
        }
        x = next;
    };
    root * 2.0
}
