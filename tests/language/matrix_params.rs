//! Parameters of rows of floats (issue 24): `a: &[[f64; N]]` and `m: &[[f64; N]; M]`, listed
//! in `wrt(..)` (else they are data, as before), each followed by a shadow of its shape (`d_a: &mut [[f64; N]]`), its tangent of its type in
//! `f_jvp` and `f_hvp`, its entries row-major in `f_hessian` and in `f_jacobian`'s block; read as
//! `a[i][j]`, `for row in a`, `a[i].iter()`, `&a[i]` passed to a helper, `a.len()` rows. With 0,
//! 1 and many rows, against central differences and num-dual on generic twins written by hand,
//! the value bit for bit `f`'s, at points that cross the branches.

#![allow(clippy::needless_range_loop)] // matrices are walked by index, as such code is written

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

#[differentiable(hvp, hessian)]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>()
}

/// `A x` for `A` of any number of rows of 3, through a helper per row, then a branch per entry.
#[differentiable(hvp, hessian, wrt(a, x))]
fn product(a: &[[f64; 3]], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len() {
        let y = dot(&a[i], x);
        s += if y > 0.0 { y * y } else { -0.5 * y * a[i][0] };
    }
    for row in a {
        s += row.iter().map(|v| v.sin()).sum::<f64>() * x[2];
    }
    s
}

fn product_twin<D: DualNum<Primitive = f64> + Copy>(a: &[[D; 3]], x: &[D]) -> D {
    let mut s = D::from(0.0);
    for row in a {
        let y = row[0] * x[0] + row[1] * x[1] + row[2] * x[2];
        s += if y.re() > 0.0 {
            y * y
        } else {
            -y * D::from(0.5) * row[0]
        };
    }
    for row in a {
        s += (row[0].sin() + row[1].sin() + row[2].sin()) * x[2];
    }
    s
}

/// The determinant of a 2x2 parameter of fixed shape.
#[differentiable(hvp, hessian, wrt(m))]
fn det(m: &[[f64; 2]; 2]) -> f64 {
    let d = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    d * d.abs() + m[1][0].exp()
}

fn det_twin<D: DualNum<Primitive = f64> + Copy>(m: &[[D; 2]; 2]) -> D {
    let d = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    let abs = if d.re() < 0.0 { -d } else { d };
    d * abs + m[1][0].exp()
}

/// `a` not listed in `wrt(..)`: data, with no shadow, as rows are unless listed.
#[differentiable(wrt(x))]
fn fit(a: &[[f64; 2]], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for row in a {
        let e = row[0] * x[0] + x[1] - row[1];
        s += e * e;
    }
    s
}

/// `M` outputs, the rows of `A x`: `f_jacobian`'s block for `a` is `M` blocks of its shape.
#[differentiable(jacobian, wrt(a, x))]
fn rows_times(a: &[[f64; 2]], x: &[f64]) -> [f64; 2] {
    [
        a[0][0] * x[0] + a[0][1] * x[1],
        a[1][0] * x[0] * x[1] + a[1][1],
    ]
}

fn rows<T: Copy, const N: usize>(flat: &[T]) -> Vec<[T; N]> {
    flat.chunks_exact(N)
        .map(|c| std::array::from_fn(|j| c[j]))
        .collect()
}

/// The Hessian of `twin` at `p` (flattened parameters), one hyper-dual evaluation per entry.
fn hessian_of(twin: &dyn Fn(&[HyperDual64]) -> HyperDual64, p: &[f64]) -> Vec<Vec<f64>> {
    let n = p.len();
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let q: Vec<HyperDual64> = p
                        .iter()
                        .enumerate()
                        .map(|(k, &v)| {
                            HyperDual64::new(v, f64::from(k == i), f64::from(k == j), 0.0)
                        })
                        .collect();
                    twin(&q).eps1eps2
                })
                .collect()
        })
        .collect()
}

