//! `f_jacobian` of a function writing its outputs, by the vector forward mode (one sweep per 8
//! columns, `__f_jvp_lanes`), against the one-tangent version it replaced (one `f_jvp` call per
//! column, each running the primal again) and a hand-written Jacobian, on a blend of n = 26
//! inputs (ht's θ) into m = 300 outputs.
//!
//! `cargo bench --bench lanes` (one run; prints the medians' ratios)
//!
//! First asserts that the three Jacobians agree to 1e-12.

use std::hint::black_box;
use std::time::Instant;

use micrograd_runtime::prelude::*;

const N: usize = 26;
const M: usize = 300;

/// `out[i] = tanh(Σₖ b[i][k] sin θₖ θₖ₊₁)`, θ cyclic, the products computed once.
#[differentiable(jacobian, wrt(theta, out))]
fn blend(theta: &[f64], basis: &[f64], out: &mut [f64]) {
    let n = theta.len();
    let mut pair = vec![0.0; n];
    for k in 0..n {
        pair[k] = theta[k].sin() * theta[(k + 1) % n];
    }
    for i in 0..out.len() {
        let mut s = 0.0;
        for k in 0..n {
            s += basis[i * n + k] * pair[k];
        }
        out[i] = s.tanh();
    }
}

/// One `blend_jvp` call per column: what `f_jacobian` did before the lanes.
fn one_tangent(theta: &[f64], basis: &[f64], out: &mut [f64], d_theta: &mut [f64]) {
    let (n, m) = (theta.len(), out.len());
    let mut v_theta = vec![0.0; n];
    let mut v_out = vec![0.0; m];
    for j in 0..n {
        v_theta[j] = 1.0;
        blend_jvp(theta, &v_theta, basis, out, &mut v_out);
        v_theta[j] = 0.0;
        for i in 0..m {
            d_theta[i * n + j] = v_out[i];
        }
    }
}

/// By hand: ∂outᵢ/∂θⱼ = (1 - outᵢ²)(b[i][j] cos θⱼ θⱼ₊₁ + b[i][j-1] sin θⱼ₋₁).
fn hand(theta: &[f64], basis: &[f64], out: &mut [f64], d_theta: &mut [f64]) {
    let n = theta.len();
    let (sin, cos): (Vec<f64>, Vec<f64>) = theta.iter().map(|t| (t.sin(), t.cos())).unzip();
    let pair: Vec<f64> = (0..n).map(|k| sin[k] * theta[(k + 1) % n]).collect();
    for i in 0..out.len() {
        let b = &basis[i * n..(i + 1) * n];
        let mut s = 0.0;
        for k in 0..n {
            s += b[k] * pair[k];
        }
        let y = s.tanh();
        out[i] = y;
        let g = 1.0 - y * y;
        let row = &mut d_theta[i * n..(i + 1) * n];
        for j in 0..n {
            let before = (j + n - 1) % n;
            row[j] = g * (b[j] * cos[j] * theta[(j + 1) % n] + b[before] * sin[before]);
        }
    }
}

/// Median time of `f` over a few hundred calls.
fn median(mut f: impl FnMut()) -> f64 {
    let mut samples: Vec<f64> = (0..101)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..20 {
                f();
            }
            start.elapsed().as_secs_f64() / 20.0
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[50]
}

fn main() {
    let theta: Vec<f64> = (0..N).map(|j| 0.1 * j as f64 - 1.2).collect();
    let basis: Vec<f64> = (0..M * N)
        .map(|k| ((k * 7919) % 101) as f64 / 101.0 - 0.5)
        .collect();
    let mut out = vec![0.0; M];
    let (mut lanes, mut single, mut exact) = (vec![0.0; M * N], vec![0.0; M * N], vec![0.0; M * N]);
    blend_jacobian(&theta, &mut lanes, &basis, &mut out);
    one_tangent(&theta, &basis, &mut out, &mut single);
    hand(&theta, &basis, &mut out, &mut exact);
    for (k, e) in exact.iter().enumerate() {
        let scale = e.abs().max(1.0);
        assert!((lanes[k] - e).abs() <= 1e-12 * scale, "lanes at {k}");
        assert!((single[k] - e).abs() <= 1e-12 * scale, "one tangent at {k}");
    }
    let primal = median(|| blend(black_box(&theta), &basis, &mut out));
    let lanes = median(|| blend_jacobian(black_box(&theta), &mut lanes, &basis, &mut out));
    let single = median(|| one_tangent(black_box(&theta), &basis, &mut out, &mut single));
    let exact = median(|| hand(black_box(&theta), &basis, &mut out, &mut exact));
    println!("blend {M} x {N}: primal {:.1} us", primal * 1e6);
    for (name, time) in [("lanes", lanes), ("one tangent", single), ("hand", exact)] {
        println!(
            "{name}: {:.1} us, {:.2}x the primal, {:.2}x hand",
            time * 1e6,
            time / primal,
            time / exact
        );
    }
}
