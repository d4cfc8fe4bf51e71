//! Nested float arrays (issue 24): `[[f64; N]; M]` locals (`[[0.0; N]; M]`,
//! `[[a, b], [c, d]]`), `l[i][j]` read, written and updated, rows read as slices (`l[i].iter()`,
//! `for row in &l`, `&l[i]` passed to a `#[differentiable]` helper, `let r = l[i];` copied), a
//! Cholesky factor, a 2x2 determinant, a matrix-vector product; 0, 1 and many rows. Each flavour
//! against central differences and num-dual on generic twins written by hand, the value bit for
//! bit `f`'s, at points that cross the branches.

#![allow(clippy::needless_range_loop)] // matrices are walked by index, as such code is written
#![allow(clippy::reversed_empty_ranges)] // `row_sums!` is instantiated with no rows on purpose

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

/// A 2x2 determinant of `[[a, b], [c, d]]`, with a branch on its sign.
#[differentiable(hvp, hessian)]
fn det2(x: &[f64]) -> f64 {
    let m = [[x[0] * x[1], x[1].sin()], [x[2], x[0] + x[2] * x[2]]];
    let d = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    if d > 0.0 { d.sqrt() } else { -d * m[1][0] }
}

fn det2_twin<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let m = [[x[0] * x[1], x[1].sin()], [x[2], x[0] + x[2] * x[2]]];
    let d = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    if d.re() > 0.0 { d.sqrt() } else { -d * m[1][0] }
}

/// A matrix-vector product with a nested local written entry by entry, updated in place
/// (`+=`, `-=`, `*=`), its rows measured, iterated and summed.
#[differentiable(hvp, hessian)]
fn matvec(x: &[f64]) -> f64 {
    let mut a = [[0.0; 3]; 2];
    for i in 0..2 {
        for j in 0..3 {
            a[i][j] = x[i * 3 + j] * x[(i + j) % 3];
        }
    }
    a[1][2] += x[0];
    a[0][1] -= 0.5 * x[1];
    a[1][0] *= x[2];
    let mut y = [0.0; 2];
    for i in 0..a.len() {
        for j in 0..a[i].len() {
            y[i] += a[i][j] * x[j];
        }
    }
    let mut s = 0.0;
    for row in &a {
        s += row.iter().map(|v| v * v).sum::<f64>();
    }
    let big = if y[0] > y[1] { y[0] } else { y[1] * 0.5 };
    y[0] * y[1] + s + a[1].iter().sum::<f64>() + big
}

fn matvec_twin<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let mut a = [[D::from(0.0); 3]; 2];
    for i in 0..2 {
        for j in 0..3 {
            a[i][j] = x[i * 3 + j] * x[(i + j) % 3];
        }
    }
    a[1][2] += x[0];
    a[0][1] -= x[1] * D::from(0.5);
    a[1][0] *= x[2];
    let mut y = [D::from(0.0); 2];
    for i in 0..2 {
        for j in 0..3 {
            y[i] += a[i][j] * x[j];
        }
    }
    let mut s = D::from(0.0);
    for row in &a {
        for v in row {
            s += *v * *v;
        }
    }
    let big = if y[0].re() > y[1].re() {
        y[0]
    } else {
        y[1] * D::from(0.5)
    };
    y[0] * y[1] + s + (a[1][0] + a[1][1] + a[1][2]) + big
}

const N: usize = 3;

/// The log-determinant of `B Bᵀ + I` through its Cholesky factor, `let mut l = [[0.0; N]; N];`.
#[differentiable(hvp, hessian)]
fn cholesky(x: &[f64]) -> f64 {
    let mut a = [[0.0; N]; N];
    for i in 0..N {
        for j in 0..N {
            let mut s = 0.0;
            if i == j {
                s = 1.0;
            }
            for k in 0..N {
                s += x[i * N + k] * x[j * N + k];
            }
            a[i][j] = s;
        }
    }
    let mut l = [[0.0; N]; N];
    for j in 0..N {
        let mut d = a[j][j];
        for k in 0..j {
            d -= l[j][k] * l[j][k];
        }
        l[j][j] = d.sqrt();
        for i in j + 1..N {
            let mut s = a[i][j];
            for k in 0..j {
                s -= l[i][k] * l[j][k];
            }
            l[i][j] = s / l[j][j];
        }
    }
    let mut logdet = 0.0;
    for i in 0..N {
        logdet += 2.0 * l[i][i].ln();
    }
    logdet + l[2][0] * l[1][0]
}

