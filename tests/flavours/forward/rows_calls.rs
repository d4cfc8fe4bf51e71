//! Rows passed whole to a helper (issue 24) in forward mode and second order: the caller's
//! tangent program passes the rows and their tangent to the callee's tangent as rows again
//! (`as_chunks`), and `f_hvp` hands both with their shadows to the callee's tangent pullback.
//! `f_jvp` against `Dual64` and `f_hvp` against `HyperDual64` on generic twins, with 0, 1 and
//! many rows; the values bit for bit `f`'s. tests/language/rows_calls.rs checks the gradient.

use crate::common;

use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

/// A sum over rows with a branch on each row's sign.
#[differentiable(hvp, wrt(a))]
fn rowsum(a: &[[f64; 2]]) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len() {
        if a[i][0] > 0.0 {
            s += a[i][0] * a[i][1];
        } else {
            s += (a[i][1] - a[i][0]).sin();
        }
    }
    s
}

fn rowsum_twin<D: DualNum<Primitive = f64> + Copy>(a: &[[D; 2]]) -> D {
    let mut s = D::from(0.0);
    for r in a {
        if r[0].re() > 0.0 {
            s += r[0] * r[1];
        } else {
            s += (r[1] - r[0]).sin();
        }
    }
    s
}

/// A parameter of rows passed on whole.
#[differentiable(hvp, wrt(a, c))]
fn scaled(a: &[[f64; 2]], c: f64) -> f64 {
    c * rowsum(a) * c
}

fn scaled_twin<D: DualNum<Primitive = f64> + Copy>(a: &[[D; 2]], c: D) -> D {
    c * rowsum_twin(a) * c
}

/// A local matrix passed whole.
#[differentiable(hvp)]
fn local(x: f64, y: f64) -> f64 {
    let l = [[x, 1.0], [2.0, x * y], [-x, y]];
    rowsum(&l) * y
}

fn local_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    let l = [[x, D::from(1.0)], [D::from(2.0), x * y], [-x, y]];
    rowsum_twin(&l) * y
}

const ROWS: [&[[f64; 2]]; 3] = [&[], &[[0.7, -0.4]], &[[0.7, -0.4], [-1.1, 0.3], [0.2, 2.0]]];

#[test]
fn rows_passed_whole_in_forward_mode() {
    for a in ROWS {
        let c = 0.8;
        let v_a: Vec<[f64; 2]> = (0..a.len()).map(|i| [0.3 - 0.2 * i as f64, 0.5]).collect();
        let v_c = -0.6;
        let (value, tangent) = scaled_jvp(a, &v_a, c, v_c);
        assert_eq!(
            value.to_bits(),
            scaled(a, c).to_bits(),
            "scaled_jvp's value"
        );
        let rows: Vec<[Dual64; 2]> = a
            .iter()
            .zip(&v_a)
            .map(|(r, v)| [Dual64::new(r[0], v[0]), Dual64::new(r[1], v[1])])
            .collect();
        let dual = scaled_twin(&rows, Dual64::new(c, v_c));
        common::assert_near("scaled_jvp against Dual64", tangent, dual.eps, 1e-12);
    }
}

#[test]
fn a_local_matrix_passed_whole_in_second_order() {
    for (x, y) in [(0.7, -0.4), (-1.1, 0.3), (0.2, 2.0)] {
        let (v_x, v_y) = (0.3, -1.1);
        let (value, tangent) = local_jvp(x, v_x, y, v_y);
        assert_eq!(value.to_bits(), local(x, y).to_bits(), "local_jvp's value");
        let dual = local_twin(Dual64::new(x, v_x), Dual64::new(y, v_y));
        common::assert_near("local_jvp against Dual64", tangent, dual.eps, 1e-12);
        let (value, hv_x, hv_y) = local_hvp(x, v_x, y, v_y);
        assert_eq!(value.to_bits(), local(x, y).to_bits(), "local_hvp's value");
        // Entry i of H v is e_iᵀ H v.
        let hyper = |e: [f64; 2]| {
            local_twin(
                HyperDual64::new(x, e[0], v_x, 0.0),
                HyperDual64::new(y, e[1], v_y, 0.0),
            )
            .eps1eps2
        };
        common::assert_near(
            "local_hvp x against HyperDual64",
            hv_x,
            hyper([1.0, 0.0]),
            1e-10,
        );
        common::assert_near(
            "local_hvp y against HyperDual64",
            hv_y,
            hyper([0.0, 1.0]),
            1e-10,
        );
    }
}
