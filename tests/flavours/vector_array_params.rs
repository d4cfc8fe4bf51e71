//! `f_jacobian` of a function taking an array by value, left out by `wrt(..)`, that passes it
//! on to calls as `&w`, `&w[..]` and by value. It is read through a reference, as in every
//! other flavor (it printed `w` where `&[f64]` was expected: random programs, seed 2 program
//! 44). Against num-dual (`Dual64` along each unit vector, on a generic version) and central
//! differences.

use crate::common;

use common::{assert_near, assert_partial};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

#[differentiable]
fn spread(a: f64, w: &[f64]) -> [f64; 2] {
    [a * w[0] + w[1], (a * w[2]).sin()]
}

#[differentiable]
fn weigh(a: f64, w: [f64; 3]) -> f64 {
    a * a * w[1] + w[2]
}

#[differentiable(jacobian, wrt(a, b))]
fn passed_on(a: f64, w: [f64; 3], b: f64) -> [f64; 2] {
    let [p, q] = spread(a, &w[..]);
    let [r, _] = spread(b, &w);
    let s = weigh(a * b, w);
    [p * b + s, q + r * a]
}

fn passed_on_dual<D: DualNum<Primitive = f64> + Copy>(a: D, w: [f64; 3], b: D) -> [D; 2] {
    let spread = |a: D| [a * w[0] + w[1], (a * w[2]).sin()];
    let [p, q] = spread(a);
    let [r, _] = spread(b);
    let s = a * b * (a * b) * w[1] + w[2];
    [p * b + s, q + r * a]
}

#[test]
fn an_array_by_value_passed_on_to_calls() {
    let w = [0.7, -1.2, 0.4];
    for (a, b) in [(1.5, -0.5), (-0.3, 2.0)] {
        let (value, rows) = passed_on_jacobian(a, w, b);
        let exact = passed_on(a, w, b);
        let f = |p: &[f64]| passed_on(p[0], w, p[1]);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(value[i].to_bits(), exact[i].to_bits(), "value {i}");
            for (j, &entry) in row.iter().enumerate() {
                let unit = |k: usize| Dual64::new([a, b][k], if k == j { 1.0 } else { 0.0 });
                let dual = passed_on_dual(unit(0), w, unit(1))[i].eps;
                assert_near("passed_on", entry, dual, 1e-12);
                assert_partial("passed_on", |p| f(p)[i], &[a, b], j, entry);
            }
        }
    }
}
