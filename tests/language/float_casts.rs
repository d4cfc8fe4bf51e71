//! `x as usize` (and other integer casts) of a float where the integer indexes or counts
//! (issue 25): no derivative flows through it, as through `floor`. Against central
//! differences away from the jumps and closed forms, the value bit for bit `f`'s.

use crate::common;

use common::{assert_near, derivative};
use micrograd_runtime::prelude::*;

/// An index picked by a float, a trip count from one, and `as i64` back to a float.
#[differentiable(hessian, graph)]
fn binned(w: &[f64], x: f64) -> f64 {
    let k = (x * 2.0).abs() as usize;
    let mut s = w[k] * x * x;
    for i in 0..x.abs() as usize {
        s += x * w[i];
    }
    let n = (x * x) as i64;
    s + n as f64 * x
}

/// The same by hand: k, the count and n are constants between the jumps.
fn closed_form(w: &[f64], x: f64) -> f64 {
    let k = (x * 2.0).abs() as usize;
    let count = x.abs() as usize;
    let n = (x * x) as i64;
    2.0 * w[k] * x + w[..count].iter().sum::<f64>() + n as f64
}

#[test]
fn float_to_integer_casts_pass_no_derivative() {
    let w = [0.5, -1.25, 2.0, 0.75];
    for x in [0.3, -0.8, 1.2, 1.7, -1.3] {
        let mut d_w = [0.0; 4];
        let (value, d_x) = binned_grad(&w, &mut d_w, x);
        assert_eq!(value.to_bits(), binned(&w, x).to_bits());
        assert_near("d_x", d_x, derivative(|x| binned(&w, x), x), 1e-6);
        assert_near("d_x closed form", d_x, closed_form(&w, x), 1e-12);
        for i in 0..4 {
            let at = |t: f64| {
                let mut v = w;
                v[i] = t;
                binned(&v, x)
            };
            assert_near("d_w", d_w[i], derivative(at, w[i]), 1e-6);
        }
        let (value, tangent) = binned_jvp(&w, &[0.0; 4], x, 1.0);
        assert_eq!(value.to_bits(), binned(&w, x).to_bits());
        assert_near("jvp", tangent, d_x, 1e-12);
    }
}
