//! Issue 24's passive data, re-checked in every flavour at once: `&[usize]`, `&[(f64, f64)]`,
//! `&[[f64; 3]]`, `&[Vec<f64>]`, `&str`, `Option<f64>` and a user struct without the derive
//! (by value), left out of `wrt(..)`, read as `f` reads them (`pts[i][0]`,
//! `for &(x, y) in data`, `labels[i]` as an index and in a `match`, `for &k in idx`,
//! `for &v in row`, `s.len()`), through `f_grad`, `f_pullback`, `f_jvp`, `f_hvp`, `f_hessian`
//! and `f_jacobian`: against central differences and num-dual on a generic twin, the values bit
//! for bit `f`'s, with 0, 1 and many rows, at points that cross the branch.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

/// Settings without `#[derive(Differentiable)]`, passed by value to a helper.
#[allow(dead_code)] // `note` is never read: data passes through as it is
#[derive(Clone, Debug)]
pub struct Plain {
    /// Unread by the functions: data passes through as it is.
    pub note: String,
}

#[differentiable(hvp, hessian)]
fn helper(x: f64, _plain: Plain) -> f64 {
    x * x
}

/// Every type and read at once; `o` and `plain` pass through (a `match` on an `Option` is
/// outside the language, below).
#[differentiable(hvp, hessian, wrt(w))]
#[allow(clippy::too_many_arguments)]
fn passive(
    w: &[f64],
    idx: &[usize],
    pairs: &[(f64, f64)],
    pts: &[[f64; 3]],
    rows: &[Vec<f64>],
    labels: &[usize],
    s: &str,
    _o: Option<f64>,
    plain: Plain,
) -> f64 {
    let mut acc = helper(w[2], plain);
    for i in 0..pts.len() {
        acc += w[labels[i]] * pts[i][0];
        acc += match labels[i] {
            0 => w[0] * pts[i][2],
            1 => w[1] * w[1],
            _ => pts[i][1] * w[2].sin(),
        };
    }
    for &(x, y) in pairs {
        let z = w[0] * x + y * w[1];
        acc += if z > 0.0 { z * z } else { -z };
    }
    for &k in idx {
        acc += w[k] * w[k] * w[0];
    }
    for row in rows {
        for &v in row {
            acc += v * w[2];
        }
    }
    acc + s.len() as f64 * w[1]
}

#[allow(clippy::too_many_arguments)]
fn passive_twin<D: DualNum<Primitive = f64> + Copy>(
    w: &[D],
    idx: &[usize],
    pairs: &[(f64, f64)],
    pts: &[[f64; 3]],
    rows: &[Vec<f64>],
    labels: &[usize],
    s: &str,
) -> D {
    let mut acc = w[2] * w[2];
    for i in 0..pts.len() {
        acc += w[labels[i]] * pts[i][0];
        acc += match labels[i] {
            0 => w[0] * pts[i][2],
            1 => w[1] * w[1],
            _ => w[2].sin() * pts[i][1],
        };
    }
    for &(x, y) in pairs {
        let z = w[0] * x + w[1] * y;
        acc += if z.re() > 0.0 { z * z } else { -z };
    }
    for &k in idx {
        acc += w[k] * w[k] * w[0];
    }
    for row in rows {
        for &v in row {
            acc += w[2] * v;
        }
    }
    acc + w[1] * (s.len() as f64)
}

const IDX: [usize; 3] = [2, 0, 2];
const PAIRS: [(f64, f64); 3] = [(1.0, 2.0), (-0.5, 0.3), (-2.0, -1.5)];
const PTS: [[f64; 3]; 4] = [
    [1.0, 2.0, 3.0],
    [0.1, -0.2, 0.3],
    [1.0, 1.0, -1.0],
    [0.5, 0.7, 0.2],
];
const LABELS: [usize; 4] = [0, 1, 2, 1];

fn plain() -> Plain {
    Plain {
        note: "data".to_string(),
    }
}

