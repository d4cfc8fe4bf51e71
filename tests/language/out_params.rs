//! Outputs written through references (issue 24), the form of Rust written for `std::autodiff`
//! and the ADBench ports: a function returning `()` whose outputs are what it leaves in its
//! `&mut` parameters (`out: &mut [f64]`, `err: &mut f64`), and `y: &mut f64` read and written
//! beside a returned `f64`. `f_pullback` takes the outputs' adjoints in their shadows, `f_jvp`
//! writes their tangents, and `f_grad` of a function whose one output is `err: &mut f64` is its
//! gradient. Against central differences and num-dual on generic twins; the values written bit
//! for bit `f`'s.

use crate::common;

use common::{assert_gradient, assert_near};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

/// A residual per entry into `out` (a branch on the sign of `x[i]`), its squared norm into
/// `err`.
#[differentiable(jvp)]
fn residual(x: &[f64], a: f64, out: &mut [f64], err: &mut f64) {
    *err = 0.0;
    for i in 0..x.len() {
        if x[i] > 0.0 {
            out[i] = a * x[i] * x[i] - 1.0;
        } else {
            out[i] = (a * x[i]).sin();
        }
        *err += out[i] * out[i];
    }
}

fn residual_twin<D: DualNum<Primitive = f64> + Copy>(x: &[D], a: D, out: &mut [D], err: &mut D) {
    *err = D::from(0.0);
    for i in 0..x.len() {
        if x[i].re() > 0.0 {
            out[i] = a * x[i] * x[i] - D::from(1.0);
        } else {
            out[i] = (a * x[i]).sin();
        }
        *err += out[i] * out[i];
    }
}

/// The weighted sum `L = Σ c_i out_i + c_e err` of `residual`'s outputs at `(x, a)`.
fn weighted(p: &[f64], c: &[f64], c_err: f64) -> f64 {
    let (x, a) = (&p[..p.len() - 1], p[p.len() - 1]);
    let (mut out, mut err) = (vec![0.0; x.len()], 0.0);
    residual(x, a, &mut out, &mut err);
    out.iter().zip(c).map(|(o, c)| o * c).sum::<f64>() + c_err * err
}

const XS: [&[f64]; 4] = [&[], &[0.7], &[0.7, -0.4, 1.3], &[-1.1, 0.2, -0.3, 2.0]];

#[test]
fn residual_pullback_is_the_weighted_gradient() {
    for x in XS {
        for a in [0.8, -1.5] {
            let c: Vec<f64> = (0..x.len()).map(|i| 0.5 - 0.3 * i as f64).collect();
            let c_err = 0.75;
            let (mut out, mut err) = (vec![0.0; x.len()], 0.0);
            residual(x, a, &mut out, &mut err);
            // The pullback writes the outputs as `f` does; their adjoints go in the shadows.
            let (mut out2, mut err2) = (vec![9.0; x.len()], 9.0);
            let (mut d_out, mut d_err) = (c.clone(), c_err);
            let mut d_x = vec![0.0; x.len()];
            let d_a =
                residual_pullback(x, &mut d_x, a, &mut out2, &mut d_out, &mut err2, &mut d_err);
            assert_eq!(out2, out, "residual_pullback writes out as residual does");
            assert_eq!(
                err2.to_bits(),
                err.to_bits(),
                "residual_pullback writes err"
            );
            let mut gradient = d_x.clone();
            gradient.push(d_a);
            let mut point = x.to_vec();
            point.push(a);
            assert_gradient(
                "residual_pullback",
                |p| weighted(p, &c, c_err),
                &point,
                &gradient,
            );
            // The outputs are only written: the adjoints of their values on entry are zero.
            assert!(
                d_out.iter().all(|d| *d == 0.0),
                "d_out comes out as {d_out:?}"
            );
            assert_eq!(d_err, 0.0);
        }
    }
}

