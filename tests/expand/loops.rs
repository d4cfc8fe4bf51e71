use micrograd_runtime::prelude::*;

/// A dot product: records nothing.
#[differentiable(graph)]
fn dot(w: &[f64], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += w[i] * x[i];
    }
    s
}

/// A tanh neuron, differentiated with respect to its weights and bias only.
#[differentiable(wrt(w, b))]
fn neuron(w: &[f64], b: f64, x: &[f64]) -> f64 {
    let mut s = b;
    for i in 0..w.len() {
        s += w[i] * x[i];
    }
    s.tanh()
}

/// A loop that overwrites its variable: records one value per iteration.
#[differentiable]
fn iterate(x: f64, n: usize) -> f64 {
    let mut y = x;
    for _ in 0..n {
        y = (y * 0.9).sin() + 0.1;
    }
    y
}

/// Branches inside a loop.
#[differentiable]
fn clipped(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        if x[i] > 0.0 {
            s += x[i] * x[i];
        } else {
            s -= 0.5 * x[i];
        }
    }
    s
}

/// Calls with sub-slices.
#[differentiable]
fn two_dots(w: &[f64], x: &[f64]) -> f64 {
    let a = dot(&w[0..2], &x[0..2]);
    let b = dot(&w[2..], &x[2..]);
    a * b
}
