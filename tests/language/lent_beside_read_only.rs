//! A `&mut [f64]` parameter passed read-only as `&y[..]` to a callee taking `&[f64]`, beside a
//! local array lent to it (`ode_rhs(x, &y[..], &mut k1)`): `f_grad` against central
//! differences. Passed as itself, `y` would be lent too, which is refused
//! (tests/ui/lent_parameter_read_only.rs).

use crate::common;

use common::assert_gradient;
use micrograd_runtime::prelude::*;

#[differentiable]
fn ode_rhs(x: f64, y: &[f64], k: &mut [f64]) -> f64 {
    for i in 0..k.len() {
        k[i] = (x * y[i]).sin() + y[(i + 1) % y.len()];
    }
    0.0
}

#[differentiable]
fn euler(x: f64, y: &mut [f64]) -> f64 {
    let mut k1 = [0.0; 2];
    ode_rhs(x, &y[..], &mut k1);
    (y[0] + 0.1 * k1[0]) * (y[1] + 0.1 * k1[1])
}

#[test]
fn a_read_only_parameter_beside_a_lent_local() {
    let point = [0.7, 1.2, -0.4];
    let plain = |p: &[f64]| euler(p[0], &mut [p[1], p[2]]);
    let mut y = [point[1], point[2]];
    let mut d_y = [0.0; 2];
    let (value, d_x) = euler_grad(point[0], &mut y, &mut d_y);
    assert_eq!(value, plain(&point));
    assert_gradient("euler", plain, &point, &[d_x, d_y[0], d_y[1]]);
}