#[test]
fn residual_jvp_writes_the_tangents() {
    for x in XS {
        let a = 0.8;
        let v_x: Vec<f64> = (0..x.len()).map(|i| 0.3 + 0.2 * i as f64).collect();
        let v_a = -0.6;
        let (mut out, mut err) = (vec![0.0; x.len()], 0.0);
        residual(x, a, &mut out, &mut err);
        let (mut out2, mut v_out, mut err2, mut v_err) =
            (vec![0.0; x.len()], vec![0.0; x.len()], 0.0, 0.0);
        residual_jvp(
            x, &v_x, a, v_a, &mut out2, &mut v_out, &mut err2, &mut v_err,
        );
        assert_eq!(out2, out);
        assert_eq!(err2.to_bits(), err.to_bits());
        let dx: Vec<Dual64> = x
            .iter()
            .zip(&v_x)
            .map(|(x, v)| Dual64::new(*x, *v))
            .collect();
        let mut d_out = vec![Dual64::from(0.0); x.len()];
        let mut d_err = Dual64::from(0.0);
        residual_twin(&dx, Dual64::new(a, v_a), &mut d_out, &mut d_err);
        for (tangent, dual) in v_out.iter().zip(&d_out) {
            assert_near("residual_jvp v_out", *tangent, dual.eps, 1e-12);
        }
        assert_near("residual_jvp v_err", v_err, d_err.eps, 1e-12);
    }
}

/// One output written through a reference: `f_grad` is its gradient.
#[differentiable]
fn objective(w: &[f64], b: f64, err: &mut f64) {
    let mut s = b;
    for i in 0..w.len() {
        s += if w[i] > 0.5 { w[i] * w[i] } else { w[i].exp() };
    }
    *err = s.sqrt();
}

fn objective_value(p: &[f64]) -> f64 {
    let mut err = 0.0;
    objective(&p[1..], p[0], &mut err);
    err
}

#[test]
fn objective_grad_is_the_gradient_of_err() {
    for w in [&[][..], &[0.2], &[0.9, -0.3, 0.6]] {
        let b = 1.25;
        let mut d_w = vec![0.0; w.len()];
        let mut err = 7.0;
        let d_b = objective_grad(w, &mut d_w, b, &mut err);
        let mut expected = 0.0;
        objective(w, b, &mut expected);
        assert_eq!(
            err.to_bits(),
            expected.to_bits(),
            "objective_grad writes err as f does"
        );
        let mut point = vec![b];
        point.extend_from_slice(w);
        let mut gradient = vec![d_b];
        gradient.extend(&d_w);
        assert_gradient("objective_grad", objective_value, &point, &gradient);
        // f_pullback seeded with d_err = 1 is the same gradient.
        let (mut d_w2, mut d_err) = (vec![0.0; w.len()], 1.0);
        let d_b2 = objective_pullback(w, &mut d_w2, b, &mut err, &mut d_err);
        assert_eq!((d_b2, d_w2), (d_b, d_w));
    }
}

/// `y: &mut f64` beside a returned `f64`: read, written, and its shadow the gradient with
/// respect to the value it held on entry.
#[differentiable(hvp)]
fn accumulate(x: f64, y: &mut f64) -> f64 {
    let old = *y;
    *y = *y * x + 1.0;
    *y *= 0.5;
    if old > 0.0 {
        old * x.sin() + *y
    } else {
        *y - old
    }
}

fn accumulate_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: &mut D) -> D {
    let old = *y;
    *y = *y * x + D::from(1.0);
    *y *= D::from(0.5);
    if old.re() > 0.0 {
        old * x.sin() + *y
    } else {
        *y - old
    }
}

