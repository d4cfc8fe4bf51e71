//! What a `#[differentiable]` function returning `[f64; M]` returned, bound and passed on by
//! reference (issue 25): `let oc: [f64; 3] = sub3(origin, center); dot3(&oc, &d)`. Unannotated,
//! `oc` was taken for one `f64` and `&oc` passed as one, which did not compile ("this function
//! takes 5 arguments but 3 arguments were supplied"), then was refused at `&oc`; now it is read
//! through `sub3`'s hidden output count (tests/flavours/counted_calls.rs). The annotated form is
//! checked here against central differences, the value bit for bit `f`'s.

use crate::common;

use common::{assert_gradient, assert_same_value};
use micrograd_runtime::prelude::*;

#[differentiable]
fn sub3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[differentiable]
fn dot3(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The `b` of a ray-sphere intersection: `(origin - center) · d`, then squared less `c`.
#[differentiable]
fn ray(origin: [f64; 3], center: [f64; 3], d: [f64; 3]) -> f64 {
    let oc: [f64; 3] = sub3(origin, center);
    let b = dot3(&oc, &d);
    let c = dot3(&oc, &oc) - 1.0;
    b * b - c
}

#[test]
fn an_array_result_passed_by_reference_against_central_differences() {
    let points = [
        [0.5, -1.0, 2.0, 0.1, 0.2, -0.3, 1.0, 0.5, -0.25],
        [-2.0, 0.75, 1.5, 1.0, -1.0, 0.5, 0.3, -0.6, 0.9],
    ];
    for p in points {
        let split = |p: &[f64]| {
            let a = |k: usize| [p[k], p[k + 1], p[k + 2]];
            (a(0), a(3), a(6))
        };
        let (o, c, d) = split(&p);
        let (value, d_o, d_c, d_d) = ray_grad(o, c, d);
        assert_same_value("ray", value, ray(o, c, d), &p);
        let gradient: Vec<f64> = [d_o, d_c, d_d].concat();
        assert_gradient(
            "ray",
            |q| {
                let (o, c, d) = split(q);
                ray(o, c, d)
            },
            &p,
            &gradient,
        );
    }
}
