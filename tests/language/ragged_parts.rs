//! Rows of their own lengths, the forms issue 24 left after session 15: `w: &Vec<Vec<f64>>`
//! differentiated (read as `&[Vec<f64>]` is, as `&Vec<f64>` is as `&[f64]`), parts of a row
//! (`&w[i][a..b]` bound, indexed, iterated and passed to a helper, `w[i][a..b].iter()` in
//! sums, `for &v in &w[i][..n]`), and rows of a generic float `T: Float` in `f_hessian`. Every
//! flavour against central differences and num-dual on generic twins, the value bit for bit
//! `f`'s, with 0, 1 and many rows (an empty one among them), at points that cross the branch.

#![allow(clippy::ptr_arg)] // `&Vec<Vec<f64>>` is the form under test

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

#[differentiable(hvp, hessian)]
fn dot_part(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>()
}

/// Every read of a part of a row: bound (`tail`), indexed, iterated, passed to a helper.
#[differentiable(hvp, hessian, wrt(w, x))]
fn parts(w: &[Vec<f64>], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        let n = w[i].len();
        if n > 0 {
            let tail = &w[i][1..n];
            s += tail.iter().map(|v| v * v).sum::<f64>() * x[0];
            for &v in &w[i][..n - 1] {
                s += (v * x[1]).sin();
            }
            s += dot_part(&w[i][1..], x);
            if n > 1 {
                s += tail[0] * tail[n - 2];
            }
            let y = w[i][0..n].iter().zip(x).map(|(a, b)| a * b).sum::<f64>();
            s += if y > 0.0 { y * y } else { -y * x[2] };
        }
    }
    s
}

fn parts_twin<D: DualNum<Primitive = f64> + Copy>(w: &[Vec<D>], x: &[D]) -> D {
    let mut s = D::from(0.0);
    for row in w {
        let n = row.len();
        if n > 0 {
            for v in &row[1..] {
                s += *v * *v * x[0];
            }
            for v in &row[..n - 1] {
                s += (*v * x[1]).sin();
            }
            for (a, b) in row[1..].iter().zip(x) {
                s += *a * *b;
            }
            if n > 1 {
                s += row[1] * row[n - 1];
            }
            let mut y = D::from(0.0);
            for (a, b) in row.iter().zip(x) {
                y += *a * *b;
            }
            s += if y.re() > 0.0 { y * y } else { -y * x[2] };
        }
    }
    s
}

/// `&Vec<Vec<f64>>`: the rows read in place and passed on whole to `parts`.
#[differentiable(hvp, hessian, wrt(w, x))]
fn parts_vec(w: &Vec<Vec<f64>>, x: &[f64]) -> f64 {
    let mut s = parts(w, x);
    for row in w {
        s += row.iter().map(|v| v.cos()).sum::<f64>();
    }
    for i in 0..w.len() {
        for j in 0..w[i].len() {
            s += w[i][j] * x[j % 3];
        }
    }
    s
}

fn parts_vec_twin<D: DualNum<Primitive = f64> + Copy>(w: &[Vec<D>], x: &[D]) -> D {
    let mut s = parts_twin(w, x);
    for row in w {
        for v in row {
            s += v.cos();
        }
        for (j, v) in row.iter().enumerate() {
            s += *v * x[j % 3];
        }
    }
    s
}

/// The rows as one flat vector, and back from a flat vector to rows of `lens`.
fn flat<T: Copy>(rows: &[Vec<T>]) -> Vec<T> {
    rows.iter().flatten().copied().collect()
}

fn shaped<T: Copy>(flat: &[T], lens: &[usize]) -> Vec<Vec<T>> {
    let mut at = 0;
    lens.iter()
        .map(|&n| {
            at += n;
            flat[at - n..at].to_vec()
        })
        .collect()
}

fn zeros(lens: &[usize]) -> Vec<Vec<f64>> {
    lens.iter().map(|&k| vec![0.0; k]).collect()
}

const ALL: [f64; 10] = [0.5, -0.3, 1.2, -0.8, 0.4, 0.7, 1.1, 0.2, -0.6, -0.4];
const X: [f64; 3] = [0.6, -1.1, 0.9];

fn shapes() -> [Vec<usize>; 4] {
    [vec![], vec![3], vec![2, 0, 4, 1, 3], vec![1, 1]]
}

