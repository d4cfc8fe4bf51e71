//! The Jacobian of a 10-output residual: `f_jacobian` against num-dual's `jacobian` (forward
//! mode on `DualSVec64<3>`), a hand-written Jacobian, and the residual itself.
//!
//! `cargo bench --bench jacobian -- --warm-up-time 1 --measurement-time 3`
//!
//! Two forms of the same residual `rᵢ = a e^(-b tᵢ) + c - yᵢ`: filled by a loop and as an array
//! literal; with 3 inputs and 10 outputs, both are forward mode (one sweep, three columns).
//! First asserts that every Jacobian agrees with the hand-written one to 1e-12, then prints the
//! medians' ratios.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use micrograd_runtime::prelude::*;
use nalgebra::SVector;
use num_dual::{DualNum, DualSVec64};

const T: [f64; 10] = [0.0, 0.3, 0.6, 0.9, 1.2, 1.5, 1.8, 2.1, 2.4, 2.7];
const Y: [f64; 10] = [2.5, 2.1, 1.8, 1.5, 1.3, 1.1, 0.9, 0.8, 0.7, 0.6];
const P: [f64; 3] = [2.0, 0.8, 0.5];

#[differentiable(jacobian, wrt(a, b, c))]
fn looped(a: f64, b: f64, c: f64, t: &[f64; 10], y: &[f64; 10]) -> [f64; 10] {
    let mut r = [0.0; 10];
    for i in 0..10 {
        r[i] = a * (-b * t[i]).exp() + c - y[i];
    }
    r
}

#[differentiable(jacobian, wrt(a, b, c))]
fn literal(a: f64, b: f64, c: f64, t: &[f64; 10], y: &[f64; 10]) -> [f64; 10] {
    [
        a * (-b * t[0]).exp() + c - y[0],
        a * (-b * t[1]).exp() + c - y[1],
        a * (-b * t[2]).exp() + c - y[2],
        a * (-b * t[3]).exp() + c - y[3],
        a * (-b * t[4]).exp() + c - y[4],
        a * (-b * t[5]).exp() + c - y[5],
        a * (-b * t[6]).exp() + c - y[6],
        a * (-b * t[7]).exp() + c - y[7],
        a * (-b * t[8]).exp() + c - y[8],
        a * (-b * t[9]).exp() + c - y[9],
    ]
}

/// The residual, generic over num-dual's numbers.
fn generic<D: DualNum<Primitive = f64> + Copy>(p: [D; 3], t: &[f64; 10], y: &[f64; 10]) -> [D; 10] {
    std::array::from_fn(|i| p[0] * (-p[1] * t[i]).exp() + p[2] - y[i])
}

fn num_dual(p: [f64; 3]) -> (SVector<f64, 10>, nalgebra::SMatrix<f64, 10, 3>) {
    num_dual::jacobian(
        |x: SVector<DualSVec64<3>, 3>| SVector::from(generic([x[0], x[1], x[2]], &T, &Y)),
        &SVector::from(p),
    )
}

/// By hand: ∂rᵢ/∂(a, b, c) = (e, -a tᵢ e, 1) with e = e^(-b tᵢ).
fn hand(p: [f64; 3]) -> ([f64; 10], [[f64; 3]; 10]) {
    let mut r = [0.0; 10];
    let mut jacobian = [[0.0; 3]; 10];
    for i in 0..10 {
        let e = (-p[1] * T[i]).exp();
        r[i] = p[0] * e + p[2] - Y[i];
        jacobian[i] = [e, -p[0] * T[i] * e, 1.0];
    }
    (r, jacobian)
}

fn check() {
    let (_, exact) = hand(P);
    let (_, dual) = num_dual(P);
    for (name, (_, jacobian)) in [
        ("looped", looped_jacobian(P[0], P[1], P[2], &T, &Y)),
        ("literal", literal_jacobian(P[0], P[1], P[2], &T, &Y)),
    ] {
        for i in 0..10 {
            for j in 0..3 {
                let scale = exact[i][j].abs().max(1.0);
                assert!(
                    (jacobian[i][j] - exact[i][j]).abs() <= 1e-12 * scale,
                    "{name}"
                );
                assert!(
                    (dual[(i, j)] - exact[i][j]).abs() <= 1e-12 * scale,
                    "num-dual"
                );
            }
        }
    }
}

/// Median time of `f` over a few thousand calls, for the printed ratios.
fn median(mut f: impl FnMut()) -> f64 {
    let mut samples: Vec<f64> = (0..201)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..2000 {
                f();
            }
            start.elapsed().as_secs_f64() / 2000.0
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[100]
}

fn jacobian(c: &mut Criterion) {
    check();
    let mut g = c.benchmark_group("jacobian_10x3");
    let p = P;
    g.bench_function("residual", |b| {
        b.iter(|| looped(black_box(p[0]), black_box(p[1]), p[2], &T, &Y))
    });
    g.bench_function("hand", |b| b.iter(|| hand(black_box(p))));
    g.bench_function("generated_loop", |b| {
        b.iter(|| looped_jacobian(black_box(p[0]), black_box(p[1]), p[2], &T, &Y))
    });
    g.bench_function("generated_literal", |b| {
        b.iter(|| literal_jacobian(black_box(p[0]), black_box(p[1]), p[2], &T, &Y))
    });
    g.bench_function("num-dual", |b| b.iter(|| num_dual(black_box(p))));
    g.finish();
    let dual = median(|| {
        black_box(num_dual(black_box(p)));
    });
    for (name, time) in [
        (
            "residual",
            median(|| {
                black_box(looped(black_box(p[0]), p[1], p[2], &T, &Y));
            }),
        ),
        (
            "hand",
            median(|| {
                black_box(hand(black_box(p)));
            }),
        ),
        (
            "generated_loop",
            median(|| {
                black_box(looped_jacobian(black_box(p[0]), p[1], p[2], &T, &Y));
            }),
        ),
        (
            "generated_literal",
            median(|| {
                black_box(literal_jacobian(black_box(p[0]), p[1], p[2], &T, &Y));
            }),
        ),
    ] {
        println!(
            "{name}: {:.1} ns, num-dual {:.1} ns, num-dual / {name} = {:.2}",
            time * 1e9,
            dual * 1e9,
            dual / time
        );
    }
}

criterion_group!(benches, jacobian);
criterion_main!(benches);
