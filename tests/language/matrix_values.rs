//! Matrices by value (issue 24): `m: [[f64; N]; M]` listed in `wrt(..)`, whose partials come
//! back in the returned tuple as one `[[f64; N]; M]` (as an array's by value do), its tangent of
//! its type in `f_jvp` and `f_hvp`, its entries row-major in `f_hessian`; read as `m[i][j]`,
//! `for row in m`, `m[i].iter()`, `&m[i]` and `&m` passed to helpers, `m.len()` rows. With 0, 1
//! and 3 rows (a const-generic row count), against central differences and num-dual on a
//! generic twin written by hand, the value bit for bit `f`'s, at points on both sides of the
//! branch. Left out of `wrt(..)`, a matrix by value is data, as before.

use crate::common;

use common::oracle::{self, check};
use common::{assert_near, assert_same_value};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

#[differentiable(hvp, hessian)]
fn dot2(a: &[f64], b: &[f64]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

#[differentiable(hvp, hessian, wrt(m))]
fn corner(m: &[[f64; 2]; 2]) -> f64 {
    m[0][1] * m[1][0]
}

/// `Σ_i q(m_i · x) + x_0 Σ_ij sin(m_ij)`, `q` branching on the sign of its argument.
#[differentiable(hvp, hessian, wrt(m, x))]
fn quad<const R: usize>(m: [[f64; 2]; R], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..m.len() {
        let y = dot2(&m[i], x);
        s += if y > 0.0 { y * y } else { -0.5 * y * m[i][1] };
    }
    for row in m {
        s += row.iter().map(|v| v.sin()).sum::<f64>() * x[0];
    }
    s
}

fn quad_twin<D: DualNum<Primitive = f64> + Copy>(m: &[[D; 2]], x: &[D]) -> D {
    let mut s = D::from(0.0);
    for row in m {
        let y = row[0] * x[0] + row[1] * x[1];
        s += if y.re() > 0.0 {
            y * y
        } else {
            -y * D::from(0.5) * row[1]
        };
    }
    for row in m {
        s += (row[0].sin() + row[1].sin()) * x[0];
    }
    s
}

/// A 2x2 by value, with a scalar beside it, passed on whole by reference.
#[differentiable(hvp, hessian, wrt(m, t))]
fn det(m: [[f64; 2]; 2], t: f64) -> f64 {
    let d = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    d * d.abs() * t + corner(&m) + m[1][0].exp()
}

fn det_twin<D: DualNum<Primitive = f64> + Copy>(m: &[[D; 2]; 2], t: D) -> D {
    let d = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    let abs = if d.re() < 0.0 { -d } else { d };
    d * abs * t + m[0][1] * m[1][0] + m[1][0].exp()
}

/// Not listed in `wrt(..)`: data, no partial for it.
#[differentiable(wrt(x))]
fn scaled(m: [[f64; 2]; 2], x: f64) -> f64 {
    m[0][0] * x * x + m[1][1] * x
}

fn flat<const R: usize>(m: &[[f64; 2]; R]) -> Vec<f64> {
    m.as_flattened().to_vec()
}

fn matrix<T: Copy, const R: usize>(p: &[T]) -> [[T; 2]; R] {
    std::array::from_fn(|i| [p[2 * i], p[2 * i + 1]])
}

fn check_quad<const R: usize>(m: [[f64; 2]; R], x: [f64; 2]) {
    let point: Vec<f64> = flat(&m).into_iter().chain(x).collect();
    let n = 2 * R;
    let f = |p: &[f64]| quad(matrix::<f64, R>(&p[..n]), &p[n..]);
    let twin = |p: &[Dual64]| quad_twin(&matrix::<Dual64, R>(&p[..n]), &p[n..]);
    // f_grad: the matrix's partials in the tuple, `x`'s in its shadow.
    let mut d_x = [0.0; 2];
    let (value, d_m) = quad_grad(m, &x, &mut d_x);
    let gradient: Vec<f64> = flat(&d_m).into_iter().chain(d_x).collect();
    check!(
        "quad",
        &point,
        (value, &gradient),
        against = [central(f), dual(twin)]
    );
    // f_pullback: the seed scales them.
    let mut d_x = [0.0; 2];
    let d_m = quad_pullback(m, &x, &mut d_x, 2.0);
    let pulled: Vec<f64> = flat(&d_m).into_iter().chain(d_x).collect();
    for (p, g) in pulled.iter().zip(&gradient) {
        assert_near("quad_pullback", *p, 2.0 * g, 1e-12);
    }
    // f_jvp: a tangent of the matrix's type.
    let v: Vec<f64> = (0..point.len()).map(|k| 0.3 - 0.2 * k as f64).collect();
    let (value, tangent) = quad_jvp(m, matrix::<f64, R>(&v[..n]), &x, &v[n..]);
    assert_same_value("quad_jvp", value, f(&point), &point);
    let duals: Vec<Dual64> = point
        .iter()
        .zip(&v)
        .map(|(&p, &t)| Dual64::new(p, t))
        .collect();
    assert_near("quad_jvp", tangent, twin(&duals).eps, 1e-12);
    // f_hvp and f_hessian against HyperDual64.
    let h = oracle::dual_hessian(
        |q| quad_twin(&matrix::<HyperDual64, R>(&q[..n]), &q[n..]),
        &point,
    );
    let mut hv_x = [0.0; 2];
    let (value, hv_m) = quad_hvp(m, matrix::<f64, R>(&v[..n]), &x, &v[n..], &mut hv_x);
    assert_same_value("quad_hvp", value, f(&point), &point);
    let hv: Vec<f64> = flat(&hv_m).into_iter().chain(hv_x).collect();
    for (i, row) in h.iter().enumerate() {
        let expected: f64 = row.iter().zip(&v).map(|(a, b)| a * b).sum();
        assert_near("quad_hvp", hv[i], expected, 1e-10);
    }
    let k = point.len();
    let mut dense = vec![0.0; k * k];
    let value = quad_hessian(m, &x, &mut dense);
    assert_same_value("quad_hessian", value, f(&point), &point);
    oracle::Hessian::new("quad_hessian", &point, &dense)
        .dual(|q| quad_twin(&matrix::<HyperDual64, R>(&q[..n]), &q[n..]));
}

#[test]
fn a_matrix_by_value_of_no_one_and_three_rows() {
    check_quad([], [0.6, -1.1]);
    // m_0 · x is 0.96 - 0.6 = 0.36 at the first point and -0.44 at the second.
    check_quad([[1.6, 0.6]], [0.6, -1.1]);
    check_quad([[1.6, 0.6]], [0.6, 0.2]);
    check_quad([[1.6, 0.6], [-0.3, 0.9], [0.4, 1.2]], [0.6, -1.1]);
    check_quad([[0.5, -0.8], [1.3, 0.2], [-0.7, -0.4]], [-0.9, 0.5]);
}

#[test]
fn a_two_by_two_by_value_beside_a_scalar() {
    // The determinant is -0.86 at the first point and 1.14 at the second: both signs.
    for (m, t) in [
        ([[0.3, 1.1], [0.9, -0.4]], 0.7),
        ([[1.2, 0.3], [-0.2, 0.9]], -1.3),
    ] {
        let point: Vec<f64> = flat(&m).into_iter().chain([t]).collect();
        let f = |p: &[f64]| det(matrix::<f64, 2>(&p[..4]), p[4]);
        let twin = |p: &[Dual64]| det_twin(&matrix::<Dual64, 2>(&p[..4]), p[4]);
        let (value, d_m, d_t) = det_grad(m, t);
        let gradient: Vec<f64> = flat(&d_m).into_iter().chain([d_t]).collect();
        check!(
            "det",
            &point,
            (value, &gradient),
            against = [central(f), dual(twin)]
        );
        let mut dense = [0.0; 25];
        let value = det_hessian(m, t, &mut dense);
        assert_same_value("det_hessian", value, f(&point), &point);
        oracle::Hessian::new("det_hessian", &point, &dense)
            .dual(|q| det_twin(&matrix::<HyperDual64, 2>(&q[..4]), q[4]));
    }
}

#[test]
fn a_matrix_by_value_left_out_is_data() {
    let m = [[0.5, 1.2], [-0.3, 0.4]];
    let (value, d_x) = scaled_grad(m, 0.7);
    let f = |p: &[f64]| scaled(m, p[0]);
    check!("scaled", &[0.7], (value, &[d_x]), against = [central(f)]);
}
