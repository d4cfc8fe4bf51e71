//! A function returning `()` that writes a `&mut` parameter `wrt(..)` leaves out, beside the
//! outputs it lists (issue 24): the left-out one is written as `f` writes it, takes no tangent,
//! and its value on entry is a constant, but what it carries from the inputs into the chosen
//! outputs is differentiated. `f_jvp` and `f_jacobian` (and `f_pullback`, which covers every
//! parameter) against central differences of `f` itself.

use crate::common;
use micrograd_runtime::prelude::*;

/// `extra` is a scratch array: read on entry, written from `x` and `s`, read back into `out`.
#[differentiable(jvp, jacobian, wrt(x, out))]
fn through(x: &[f64], s: f64, extra: &mut [f64], out: &mut [f64]) {
    for i in 0..x.len() {
        extra[i] = 0.5 * extra[i] + s * x[i].sin();
        out[i] = extra[i] * x[i] + x[(i + 1) % x.len()];
    }
}

/// A `&mut f64` left out, accumulated onto its value on entry and read into each output.
#[differentiable(jvp, jacobian, wrt(x, out))]
fn running(x: &[f64], acc: &mut f64, out: &mut [f64]) {
    for i in 0..x.len() {
        *acc += x[i] * x[i];
        out[i] = *acc * x[i];
    }
}

const X: [f64; 3] = [0.7, -0.4, 1.3];
const S: f64 = 1.9;
const EXTRA: [f64; 3] = [0.3, -1.2, 2.5];
const ACC: f64 = 0.75;

/// `through`'s output `i` as a function of `x` alone, from `extra`'s entry values.
fn through_out(i: usize) -> impl Fn(&[f64]) -> f64 {
    move |x: &[f64]| {
        let (mut extra, mut out) = (EXTRA, [0.0; 3]);
        through(x, S, &mut extra, &mut out);
        out[i]
    }
}

fn running_out(i: usize) -> impl Fn(&[f64]) -> f64 {
    move |x: &[f64]| {
        let (mut acc, mut out) = (ACC, [0.0; 3]);
        running(x, &mut acc, &mut out);
        out[i]
    }
}

/// `J e_j` by `f_jvp` along each unit vector, as a column per `j`; the left-out parameter
/// written as `f` writes it every time.
#[test]
fn through_jvp_against_central_differences() {
    let (mut want_extra, mut want_out) = (EXTRA, [0.0; 3]);
    through(&X, S, &mut want_extra, &mut want_out);
    for j in 0..3 {
        let mut v = [0.0; 3];
        v[j] = 1.0;
        let (mut extra, mut out, mut v_out) = (EXTRA, [0.0; 3], [0.0; 3]);
        through_jvp(&X, &v, S, &mut extra, &mut out, &mut v_out);
        assert_eq!((extra, out), (want_extra, want_out), "written as `f` does");
        for (i, &t) in v_out.iter().enumerate() {
            let f = through_out(i);
            common::assert_partial(&format!("through out{i}/x{j}"), f, &X, j, t);
        }
    }
}

#[test]
fn through_jacobian_against_central_differences() {
    let (mut extra, mut out, mut d_x) = (EXTRA, [0.0; 3], [0.0; 9]);
    through_jacobian(&X, &mut d_x, S, &mut extra, &mut out);
    let (mut want_extra, mut want_out) = (EXTRA, [0.0; 3]);
    through(&X, S, &mut want_extra, &mut want_out);
    assert_eq!((extra, out), (want_extra, want_out), "written as `f` does");
    for i in 0..3 {
        common::assert_gradient(
            &format!("through out{i}"),
            through_out(i),
            &X,
            &d_x[3 * i..3 * i + 3],
        );
    }
}

#[test]
fn running_jvp_and_jacobian_against_central_differences() {
    let (mut want_acc, mut want_out) = (ACC, [0.0; 3]);
    running(&X, &mut want_acc, &mut want_out);
    for j in 0..3 {
        let mut v = [0.0; 3];
        v[j] = 1.0;
        let (mut acc, mut out, mut v_out) = (ACC, [0.0; 3], [0.0; 3]);
        running_jvp(&X, &v, &mut acc, &mut out, &mut v_out);
        assert_eq!((acc, out), (want_acc, want_out), "written as `f` does");
        for (i, &t) in v_out.iter().enumerate() {
            let f = running_out(i);
            common::assert_partial(&format!("running out{i}/x{j}"), f, &X, j, t);
        }
    }
    let (mut acc, mut out, mut d_x) = (ACC, [0.0; 3], [0.0; 9]);
    running_jacobian(&X, &mut d_x, &mut acc, &mut out);
    assert_eq!((acc, out), (want_acc, want_out), "written as `f` does");
    for i in 0..3 {
        common::assert_gradient(
            &format!("running out{i}"),
            running_out(i),
            &X,
            &d_x[3 * i..3 * i + 3],
        );
    }
}

