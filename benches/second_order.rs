//! Forward mode and second order: `f_jvp` against `f`, `f_hvp` against `f_grad`, and
//! `f_hessian` against num-dual's `hessian` (second-order dual numbers), on micrograd's README
//! expression, a 10-parameter function, and T4 (`scaling`) at n = 100.
//!
//! `cargo bench --bench second_order -- --warm-up-time 1 --measurement-time 3`
//!
//! Before criterion runs, each contender is checked against another (the Hessians against
//! num-dual's to 1e-9 relative, `f_jvp` against `f_grad · v`) and the ratios the issue sets
//! (JVP ≤ 3x f, HVP ≤ 4x the gradient, Hessian faster than num-dual) are printed from a short
//! timing of their own.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use micrograd_runtime::prelude::*;
use nalgebra::{DVector, SVector};
use num_dual::{Dual2DVec64, Dual2SVec64, DualNum};

/// micrograd's README expression.
#[differentiable(hessian)]
#[allow(clippy::misrefactored_assign_op)]
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

/// Ten parameters: the extended Rosenbrock function with a `tanh` coupling.
#[differentiable(hessian)]
fn rosen10(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2);
        s += (x[i] * x[i + 1]).tanh();
    }
    s
}

fn rosen10_generic<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let mut s = D::from(0.0);
    for i in 0..x.len() - 1 {
        s += (x[i + 1] - x[i] * x[i]).powi(2) * 100.0 + (D::from(1.0) - x[i]).powi(2);
        s += (x[i] * x[i + 1]).tanh();
    }
    s
}

/// T4 `scaling` (benches/tasks/scaling.rs), with its Hessian.
#[differentiable(hessian, wrt(x))]
fn scaling(x: &[f64], w: &[f64]) -> f64 {
    let mut s = (w[0] * x[0]).tanh();
    let mut sum = x[0];
    for i in 1..x.len() {
        s += (w[i] * x[i] + x[i - 1]).tanh();
        sum += x[i];
    }
    s + 0.01 * sum.powi(2)
}

/// `scaling` on num-dual's heap-allocated second-order duals (not `Copy`: at n = 100 a
/// fixed-size one holds 10,100 numbers).
fn scaling_dual(x: &[Dual2DVec64], w: &[f64]) -> Dual2DVec64 {
    let mut s = (x[0].clone() * w[0]).tanh();
    let mut sum = x[0].clone();
    for i in 1..x.len() {
        s += (x[i].clone() * w[i] + x[i - 1].clone()).tanh();
        sum += x[i].clone();
    }
    s + sum.powi(2) * 0.01
}

fn uniform(n: usize, seed: u64) -> Vec<f64> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        })
        .collect()
}

fn rosen10_num_dual(x: &[f64]) -> Vec<f64> {
    let (_, _, h) = num_dual::hessian(
        |p: SVector<Dual2SVec64<10>, 10>| rosen10_generic(p.as_slice()),
        &SVector::from_column_slice(x),
    );
    h.as_slice().to_vec()
}

fn scaling_num_dual(x: &[f64], w: &[f64]) -> Vec<f64> {
    let (_, _, h) = num_dual::hessian(
        |p: DVector<Dual2DVec64>| scaling_dual(p.as_slice(), w),
        &DVector::from_column_slice(x),
    );
    h.as_slice().to_vec()
}

fn assert_close(what: &str, got: &[f64], want: &[f64]) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-9 * g.abs().max(w.abs()).max(1.0),
            "{what}: entry {i} is {g:e}, num-dual says {w:e}"
        );
    }
}

/// Nanoseconds per call of `f`, from as many calls as fit in 300 ms.
fn time(mut f: impl FnMut()) -> f64 {
    let (start, mut calls) = (Instant::now(), 0u64);
    while start.elapsed() < Duration::from_millis(300) {
        f();
        calls += 1;
    }
    start.elapsed().as_nanos() as f64 / calls as f64
}

