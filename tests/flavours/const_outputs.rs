//! Returned arrays of a length the macro cannot count (issue 24): `-> [f64; M]` with a `const M`
//! beside the function, `fn f<const K: usize>(..) -> [f64; K]`, and an array literal returned
//! as `[f64; M]`. Each flavour (`f_pullback` seeded per output, `f_jvp`, `f_jacobian`'s rows
//! and blocks) against central differences of `f` and a num-dual twin, the value bit for bit
//! `f`'s, at points that cross the branch; and a caller taking the arrays with `let h: [f64; M]
//! = ..`, its `f_grad` and `f_jvp` against central differences and its twin.

use crate::common;

use common::{assert_near, assert_partial};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

const M: usize = 3;

#[differentiable(jvp, jacobian)]
fn blend(a: f64, b: f64, w: &[f64; M]) -> [f64; M] {
    let mut r = [0.0; M];
    for i in 0..M {
        if w[i] > 0.0 {
            r[i] = a * w[i].exp() + b * b;
        } else {
            r[i] = (a * b).sin() - w[i] * a;
        }
    }
    r
}

fn blend_dual<D: DualNum<Primitive = f64> + Copy>(a: D, b: D, w: [D; M]) -> [D; M] {
    std::array::from_fn(|i| {
        if w[i].re() > 0.0 {
            a * w[i].exp() + b * b
        } else {
            (a * b).sin() - w[i] * a
        }
    })
}

#[differentiable(jvp, jacobian)]
fn scaled<const K: usize>(w: &[f64; K], s: f64) -> [f64; K] {
    let mut r = [0.0; K];
    for i in 0..K {
        r[i] = s * w[i] * w[i];
    }
    r
}

#[differentiable(jvp, jacobian)]
fn corners(x: f64, y: f64) -> [f64; M] {
    [x * y, x - y, (x + y).exp()]
}

#[differentiable(jvp)]
fn energy(x: f64, w: &[f64; M]) -> f64 {
    let h: [f64; M] = blend(x, 0.5 * x, w);
    let g: [f64; M] = scaled(&h, x);
    let mut s = 0.0;
    for i in 0..M {
        s += g[i] * h[i];
    }
    s
}

fn energy_dual<D: DualNum<Primitive = f64> + Copy>(x: D, w: [D; M]) -> D {
    let h = blend_dual(x, x * 0.5, w);
    let mut s = D::zero();
    for &h in &h {
        s += x * h * h * h;
    }
    s
}

/// Points whose `w` crosses `blend`'s branch, entry by entry.
const POINTS: [(f64, f64, [f64; M]); 3] = [
    (0.7, -0.4, [0.3, -1.1, 0.8]),
    (-1.3, 0.9, [-0.2, 0.5, -0.6]),
    (0.2, 1.6, [1.2, 0.4, 0.1]),
];

/// `blend` at `p = (a, b, w..)`.
fn blend_at(p: &[f64]) -> [f64; M] {
    blend(p[0], p[1], &[p[2], p[3], p[4]])
}

#[test]
fn pullback_of_a_const_length_output() {
    let seed = [0.6, -1.5, 2.0];
    for (a, b, w) in POINTS {
        let mut d_w = [0.0; M];
        let (d_a, d_b) = blend_pullback(a, b, &w, &mut d_w, seed);
        let point = [a, b, w[0], w[1], w[2]];
        let weighted = |p: &[f64]| (0..M).map(|i| seed[i] * blend_at(p)[i]).sum::<f64>();
        let partials = [d_a, d_b, d_w[0], d_w[1], d_w[2]];
        for (j, &partial) in partials.iter().enumerate() {
            assert_partial("blend_pullback", weighted, &point, j, partial);
            let unit = |k: usize| Dual64::new(point[k], if k == j { 1.0 } else { 0.0 });
            let twin = blend_dual(unit(0), unit(1), [unit(2), unit(3), unit(4)]);
            let dual: f64 = (0..M).map(|i| seed[i] * twin[i].eps).sum();
            assert_near("blend_pullback", partial, dual, 1e-12);
        }
    }
}

#[test]
fn jvp_of_a_const_length_output() {
    let (v_a, v_b, v_w) = (0.3, -0.8, [1.0, 0.25, -0.5]);
    for (a, b, w) in POINTS {
        let (value, tangent) = blend_jvp(a, v_a, b, v_b, &w, &v_w);
        let exact = blend(a, b, &w);
        let d = |x: f64, v: f64| Dual64::new(x, v);
        let twin = blend_dual(
            d(a, v_a),
            d(b, v_b),
            [d(w[0], v_w[0]), d(w[1], v_w[1]), d(w[2], v_w[2])],
        );
        for i in 0..M {
            assert_eq!(
                value[i].to_bits(),
                exact[i].to_bits(),
                "blend_jvp value {i}"
            );
            assert_near("blend_jvp", tangent[i], twin[i].eps, 1e-12);
            // Along (v_a, v_b, v_w): the derivative of t -> blend(p + t v)[i] at 0.
            let along = |t: f64| {
                let w = [w[0] + t * v_w[0], w[1] + t * v_w[1], w[2] + t * v_w[2]];
                blend(a + t * v_a, b + t * v_b, &w)[i]
            };
            assert_partial("blend_jvp", |p| along(p[0]), &[0.0], 0, tangent[i]);
        }
    }
}

