//! What a function generic over `T: Float` costs against the same function written for `f64`:
//! the generated code's constants are `T::from(c).unwrap()`, `T::zero()` and `T::one()`, which
//! LLVM should fold to the constants at `f64`. Runs one contender's `f_grad` `n` times, for
//! instruction counts (BENCHMARKS.md, "Generic floats"):
//!
//! `valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/generic_cost generic 100000`
//!
//! Contenders: `generic` (`wave::<f64>`), `f64` (its `f64` twin), `generic32` (`wave::<f32>`),
//! `f32` (its `f32` twin), and `none` (the set-up alone, to subtract).

use micrograd_runtime::num_traits::{Float, FloatConst};
use micrograd_runtime::prelude::*;
use std::hint::black_box;

/// A loop with literals, a `FloatConst` constant, an integer cast and a recorded value.
#[differentiable]
fn wave<T: Float + FloatConst>(x: &[T], a: T) -> T {
    let mut s = T::zero();
    for i in 0..x.len() {
        let k = T::from(i).unwrap() * T::from(0.25).unwrap();
        let y = (T::PI() * x[i] + k).sin() * a;
        s = s + T::from(0.5).unwrap() * y * y + T::from(100.0).unwrap() * (x[i] - T::one()).powi(2);
    }
    s / T::from(x.len()).unwrap()
}

/// `wave` written for `f64`.
#[differentiable]
fn wave64(x: &[f64], a: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let k = i as f64 * 0.25;
        let y = (std::f64::consts::PI * x[i] + k).sin() * a;
        s = s + 0.5 * y * y + 100.0 * (x[i] - 1.0).powi(2);
    }
    s / x.len() as f64
}

/// `wave` written for `f32`.
#[differentiable]
fn wave32(x: &[f32], a: f32) -> f32 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let k = i as f32 * 0.25;
        let y = (std::f32::consts::PI * x[i] + k).sin() * a;
        s = s + 0.5 * y * y + 100.0 * (x[i] - 1.0).powi(2);
    }
    s / x.len() as f32
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, what, n] = args.as_slice() else {
        panic!("usage: generic_cost CONTENDER N");
    };
    let n: usize = n.parse().expect("N is a number of calls");
    let x: Vec<f64> = (0..16).map(|i| 0.1 * i as f64 - 0.7).collect();
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let (mut d_x, mut d_x32) = (vec![0.0; 16], vec![0.0_f32; 16]);
    let mut total = 0.0;
    for _ in 0..n {
        total += match what.as_str() {
            "generic" => wave_grad(black_box(&x), &mut d_x, black_box(0.8)).1,
            "f64" => wave64_grad(black_box(&x), &mut d_x, black_box(0.8)).1,
            "generic32" => f64::from(wave_grad(black_box(&x32), &mut d_x32, black_box(0.8)).1),
            "f32" => f64::from(wave32_grad(black_box(&x32), &mut d_x32, black_box(0.8)).1),
            "none" => black_box(0.0),
            other => panic!("unknown contender {other}"),
        };
    }
    // The same gradient either way, to the bit at f64.
    let (g, h) = (
        wave_grad(&x, &mut d_x, 0.8),
        wave64_grad(&x, &mut [0.0; 16], 0.8),
    );
    assert_eq!(g.0.to_bits(), h.0.to_bits());
    println!(
        "{total} {}",
        d_x.iter().chain(&[0.0]).sum::<f64>() + f64::from(d_x32[0])
    );
}
