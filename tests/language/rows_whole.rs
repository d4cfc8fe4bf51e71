//! Local arrays of rows assigned whole (issue 24), where each was "this array is updated entry
//! by entry": a fill `l = [[0.0; 2]; 2];`, a literal of rows reading the array it replaces
//! `m = [[m[1][1], m[0][1]], [m[1][0], m[0][0]]];`, and another array of rows `h = h_new;` in a
//! recurrent step, once on either side of a branch. `f_grad`, `f_jvp` and `f_hessian` against
//! central differences and num-dual twins (`Dual64`, `HyperDual64`), the value bit for bit `f`'s.

use crate::common;

use common::{assert_near, oracle};
use micrograd_runtime::prelude::*;
use num_dual::DualNum;

const R: usize = 2;

#[differentiable(jvp, hessian)]
fn rows(a: f64, b: f64, c: f64) -> f64 {
    // A Cholesky factor of [[a, b], [b, c]], started from a fill of another value.
    let mut l = [[a; 2]; 2];
    let first = 0.1 * l[1][0];
    l = [[0.0; 2]; 2];
    l[0][0] = a.sqrt();
    l[1][0] = b / l[0][0];
    l[1][1] = (c - l[1][0] * l[1][0]).sqrt();
    // The factor's transpose and back, reading what it replaces.
    let mut m = [[l[0][0], l[1][0]], [l[0][1], l[1][1]]];
    m = [[m[1][1], m[0][1]], [m[1][0], m[0][0]]];
    // A recurrent state of rows, replaced whole by the step.
    let mut h = [[b, c], [a, 1.0]];
    for t in 0..3 {
        let mut h_new = [[0.0; R]; R];
        for i in 0..R {
            for j in 0..R {
                h_new[i][j] = (0.5 * h[j][i] + m[i][j] * (t as f64)).tanh();
            }
        }
        if h_new[0][0] > 0.0 {
            h = h_new;
        } else {
            h = h_new;
            h[1][1] *= 0.5;
        }
    }
    l[1][1] * m[0][0] + h[0][1] * h[1][0] + h[1][1] + first
}

fn rows_twin<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    rows_counted(p, &mut [0; 2])
}

/// `rows` on dual numbers, counting the steps that take each side of the branch.
fn rows_counted<D: DualNum<Primitive = f64> + Copy>(p: &[D], sides: &mut [usize; 2]) -> D {
    let (a, b, c) = (p[0], p[1], p[2]);
    let zero = D::from(0.0);
    let mut l = [[zero; 2]; 2];
    l[0][0] = a.sqrt();
    l[1][0] = b / l[0][0];
    l[1][1] = (c - l[1][0] * l[1][0]).sqrt();
    let m = [[l[1][1], l[1][0]], [l[0][1], l[0][0]]];
    let mut h = [[b, c], [a, D::from(1.0)]];
    for t in 0..3 {
        let mut h_new = [[zero; R]; R];
        for i in 0..R {
            for j in 0..R {
                h_new[i][j] = (h[j][i] * 0.5 + m[i][j] * (t as f64)).tanh();
            }
        }
        let positive = h_new[0][0].re() > 0.0;
        sides[usize::from(!positive)] += 1;
        h = h_new;
        if !positive {
            h[1][1] *= D::from(0.5);
        }
    }
    l[1][1] * m[0][0] + h[0][1] * h[1][0] + h[1][1] + a * 0.1
}

#[test]
fn rows_assigned_whole_against_central_differences_and_num_dual() {
    // The first point's step takes the branch's first side, the second's its other.
    for point in [[2.0, 0.6, 1.5], [1.2, -1.4, 2.5]] {
        let [a, b, c] = point;
        let (value, d_a, d_b, d_c) = rows_grad(a, b, c);
        assert_eq!(value.to_bits(), rows(a, b, c).to_bits(), "rows_grad value");
        let f = |p: &[f64]| rows(p[0], p[1], p[2]);
        oracle::Gradient::new("rows_grad", &point, (value, &[d_a, d_b, d_c]))
            .central(f)
            .dual(|p: &[num_dual::Dual64]| rows_twin(p));
        let (same, tangent) = rows_jvp(a, 1.0, b, -0.5, c, 0.25);
        assert_eq!(same.to_bits(), value.to_bits(), "rows_jvp value");
        assert_near("rows_jvp", tangent, d_a - 0.5 * d_b + 0.25 * d_c, 1e-12);
        let (same, hessian) = rows_hessian(a, b, c);
        assert_eq!(same.to_bits(), value.to_bits(), "rows_hessian value");
        let entries: Vec<f64> = hessian.iter().flatten().copied().collect();
        oracle::Hessian::new("rows_hessian", &point, &entries)
            .dual(|p: &[num_dual::HyperDual64]| rows_twin(p));
    }
}

#[test]
fn the_points_cross_the_branch() {
    let mut sides = [0; 2];
    for point in [[2.0, 0.6, 1.5], [1.2, -1.4, 2.5]] {
        rows_counted(&point.map(num_dual::Dual64::from), &mut sides);
    }
    assert!(sides[0] > 0 && sides[1] > 0, "{sides:?}");
}