#[test]
fn jacobian_of_a_const_length_output() {
    for (a, b, w) in POINTS {
        let mut d_w = [0.0; M * M];
        let (value, rows) = blend_jacobian(a, b, &w, &mut d_w);
        let exact = blend(a, b, &w);
        let point = [a, b, w[0], w[1], w[2]];
        for i in 0..M {
            assert_eq!(
                value[i].to_bits(),
                exact[i].to_bits(),
                "blend_jacobian value {i}"
            );
            let entries = [
                rows[i][0],
                rows[i][1],
                d_w[i * M],
                d_w[i * M + 1],
                d_w[i * M + 2],
            ];
            for (j, &entry) in entries.iter().enumerate() {
                assert_partial("blend_jacobian", |p| blend_at(p)[i], &point, j, entry);
                let unit = |k: usize| Dual64::new(point[k], if k == j { 1.0 } else { 0.0 });
                let twin = blend_dual(unit(0), unit(1), [unit(2), unit(3), unit(4)]);
                assert_near("blend_jacobian", entry, twin[i].eps, 1e-12);
            }
        }
    }
}

/// `scaled::<K>` in every flavour, with 0, 1 and 4 outputs.
fn check_scaled<const K: usize>(w: [f64; K], s: f64) {
    let f = |p: &[f64]| {
        let w: [f64; K] = std::array::from_fn(|i| p[i]);
        scaled(&w, p[K])
    };
    let point: Vec<f64> = w.iter().copied().chain([s]).collect();
    let seed: [f64; K] = std::array::from_fn(|i| 1.0 - 0.5 * i as f64);
    let mut d_w = [0.0; K];
    let d_s = scaled_pullback(&w, &mut d_w, s, seed);
    let weighted = |p: &[f64]| (0..K).map(|i| seed[i] * f(p)[i]).sum::<f64>();
    for (j, &partial) in d_w.iter().chain([&d_s]).enumerate() {
        assert_partial("scaled_pullback", weighted, &point, j, partial);
    }
    let v_w: [f64; K] = std::array::from_fn(|i| 0.5 + i as f64);
    let (value, tangent) = scaled_jvp(&w, &v_w, s, -0.7);
    let mut block = vec![0.0; K * K];
    let (also, rows) = scaled_jacobian(&w, &mut block, s);
    for i in 0..K {
        assert_eq!(
            value[i].to_bits(),
            scaled(&w, s)[i].to_bits(),
            "scaled value {i}"
        );
        assert_eq!(
            also[i].to_bits(),
            value[i].to_bits(),
            "scaled_jacobian value {i}"
        );
        let twin = Dual64::new(s, -0.7) * Dual64::new(w[i], v_w[i]).powi(2);
        assert_near("scaled_jvp", tangent[i], twin.eps, 1e-12);
        assert_partial("scaled_jacobian", |p| f(p)[i], &point, K, rows[i][0]);
        for j in 0..K {
            assert_partial("scaled_jacobian", |p| f(p)[i], &point, j, block[i * K + j]);
        }
    }
}

#[test]
fn a_const_generic_length() {
    check_scaled([], 1.5);
    check_scaled([0.8], -2.0);
    check_scaled([0.8, -0.3, 1.7, 0.2], 0.6);
}

#[test]
fn an_array_literal_returned_as_a_const_length() {
    let (x, y) = (0.4, -1.1);
    let (value, rows) = corners_jacobian(x, y);
    let ((same, tangent), exact) = (corners_jvp(x, 1.0, y, 0.0), corners(x, y));
    let f = |p: &[f64]| corners(p[0], p[1]);
    for i in 0..M {
        assert_eq!(value[i].to_bits(), exact[i].to_bits(), "corners value {i}");
        assert_eq!(
            same[i].to_bits(),
            exact[i].to_bits(),
            "corners_jvp value {i}"
        );
        assert_eq!(
            tangent[i], rows[i][0],
            "corners_jvp against its Jacobian's column"
        );
        for (j, &entry) in rows[i].iter().enumerate() {
            assert_partial("corners_jacobian", |p| f(p)[i], &[x, y], j, entry);
        }
    }
}

