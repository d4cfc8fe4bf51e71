//! Loops whose trip count only a run knows (issue 11): one that records nothing allocates
//! nothing, and one that records grows its tape by doubling, so `n` iterations allocate
//! O(log n) times, none for the first 16 values (the tape's inline buffer).

use allocation_counter::measure;
use micrograd_runtime::prelude::*;
use std::hint::black_box;

/// An accumulation: its reverse reads only the inputs, so nothing is recorded.
#[differentiable]
fn series(x: f64, rate: f64, terms: f64) -> f64 {
    let mut s = 0.0;
    let mut k = 0.0;
    while k < terms {
        s += x * rate - x;
        k += 1.0;
    }
    s
}

/// Overwrites `y` each iteration, whose old value the reverse sweep needs: one record each.
#[differentiable]
fn iterate(x: f64, n: f64) -> f64 {
    let mut y = x;
    let mut k = 0.0;
    while k < n {
        y = (y * 0.9).sin() + 0.1;
        k += 1.0;
    }
    y
}

/// A Newton iteration with `break`: a handful of records, on the inline buffer.
#[differentiable]
fn sqrt_newton(a: f64) -> f64 {
    let mut x = a;
    loop {
        let next = 0.5 * (x + a / x);
        if (next - x).abs() < 1e-12 {
            break;
        }
        x = next;
    }
    x
}

fn allocations<T>(f: impl FnOnce() -> T) -> u64 {
    measure(|| {
        black_box(f());
    })
    .count_total
}

#[test]
fn a_while_that_records_nothing_allocates_nothing() {
    for terms in [0.0, 1.0, 50.0, 10_000.0] {
        let count = allocations(|| series_grad(black_box(0.7), 1.5, black_box(terms)));
        assert_eq!(count, 0, "{terms} terms");
        let (value, d_x, d_rate, _) = series_grad(0.7, 1.5, terms);
        assert_eq!(value, series(0.7, 1.5, terms));
        // Closed form: d/dx = (rate - 1)·terms, d/drate = x·terms (summed term by term).
        assert!((d_x - 0.5 * terms).abs() <= 1e-12 * terms, "{d_x}");
        assert!((d_rate - 0.7 * terms).abs() <= 1e-12 * terms, "{d_rate}");
    }
    assert_eq!(allocations(|| sqrt_newton_grad(black_box(2.0))), 0);
    let (value, d) = sqrt_newton_grad(2.0);
    assert_eq!(value, sqrt_newton(2.0));
    assert!((d - 0.5 / 2.0_f64.sqrt()).abs() < 1e-12, "{d}");
}

#[test]
fn a_recorded_while_allocates_logarithmically_often() {
    assert_eq!(allocations(|| iterate_grad(black_box(0.5), 16.0)), 0);
    assert_eq!(allocations(|| iterate_grad(black_box(0.5), 17.0)), 1);
    for n in [100.0_f64, 1_000.0, 100_000.0] {
        let count = allocations(|| iterate_grad(black_box(0.5), black_box(n)));
        let bound = n.log2().ceil() as u64 + 1;
        assert!(
            (1..=bound).contains(&count),
            "{n} iterations: {count} allocations, more than {bound}"
        );
        assert_eq!(iterate_grad(0.5, n).0, iterate(0.5, n));
    }
}