/// `f_pullback` covers every parameter: with `out`'s shadow seeded with `e_i` and `extra`'s
/// zero, `d_x` is row `i` of the Jacobian and the returned partial is `∂out_i/∂s`.
#[test]
fn through_pullback_against_central_differences() {
    for i in 0..3 {
        let (mut extra, mut out, mut d_x) = (EXTRA, [0.0; 3], [0.0; 3]);
        let (mut d_extra, mut d_out) = ([0.0; 3], [0.0; 3]);
        d_out[i] = 1.0;
        let d_s = through_pullback(
            &X,
            &mut d_x,
            S,
            &mut extra,
            &mut d_extra,
            &mut out,
            &mut d_out,
        );
        common::assert_gradient(&format!("through out{i}"), through_out(i), &X, &d_x);
        let of_s = |p: &[f64]| {
            let (mut extra, mut out) = (EXTRA, [0.0; 3]);
            through(&X, p[0], &mut extra, &mut out);
            out[i]
        };
        common::assert_gradient(&format!("through out{i}/s"), of_s, &[S], &[d_s]);
        // ∂out_i/∂extra_i on entry is 0.5 x_i; the others are zero.
        let of_extra = |e: &[f64]| {
            let (mut extra, mut out) = ([e[0], e[1], e[2]], [0.0; 3]);
            through(&X, S, &mut extra, &mut out);
            out[i]
        };
        common::assert_gradient(&format!("through out{i}/extra"), of_extra, &EXTRA, &d_extra);
    }
}

/// Beside a returned `f64`: `w` left out, read on entry, written and read back.
#[differentiable(hessian, wrt(x))]
fn energy(x: &[f64], w: &mut [f64]) -> f64 {
    let mut e = 0.0;
    for i in 0..x.len() {
        w[i] = w[i] * x[i] + x[i].sin();
        e += w[i] * w[i];
    }
    e
}

fn energy_of(x: &[f64]) -> f64 {
    let mut w = EXTRA;
    energy(x, &mut w)
}

/// `f_grad`, `f_jvp`, `f_hvp` and `f_hessian` of `energy`: the gradient and each `H e_j` against central
/// differences of `f` and of `f_grad`'s central-difference-checked gradient.
#[test]
fn returned_value_beside_a_left_out_array() {
    let (mut w, mut d_x) = (EXTRA, [0.0; 3]);
    let value = energy_grad(&X, &mut d_x, &mut w);
    let mut want_w = EXTRA;
    assert_eq!(value, energy(&X, &mut want_w));
    assert_eq!(w, want_w, "written as `f` does");
    common::assert_gradient("energy", energy_of, &X, &d_x);
    for j in 0..3 {
        let mut v = [0.0; 3];
        v[j] = 1.0;
        let mut w = EXTRA;
        let (value, tangent) = energy_jvp(&X, &v, &mut w);
        assert_eq!((value, w), (energy_of(&X), want_w));
        common::assert_near("energy jvp", tangent, d_x[j], 1e-12);
        let (mut w, mut h_v) = (EXTRA, [0.0; 3]);
        energy_hvp(&X, &v, &mut h_v, &mut w);
        assert_eq!(w, want_w, "written as `f` does");
        for i in 0..3 {
            let partial = |p: &[f64]| {
                let (mut w, mut d) = (EXTRA, [0.0; 3]);
                energy_grad(p, &mut d, &mut w);
                d[i]
            };
            common::assert_partial(&format!("energy H{i}{j}"), partial, &X, j, h_v[i]);
        }
    }
    let (mut w, mut hess) = (EXTRA, [0.0; 9]);
    let value = energy_hessian(&X, &mut w, &mut hess);
    assert_eq!((value, w), (energy_of(&X), want_w));
    for j in 0..3 {
        let mut v = [0.0; 3];
        v[j] = 1.0;
        let (mut w, mut h_v) = (EXTRA, [0.0; 3]);
        energy_hvp(&X, &v, &mut h_v, &mut w);
        for i in 0..3 {
            common::assert_near("energy hessian", hess[3 * i + j], h_v[i], 1e-12);
        }
    }
}