#[test]
fn a_written_scalar_beside_a_result() {
    for (x, y0) in [(0.4, 1.5), (1.3, -0.7), (-0.9, 0.25)] {
        let mut y = y0;
        let value = accumulate(x, &mut y);
        let (mut y2, mut d_y) = (y0, 0.0);
        let (value2, d_x) = accumulate_grad(x, &mut y2, &mut d_y);
        assert_eq!(value2.to_bits(), value.to_bits());
        assert_eq!(
            y2.to_bits(),
            y.to_bits(),
            "accumulate_grad writes y as f does"
        );
        let f = |p: &[f64]| accumulate(p[0], &mut p[1].clone());
        assert_gradient("accumulate_grad", f, &[x, y0], &[d_x, d_y]);
        // The pullback: adjoints of the result (seed) and of y's final value (its shadow).
        let (mut y3, mut d_y3) = (y0, 0.5);
        let d_x3 = accumulate_pullback(x, &mut y3, &mut d_y3, 2.0);
        let weighted = |p: &[f64]| {
            let mut y = p[1];
            2.0 * accumulate(p[0], &mut y) + 0.5 * y
        };
        assert_gradient("accumulate_pullback", weighted, &[x, y0], &[d_x3, d_y3]);
        // Forward mode against num-dual: the value's tangent and y's.
        let (v_x, v_y0) = (0.3, -1.1);
        let (mut y4, mut v_y) = (y0, v_y0);
        let (value4, tangent) = accumulate_jvp(x, v_x, &mut y4, &mut v_y);
        assert_eq!(value4.to_bits(), value.to_bits());
        let mut dual_y = Dual64::new(y0, v_y0);
        let dual = accumulate_twin(Dual64::new(x, v_x), &mut dual_y);
        assert_near("accumulate_jvp", tangent, dual.eps, 1e-12);
        assert_near("accumulate_jvp v_y", v_y, dual_y.eps, 1e-12);
        // H v against hyper-duals: entry i is e_iᵀ H v, with y at its value on entry.
        let (mut y5, mut v_y5, mut d_y5) = (y0, v_y0, 0.0);
        let (value5, hv_x) = accumulate_hvp(x, v_x, &mut y5, &mut v_y5, &mut d_y5);
        assert_eq!(value5.to_bits(), value.to_bits());
        assert_eq!(
            y5.to_bits(),
            y.to_bits(),
            "accumulate_hvp writes y as f does"
        );
        let second = |e: [f64; 2]| {
            let mut y = HyperDual64::new(y0, e[1], v_y0, 0.0);
            accumulate_twin(HyperDual64::new(x, e[0], v_x, 0.0), &mut y).eps1eps2
        };
        assert_near("accumulate_hvp x", hv_x, second([1.0, 0.0]), 1e-12);
        assert_near("accumulate_hvp y", d_y5, second([0.0, 1.0]), 1e-12);
    }
}

/// ADBench's GMM objective as written for `std::autodiff` (the helpers inlined: a function
/// returning `()` is not yet called from another): `d` dimensions, `k` components, `n` points,
/// the Cholesky factors' log-diagonals and lower entries in `icf`, the Wishart prior's `gamma`
/// and `m`, the negative log-likelihood (up to the prior's log-gamma constant) written into
/// `err`.
#[allow(clippy::too_many_arguments)] // ADBench's signature
#[differentiable(wrt(alphas, means, icf))]
fn gmm_objective(
    d: usize,
    k: usize,
    n: usize,
    alphas: &[f64],
    means: &[f64],
    icf: &[f64],
    x: &[f64],
    gamma: f64,
    m: usize,
    err: &mut f64,
) {
    let icf_sz = d * (d + 1) / 2;
    let mut qdiags = vec![0.0; d * k];
    let mut sum_qs = vec![0.0; k];
    for ik in 0..k {
        for id in 0..d {
            let q = icf[ik * icf_sz + id];
            sum_qs[ik] += q;
            qdiags[ik * d + id] = q.exp();
        }
    }
    let mut xcentered = vec![0.0; d];
    let mut qxcentered = vec![0.0; d];
    let mut main_term = vec![0.0; k];
    let mut slse = 0.0;
    for ix in 0..n {
        for ik in 0..k {
            for id in 0..d {
                xcentered[id] = x[ix * d + id] - means[ik * d + id];
            }
            for id in 0..d {
                qxcentered[id] = qdiags[ik * d + id] * xcentered[id];
            }
            let mut lparams = d;
            for i in 0..d {
                for j in i + 1..d {
                    qxcentered[j] += icf[ik * icf_sz + lparams] * xcentered[i];
                    lparams += 1;
                }
            }
            let mut sqnorm = 0.0;
            for id in 0..d {
                sqnorm += qxcentered[id] * qxcentered[id];
            }
            main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm;
        }
        let mut mx = main_term[0];
        for ik in 1..k {
            if main_term[ik] > mx {
                mx = main_term[ik];
            }
        }
        let mut semx = 0.0;
        for ik in 0..k {
            semx += (main_term[ik] - mx).exp();
        }
        slse += semx.ln() + mx;
    }
    let mut amax = alphas[0];
    for ik in 1..k {
        if alphas[ik] > amax {
            amax = alphas[ik];
        }
    }
    let mut sea = 0.0;
    for ik in 0..k {
        sea += (alphas[ik] - amax).exp();
    }
    let lse_alphas = sea.ln() + amax;
    let constant = -(n as f64) * d as f64 * 0.5 * (2.0 * std::f64::consts::PI).ln();
    let mut prior = 0.0;
    for ik in 0..k {
        let mut frobenius = 0.0;
        for id in 0..d {
            frobenius += qdiags[ik * d + id] * qdiags[ik * d + id];
        }
        for i in d..icf_sz {
            frobenius += icf[ik * icf_sz + i] * icf[ik * icf_sz + i];
        }
        prior += 0.5 * gamma * gamma * frobenius - m as f64 * sum_qs[ik];
    }
    *err = constant + slse - n as f64 * lse_alphas + prior;
}