fn cholesky_twin<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let mut a = [[D::from(0.0); N]; N];
    for i in 0..N {
        for j in 0..N {
            let mut s = D::from(if i == j { 1.0 } else { 0.0 });
            for k in 0..N {
                s += x[i * N + k] * x[j * N + k];
            }
            a[i][j] = s;
        }
    }
    let mut l = [[D::from(0.0); N]; N];
    for j in 0..N {
        let mut d = a[j][j];
        for k in 0..j {
            d -= l[j][k] * l[j][k];
        }
        l[j][j] = d.sqrt();
        for i in j + 1..N {
            let mut s = a[i][j];
            for k in 0..j {
                s -= l[i][k] * l[j][k];
            }
            l[i][j] = s / l[j][j];
        }
    }
    let mut logdet = D::from(0.0);
    for i in 0..N {
        logdet += l[i][i].ln() * D::from(2.0);
    }
    logdet + l[2][0] * l[1][0]
}

#[differentiable(hvp, hessian)]
fn dot3(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>()
}

/// A row copied (`let r = m[1];`) and then the matrix written, which the copy does not see,
/// as in `f`; rows passed to a helper (`&m[i]`).
#[differentiable(hvp, hessian)]
fn rows_to_helper(x: &[f64]) -> f64 {
    let mut m = [[x[0], x[1], x[2]], [x[2] * x[1], x[0], 1.5]];
    let r = m[1];
    m[1][0] = 3.0 * x[1];
    let mut s = 0.0;
    for i in 0..2 {
        s += dot3(&m[i], x) * m[i][0];
    }
    let first = &m[0];
    s + dot3(&r, &m[1]) + first[2] * r[0]
}

fn dot3_twin<D: DualNum<Primitive = f64> + Copy>(a: &[D], b: &[D]) -> D {
    a.iter()
        .zip(b)
        .fold(D::from(0.0), |acc, (&p, &q)| acc + p * q)
}

fn rows_to_helper_twin<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let mut m = [[x[0], x[1], x[2]], [x[2] * x[1], x[0], D::from(1.5)]];
    let r = m[1];
    m[1][0] = x[1] * D::from(3.0);
    let mut s = D::from(0.0);
    for i in 0..2 {
        s += dot3_twin(&m[i], x) * m[i][0];
    }
    let first = &m[0];
    s + dot3_twin(&r, &m[1]) + first[2] * r[0]
}

/// The sum of squares of `M` rows of 3, for `M` of 0, 1 and 4: loops over no row, one, many.
macro_rules! row_sums {
    ($name:ident, $twin:ident, $m:literal) => {
        #[differentiable(hvp, hessian)]
        fn $name(x: &[f64]) -> f64 {
            let mut l = [[0.0; 3]; $m];
            for i in 0..l.len() {
                for j in 0..3 {
                    l[i][j] = x[j] * (i as f64 + 1.0);
                }
            }
            let mut s = x[0];
            for row in l.iter() {
                s += row.iter().map(|v| v * v).sum::<f64>();
            }
            s
        }

        fn $twin<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
            let mut s = x[0];
            for i in 0..$m {
                for j in 0..3 {
                    let v = x[j] * D::from(i as f64 + 1.0);
                    s += v * v;
                }
            }
            s
        }
    };
}

row_sums!(rows0, rows0_twin, 0);
row_sums!(rows1, rows1_twin, 1);
row_sums!(rows4, rows4_twin, 4);

/// A matrix-vector product returned whole: `f_jacobian` against central differences.
#[differentiable(jacobian)]
fn product(x: &[f64]) -> [f64; 2] {
    let m = [[x[0], 2.0 * x[1], x[2]], [x[1] * x[2], -x[0], 0.5]];
    let mut y = [0.0; 2];
    for (i, row) in m.iter().enumerate() {
        for j in 0..row.len() {
            y[i] += row[j] * x[j];
        }
    }
    y
}

type Grad = fn(&[f64], &mut [f64]) -> f64;
type Jvp = fn(&[f64], &[f64]) -> (f64, f64);
type Hvp = fn(&[f64], &[f64], &mut [f64]) -> f64;
type Hessian = fn(&[f64], &mut [f64]) -> f64;

