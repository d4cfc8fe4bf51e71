//! Calls of functions that return `()` and write their outputs through `&mut` parameters (issue
//! 24), from another `#[differentiable]` function: the caller lends a local array or its own
//! `&mut [f64]` parameter (`residual(x, a, &mut r);`, `rhs(&y, &mut k);`), and the adjoints of
//! what the callee wrote flow back through its pullback, which takes no seed. Before, the caller
//! passed one and the generated code did not compile. `f_grad` and `f_pullback` against central
//! differences, with 0, 1 and many entries, at points on both sides of the callee's branch; the
//! values bit for bit `f`'s. A callee returning an `f64` dropped by the statement keeps working
//! (tests/language/lent_arrays.rs).

use crate::common;

use common::assert_gradient;
use micrograd_runtime::prelude::*;

/// One residual per entry, a branch on its sign.
#[differentiable]
fn residual(x: &[f64], a: f64, out: &mut [f64]) {
    for i in 0..x.len() {
        if x[i] > 0.0 {
            out[i] = a * x[i] * x[i] - 1.0;
        } else {
            out[i] = (a * x[i]).sin();
        }
    }
}

/// The squared norm of the residual, through a local `Vec` lent to `residual`.
#[differentiable]
fn fit(x: &[f64], a: f64) -> f64 {
    let mut r = vec![0.0; x.len()];
    residual(x, a, &mut r);
    let mut s = 0.0;
    for i in 0..r.len() {
        s += r[i] * r[i];
    }
    s + a
}

/// The right-hand side of an ODE written into `k` (ode's `rhs(x, y, &mut k)`).
#[differentiable]
fn rhs(y: &[f64], k: &mut [f64]) {
    let n = y.len();
    for i in 0..n {
        k[i] = (y[i] * y[(i + 1) % n]).tanh() - 0.5 * y[i];
    }
}

/// Heun's step through `rhs`: twice, into two local arrays, the second from a local array
/// built between the calls.
#[differentiable]
fn heun(y0: &[f64], h: f64) -> f64 {
    let n = y0.len();
    let mut k1 = vec![0.0; n];
    rhs(y0, &mut k1);
    let mut y1 = vec![0.0; n];
    for i in 0..n {
        y1[i] = y0[i] + h * k1[i];
    }
    let mut k2 = vec![0.0; n];
    rhs(&y1, &mut k2);
    let mut s = 0.0;
    for i in 0..n {
        s += (y0[i] + 0.5 * h * (k1[i] + k2[i])) * (i as f64 + 1.0);
    }
    s
}

/// `rhs` called in a loop into one local array, read after each call.
#[differentiable]
fn repeated(y0: &[f64], h: f64, steps: usize) -> f64 {
    let mut k = vec![0.0; y0.len()];
    let mut s = h;
    for j in 0..steps {
        rhs(y0, &mut k);
        for i in 0..k.len() {
            s = s * h + k[i] * (j as f64 + 1.0);
            k[i] = 0.5 * k[i] + s;
        }
    }
    s
}

/// One output written into a one-entry array (`err: &mut [f64]`), the form a caller lends.
#[differentiable]
fn objective(w: &[f64], err: &mut [f64]) {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += w[i] * w[i];
    }
    err[0] = (s + 1.0).sqrt();
}

/// `objective` called for its one output, then read.
#[differentiable]
fn scaled(w: &[f64], c: f64) -> f64 {
    let mut e = [0.0];
    objective(w, &mut e);
    c * e[0]
}

/// A `()` function calling one: its own `&mut [f64]` parameter passed on, then written again.
#[differentiable]
fn chained(x: &[f64], a: f64, out: &mut [f64]) {
    residual(x, a, out);
    for i in 0..out.len() {
        out[i] = out[i].sin() + a;
    }
}

const XS: [&[f64]; 4] = [&[], &[0.7], &[0.7, -0.4, 1.3], &[-1.1, 0.2, -0.3, 2.0]];

/// The point `(x, a)` as one slice.
fn point(x: &[f64], a: f64) -> Vec<f64> {
    let mut p = x.to_vec();
    p.push(a);
    p
}

