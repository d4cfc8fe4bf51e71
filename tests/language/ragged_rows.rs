//! Rows of their own lengths differentiated (issue 24): `w: &[Vec<f64>]`, listed in
//! `wrt(..)` (else data, as before), followed by its shadow `d_w: &mut [Vec<f64>]` of the same
//! shape, its tangent of its type in `f_jvp` and `f_hvp`, its entries row-major in
//! `f_hessian`; read as `w[i][j]`, `w[i].len()`, `for row in w`, `for &x in &w[i]`,
//! `w[i].iter().zip(x)` sums, `&w[i]` passed to a helper, `w.len()` rows. With 0, 1 and many
//! rows of different lengths (an empty one among them), against central differences and
//! num-dual on generic twins written by hand, the value bit for bit `f`'s, at points that
//! cross the branches.

#![allow(clippy::needless_range_loop)] // rows are walked by index, as such code is written

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

#[differentiable(hvp, hessian)]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>()
}

/// Every read of rows the brief names, through a helper per row and a branch per row.
#[differentiable(hvp, hessian, wrt(w, x))]
fn ragged(w: &[Vec<f64>], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        let y = dot(&w[i], x);
        s += if y > 0.0 { y * y } else { -0.5 * y * x[0] };
    }
    for row in w {
        s += row.iter().map(|v| v.sin()).sum::<f64>() * x[1];
    }
    for i in 0..w.len() {
        for &v in &w[i] {
            s += v * v * x[2];
        }
        s += w[i].iter().zip(x).map(|(a, b)| a * b).sum::<f64>() * (w[i].len() as f64);
        for j in 0..w[i].len() {
            s += w[i][j] * x[j] * w[i][w[i].len() - 1 - j];
        }
    }
    s
}