#[test]
fn passive_data_of_every_type_in_every_flavour() {
    let rows_all = [vec![1.0], vec![], vec![2.0, 3.0], vec![-0.5]];
    for n in [0, 1, 3] {
        let (idx, pairs, pts) = (&IDX[..n], &PAIRS[..n], &PTS[..n]);
        let (rows, labels) = (&rows_all[..n], &LABELS[..n]);
        for w in [[0.5, -1.0, 2.0], [-0.8, 0.3, -0.4]] {
            let f = |p: &[f64]| passive(p, idx, pairs, pts, rows, labels, "abc", None, plain());
            let twin = |q: &[Dual64]| passive_twin(q, idx, pairs, pts, rows, labels, "abc");
            let hyper = |q: &[HyperDual64]| passive_twin(q, idx, pairs, pts, rows, labels, "abc");
            let value_f = f(&w);
            // f_grad and f_pullback.
            let mut d_w = [0.0; 3];
            let value = passive_grad(
                &w,
                &mut d_w,
                idx,
                pairs,
                pts,
                rows,
                labels,
                "abc",
                Some(1.5),
                plain(),
            );
            assert_same_value("passive", value, value_f, &w);
            common::oracle::Gradient::new("passive", &w, (value, &d_w))
                .central(f)
                .dual(twin);
            let mut pulled = [0.0; 3];
            passive_pullback(
                &w,
                &mut pulled,
                idx,
                pairs,
                pts,
                rows,
                labels,
                "abc",
                None,
                plain(),
                2.0,
            );
            for (p, g) in pulled.iter().zip(&d_w) {
                assert_near("passive_pullback", *p, 2.0 * g, 1e-12);
            }
            // f_jvp, f_hvp and f_hessian against num-dual.
            let v = [0.3, -0.7, 1.1];
            let (value, tangent) =
                passive_jvp(&w, &v, idx, pairs, pts, rows, labels, "abc", None, plain());
            assert_same_value("passive_jvp", value, value_f, &w);
            let along: f64 = d_w.iter().zip(&v).map(|(g, t)| g * t).sum();
            assert_near("passive_jvp", tangent, along, 1e-12);
            let h = common::oracle::dual_hessian(hyper, &w);
            let mut hv = [0.0; 3];
            let value = passive_hvp(
                &w,
                &v,
                &mut hv,
                idx,
                pairs,
                pts,
                rows,
                labels,
                "abc",
                None,
                plain(),
            );
            assert_same_value("passive_hvp", value, value_f, &w);
            for (i, row) in h.iter().enumerate() {
                let reference: f64 = row.iter().zip(&v).map(|(a, b)| a * b).sum();
                assert_near("passive_hvp", hv[i], reference, 1e-12);
            }
            let mut dense = [0.0; 9];
            let value = passive_hessian(
                &w,
                idx,
                pairs,
                pts,
                rows,
                labels,
                "abc",
                None,
                plain(),
                &mut dense,
            );
            assert_same_value("passive_hessian", value, value_f, &w);
            common::oracle::Hessian::new("passive_hessian", &w, &dense).dual(hyper);
        }
    }
}

/// Two outputs over the same data: `f_jacobian` and `f_jvp` read it in every column.
#[differentiable(jvp, jacobian, wrt(w))]
fn passive_pair(
    w: &[f64],
    pairs: &[(f64, f64)],
    pts: &[[f64; 3]],
    rows: &[Vec<f64>],
    labels: &[usize],
) -> [f64; 2] {
    let mut a = 0.0;
    let mut b = 0.0;
    for (i, &(x, y)) in pairs.iter().enumerate() {
        match labels[i] {
            0 => a += w[0] * x,
            1 => b += w[1] * y * pts[i][2],
            _ => a += w[2] * w[labels[i]],
        }
    }
    for row in rows {
        b += row.iter().map(|v| v * w[0]).sum::<f64>();
    }
    [a.sin(), a * b]
}

#[test]
fn passive_data_in_f_jacobian() {
    let rows_all = [vec![1.0], vec![], vec![2.0, 3.0], vec![-0.5]];
    for n in [0, 1, 3] {
        let (pairs, pts, rows, labels) = (&PAIRS[..n], &PTS[..n], &rows_all[..n], &LABELS[..n]);
        let w = [0.5, -1.0, 2.0];
        let mut block = [0.0; 6];
        let (value, _) = passive_pair_jacobian(&w, &mut block, pairs, pts, rows, labels);
        assert_eq!(value, passive_pair(&w, pairs, pts, rows, labels));
        let v = [0.3, -0.7, 1.1];
        let (value, tangent) = passive_pair_jvp(&w, &v, pairs, pts, rows, labels);
        assert_eq!(value, passive_pair(&w, pairs, pts, rows, labels));
        for k in 0..2 {
            let f = |p: &[f64]| passive_pair(p, pairs, pts, rows, labels)[k];
            let gradient = &block[k * 3..(k + 1) * 3];
            assert_gradient("passive_pair_jacobian", f, &w, gradient);
            let along: f64 = gradient.iter().zip(&v).map(|(g, t)| g * t).sum();
            assert_near("passive_pair_jvp", tangent[k], along, 1e-12);
        }
    }
}