#[test]
fn a_local_array_lent_to_a_unit_function() {
    for x in XS {
        for a in [0.8, -1.5] {
            let mut d_x = vec![0.0; x.len()];
            let (value, d_a) = fit_grad(x, &mut d_x, a);
            assert_eq!(value.to_bits(), fit(x, a).to_bits(), "fit_grad's value");
            let f = |p: &[f64]| fit(&p[..p.len() - 1], p[p.len() - 1]);
            let mut gradient = d_x.clone();
            gradient.push(d_a);
            assert_gradient("fit_grad", f, &point(x, a), &gradient);
            // The pullback scales by its seed.
            let mut d_x2 = vec![0.0; x.len()];
            let d_a2 = fit_pullback(x, &mut d_x2, a, 2.0);
            assert_eq!(d_a2, 2.0 * d_a, "fit_pullback scales d_a");
            let doubled: Vec<f64> = d_x.iter().map(|d| 2.0 * d).collect();
            assert_eq!(d_x2, doubled, "fit_pullback scales d_x");
        }
    }
}

#[test]
fn a_unit_function_called_twice_and_in_a_loop() {
    for y0 in XS {
        for h in [0.1, -0.7] {
            let mut d_y0 = vec![0.0; y0.len()];
            let (value, d_h) = heun_grad(y0, &mut d_y0, h);
            assert_eq!(value.to_bits(), heun(y0, h).to_bits(), "heun_grad's value");
            let f = |p: &[f64]| heun(&p[..p.len() - 1], p[p.len() - 1]);
            let mut gradient = d_y0.clone();
            gradient.push(d_h);
            assert_gradient("heun_grad", f, &point(y0, h), &gradient);
            for steps in [0, 1, 4] {
                let mut d_y0 = vec![0.0; y0.len()];
                let (value, d_h) = repeated_grad(y0, &mut d_y0, h, steps);
                let expected = repeated(y0, h, steps);
                assert_eq!(value.to_bits(), expected.to_bits(), "repeated_grad's value");
                let f = |p: &[f64]| repeated(&p[..p.len() - 1], p[p.len() - 1], steps);
                let mut gradient = d_y0.clone();
                gradient.push(d_h);
                assert_gradient("repeated_grad", f, &point(y0, h), &gradient);
            }
        }
    }
}

#[test]
fn a_one_entry_output_lent() {
    for w in XS {
        let c = 1.7;
        let mut d_w = vec![0.0; w.len()];
        let (value, d_c) = scaled_grad(w, &mut d_w, c);
        assert_eq!(
            value.to_bits(),
            scaled(w, c).to_bits(),
            "scaled_grad's value"
        );
        let f = |p: &[f64]| scaled(&p[..p.len() - 1], p[p.len() - 1]);
        let mut gradient = d_w.clone();
        gradient.push(d_c);
        assert_gradient("scaled_grad", f, &point(w, c), &gradient);
    }
}

#[test]
fn a_unit_function_calling_one() {
    for x in XS {
        for a in [0.8, -1.5] {
            let c: Vec<f64> = (0..x.len()).map(|i| 0.5 - 0.3 * i as f64).collect();
            let mut out = vec![0.0; x.len()];
            chained(x, a, &mut out);
            let (mut out2, mut d_out) = (vec![9.0; x.len()], c.clone());
            let mut d_x = vec![0.0; x.len()];
            let d_a = chained_pullback(x, &mut d_x, a, &mut out2, &mut d_out);
            assert_eq!(out2, out, "chained_pullback writes out as chained does");
            // The weighted sum of the outputs, whose gradient the pullback gives.
            let weighted = |p: &[f64]| {
                let (x, a) = (&p[..p.len() - 1], p[p.len() - 1]);
                let mut out = vec![0.0; x.len()];
                chained(x, a, &mut out);
                out.iter().zip(&c).map(|(o, c)| o * c).sum::<f64>()
            };
            let mut gradient = d_x.clone();
            gradient.push(d_a);
            assert_gradient("chained_pullback", weighted, &point(x, a), &gradient);
        }
    }
}