#[test]
fn a_caller_taking_const_length_arrays() {
    for (x, _, w) in POINTS {
        let mut d_w = [0.0; M];
        let (value, d_x) = energy_grad(x, &w, &mut d_w);
        assert_eq!(value.to_bits(), energy(x, &w).to_bits(), "energy value");
        let point = [x, w[0], w[1], w[2]];
        let f = |p: &[f64]| energy(p[0], &[p[1], p[2], p[3]]);
        for (j, &partial) in [d_x, d_w[0], d_w[1], d_w[2]].iter().enumerate() {
            assert_partial("energy_grad", f, &point, j, partial);
            let unit = |k: usize| Dual64::new(point[k], if k == j { 1.0 } else { 0.0 });
            let twin = energy_dual(unit(0), [unit(1), unit(2), unit(3)]).eps;
            assert_near("energy_grad", partial, twin, 1e-11);
        }
        let v_w = [0.5, -1.0, 0.25];
        let (same, tangent) = energy_jvp(x, 0.3, &w, &v_w);
        assert_eq!(same.to_bits(), value.to_bits(), "energy_jvp value");
        let d = |x: f64, v: f64| Dual64::new(x, v);
        let twin = energy_dual(
            d(x, 0.3),
            [d(w[0], v_w[0]), d(w[1], v_w[1]), d(w[2], v_w[2])],
        );
        assert_near("energy_jvp", tangent, twin.eps, 1e-11);
    }
}

#[differentiable(jvp)]
fn turn(h: &[f64; M], a: f64) -> [f64; M] {
    let mut r = [0.0; M];
    for i in 0..M {
        r[i] = (a * h[M - 1 - i] + h[i]).tanh();
    }
    r
}

/// `h = turn(&h, a);` of a local array of the `const` length, `n` times: the argument reads the
/// state before the call writes it.
#[differentiable(jvp)]
fn turned(x: &[f64; M], a: f64, n: usize) -> f64 {
    let mut h = [0.0; M];
    for i in 0..M {
        h[i] = x[i] * a;
    }
    for _ in 0..n {
        h = turn(&h, a);
    }
    h[0] * h[1] + h[2]
}

fn turned_dual<D: DualNum<Primitive = f64> + Copy>(x: [D; M], a: D, n: usize) -> D {
    let mut h = x.map(|x| x * a);
    for _ in 0..n {
        h = std::array::from_fn(|i| (a * h[M - 1 - i] + h[i]).tanh());
    }
    h[0] * h[1] + h[2]
}

#[test]
fn a_const_length_state_assigned_from_calls() {
    let (x, a) = ([0.4, -0.9, 1.3], 0.7);
    for n in [0, 1, 3] {
        let mut d_x = [0.0; M];
        let (value, d_a) = turned_grad(&x, &mut d_x, a, n);
        assert_eq!(value.to_bits(), turned(&x, a, n).to_bits(), "turned value");
        let point = [x[0], x[1], x[2], a];
        let f = |p: &[f64]| turned(&[p[0], p[1], p[2]], p[3], n);
        for (j, &partial) in [d_x[0], d_x[1], d_x[2], d_a].iter().enumerate() {
            assert_partial("turned_grad", f, &point, j, partial);
            let unit = |k: usize| Dual64::new(point[k], if k == j { 1.0 } else { 0.0 });
            let twin = turned_dual([unit(0), unit(1), unit(2)], unit(3), n).eps;
            assert_near("turned_grad", partial, twin, 1e-12);
        }
        let (same, tangent) = turned_jvp(&x, &[1.0, 0.0, -1.0], a, 0.5, n);
        assert_eq!(same.to_bits(), value.to_bits(), "turned_jvp value");
        assert_near("turned_jvp", tangent, d_x[0] - d_x[2] + 0.5 * d_a, 1e-12);
    }
}

/// `blend` taken apart by a caller that counts its outputs, `let [p, q, r] = blend(..);`: its
/// pullback seeded per entry and its hidden tangent.
#[differentiable(jvp)]
fn apart(a: f64, w: &[f64; M]) -> f64 {
    let [p, q, r] = blend(a, a * a, w);
    p * q - r
}

#[test]
fn a_caller_counting_the_outputs() {
    for (a, _, w) in POINTS {
        let mut d_w = [0.0; M];
        let (value, d_a) = apart_grad(a, &w, &mut d_w);
        assert_eq!(value.to_bits(), apart(a, &w).to_bits(), "apart value");
        let point = [a, w[0], w[1], w[2]];
        let twin = |p: &[Dual64]| {
            let [p, q, r] = blend_dual(p[0], p[0] * p[0], [p[1], p[2], p[3]]);
            p * q - r
        };
        for (j, &partial) in [d_a, d_w[0], d_w[1], d_w[2]].iter().enumerate() {
            let f = |p: &[f64]| apart(p[0], &[p[1], p[2], p[3]]);
            assert_partial("apart_grad", f, &point, j, partial);
            let unit: Vec<Dual64> = (0..4)
                .map(|k| Dual64::new(point[k], if k == j { 1.0 } else { 0.0 }))
                .collect();
            assert_near("apart_grad", partial, twin(&unit).eps, 1e-12);
        }
        let (same, tangent) = apart_jvp(a, 1.0, &w, &[0.0, 0.5, -1.0]);
        assert_eq!(same.to_bits(), value.to_bits(), "apart_jvp value");
        assert_near("apart_jvp", tangent, d_a + 0.5 * d_w[1] - d_w[2], 1e-12);
    }
}
