//! A returned `[f64; M]` of a `const M` whose flavours differentiate a subset of the
//! parameters (`wrt(a, w)`, `b` left out) and read a slice of another length: each flavour's
//! parameters are `f`'s with their tangents, shadows and columns where the flavour's row gives
//! them (`f_pullback` every parameter, `f_jvp` and `f_jacobian` `wrt(..)`'s), and the call of
//! `__f_into`'s flavour passes each on by the parameter it is of. Against central differences
//! of `f` and a num-dual twin, the value bit for bit `f`'s.

use crate::common;

use common::{assert_near, assert_partial};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

const M: usize = 3;

#[differentiable(jvp, jacobian, wrt(a, w))]
fn mixed(a: f64, b: f64, w: &[f64]) -> [f64; M] {
    let mut r = [0.0; M];
    for i in 0..M {
        if w[i] > 0.0 {
            r[i] = a * w[i] * w[i] + (a * b).sin();
        } else {
            r[i] = b * w[i + 1] - a.exp();
        }
    }
    r
}

fn mixed_dual<D: DualNum<Primitive = f64> + Copy>(a: D, b: D, w: &[D]) -> [D; M] {
    std::array::from_fn(|i| {
        if w[i].re() > 0.0 {
            a * w[i] * w[i] + (a * b).sin()
        } else {
            b * w[i + 1] - a.exp()
        }
    })
}

/// Points whose `w` (4 entries, one more than the outputs) crosses the branch.
const POINTS: [(f64, f64, [f64; 4]); 3] = [
    (0.7, -0.4, [0.3, -1.1, 0.8, 0.5]),
    (-1.3, 0.9, [-0.2, 0.5, -0.6, 1.4]),
    (0.2, 1.6, [1.2, 0.4, 0.1, -0.9]),
];

/// `mixed` at `p = (a, b, w..)`.
fn mixed_at(p: &[f64]) -> [f64; M] {
    mixed(p[0], p[1], &p[2..])
}

/// Partials by num-dual of output `i` along coordinate `j` of `(a, b, w..)`.
fn dual(point: &[f64], i: usize, j: usize) -> f64 {
    let unit = |k: usize| Dual64::new(point[k], if k == j { 1.0 } else { 0.0 });
    let w: Vec<Dual64> = (2..point.len()).map(unit).collect();
    mixed_dual(unit(0), unit(1), &w)[i].eps
}

#[test]
fn the_pullback_differentiates_every_parameter() {
    let seed = [0.6, -1.5, 2.0];
    for (a, b, w) in POINTS {
        let mut d_w = [0.0; 4];
        let (d_a, d_b) = mixed_pullback(a, b, &w, &mut d_w, seed);
        let point = [a, b, w[0], w[1], w[2], w[3]];
        let weighted = |p: &[f64]| (0..M).map(|i| seed[i] * mixed_at(p)[i]).sum::<f64>();
        let partials = [d_a, d_b, d_w[0], d_w[1], d_w[2], d_w[3]];
        for (j, &partial) in partials.iter().enumerate() {
            assert_partial("mixed_pullback", weighted, &point, j, partial);
            let twin: f64 = (0..M).map(|i| seed[i] * dual(&point, i, j)).sum();
            assert_near("mixed_pullback", partial, twin, 1e-12);
        }
    }
}

#[test]
fn the_jvp_takes_tangents_of_wrt_only() {
    let (v_a, v_w) = (0.3, [1.0, 0.25, -0.5, 0.75]);
    for (a, b, w) in POINTS {
        let (value, tangent) = mixed_jvp(a, v_a, b, &w, &v_w);
        let exact = mixed(a, b, &w);
        for i in 0..M {
            assert_eq!(
                value[i].to_bits(),
                exact[i].to_bits(),
                "mixed_jvp value {i}"
            );
            // Along (v_a, 0, v_w): `b` is not differentiated.
            let along = |t: f64| {
                let w: Vec<f64> = (0..4).map(|k| w[k] + t * v_w[k]).collect();
                mixed(a + t * v_a, b, &w)[i]
            };
            assert_partial("mixed_jvp", |p| along(p[0]), &[0.0], 0, tangent[i]);
            let point = [a, b, w[0], w[1], w[2], w[3]];
            let twin = v_a * dual(&point, i, 0)
                + (0..4).map(|k| v_w[k] * dual(&point, i, 2 + k)).sum::<f64>();
            assert_near("mixed_jvp", tangent[i], twin, 1e-12);
        }
    }
}

#[test]
fn the_jacobian_has_a_column_of_a_and_a_block_of_w() {
    for (a, b, w) in POINTS {
        let mut d_w = [0.0; M * 4];
        let (value, rows) = mixed_jacobian(a, b, &w, &mut d_w);
        let exact = mixed(a, b, &w);
        let point = [a, b, w[0], w[1], w[2], w[3]];
        for i in 0..M {
            assert_eq!(
                value[i].to_bits(),
                exact[i].to_bits(),
                "mixed_jacobian value {i}"
            );
            let output = |p: &[f64]| mixed_at(p)[i];
            assert_partial("mixed_jacobian", output, &point, 0, rows[i][0]);
            assert_near("mixed_jacobian", rows[i][0], dual(&point, i, 0), 1e-12);
            for k in 0..4 {
                let entry = d_w[i * 4 + k];
                assert_partial("mixed_jacobian", output, &point, 2 + k, entry);
                assert_near("mixed_jacobian", entry, dual(&point, i, 2 + k), 1e-12);
            }
        }
    }
}
