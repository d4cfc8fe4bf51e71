// Parameter kinds: `&Vec<f64>`, `[f64; N]` by value, `<const N: usize>`, and calls passing them.

#[differentiable]
fn vec_norm(w: &Vec<f64>) -> f64 {
    w[0] * w[1] + sum_sq(w)
}

#[differentiable]
fn quad(p: [f64; 2], s: f64) -> f64 {
    p[0] * p[1] * s
}

#[differentiable]
fn generic<const N: usize>(v: &[f64; N], a: [f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += v[i] * a[i];
    }
    s
}

#[differentiable]
fn calls(x: f64, p: [f64; 2], v: &[f64; 2]) -> f64 {
    quad([x, 1.0], x) + quad(p, 2.0) * generic(v, *v)
}

#[differentiable]
fn written(w: &mut [f64], k: f64) -> f64 {
    w[0] = w[1] * k;
    w[1] += k;
    w[0] * w[1]
}
