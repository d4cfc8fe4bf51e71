//! `f_jacobian` and `f_jvp` over matrices (issue 24): a sized `m: &[[f64; 2]; R]` (R = 0, 1 and
//! 3 rows, const generic) listed in `wrt(..)` beside a slice, returning `[f64; 2]`, with a
//! local matrix inside: the Jacobian against central differences of `f`, `f_jvp` against it,
//! at points on both sides of the branch, the value bit for bit `f`'s. And `f_jvp` of a
//! function writing its outputs into `out: &mut [f64]` from rows `a: &[[f64; 2]]` (0, 1, 3
//! rows) against central differences of `f` along the direction (its `f_jacobian` refuses
//! rows: `unit_output_jacobian_wrt`).

use crate::common;

use common::{assert_near, assert_partial};
use micrograd_runtime::prelude::*;

/// Rows of `m x` through a leaky kink, summed two ways, and a local matrix of the inputs.
#[differentiable(jvp, jacobian, wrt(m, x))]
fn mv<const R: usize>(m: &[[f64; 2]; R], x: &[f64]) -> [f64; 2] {
    let mut y = [0.0, 0.0];
    for i in 0..m.len() {
        let z = m[i][0] * x[0] + m[i][1] * x[1];
        let act = if z > 0.0 { z } else { 0.1 * z };
        y[0] += act;
        y[1] += act * m[i][1] * x[0];
    }
    let l = [[x[0], 1.0], [m.len() as f64, x[1]]];
    y[1] += l[0][0] * l[1][1] * l[1][0];
    y
}

/// Writes one output per row of `a`, and their sum scaled by `t` last.
#[differentiable(jvp, wrt(a, t, out))]
fn rows_out(a: &[[f64; 2]], t: f64, out: &mut [f64]) {
    let mut s = 0.0;
    for i in 0..a.len() {
        out[i] = a[i][0] * a[i][1].sin() + t;
        s += out[i];
    }
    out[a.len()] = s * t;
}

fn matrix<const R: usize>(p: &[f64]) -> [[f64; 2]; R] {
    std::array::from_fn(|i| [p[2 * i], p[2 * i + 1]])
}

/// Central differences of output `k` of `f` at `point`, one partial per coordinate, checked
/// against `row`.
fn check_row(name: &str, f: impl Fn(&[f64]) -> f64, point: &[f64], row: &[f64]) {
    for (j, &partial) in row.iter().enumerate() {
        assert_partial(name, &f, point, j, partial);
    }
}

fn check_mv<const R: usize>(m: [[f64; 2]; R], x: [f64; 2]) {
    let n = 2 * R;
    let point: Vec<f64> = m.as_flattened().iter().chain(&x).copied().collect();
    let mut d_m = vec![[0.0; 2]; 2 * R];
    let mut d_x = [0.0; 4];
    let (value, _) = mv_jacobian(&m, &mut d_m, &x, &mut d_x);
    assert_eq!(value, mv(&m, &x), "mv_jacobian's value is f's");
    let d_m = d_m.as_flattened();
    for k in 0..2 {
        let f = |p: &[f64]| mv(&matrix::<R>(&p[..n]), &p[n..])[k];
        let row: Vec<f64> = d_m[k * n..(k + 1) * n]
            .iter()
            .chain(&d_x[k * 2..k * 2 + 2])
            .copied()
            .collect();
        check_row("mv_jacobian", f, &point, &row);
    }
    // J v against f_jvp along a direction of every coordinate.
    let v: Vec<f64> = (0..point.len()).map(|i| 0.6 - 0.35 * i as f64).collect();
    let (value, tangent) = mv_jvp(&m, &matrix::<R>(&v[..n]), &x, &v[n..]);
    assert_eq!(value, mv(&m, &x), "mv_jvp's value is f's");
    for k in 0..2 {
        let jv: f64 = (0..n).map(|j| d_m[k * n + j] * v[j]).sum::<f64>()
            + d_x[k * 2] * v[n]
            + d_x[k * 2 + 1] * v[n + 1];
        assert_near("mv_jvp", tangent[k], jv, 1e-12);
    }
}

#[test]
fn jacobian_of_a_sized_matrix_by_reference() {
    // z of row 0 above zero at x = (0.9, 0.4), row 1 below; x = (-0.5, 1.2) swaps them.
    let m3 = [[0.5, 1.2], [-1.3, 0.4], [0.8, -0.6]];
    for x in [[0.9, 0.4], [-0.5, 1.2]] {
        check_mv(m3, x);
        check_mv([m3[1]], x);
        check_mv::<0>([], x);
    }
}

#[test]
fn jvp_of_rows_writing_outputs() {
    for rows in [0, 1, 3] {
        let a: Vec<[f64; 2]> = (0..rows)
            .map(|i| [0.4 + 0.3 * i as f64, -0.7 + 0.5 * i as f64])
            .collect();
        let t = 1.3;
        let m = rows + 1;
        let n = 2 * rows;
        let point: Vec<f64> = a.as_flattened().iter().copied().chain([t]).collect();
        let v: Vec<f64> = (0..point.len()).map(|i| 0.8 - 0.3 * i as f64).collect();
        let v_a: Vec<[f64; 2]> = v[..n].chunks(2).map(|c| [c[0], c[1]]).collect();
        let mut out = vec![0.0; m];
        let mut v_out = vec![0.0; m];
        rows_out_jvp(&a, &v_a, t, v[n], &mut out, &mut v_out);
        let mut expected = vec![0.0; m];
        rows_out(&a, t, &mut expected);
        assert_eq!(out, expected, "rows_out_jvp writes the outputs as f does");
        for k in 0..m {
            // The directional derivative of output k: f along the line point + s v at s = 0.
            let along = |s: &[f64]| {
                let p: Vec<f64> = point.iter().zip(&v).map(|(p, d)| p + s[0] * d).collect();
                let a: Vec<[f64; 2]> = p[..n].chunks(2).map(|c| [c[0], c[1]]).collect();
                let mut out = vec![0.0; m];
                rows_out(&a, p[n], &mut out);
                out[k]
            };
            assert_partial("rows_out_jvp", along, &[0.0], 0, v_out[k]);
        }
    }
}
