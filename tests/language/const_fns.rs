//! `const fn` (issue 25): the function stays `const` and callable in constants; the generated
//! functions are not `const` (they may call what is not). Against central differences, the
//! value bit for bit `f`'s, in every flavour.

use crate::common;

use common::{assert_near, check2};
use micrograd_runtime::prelude::*;

#[differentiable(hessian)]
const fn quadratic(x: f64, y: f64) -> f64 {
    let a = 3.0 * x * x;
    a - x * y + 0.5 * y * y
}

#[differentiable]
const fn scaled(w: &[f64; 3], k: f64) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    while i < 3 {
        s += w[i] * k;
        i += 1;
    }
    s
}

/// Still evaluated at compile time.
const AT_COMPILE_TIME: f64 = quadratic(1.0, 2.0);

#[test]
fn const_fns_against_central_differences() {
    assert_eq!(AT_COMPILE_TIME, 3.0 - 2.0 + 2.0);
    let points = [[0.5, -1.0], [2.0, 3.0]];
    check2("quadratic", quadratic, quadratic_grad, &points);
    for [x, y] in points {
        let (value, hessian) = quadratic_hessian(x, y);
        assert_eq!(value.to_bits(), quadratic(x, y).to_bits());
        assert_eq!(hessian, [[6.0, -1.0], [-1.0, 1.0]]);
        let (value, tangent) = quadratic_jvp(x, 1.0, y, 2.0);
        assert_eq!(value.to_bits(), quadratic(x, y).to_bits());
        assert_near("quadratic jvp", tangent, 6.0 * x - y + 2.0 * (y - x), 1e-12);
    }
    let w = [1.0, -2.0, 0.5];
    let mut d_w = [0.0; 3];
    let (value, d_k) = scaled_grad(&w, &mut d_w, 4.0);
    assert_eq!(value.to_bits(), scaled(&w, 4.0).to_bits());
    assert_eq!(d_w, [4.0; 3]);
    assert_eq!(d_k, -0.5);
}