#[test]
fn a_product_of_no_one_and_many_rows() {
    let x = [0.6, -1.1, 0.9];
    let all = [
        0.5, -0.3, 1.2, -0.8, 0.4, 0.7, 1.1, 0.2, -0.6, -0.4, -0.9, 0.3,
    ];
    for m in [0, 1, 4] {
        let a: Vec<[f64; 3]> = rows(&all[..3 * m]);
        let n = 3 * m;
        let f = |p: &[f64]| product(&rows::<f64, 3>(&p[..n]), &p[n..]);
        let point: Vec<f64> = a.iter().flatten().chain(&x).copied().collect();
        // f_grad: the shadow has the parameter's shape.
        let (mut d_a, mut d_x) = (vec![[0.0; 3]; m], [0.0; 3]);
        let value = product_grad(&a, &mut d_a, &x, &mut d_x);
        assert_same_value("product", value, product(&a, &x), &point);
        let gradient: Vec<f64> = d_a.iter().flatten().chain(&d_x).copied().collect();
        assert_gradient("product", f, &point, &gradient);
        // f_jvp against Dual64 on the twin.
        let v: Vec<f64> = (0..point.len()).map(|k| 0.3 - 0.2 * k as f64).collect();
        let (v_a, v_x): (Vec<[f64; 3]>, &[f64]) = (rows(&v[..n]), &v[n..]);
        let (value, tangent) = product_jvp(&a, &v_a, &x, v_x);
        assert_same_value("product_jvp", value, product(&a, &x), &point);
        let duals: Vec<Dual64> = point
            .iter()
            .zip(&v)
            .map(|(&p, &t)| Dual64::new(p, t))
            .collect();
        let twin = product_twin(&rows::<Dual64, 3>(&duals[..n]), &duals[n..]);
        assert_near("product_jvp", tangent, twin.eps, 1e-12);
        // f_hvp and f_hessian against HyperDual64.
        let h = hessian_of(
            &|q| product_twin(&rows::<HyperDual64, 3>(&q[..n]), &q[n..]),
            &point,
        );
        let (mut hv_a, mut hv_x) = (vec![[0.0; 3]; m], [0.0; 3]);
        let value = product_hvp(&a, &v_a, &mut hv_a, &x, v_x, &mut hv_x);
        assert_same_value("product_hvp", value, product(&a, &x), &point);
        let hv: Vec<f64> = hv_a.iter().flatten().chain(&hv_x).copied().collect();
        for (i, row) in h.iter().enumerate() {
            let expected: f64 = row.iter().zip(&v).map(|(a, b)| a * b).sum();
            assert_near("product_hvp", hv[i], expected, 1e-10);
        }
        let k = point.len();
        let mut dense = vec![0.0; k * k];
        let value = product_hessian(&a, &x, &mut dense);
        assert_same_value("product_hessian", value, product(&a, &x), &point);
        for i in 0..k {
            for j in 0..k {
                assert_near("product_hessian", dense[i * k + j], h[i][j], 1e-10);
            }
        }
        // f_pullback: a seed, shadows of the same shape.
        let (mut d_a, mut d_x) = (vec![[0.0; 3]; m], [0.0; 3]);
        product_pullback(&a, &mut d_a, &x, &mut d_x, 2.0);
        let pulled: Vec<f64> = d_a.iter().flatten().chain(&d_x).copied().collect();
        for (p, g) in pulled.iter().zip(&gradient) {
            assert_near("product_pullback", *p, 2.0 * g, 1e-12);
        }
    }
}

#[test]
fn a_two_by_two_of_fixed_shape() {
    // The determinant is -0.86 at the first point and 1.14 at the second: both signs.
    for flat in [[0.3, 1.1, 0.9, -0.4], [1.2, 0.3, -0.2, 0.9]] {
        let m = [[flat[0], flat[1]], [flat[2], flat[3]]];
        let f = |p: &[f64]| det(&[[p[0], p[1]], [p[2], p[3]]]);
        let mut d_m = [[0.0; 2]; 2];
        let value = det_grad(&m, &mut d_m);
        assert_same_value("det", value, det(&m), &flat);
        assert_gradient("det", f, &flat, d_m.as_flattened());
        let v = [[0.4, -0.7], [0.2, 1.0]];
        let (value, tangent) = det_jvp(&m, &v);
        assert_same_value("det_jvp", value, det(&m), &flat);
        let dual = det_twin(&std::array::from_fn(|i| {
            std::array::from_fn(|j| Dual64::new(m[i][j], v[i][j]))
        }));
        assert_near("det_jvp", tangent, dual.eps, 1e-12);
        let h = hessian_of(&|q| det_twin(&[[q[0], q[1]], [q[2], q[3]]]), &flat);
        let mut hv = [[0.0; 2]; 2];
        det_hvp(&m, &v, &mut hv);
        for i in 0..4 {
            let expected: f64 = (0..4).map(|j| h[i][j] * v.as_flattened()[j]).sum();
            assert_near("det_hvp", hv.as_flattened()[i], expected, 1e-10);
        }
        let mut dense = [0.0; 16];
        let value = det_hessian(&m, &mut dense);
        assert_same_value("det_hessian", value, det(&m), &flat);
        for i in 0..4 {
            for j in 0..4 {
                assert_near("det_hessian", dense[i * 4 + j], h[i][j], 1e-10);
            }
        }
    }
}

#[test]
fn rows_left_out_are_data() {
    let a = [[0.5, 1.2], [-0.3, 0.4], [1.1, -0.9]];
    let x = [0.7, -0.2];
    let mut d_x = [0.0; 2];
    let value = fit_grad(&a, &x, &mut d_x);
    assert_same_value("fit", value, fit(&a, &x), &x);
    assert_gradient("fit", |p| fit(&a, p), &x, &d_x);
}

#[test]
fn jacobian_blocks_of_rows() {
    let a = [[0.5, 1.2], [-0.3, 0.4]];
    let x = [0.7, -0.2];
    let mut block = vec![[0.0; 2]; 2 * a.len()];
    let (value, columns) = rows_times_jacobian(&a, &mut block, &x, &mut [0.0; 4]);
    assert_eq!(value, rows_times(&a, &x));
    let _ = columns;
    let point: Vec<f64> = a.iter().flatten().chain(&x).copied().collect();
    for k in 0..2 {
        let f = |p: &[f64]| rows_times(&rows::<f64, 2>(&p[..4]), &p[4..])[k];
        let row = &block.as_flattened()[k * 4..k * 4 + 4];
        let mut seed = [0.0; 2];
        seed[k] = 1.0;
        let (mut d_a, mut d_x) = ([[0.0; 2]; 2], [0.0; 2]);
        rows_times_pullback(&a, &mut d_a, &x, &mut d_x, seed);
        let gradient: Vec<f64> = d_a.iter().flatten().chain(&d_x).copied().collect();
        assert_gradient("rows_times", f, &point, &gradient);
        for j in 0..4 {
            assert_near("rows_times_jacobian", row[j], gradient[j], 1e-12);
        }
    }
}