fn ragged_twin<D: DualNum<Primitive = f64> + Copy>(w: &[Vec<D>], x: &[D]) -> D {
    let mut s = D::from(0.0);
    for row in w {
        let mut y = D::from(0.0);
        for (a, b) in row.iter().zip(x) {
            y += *a * *b;
        }
        s += if y.re() > 0.0 {
            y * y
        } else {
            -y * D::from(0.5) * x[0]
        };
    }
    for row in w {
        let mut t = D::from(0.0);
        for v in row {
            t += v.sin();
        }
        s += t * x[1];
    }
    for row in w {
        for v in row {
            s += *v * *v * x[2];
        }
        let mut z = D::from(0.0);
        for (a, b) in row.iter().zip(x) {
            z += *a * *b;
        }
        s += z * D::from(row.len() as f64);
        for j in 0..row.len() {
            s += row[j] * x[j] * row[row.len() - 1 - j];
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

#[test]
fn rows_of_their_own_lengths_in_every_flavour() {
    let x = [0.6, -1.1, 0.9, 0.4];
    let all = [0.5, -0.3, 1.2, -0.8, 0.4, 0.7, 1.1, 0.2, -0.6, -0.4];
    for lens in [vec![], vec![3], vec![2, 0, 4, 1, 3]] {
        let n: usize = lens.iter().sum();
        let w = shaped(&all[..n], &lens);
        let f = |p: &[f64]| ragged(&shaped(&p[..n], &lens), &p[n..]);
        let point: Vec<f64> = flat(&w).into_iter().chain(x).collect();
        // f_grad: the shadow has the parameter's shape.
        let mut d_w: Vec<Vec<f64>> = lens.iter().map(|&k| vec![0.0; k]).collect();
        let mut d_x = [0.0; 4];
        let value = ragged_grad(&w, &mut d_w, &x, &mut d_x);
        assert_same_value("ragged", value, ragged(&w, &x), &point);
        let gradient: Vec<f64> = flat(&d_w).into_iter().chain(d_x).collect();
        assert_gradient("ragged", f, &point, &gradient);
        let (_, dual) = common::oracle::dual_gradient(
            |q| ragged_twin(&shaped(&q[..n], &lens), &q[n..]),
            &point,
        );
        for (k, (g, d)) in gradient.iter().zip(&dual).enumerate() {
            assert_near(&format!("ragged d[{k}] (num-dual)"), *g, *d, 1e-12);
        }
        // f_pullback: a seed, shadows of the same shape.
        let mut d_w: Vec<Vec<f64>> = lens.iter().map(|&k| vec![0.0; k]).collect();
        let mut d_x = [0.0; 4];
        ragged_pullback(&w, &mut d_w, &x, &mut d_x, 2.0);
        let pulled: Vec<f64> = flat(&d_w).into_iter().chain(d_x).collect();
        for (p, g) in pulled.iter().zip(&gradient) {
            assert_near("ragged_pullback", *p, 2.0 * g, 1e-12);
        }
        // f_jvp against Dual64 on the twin.
        let v: Vec<f64> = (0..point.len()).map(|k| 0.3 - 0.2 * k as f64).collect();
        let (v_w, v_x) = (shaped(&v[..n], &lens), &v[n..]);
        let (value, tangent) = ragged_jvp(&w, &v_w, &x, v_x);
        assert_same_value("ragged_jvp", value, ragged(&w, &x), &point);
        let duals: Vec<Dual64> = point
            .iter()
            .zip(&v)
            .map(|(&p, &t)| Dual64::new(p, t))
            .collect();
        let twin = ragged_twin(&shaped(&duals[..n], &lens), &duals[n..]);
        assert_near("ragged_jvp", tangent, twin.eps, 1e-12);
        // f_hvp and f_hessian against HyperDual64.
        let h = common::oracle::dual_hessian(
            |q: &[HyperDual64]| ragged_twin(&shaped(&q[..n], &lens), &q[n..]),
            &point,
        );
        let mut hv_w: Vec<Vec<f64>> = lens.iter().map(|&k| vec![0.0; k]).collect();
        let mut hv_x = [0.0; 4];
        let value = ragged_hvp(&w, &v_w, &mut hv_w, &x, v_x, &mut hv_x);
        assert_same_value("ragged_hvp", value, ragged(&w, &x), &point);
        let hv: Vec<f64> = flat(&hv_w).into_iter().chain(hv_x).collect();
        for (i, row) in h.iter().enumerate() {
            let expected: f64 = row.iter().zip(&v).map(|(a, b)| a * b).sum();
            assert_near("ragged_hvp", hv[i], expected, 1e-10);
        }
        let k = point.len();
        let mut dense = vec![0.0; k * k];
        let value = ragged_hessian(&w, &x, &mut dense);
        assert_same_value("ragged_hessian", value, ragged(&w, &x), &point);
        for i in 0..k {
            for j in 0..k {
                assert_near("ragged_hessian", dense[i * k + j], h[i][j], 1e-10);
            }
        }
    }
}

/// Rows by their iterators: `enumerate`, `map` of a row's sum, `zip` of two rows' entries,
/// a row's entries through `iter().sum()`, and a loop over the rows from the last.
#[differentiable(jvp, wrt(w, t))]
fn chains(w: &[Vec<f64>], t: f64) -> f64 {
    let mut s = 0.0;
    for (i, row) in w.iter().enumerate() {
        s += row.iter().map(|v| v * t).sum::<f64>() * (i as f64 + 1.0);
    }
    s += w
        .iter()
        .map(|row| row.iter().sum::<f64>().tanh())
        .sum::<f64>();
    for i in (0..w.len()).rev() {
        if w[i].len() > 1 {
            s += w[i]
                .iter()
                .zip(w[i].iter().skip(1))
                .map(|(a, b)| a * b)
                .sum::<f64>();
        }
        s += w[i].iter().sum::<f64>() * t * t;
    }
    s
}

fn chains_twin<D: DualNum<Primitive = f64> + Copy>(w: &[Vec<D>], t: D) -> D {
    let mut s = D::from(0.0);
    for (i, row) in w.iter().enumerate() {
        let mut r = D::from(0.0);
        for v in row {
            r += *v * t;
        }
        s += r * D::from(i as f64 + 1.0);
    }
    for row in w {
        let mut r = D::from(0.0);
        for v in row {
            r += *v;
        }
        s += r.tanh();
    }
    for row in w.iter().rev() {
        for j in 1..row.len() {
            s += row[j - 1] * row[j];
        }
        let mut r = D::from(0.0);
        for v in row {
            r += *v;
        }
        s += r * t * t;
    }
    s
}

#[test]
fn rows_of_their_own_lengths_through_iterators() {
    let all = [0.5, -0.3, 1.2, -0.8, 0.4, 0.7, 1.1, 0.2, -0.6, -0.4];
    for lens in [vec![], vec![1], vec![3, 0, 2, 4, 1]] {
        let n: usize = lens.iter().sum();
        let w = shaped(&all[..n], &lens);
        let t = 0.7;
        let point: Vec<f64> = flat(&w).into_iter().chain([t]).collect();
        let mut d_w: Vec<Vec<f64>> = lens.iter().map(|&k| vec![0.0; k]).collect();
        let (value, d_t) = chains_grad(&w, &mut d_w, t);
        let gradient: Vec<f64> = flat(&d_w).into_iter().chain([d_t]).collect();
        let f = |p: &[f64]| chains(&shaped(&p[..n], &lens), p[n]);
        common::oracle::Gradient::new("chains", &point, (value, &gradient))
            .central(f)
            .dual(|q| chains_twin(&shaped(&q[..n], &lens), q[n]));
        let v: Vec<f64> = (0..point.len()).map(|k| 0.5 - 0.15 * k as f64).collect();
        let (value, tangent) = chains_jvp(&w, &shaped(&v[..n], &lens), t, v[n]);
        assert_same_value("chains_jvp", value, chains(&w, t), &point);
        let expected: f64 = gradient.iter().zip(&v).map(|(g, d)| g * d).sum();
        assert_near("chains_jvp", tangent, expected, 1e-12);
    }
}

/// In `f32`: the shadow `&mut [Vec<f32>]`.
#[differentiable(wrt(w))]
fn norm_f32(w: &[Vec<f32>], x: &[f32]) -> f32 {
    let mut s = 0.0;
    for row in w {
        let y = row.iter().zip(x).map(|(a, b)| a * b).sum::<f32>();
        s += y * y;
    }
    s
}

#[test]
fn rows_of_their_own_lengths_in_f32() {
    let w = vec![vec![1.0f32, 2.0], vec![3.0], vec![]];
    let x = [1.0f32, -1.0];
    let mut d_w = vec![vec![0.0f32; 2], vec![0.0], vec![]];
    let value = norm_f32_grad(&w, &mut d_w, &x);
    assert_eq!(value.to_bits(), norm_f32(&w, &x).to_bits());
    // y = (-1, 3): 2 yᵢ xⱼ, exact in f32.
    assert_eq!(d_w, [vec![-2.0, 2.0], vec![6.0], vec![]]);
}

#[test]
#[should_panic(expected = "the shadow `d_w` has 1 entries but `w` has 2")]
fn a_shadow_of_another_number_of_rows_is_the_callers_mistake() {
    let w = [vec![1.0f32], vec![2.0]];
    norm_f32_grad(&w, &mut [vec![0.0f32]], &[1.0f32]);
}

/// Two outputs: `f_jacobian`'s block for `w` is two blocks of its shape, one per output.
#[differentiable(jacobian, wrt(w, x))]
fn two_sums(w: &[Vec<f64>], x: &[f64]) -> [f64; 2] {
    let mut a = 0.0;
    let mut b = 0.0;
    for row in w {
        a += row.iter().zip(x).map(|(p, q)| p * q).sum::<f64>();
        b += row.iter().map(|p| p * p).sum::<f64>() * x[0];
    }
    [a.sin(), b]
}

#[test]
fn jacobian_blocks_of_rows_of_their_own_lengths() {
    let x = [0.7, -0.2, 0.4];
    for lens in [vec![], vec![2], vec![3, 0, 1]] {
        let n: usize = lens.iter().sum();
        let all = [0.5, 1.2, -0.3, 0.4, 0.9];
        let w = shaped(&all[..n], &lens);
        let rows = w.len();
        let mut block: Vec<Vec<f64>> = (0..2)
            .flat_map(|_| lens.iter().map(|&k| vec![0.0; k]))
            .collect();
        let mut d_x = [0.0; 6];
        let (value, _) = two_sums_jacobian(&w, &mut block, &x, &mut d_x);
        assert_eq!(value, two_sums(&w, &x));
        let point: Vec<f64> = flat(&w).into_iter().chain(x).collect();
        for k in 0..2 {
            let f = |p: &[f64]| two_sums(&shaped(&p[..n], &lens), &p[n..])[k];
            let gradient: Vec<f64> = flat(&block[k * rows..(k + 1) * rows])
                .into_iter()
                .chain(d_x[k * 3..(k + 1) * 3].iter().copied())
                .collect();
            assert_gradient("two_sums_jacobian", f, &point, &gradient);
        }
    }
}

/// A helper over rows of their own lengths, called with the caller's rows whole.
#[differentiable(hvp, wrt(w, t))]
fn row_norms(w: &[Vec<f64>], t: f64) -> f64 {
    let mut s = 0.0;
    for row in w {
        s += (row.iter().map(|v| v * v).sum::<f64>() + t).sqrt();
    }
    s
}

#[differentiable(hvp, hessian, wrt(w, t))]
fn rows_whole(w: &[Vec<f64>], t: f64) -> f64 {
    let a = row_norms(w, t * t);
    let mut b = 0.0;
    for i in 0..w.len() {
        b += dot(&w[i], &w[i]) * t;
    }
    a * b + row_norms(w, 1.0)
}

fn rows_whole_twin<D: DualNum<Primitive = f64> + Copy>(w: &[Vec<D>], t: D) -> D {
    let norms = |t: D| {
        let mut s = D::from(0.0);
        for row in w {
            let mut r = D::from(0.0);
            for v in row {
                r += *v * *v;
            }
            s += (r + t).sqrt();
        }
        s
    };
    let mut b = D::from(0.0);
    for row in w {
        for v in row {
            b += *v * *v * t;
        }
    }
    norms(t * t) * b + norms(D::from(1.0))
}

#[test]
fn rows_of_their_own_lengths_passed_whole_to_a_call() {
    let all = [0.5, -0.3, 1.2, -0.8, 0.4, 0.7];
    for lens in [vec![], vec![2], vec![3, 0, 1, 2]] {
        let n: usize = lens.iter().sum();
        let w = shaped(&all[..n], &lens);
        let t = 0.8;
        let point: Vec<f64> = flat(&w).into_iter().chain([t]).collect();
        let mut d_w: Vec<Vec<f64>> = lens.iter().map(|&k| vec![0.0; k]).collect();
        let (value, d_t) = rows_whole_grad(&w, &mut d_w, t);
        let gradient: Vec<f64> = flat(&d_w).into_iter().chain([d_t]).collect();
        common::oracle::Gradient::new("rows_whole", &point, (value, &gradient))
            .central(|p| rows_whole(&shaped(&p[..n], &lens), p[n]))
            .dual(|q| rows_whole_twin(&shaped(&q[..n], &lens), q[n]));
        let k = point.len();
        let mut dense = vec![0.0; k * k];
        let value = rows_whole_hessian(&w, t, &mut dense);
        assert_same_value("rows_whole_hessian", value, rows_whole(&w, t), &point);
        common::oracle::Hessian::new("rows_whole_hessian", &point, &dense)
            .dual(|q| rows_whole_twin(&shaped(&q[..n], &lens), q[n]));
    }
}

/// `for &v in &a[i]` over a row of rows of one length (`&[[f64; N]]`), which the same change
/// let through (it was refused as one value).
#[differentiable(wrt(a))]
fn row_items(a: &[[f64; 3]], t: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len() {
        for &v in &a[i] {
            s += (v * t).sin() * (i as f64 + 1.0);
        }
    }
    s
}

#[test]
fn a_row_of_rows_of_one_length_in_a_for_over_items() {
    let a = [[0.5, -0.3, 1.2], [-0.8, 0.4, 0.7]];
    let t = 0.9;
    let mut d_a = [[0.0; 3]; 2];
    let value = row_items_grad(&a, &mut d_a, t);
    let point: Vec<f64> = a.iter().flatten().copied().collect();
    let f = |p: &[f64]| row_items(&[[p[0], p[1], p[2]], [p[3], p[4], p[5]]], t);
    assert_same_value("row_items", value, row_items(&a, t), &point);
    assert_gradient("row_items", f, &point, d_a.as_flattened());
}