/// Two returned values beside `w` left out, read on entry, written and read back.
#[differentiable(jvp, jacobian, wrt(x))]
fn pair(x: &[f64], w: &mut [f64]) -> [f64; 2] {
    let mut a = 0.0;
    let mut b = 1.0;
    for i in 0..x.len() {
        w[i] = 0.5 * w[i] + x[i] * x[i];
        a += w[i].sin();
        b *= w[i] + x[i];
    }
    [a, b]
}

fn pair_of(k: usize) -> impl Fn(&[f64]) -> f64 {
    move |x: &[f64]| {
        let mut w = EXTRA;
        pair(x, &mut w)[k]
    }
}

/// `f_jacobian`'s rows, `f_jvp`'s columns and `f_pullback` of `pair` against central
/// differences of `f`, `w` written as `f` writes it each time.
#[test]
fn returned_pair_beside_a_left_out_array() {
    let mut want_w = EXTRA;
    let want = pair(&X, &mut want_w);
    let (mut w, mut d_x) = (EXTRA, [0.0; 6]);
    let (value, _) = pair_jacobian(&X, &mut d_x, &mut w);
    assert_eq!((value, w), (want, want_w), "written as `f` does");
    for k in 0..2 {
        let row = &d_x[3 * k..3 * k + 3];
        common::assert_gradient(&format!("pair {k}"), pair_of(k), &X, row);
    }
    for j in 0..3 {
        let mut v = [0.0; 3];
        v[j] = 1.0;
        let mut w = EXTRA;
        let (value, tangent) = pair_jvp(&X, &v, &mut w);
        assert_eq!((value, w), (want, want_w), "written as `f` does");
        for (k, &t) in tangent.iter().enumerate() {
            common::assert_partial(&format!("pair {k}/x{j}"), pair_of(k), &X, j, t);
        }
    }
}

/// One `f64` and three outputs (`f_jacobian` by one forward sweep) beside `w` left out.
#[differentiable(jacobian, wrt(a))]
fn triple(a: f64, w: &mut [f64]) -> [f64; 3] {
    for i in 0..w.len() {
        w[i] = w[i] * a + a * a;
    }
    [w[0] * w[1], w[2].exp(), a * w[0]]
}

#[test]
fn forward_columns_beside_a_left_out_array() {
    let a = 0.6;
    let mut want_w = EXTRA;
    let want = triple(a, &mut want_w);
    let mut w = EXTRA;
    let (value, rows) = triple_jacobian(a, &mut w);
    assert_eq!((value, w), (want, want_w), "written as `f` does");
    for (k, row) in rows.iter().enumerate() {
        let of_a = |p: &[f64]| {
            let mut w = EXTRA;
            triple(p[0], &mut w)[k]
        };
        common::assert_gradient(&format!("triple {k}"), of_a, &[a], row);
    }
}

/// A `&mut f64` left out beside two returned values, read on entry, written and read back.
#[differentiable(jvp, jacobian, wrt(x))]
fn tally(x: &[f64], y: &mut f64) -> [f64; 2] {
    let mut a = 0.0;
    for i in 0..x.len() {
        *y = *y * 0.5 + x[i] * x[i];
        a += *y;
    }
    [a, *y * x[0]]
}

fn tally_of(k: usize) -> impl Fn(&[f64]) -> f64 {
    move |x: &[f64]| {
        let mut y = ACC;
        tally(x, &mut y)[k]
    }
}

/// `f_jacobian` (which did not compile with a `&mut f64` parameter: it read it as a slice
/// without taking it as one) and `f_jvp` of `tally` against central differences of `f`.
#[test]
fn a_left_out_scalar_beside_two_returned_values() {
    let mut want_y = ACC;
    let want = tally(&X, &mut want_y);
    let (mut y, mut d_x) = (ACC, [0.0; 6]);
    let (value, _) = tally_jacobian(&X, &mut d_x, &mut y);
    assert_eq!((value, y), (want, want_y), "written as `f` does");
    for k in 0..2 {
        let row = &d_x[3 * k..3 * k + 3];
        common::assert_gradient(&format!("tally {k}"), tally_of(k), &X, row);
    }
    for j in 0..3 {
        let mut v = [0.0; 3];
        v[j] = 1.0;
        let mut y = ACC;
        let (value, tangent) = tally_jvp(&X, &v, &mut y);
        assert_eq!((value, y), (want, want_y), "written as `f` does");
        for (k, &t) in tangent.iter().enumerate() {
            common::assert_partial(&format!("tally {k}/x{j}"), tally_of(k), &X, j, t);
        }
    }
}
