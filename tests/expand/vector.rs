// Vector outputs: the pullback takes a seed per output; `jacobian` adds the dense Jacobian.
#[differentiable(jacobian)]
fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}

// A tuple, and a residual filled in a loop (its rows touch one term each).
#[differentiable(jacobian, wrt(a, b))]
fn residual(a: f64, b: f64, t: &[f64; 3]) -> (f64, f64, f64) {
    let mut r = [0.0; 3];
    for i in 0..3 {
        r[i] = a * (-b * t[i]).exp() - 1.0;
    }
    (r[0], r[1], r[2])
}

// A slice's Jacobian block `d_w` follows it; row `k` of the sweep writes `d_w[k * n..]`.
#[differentiable(jacobian)]
fn weighted(a: f64, w: &[f64]) -> [f64; 2] {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += w[i] * w[i];
    }
    [a * s, s.sqrt()]
}
