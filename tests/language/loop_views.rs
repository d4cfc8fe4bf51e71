//! Reads of `w[c + i]` in a loop over `i`, with `c` the same in every iteration, which the
//! generated code takes through a sub-slice once per loop (`emit/views.rs`): chunks at
//! `j * d + i`, a start other than 0 (`a..b`), `i - 1` from 1, an add into the shadow at the
//! same index; loops that run no iteration at an offset past the end (no panic, as `f`), and
//! an offset past the end where `f` panics (`f_grad` too). Against central differences of `f`.

use crate::common;

use common::{assert_gradient, assert_near, check_slice};
use micrograd_runtime::prelude::*;

/// Σⱼ Σᵢ (xⱼᵢ - wⱼᵢ)² wⱼᵢ over `k` chunks of `d`, plus a window `a..b` of each chunk and a
/// product of neighbours `wⱼᵢ wⱼ,ᵢ₋₁` from 1.
#[differentiable(jvp)]
fn chunked(w: &[f64], x: &[f64], k: usize, d: usize, a: usize, b: usize) -> f64 {
    let mut s = 0.0;
    for j in 0..k {
        for i in 0..d {
            let e = x[j * d + i] - w[j * d + i];
            s += e * e * w[j * d + i];
        }
        for i in a..b {
            s += (w[j * d + i] * 0.5).sin();
        }
    }
    for i in 1..w.len() {
        s += w[i] * w[i - 1];
    }
    s
}

/// Σᵢ w[from + i]² for i < n: runs no iteration when n is 0, whatever `from`.
#[differentiable]
fn window(w: &[f64], from: usize, n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        s += w[from + i] * w[from + i];
    }
    s
}

const W: [f64; 7] = [0.7, -1.3, 0.4, 2.2, -0.6, 1.1, 0.9];
const X: [f64; 7] = [0.2, 0.5, -0.8, 1.7, 0.3, -1.1, 0.6];

#[test]
fn chunks_windows_and_neighbours_against_differences() {
    for (k, d, a, b) in [
        (3, 2, 0, 2),
        (2, 3, 1, 3),
        (1, 7, 2, 5),
        (0, 3, 0, 3),
        (2, 3, 2, 2),
    ] {
        check_slice(
            "chunked",
            |w| chunked(w, &X, k, d, a, b),
            |w, d_w| {
                let mut d_x = [0.0; 7];
                chunked_grad(w, d_w, &X, &mut d_x, k, d, a, b)
            },
            &W,
        );
        // The tangent along x, against central differences of f in x.
        let v = [1.0, -0.5, 0.25, 2.0, -1.0, 0.5, 0.75];
        let (value, tangent) = chunked_jvp(&W, &[0.0; 7], &X, &v, k, d, a, b);
        assert_eq!(value.to_bits(), chunked(&W, &X, k, d, a, b).to_bits());
        let h = 1e-6;
        let at = |t: f64| {
            let x: Vec<f64> = X.iter().zip(&v).map(|(x, v)| x + t * v).collect();
            chunked(&W, &x, k, d, a, b)
        };
        let reference = (at(h) - at(-h)) / (2.0 * h);
        assert_near("chunked_jvp", tangent, reference, 1e-6);
    }
}

#[test]
fn no_iteration_at_an_offset_past_the_end() {
    for (from, n) in [(0, 7), (2, 3), (7, 0), (100, 0)] {
        let mut d_w = [0.0; 7];
        let value = window_grad(&W, &mut d_w, from, n);
        assert_eq!(value.to_bits(), window(&W, from, n).to_bits());
        assert_gradient("window", |w| window(w, from, n), &W, &d_w);
    }
}

#[test]
#[should_panic]
fn f_panics_at_an_offset_past_the_end() {
    window(&W, 5, 3);
}

#[test]
#[should_panic]
fn and_so_does_its_gradient() {
    let mut d_w = [0.0; 7];
    window_grad(&W, &mut d_w, 5, 3);
}

/// A stage of Runge-Kutta's kind: each step reads `y[i - 1]` into `k` and then overwrites `y`,
/// so the reversed steps need the values read, which the tape holds (one copy of the view per
/// stage, `emit/loops.rs`).
#[differentiable]
fn stages(x: &[f64], s: usize, y: &mut [f64]) -> f64 {
    let n = x.len();
    let mut k = vec![0.0; n];
    for _ in 0..s {
        for i in 1..n {
            k[i] = x[i] * y[i - 1];
        }
        for i in 1..n {
            y[i] += 0.1 * k[i] * k[i];
        }
    }
    y[n - 1]
}

#[test]
fn stages_recorded_by_copies_against_differences() {
    let y0 = [0.3, -0.2, 0.5, 0.1, 0.8, -0.4, 0.6];
    for (s, n) in [(0, 7), (1, 7), (3, 7), (3, 1)] {
        let x = &X[..n];
        let mut y = y0[..n].to_vec();
        let (mut d_x, mut d_y) = (vec![0.0; n], vec![0.0; n]);
        let value = stages_grad(x, &mut d_x, s, &mut y, &mut d_y);
        let mut y_f = y0[..n].to_vec();
        assert_eq!(value.to_bits(), stages(x, s, &mut y_f).to_bits());
        assert_eq!(y, y_f, "stages_grad writes y as stages does");
        let point: Vec<f64> = x.iter().chain(&y0[..n]).copied().collect();
        let f = |p: &[f64]| stages(&p[..n], s, &mut p[n..].to_vec());
        let gradient: Vec<f64> = d_x.iter().chain(&d_y).copied().collect();
        assert_gradient("stages", f, &point, &gradient);
    }
}

/// A state replaced whole at each step, read at `h[j]` in a loop that records it and nothing
/// else: recorded as one copy of `h` per step.
#[differentiable]
fn state(x: &[f64], w: f64) -> f64 {
    let mut h = [0.0; 2];
    let mut spare = [1.0; 2];
    for t in 0..x.len() {
        let mut h_new = [0.0; 2];
        for j in 0..2 {
            h_new[j] = (w * h[j] + x[t]).tanh();
        }
        h = h_new;
        std::mem::swap(&mut h, &mut spare);
    }
    h[0] + spare[1]
}

#[test]
fn state_recorded_whole_against_differences() {
    for n in [0, 1, 4, 7] {
        let x = &X[..n];
        for w in [0.8, -1.2] {
            let mut d_x = vec![0.0; n];
            let (value, d_w) = state_grad(x, &mut d_x, w);
            assert_eq!(value.to_bits(), state(x, w).to_bits());
            let point: Vec<f64> = x.iter().copied().chain([w]).collect();
            let gradient: Vec<f64> = d_x.iter().copied().chain([d_w]).collect();
            assert_gradient("state", |p| state(&p[..n], p[n]), &point, &gradient);
        }
    }
}
