//! Calls of functions that return `()` and write their outputs through `&mut` parameters, in
//! the caller's forward mode and Jacobian (issue 24): the caller's tangent program calls the
//! callee's tangent, which writes the outputs and their tangents and returns nothing, and
//! `f_jacobian`'s rows go through the callee's pullback, which takes no seed. `f_jvp` against
//! `Dual64` on generic twins and central differences, `f_jacobian` against central differences,
//! with 0, 1 and many entries, on both sides of the callee's branch; values bit for bit `f`'s.
//! A caller's `hvp` or `hessian` through such a call is one error at the call
//! (micrograd-macros/tests/ui/unit_callee_hvp.rs).

use crate::common;

use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

/// One residual per entry, a branch on its sign.
#[differentiable(jvp)]
fn resid(x: &[f64], a: f64, out: &mut [f64]) {
    for i in 0..x.len() {
        if x[i] > 0.0 {
            out[i] = a * x[i] * x[i] - 1.0;
        } else {
            out[i] = (a * x[i]).sin();
        }
    }
}

fn resid_twin<D: DualNum<Primitive = f64> + Copy>(x: &[D], a: D, out: &mut [D]) {
    for i in 0..x.len() {
        if x[i].re() > 0.0 {
            out[i] = a * x[i] * x[i] - D::from(1.0);
        } else {
            out[i] = (a * x[i]).sin();
        }
    }
}

/// The squared norm of the residual, through a local `Vec` lent to `resid`.
#[differentiable(jvp)]
fn fit(x: &[f64], a: f64) -> f64 {
    let mut r = vec![0.0; x.len()];
    resid(x, a, &mut r);
    let mut s = 0.0;
    for i in 0..r.len() {
        s += r[i] * r[i];
    }
    s * a
}

fn fit_twin<D: DualNum<Primitive = f64> + Copy>(x: &[D], a: D) -> D {
    let mut r = vec![D::from(0.0); x.len()];
    resid_twin(x, a, &mut r);
    let mut s = D::from(0.0);
    for r in &r {
        s += *r * *r;
    }
    s * a
}

/// Two outputs from what `resid` wrote into a local array.
#[differentiable(jacobian)]
fn ends(x: &[f64], a: f64) -> [f64; 2] {
    let mut r = vec![0.0; x.len()];
    resid(x, a, &mut r);
    let mut first = a;
    let mut total = 0.0;
    for i in 0..r.len() {
        if i == 0 {
            first += r[i];
        }
        total += r[i] * (i as f64 + 1.0);
    }
    [first * total, total.cos()]
}

const XS: [&[f64]; 4] = [&[], &[0.7], &[0.7, -0.4, 1.3], &[-1.1, 0.2, -0.3, 2.0]];

#[test]
fn the_jvp_of_a_caller_lending_to_a_unit_function() {
    for x in XS {
        for a in [0.8, -1.5] {
            let v_x: Vec<f64> = (0..x.len()).map(|i| 0.3 - 0.45 * i as f64).collect();
            let v_a = 0.6;
            let (value, tangent) = fit_jvp(x, &v_x, a, v_a);
            assert_eq!(value.to_bits(), fit(x, a).to_bits(), "fit_jvp's value");
            let xd: Vec<Dual64> = x
                .iter()
                .zip(&v_x)
                .map(|(x, v)| Dual64::new(*x, *v))
                .collect();
            let dual = fit_twin(&xd, Dual64::new(a, v_a));
            common::assert_near("fit_jvp against Dual64", tangent, dual.eps, 1e-12);
            let along = |t: f64| {
                let moved: Vec<f64> = x.iter().zip(&v_x).map(|(x, v)| x + t * v).collect();
                fit(&moved, a + t * v_a)
            };
            common::assert_partial("fit_jvp", |t| along(t[0]), &[0.0], 0, tangent);
        }
    }
}

#[test]
fn the_jacobian_of_a_caller_lending_to_a_unit_function() {
    for x in XS {
        for a in [0.8, -1.5] {
            let n = x.len();
            let mut d_x = vec![f64::NAN; 2 * n];
            let (value, rows) = ends_jacobian(x, &mut d_x, a);
            assert_eq!(value, ends(x, a), "ends_jacobian's value");
            for k in 0..2 {
                let f = |p: &[f64]| ends(&p[..p.len() - 1], p[p.len() - 1])[k];
                let mut point = x.to_vec();
                point.push(a);
                let mut row = d_x[k * n..(k + 1) * n].to_vec();
                row.push(rows[k][0]);
                common::assert_gradient("ends_jacobian", f, &point, &row);
            }
        }
    }
}
