//! `det`: the determinant by expansion of minors (cmpad's `det_by_minor`), and its gradient.

use super::{Evaluated, done, parse, unknown};
use crate::timing::{Runs, repeat};
use micrograd_runtime::prelude::*;
use serde::Deserialize;
use serde_json::Value;

/// The eval's input: the matrix, row-major, its edge, and how many runs to time.
#[derive(Debug, Deserialize)]
pub struct Input {
    /// The matrix A, row-major.
    #[serde(rename = "A")]
    pub a: Vec<f64>,
    /// The edge ℓ of A, which is ℓ × ℓ.
    pub ell: usize,
    /// How many runs to time.
    #[serde(flatten)]
    pub runs: Runs,
}

/// The determinant of the minor of the `ell × ell` matrix `a` (row-major) made of its rows
/// `row..ell` and the columns whose bit is clear in `removed`, expanded along its first row.
///
/// The bit of column `j` is read as `removed / 2ʲ % 2`: the macro refuses the bitwise `&` and
/// `|` (`removed & (1 << j) == 0`, `removed | (1 << j)`), so the mask is written in arithmetic,
/// and integer methods (`is_multiple_of`, which clippy prefers to `% 2 == 0`).
#[differentiable]
#[allow(clippy::manual_is_multiple_of)]
pub fn det_of_minor(a: &[f64], ell: usize, row: usize, removed: usize) -> f64 {
    if row + 3 == ell {
        // the last three rows: the 3 × 3 determinant of the three columns left, written out
        let (mut first, mut second, mut third) = (ell, ell, ell);
        let mut bit = 1;
        for j in 0..ell {
            if removed / bit % 2 == 0 {
                if first == ell {
                    first = j;
                } else if second == ell {
                    second = j;
                } else {
                    third = j;
                }
            }
            bit *= 2;
        }
        let (r0, r1, r2) = (row * ell, (row + 1) * ell, (row + 2) * ell);
        let minor_23 = a[r1 + second] * a[r2 + third] - a[r1 + third] * a[r2 + second];
        let minor_13 = a[r1 + first] * a[r2 + third] - a[r1 + third] * a[r2 + first];
        let minor_12 = a[r1 + first] * a[r2 + second] - a[r1 + second] * a[r2 + first];
        return a[r0 + first] * minor_23 - a[r0 + second] * minor_13 + a[r0 + third] * minor_12;
    }
    let mut det = 0.0;
    let mut sign = 1.0;
    let mut bit = 1;
    for j in 0..ell {
        if removed / bit % 2 == 0 {
            let entry = a[row * ell + j];
            if row + 1 == ell {
                return entry;
            }
            det += sign * entry * det_of_minor(a, ell, row + 1, removed + bit);
            sign = -sign;
        }
        bit *= 2;
    }
    det
}

/// The determinant of the `ell × ell` matrix `a`, row-major.
#[differentiable]
pub fn det(a: &[f64], ell: usize) -> f64 {
    det_of_minor(a, ell, 0, 0)
}

/// `primal` (the determinant) or `gradient` (from `det_grad`, row-major) at `input`.
pub fn evaluate(function: &str, input: Value) -> Result<Evaluated, String> {
    let Input { a, ell, runs } = parse(input)?;
    if a.len() != ell * ell || ell >= usize::BITS as usize {
        return Err(format!("A has {} entries, ell is {ell}", a.len()));
    }
    match function {
        "primal" => {
            let (value, timings) = repeat(runs, || det(&a, ell));
            done(value, timings)
        }
        "gradient" => {
            let mut d_a = vec![0.0; a.len()];
            let (_, timings) = repeat(runs, || {
                d_a.fill(0.0);
                det_grad(&a, &mut d_a, ell)
            });
            done(d_a, timings)
        }
        _ => unknown("det", function),
    }
}