/// `parts_grad`, `parts_pullback`, `parts_jvp`, `parts_hvp`, `parts_hessian` (and the same of
/// `parts_vec`) at rows of `lens`, each against its reference.
macro_rules! every_flavour {
    ($f:ident, $grad:ident, $pullback:ident, $jvp:ident, $hvp:ident, $hessian:ident, $twin:ident, $lens:expr, $signs:expr) => {{
        let lens: &[usize] = $lens;
        let n: usize = lens.iter().sum();
        let all: Vec<f64> = ALL.iter().zip($signs).map(|(a, s)| a * s).collect();
        let w = shaped(&all[..n], lens);
        let name = stringify!($f);
        let point: Vec<f64> = flat(&w).into_iter().chain(X).collect();
        let f = |p: &[f64]| $f(&shaped(&p[..n], lens), &p[n..]);
        // f_grad, against central differences and Dual64.
        let (mut d_w, mut d_x) = (zeros(lens), [0.0; 3]);
        let value = $grad(&w, &mut d_w, &X, &mut d_x);
        assert_same_value(name, value, $f(&w, &X), &point);
        let gradient: Vec<f64> = flat(&d_w).into_iter().chain(d_x).collect();
        common::oracle::Gradient::new(name, &point, (value, &gradient))
            .central(f)
            .dual(|q| $twin(&shaped(&q[..n], lens), &q[n..]));
        // f_pullback: the seed times the gradient.
        let (mut d_w, mut d_x) = (zeros(lens), [0.0; 3]);
        $pullback(&w, &mut d_w, &X, &mut d_x, -1.5);
        let pulled: Vec<f64> = flat(&d_w).into_iter().chain(d_x).collect();
        for (p, g) in pulled.iter().zip(&gradient) {
            assert_near(name, *p, -1.5 * g, 1e-12);
        }
        // f_jvp against Dual64.
        let v: Vec<f64> = (0..point.len()).map(|k| 0.3 - 0.2 * k as f64).collect();
        let (v_w, v_x) = (shaped(&v[..n], lens), &v[n..]);
        let (value, tangent) = $jvp(&w, &v_w, &X, v_x);
        assert_same_value(name, value, $f(&w, &X), &point);
        let duals: Vec<Dual64> = (point.iter().zip(&v))
            .map(|(&p, &t)| Dual64::new(p, t))
            .collect();
        let twin = $twin(&shaped(&duals[..n], lens), &duals[n..]);
        assert_near(name, tangent, twin.eps, 1e-12);
        // f_hvp and f_hessian against HyperDual64.
        let h = common::oracle::dual_hessian(
            |q: &[HyperDual64]| $twin(&shaped(&q[..n], lens), &q[n..]),
            &point,
        );
        let (mut hv_w, mut hv_x) = (zeros(lens), [0.0; 3]);
        let value = $hvp(&w, &v_w, &mut hv_w, &X, v_x, &mut hv_x);
        assert_same_value(name, value, $f(&w, &X), &point);
        let hv: Vec<f64> = flat(&hv_w).into_iter().chain(hv_x).collect();
        for (i, row) in h.iter().enumerate() {
            let reference: f64 = row.iter().zip(&v).map(|(a, b)| a * b).sum();
            assert_near(&format!("{name} Hv[{i}]"), hv[i], reference, 1e-12);
        }
        let k = point.len();
        let mut dense = vec![0.0; k * k];
        let value = $hessian(&w, &X, &mut dense);
        assert_same_value(name, value, $f(&w, &X), &point);
        common::oracle::Hessian::new(name, &point, &dense)
            .dual(|q| $twin(&shaped(&q[..n], lens), &q[n..]));
    }};
}

#[test]
fn parts_of_rows_in_every_flavour() {
    // The second signs turn the branch's `y` negative in most rows.
    for signs in [[1.0; 10], [-1.0; 10]] {
        for lens in shapes() {
            every_flavour!(
                parts,
                parts_grad,
                parts_pullback,
                parts_jvp,
                parts_hvp,
                parts_hessian,
                parts_twin,
                &lens,
                signs
            );
        }
    }
}

#[test]
fn a_vec_of_vecs_in_every_flavour() {
    for signs in [[1.0; 10], [-1.0; 10]] {
        for lens in shapes() {
            every_flavour!(
                parts_vec,
                parts_vec_grad,
                parts_vec_pullback,
                parts_vec_jvp,
                parts_vec_hvp,
                parts_vec_hessian,
                parts_vec_twin,
                &lens,
                signs
            );
        }
    }
}

