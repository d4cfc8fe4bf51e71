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
        for i in 0..3 {
            let f = through_out(i);
            common::assert_partial(&format!("through out{i}/x{j}"), f, &X, j, v_out[i]);
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
        for i in 0..3 {
            let f = running_out(i);
            common::assert_partial(&format!("running out{i}/x{j}"), f, &X, j, v_out[i]);
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
