//! Integer operators and methods used for indexing and bookkeeping, never differentiated and
//! printed as written: a determinant by expansion of minors whose removed columns are a bitmask
//! (`removed & (1 << j) == 0`, `removed | (1 << j)`, recursion), against the closed-form 3x3
//! determinant's gradient (the cofactor matrix) and central differences; and `^`, `>>`, `pow`,
//! `max`, `min`, `abs`, `unsigned_abs`, `rem_euclid`, `saturating_sub`, `is_multiple_of` picking entries, in
//! every flavour.

use crate::common;

use common::{assert_gradient, assert_near};
use micrograd_runtime::prelude::*;

/// The minor of the rows from `row` on and the columns not in `removed`, of the `n x n`
/// row-major matrix `a`, expanded along its first row.
#[differentiable(hessian)]
fn minor(a: &[f64], n: usize, removed: usize, row: usize) -> f64 {
    if row == n {
        return 1.0;
    }
    let mut s = 0.0;
    let mut sign = 1.0;
    for j in 0..n {
        if removed & (1 << j) == 0 {
            s += sign * a[row * n + j] * minor(a, n, removed | (1 << j), row + 1);
            sign = -sign;
        }
    }
    s
}

#[differentiable(hessian)]
fn det(a: &[f64], n: usize) -> f64 {
    minor(a, n, 0, 0)
}

/// The cofactor matrix of a 3x3 matrix: the gradient of its determinant.
fn cofactors(a: &[f64]) -> [f64; 9] {
    let m = |i: usize, j: usize| a[3 * i + j];
    let mut c = [0.0; 9];
    for i in 0..3 {
        for j in 0..3 {
            let (r0, r1) = ((i + 1) % 3, (i + 2) % 3);
            let (c0, c1) = ((j + 1) % 3, (j + 2) % 3);
            c[3 * i + j] = m(r0, c0) * m(r1, c1) - m(r0, c1) * m(r1, c0);
        }
    }
    c
}

fn det3(a: &[f64]) -> f64 {
    a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6])
        + a[2] * (a[3] * a[7] - a[4] * a[6])
}

/// Entries picked by the other operators and methods.
#[differentiable(hessian)]
fn picks(w: &[f64], k: usize, m: i32) -> f64 {
    let n = w.len();
    let mut s = 0.0;
    for i in 0..n {
        let j = (i ^ k) % n;
        let h = (i >> 1).max(k.min(2));
        let p = 2usize.pow(i as u32) % n;
        let back = i.saturating_sub(3);
        let e = (m - i as i32).rem_euclid(n as i32) as usize;
        let d = (m - i as i32).unsigned_abs() as usize % n;
        let d = ((d as i32 - 3).abs() % 5) as usize % n;
        if i.is_multiple_of(2) {
            s += w[j] * w[h % n];
        } else {
            s += w[p] * w[back] - w[e] * w[d];
        }
    }
    s
}

fn picks_plain(w: &[f64], k: usize, m: i32) -> f64 {
    picks(w, k, m)
}

#[test]
fn a_3x3_determinant_by_minors_has_the_cofactors_as_gradient() {
    let a = [2.0, -1.0, 0.5, 0.3, 1.5, -2.0, 1.0, 0.25, 3.0];
    assert_near("det", det(&a, 3), det3(&a), 1e-12);
    let mut d = [0.0; 9];
    let value = det_grad(&a, &mut d, 3);
    assert_eq!(value, det(&a, 3));
    for (i, (d, c)) in d.iter().zip(cofactors(&a)).enumerate() {
        assert_near(&format!("d det / d a[{i}]"), *d, c, 1e-12);
    }
    let v: Vec<f64> = (0..9).map(|i| 0.5 - 0.1 * i as f64).collect();
    let (at, dot) = det_jvp(&a, &v, 3);
    assert_eq!(at, value);
    let expected: f64 = cofactors(&a).iter().zip(&v).map(|(c, v)| c * v).sum();
    assert_near("det_jvp", dot, expected, 1e-12);
}

#[test]
fn a_4x4_determinant_by_minors_against_central_differences() {
    let a = [
        2.0, -1.0, 0.5, 0.3, 1.5, -2.0, 1.0, 0.25, 3.0, 0.7, -0.4, 1.1, 0.2, 0.9, -1.3, 2.2,
    ];
    let mut d = [0.0; 16];
    let value = det_grad(&a, &mut d, 4);
    assert_eq!(value, det(&a, 4));
    assert_gradient("det 4x4", |p| det(p, 4), &a, &d);
    let mut hess = vec![0.0; 256];
    assert_eq!(det_hessian(&a, 4, &mut hess), value);
    for j in 0..16 {
        let row = |p: &[f64]| {
            let mut d = [0.0; 16];
            det_grad(p, &mut d, 4);
            d[j]
        };
        assert_gradient(
            &format!("det hessian row {j}"),
            row,
            &a,
            &hess[16 * j..][..16],
        );
    }
}

#[test]
fn integer_methods_and_operators_pick_entries() {
    let w = [0.5, -1.25, 2.0, 0.75, -0.3, 1.1, 0.9];
    for (k, m) in [(0, 0), (3, -2), (5, 9)] {
        let mut d = [0.0; 7];
        let value = picks_grad(&w, &mut d, k, m);
        assert_eq!(value, picks(&w, k, m));
        assert_gradient("picks", |p| picks_plain(p, k, m), &w, &d);
        let v = [0.3, -0.2, 0.1, 0.5, -0.4, 0.25, 0.6];
        let (at, dot) = picks_jvp(&w, &v, k, m);
        assert_eq!(at, value);
        let expected: f64 = d.iter().zip(v).map(|(d, v)| d * v).sum();
        assert_near("picks_jvp", dot, expected, 1e-12);
    }
}