/// The checks, then the ratios the issue sets, from a short timing of each contender.
fn ratios() {
    let (x10, v10) = (uniform(10, 3), uniform(10, 4));
    let (x, w, v) = (uniform(100, 5), uniform(100, 7), uniform(100, 9));
    let mut h10 = vec![0.0; 100];
    rosen10_hessian(&x10, &mut h10);
    assert_close("rosen10 Hessian", &h10, &rosen10_num_dual(&x10));
    let mut h = vec![0.0; 10_000];
    scaling_hessian(&x, &w, &mut h);
    assert_close("T4 Hessian", &h, &scaling_num_dual(&x, &w));
    let mut d = vec![0.0; 100];
    scaling_grad(&x, &mut d, &w);
    let directional: f64 = d.iter().zip(&v).map(|(d, v)| d * v).sum();
    assert_close("T4 JVP", &[scaling_jvp(&x, &v, &w).1], &[directional]);

    let (a, b) = (-4.0, 2.0);
    let print = |what: &str, ours: f64, theirs: f64, of: &str| {
        println!(
            "{what}: {ours:.0} ns, {of} {theirs:.0} ns, ratio {:.2}",
            ours / theirs
        );
    };
    let f = time(|| {
        black_box(readme(black_box(a), black_box(b)));
    });
    let grad = time(|| {
        black_box(readme_grad(black_box(a), black_box(b)));
    });
    let jvp = time(|| {
        black_box(readme_jvp(black_box(a), 1.0, black_box(b), 0.5));
    });
    let hvp = time(|| {
        black_box(readme_hvp(black_box(a), 1.0, black_box(b), 0.5));
    });
    print("T1 readme JVP / f", jvp, f, "f");
    print("T1 readme HVP / gradient", hvp, grad, "f_grad");
    let mut d10 = vec![0.0; 10];
    let mut hv10 = vec![0.0; 10];
    let f = time(|| {
        black_box(rosen10(black_box(&x10)));
    });
    let grad = time(|| {
        black_box(rosen10_grad(black_box(&x10), &mut d10));
    });
    let jvp = time(|| {
        black_box(rosen10_jvp(black_box(&x10), &v10));
    });
    let hvp = time(|| {
        black_box(rosen10_hvp(black_box(&x10), &v10, &mut hv10));
    });
    print("rosen10 JVP / f", jvp, f, "f");
    print("rosen10 HVP / gradient", hvp, grad, "f_grad");
    let ours = time(|| {
        black_box(rosen10_hessian(black_box(&x10), &mut h10));
    });
    let theirs = time(|| {
        black_box(rosen10_num_dual(black_box(&x10)));
    });
    print("rosen10 Hessian / num-dual", ours, theirs, "num-dual");
    let mut hv = vec![0.0; 100];
    let f = time(|| {
        black_box(scaling(black_box(&x), &w));
    });
    let grad = time(|| {
        black_box(scaling_grad(black_box(&x), &mut d, &w));
    });
    let jvp = time(|| {
        black_box(scaling_jvp(black_box(&x), &v, &w));
    });
    let hvp = time(|| {
        black_box(scaling_hvp(black_box(&x), &v, &mut hv, &w));
    });
    print("T4 n=100 JVP / f", jvp, f, "f");
    print("T4 n=100 HVP / gradient", hvp, grad, "f_grad");
    let ours = time(|| {
        black_box(scaling_hessian(black_box(&x), &w, &mut h));
    });
    let theirs = time(|| {
        black_box(scaling_num_dual(black_box(&x), &w));
    });
    print("T4 n=100 Hessian / num-dual", ours, theirs, "num-dual");
}

fn second_order(c: &mut Criterion) {
    ratios();
    let (x10, v10) = (uniform(10, 3), uniform(10, 4));
    let (x, w) = (uniform(100, 5), uniform(100, 7));
    let mut g = c.benchmark_group("second_order");
    let mut hv10 = vec![0.0; 10];
    g.bench_function("rosen10/jvp", |bench| {
        bench.iter(|| rosen10_jvp(black_box(&x10), &v10))
    });
    g.bench_function("rosen10/hvp", |bench| {
        bench.iter(|| rosen10_hvp(black_box(&x10), &v10, &mut hv10))
    });
    let mut h10 = vec![0.0; 100];
    g.bench_function("rosen10/hessian", |bench| {
        bench.iter(|| rosen10_hessian(black_box(&x10), &mut h10))
    });
    g.bench_function("rosen10/num-dual hessian", |bench| {
        bench.iter(|| rosen10_num_dual(black_box(&x10)))
    });
    let mut h = vec![0.0; 10_000];
    g.bench_function("T4 n=100/hessian", |bench| {
        bench.iter(|| scaling_hessian(black_box(&x), &w, &mut h))
    });
    g.sample_size(10);
    g.bench_function("T4 n=100/num-dual hessian", |bench| {
        bench.iter(|| scaling_num_dual(black_box(&x), &w))
    });
    g.finish();
}

criterion_group!(benches, second_order);
criterion_main!(benches);