#[test]
fn gmm_objective_against_central_differences() {
    let (d, k) = (3, 2);
    let icf_sz = d * (d + 1) / 2;
    let alphas = [0.3, -0.2];
    let means = [0.1, 0.5, -0.4, -0.3, 0.2, 0.8];
    let icf: Vec<f64> = (0..k * icf_sz).map(|i| 0.1 * i as f64 - 0.35).collect();
    let points: Vec<f64> = (0..5 * d).map(|i| (i as f64 * 0.7).sin()).collect();
    // No points, one, and many: the log-sum-exp's maximum changes component across them.
    for n in [0, 1, 5] {
        let x = &points[..n * d];
        let value = |p: &[f64]| {
            let mut err = 0.0;
            gmm_objective(d, k, n, &p[..2], &p[2..8], &p[8..], x, 1.5, 2, &mut err);
            err
        };
        let mut err = 0.0;
        let (mut d_alphas, mut d_means, mut d_icf) = ([0.0; 2], [0.0; 6], vec![0.0; icf.len()]);
        gmm_objective_grad(
            d,
            k,
            n,
            &alphas,
            &mut d_alphas,
            &means,
            &mut d_means,
            &icf,
            &mut d_icf,
            x,
            1.5,
            2,
            &mut err,
        );
        let mut point = alphas.to_vec();
        point.extend(means);
        point.extend(&icf);
        assert_eq!(
            err.to_bits(),
            value(&point).to_bits(),
            "gmm_objective_grad writes err"
        );
        let mut gradient = d_alphas.to_vec();
        gradient.extend(d_means);
        gradient.extend(&d_icf);
        assert_gradient("gmm_objective_grad", value, &point, &gradient);
        // The pullback seeded through `d_err`: the same gradient, scaled.
        let (mut p_alphas, mut p_means, mut p_icf) = ([0.0; 2], [0.0; 6], vec![0.0; icf.len()]);
        let mut d_err = 2.0;
        // The pullback differentiates every float: `&mut []` skips the points' partials.
        gmm_objective_pullback(
            d,
            k,
            n,
            &alphas,
            &mut p_alphas,
            &means,
            &mut p_means,
            &icf,
            &mut p_icf,
            x,
            &mut [],
            1.5,
            2,
            &mut err,
            &mut d_err,
        );
        for (a, b) in p_icf.iter().zip(&d_icf) {
            assert_near("gmm_objective_pullback", *a, 2.0 * b, 1e-12);
        }
    }
}