/// Every flavour of `f` at `points`: the value bit for bit `f`'s, the gradient against central
/// differences, the JVP against `Dual64`, the HVP and the Hessian against `HyperDual64`, all
/// on the generic twin.
#[allow(clippy::too_many_arguments)] // one flavour each
fn check(
    name: &str,
    f: fn(&[f64]) -> f64,
    (grad, jvp, hvp, hessian): (Grad, Jvp, Hvp, Hessian),
    twin: fn(&[Dual64]) -> Dual64,
    twin2: fn(&[HyperDual64]) -> HyperDual64,
    points: &[&[f64]],
) {
    for x in points {
        let n = x.len();
        let mut d_x = vec![0.0; n];
        let value = grad(x, &mut d_x);
        assert_same_value(name, value, f(x), x);
        assert_gradient(name, f, x, &d_x);
        let v: Vec<f64> = (0..n).map(|i| 0.7 - 0.45 * i as f64).collect();
        let (value, tangent) = jvp(x, &v);
        assert_same_value(name, value, f(x), x);
        let duals: Vec<Dual64> = x.iter().zip(&v).map(|(&a, &b)| Dual64::new(a, b)).collect();
        assert_near(name, tangent, twin(&duals).eps, 1e-11);
        let mut h = vec![vec![0.0; n]; n];
        for (i, row) in h.iter_mut().enumerate() {
            for (j, entry) in row.iter_mut().enumerate() {
                let p: Vec<HyperDual64> = x
                    .iter()
                    .enumerate()
                    .map(|(k, &a)| HyperDual64::new(a, f64::from(k == i), f64::from(k == j), 0.0))
                    .collect();
                *entry = twin2(&p).eps1eps2;
            }
        }
        let mut hv = vec![0.0; n];
        let value = hvp(x, &v, &mut hv);
        assert_same_value(name, value, f(x), x);
        for i in 0..n {
            let expected: f64 = (0..n).map(|j| h[i][j] * v[j]).sum();
            assert_near(name, hv[i], expected, 1e-9);
        }
        let mut dense = vec![0.0; n * n];
        let value = hessian(x, &mut dense);
        assert_same_value(name, value, f(x), x);
        for i in 0..n {
            for j in 0..n {
                assert_near(name, dense[i * n + j], h[i][j], 1e-9);
            }
        }
    }
}

#[test]
fn determinant_of_a_literal_matrix() {
    // The determinant is 1.79 and 0.10 at the first two points, -3.43 at the last: both
    // branches.
    check(
        "det2",
        det2,
        (det2_grad, det2_jvp, det2_hvp, det2_hessian),
        det2_twin,
        det2_twin,
        &[&[0.3, 2.5, -1.1], &[-0.8, 1.9, 0.6], &[-0.5, 1.0, 2.0]],
    );
}

#[test]
fn matrix_vector_product_of_a_nested_local() {
    // `y` is (-1.81, -0.70) at the first point and (3.35, -1.79) at the second: both branches.
    check(
        "matvec",
        matvec,
        (matvec_grad, matvec_jvp, matvec_hvp, matvec_hessian),
        matvec_twin,
        matvec_twin,
        &[
            &[0.5, -1.2, 0.8, 1.1, 0.3, -0.7],
            &[-0.9, 0.4, 1.6, -0.2, 1.3, 0.9],
        ],
    );
}

#[test]
fn cholesky_factor() {
    check(
        "cholesky",
        cholesky,
        (cholesky_grad, cholesky_jvp, cholesky_hvp, cholesky_hessian),
        cholesky_twin,
        cholesky_twin,
        &[
            &[0.5, -0.2, 0.1, 0.3, 0.8, -0.4, 0.2, 0.1, 0.9],
            &[1.1, 0.4, -0.3, -0.6, 0.2, 0.5, 0.7, -0.8, 0.3],
        ],
    );
}

#[test]
fn rows_passed_and_copied() {
    check(
        "rows_to_helper",
        rows_to_helper,
        (
            rows_to_helper_grad,
            rows_to_helper_jvp,
            rows_to_helper_hvp,
            rows_to_helper_hessian,
        ),
        rows_to_helper_twin,
        rows_to_helper_twin,
        &[&[0.5, -1.2, 0.8], &[1.4, 0.3, -0.6]],
    );
}

#[test]
fn no_one_and_many_rows() {
    let points: &[&[f64]] = &[&[0.5, -1.2, 0.8], &[1.4, 0.3, -0.6]];
    check(
        "rows0",
        rows0,
        (rows0_grad, rows0_jvp, rows0_hvp, rows0_hessian),
        rows0_twin,
        rows0_twin,
        points,
    );
    check(
        "rows1",
        rows1,
        (rows1_grad, rows1_jvp, rows1_hvp, rows1_hessian),
        rows1_twin,
        rows1_twin,
        points,
    );
    check(
        "rows4",
        rows4,
        (rows4_grad, rows4_jvp, rows4_hvp, rows4_hessian),
        rows4_twin,
        rows4_twin,
        points,
    );
}

#[test]
fn jacobian_and_pullback_of_a_product() {
    for x in [[0.5, -1.2, 0.8], [1.4, 0.3, -0.6]] {
        let mut block = [0.0; 6];
        let (y, _) = product_jacobian(&x, &mut block);
        assert_eq!(y, product(&x));
        for k in 0..2 {
            let row: Vec<f64> = block[k * 3..k * 3 + 3].to_vec();
            assert_gradient("product", |p| product(p)[k], &x, &row);
            let mut seed = [0.0; 2];
            seed[k] = 1.0;
            let mut d_x = [0.0; 3];
            product_pullback(&x, &mut d_x, seed);
            for j in 0..3 {
                assert_near("product_pullback", d_x[j], row[j], 1e-12);
            }
        }
    }
}