/// Two outputs of parts of rows of a `&Vec<Vec<f64>>`: `f_jacobian`'s block for `w` is two
/// blocks of its shape.
#[differentiable(jvp, jacobian, wrt(w, x))]
fn part_sums(w: &Vec<Vec<f64>>, x: &[f64]) -> [f64; 2] {
    let mut a = 0.0;
    let mut b = 0.0;
    for i in 0..w.len() {
        let n = w[i].len();
        if n > 1 {
            a += w[i][1..].iter().zip(x).map(|(p, q)| p * q).sum::<f64>();
            b += dot_part(&w[i][..n - 1], &w[i][1..]) * x[0];
        }
    }
    [a.sin(), b]
}

#[test]
fn parts_of_a_vec_of_vecs_in_f_jacobian_and_f_jvp() {
    for lens in shapes() {
        let n: usize = lens.iter().sum();
        let w = shaped(&ALL[..n], &lens);
        let rows = w.len();
        let mut block: Vec<Vec<f64>> = (0..2).flat_map(|_| zeros(&lens)).collect();
        let mut d_x = [0.0; 6];
        let (value, _) = part_sums_jacobian(&w, &mut block, &X, &mut d_x);
        assert_eq!(value, part_sums(&w, &X));
        let point: Vec<f64> = flat(&w).into_iter().chain(X).collect();
        let v: Vec<f64> = (0..point.len()).map(|k| 0.4 - 0.3 * k as f64).collect();
        let (value, tangent) = part_sums_jvp(&w, &shaped(&v[..n], &lens), &X, &v[n..]);
        assert_eq!(value, part_sums(&w, &X));
        for k in 0..2 {
            let f = |p: &[f64]| part_sums(&shaped(&p[..n], &lens), &p[n..])[k];
            let gradient: Vec<f64> = flat(&block[k * rows..(k + 1) * rows])
                .into_iter()
                .chain(d_x[k * 3..(k + 1) * 3].iter().copied())
                .collect();
            assert_gradient("part_sums_jacobian", f, &point, &gradient);
            let along: f64 = gradient.iter().zip(&v).map(|(g, t)| g * t).sum();
            assert_near("part_sums_jvp", tangent[k], along, 1e-12);
        }
    }
}

/// Rows of a generic float, with a part of each row, in `f_hessian` (whose buffers of the
/// rows' shape came from `Differentiable`, which a generic `T` does not have).
#[differentiable(hessian, wrt(w, t))]
fn generic_rows<T: Float>(w: &[Vec<T>], t: T) -> T {
    let mut s = t * t;
    for i in 0..w.len() {
        for j in 0..w[i].len() {
            s = s + (w[i][j] * t).sin() * w[i][j];
        }
        if !w[i].is_empty() {
            for &v in &w[i][1..] {
                s = s + v * v * t;
            }
        }
    }
    s
}

fn generic_rows_twin<D: DualNum<Primitive = f64> + Copy>(w: &[Vec<D>], t: D) -> D {
    let mut s = t * t;
    for row in w {
        for v in row {
            s += (*v * t).sin() * *v;
        }
        for v in row.iter().skip(1) {
            s += *v * *v * t;
        }
    }
    s
}

#[test]
fn rows_of_a_generic_float_in_f_hessian() {
    for lens in shapes() {
        let n: usize = lens.iter().sum();
        let w = shaped(&ALL[..n], &lens);
        let t = 0.7;
        let point: Vec<f64> = flat(&w).into_iter().chain([t]).collect();
        let k = point.len();
        let mut dense = vec![0.0; k * k];
        let value = generic_rows_hessian(&w, t, &mut dense);
        assert_same_value("generic_rows", value, generic_rows(&w, t), &point);
        common::oracle::Hessian::new("generic_rows_hessian", &point, &dense)
            .dual(|q| generic_rows_twin(&shaped(&q[..n], &lens), q[n]));
        // In f32: the value bit for bit `f`'s, the entries f64's to f32's precision.
        let w32: Vec<Vec<f32>> = w
            .iter()
            .map(|r| r.iter().map(|&v| v as f32).collect())
            .collect();
        let mut dense32 = vec![0.0f32; k * k];
        let value = generic_rows_hessian(&w32, t as f32, &mut dense32);
        assert_eq!(value.to_bits(), generic_rows(&w32, t as f32).to_bits());
        for (a, b) in dense32.iter().zip(&dense) {
            assert_near("generic_rows_hessian f32", f64::from(*a), *b, 1e-4);
        }
    }
}
