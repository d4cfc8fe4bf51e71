//! Functions returning `[f64; M]` or a tuple of `f64`s: `f_pullback` takes one seed per output
//! (a vector-Jacobian product), and `f_jacobian` (on request) returns the dense Jacobian. Both
//! against num-dual's `jacobian` on generic versions of the same functions and against central
//! differences; the value is bit for bit `f`'s.

use crate::common;

use common::{assert_near, assert_partial};
use micrograd_runtime::prelude::*;
use nalgebra::SVector;
use num_dual::{DualNum, DualSVec64};

/// Every entry of `jacobian` against num-dual's and against central differences of output `i`.
fn check_jacobian<const M: usize, const N: usize>(
    name: &str,
    f: impl Fn(&[f64]) -> [f64; M],
    reference: ([f64; M], [[f64; N]; M]),
    point: [f64; N],
    (value, jacobian): ([f64; M], [[f64; N]; M]),
) {
    let exact = f(&point);
    for i in 0..M {
        assert_eq!(value[i].to_bits(), exact[i].to_bits(), "{name}: value {i}");
        assert_near(name, value[i], reference.0[i], 1e-15);
        for (j, &entry) in jacobian[i].iter().enumerate() {
            assert_near(name, entry, reference.1[i][j], 1e-13);
            assert_partial(name, |p| f(p)[i], &point, j, entry);
        }
    }
}

/// num-dual's value and Jacobian of `g` at `point`, as arrays.
fn num_dual_jacobian<const M: usize, const N: usize>(
    g: impl FnOnce([DualSVec64<N>; N]) -> [DualSVec64<N>; M],
    point: [f64; N],
) -> ([f64; M], [[f64; N]; M]) {
    let (value, jacobian) = num_dual::jacobian(
        |x: SVector<DualSVec64<N>, N>| SVector::from(g(x.into())),
        &SVector::from(point),
    );
    let mut rows = [[0.0; N]; M];
    for (i, row) in rows.iter_mut().enumerate() {
        for (j, entry) in row.iter_mut().enumerate() {
            *entry = jacobian[(i, j)];
        }
    }
    (value.into(), rows)
}

#[differentiable(jacobian)]
fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}

fn polar_generic<D: DualNum<Primitive = f64> + Copy>(r: D, theta: D) -> [D; 2] {
    [r * theta.cos(), r * theta.sin()]
}

#[test]
fn straight_line_array_output() {
    for point in [[2.0, 0.3], [0.5, -2.5]] {
        let reference = num_dual_jacobian(|[r, t]| polar_generic(r, t), point);
        let (value, jacobian) = polar_jacobian(point[0], point[1]);
        check_jacobian(
            "polar",
            |p| polar(p[0], p[1]),
            reference,
            point,
            (value, jacobian),
        );
        // The pullback is Jᵀ seed.
        let seed = [0.7, -1.3];
        let (d_r, d_theta) = polar_pullback(point[0], point[1], seed);
        let expect = |j: usize| seed[0] * jacobian[0][j] + seed[1] * jacobian[1][j];
        assert_near("polar vjp", d_r, expect(0), 1e-15);
        assert_near("polar vjp", d_theta, expect(1), 1e-15);
    }
}

/// A tuple output whose entries come from a branch, a loop and a call.
#[differentiable(jacobian)]
fn mixed(x: f64, y: f64, n: usize) -> (f64, f64, f64) {
    let first = if x > y { x * y } else { x - y.exp() };
    let mut power = 1.0;
    for _ in 0..n {
        power *= x + 0.5 * y;
    }
    let last = swish(x * y) + y.tanh();
    (first, power, last)
}

#[differentiable]
fn swish(x: f64) -> f64 {
    x * x.sigmoid()
}

fn mixed_generic<D: DualNum<Primitive = f64> + Copy>(x: D, y: D, n: usize) -> [D; 3] {
    let first = if x.re() > y.re() { x * y } else { x - y.exp() };
    let power = (x + y * 0.5).powi(n as i32);
    let xy = x * y;
    let last = xy / ((-xy).exp() + 1.0) + y.tanh();
    [first, power, last]
}

#[test]
fn branches_loops_and_calls_in_a_tuple_output() {
    for (point, n) in [([1.5, 0.5], 3), ([-0.5, 0.25], 4), ([0.3, 0.7], 0)] {
        let reference = num_dual_jacobian(|[x, y]| mixed_generic(x, y, n), point);
        let ((a, b, c), jacobian) = mixed_jacobian(point[0], point[1], n);
        let f = |p: &[f64]| {
            let (a, b, c) = mixed(p[0], p[1], n);
            [a, b, c]
        };
        check_jacobian("mixed", f, reference, point, ([a, b, c], jacobian));
        let (dx, dy) = mixed_pullback(point[0], point[1], n, (1.0, -2.0, 0.5));
        let expect = |j: usize| jacobian[0][j] - 2.0 * jacobian[1][j] + 0.5 * jacobian[2][j];
        assert_near("mixed vjp", dx, expect(0), 1e-14);
        assert_near("mixed vjp", dy, expect(1), 1e-14);
    }
}

/// A residual filled by a loop that records values for its reverse sweep: the rows share one
/// forward sweep and replay its tape.
#[differentiable(jacobian, wrt(a, b))]
fn decay(a: f64, b: f64, t: &[f64; 4]) -> [f64; 4] {
    let mut r = [0.0; 4];
    for i in 0..4 {
        let e = (-b * t[i]).exp();
        r[i] = a * e * e.sqrt() - t[i];
    }
    r
}

fn decay_generic<D: DualNum<Primitive = f64> + Copy>(a: D, b: D, t: &[f64; 4]) -> [D; 4] {
    std::array::from_fn(|i| {
        let e = (-b * t[i]).exp();
        a * e * e.sqrt() - t[i]
    })
}

#[test]
fn a_taped_loop_shares_its_forward_sweep() {
    let t = [0.0, 0.5, 1.0, 2.5];
    for point in [[1.5, 0.4], [-0.5, 1.2]] {
        let reference = num_dual_jacobian(|[a, b]| decay_generic(a, b, &t), point);
        let (value, jacobian) = decay_jacobian(point[0], point[1], &t);
        check_jacobian(
            "decay",
            |p| decay(p[0], p[1], &t),
            reference,
            point,
            (value, jacobian),
        );
        // The pullback also differentiates the constant `t` (it takes every parameter).
        let mut d_t = [0.0; 4];
        let (d_a, d_b) = decay_pullback(point[0], point[1], &t, &mut d_t, [1.0, 0.0, 0.0, 2.0]);
        assert_near(
            "decay vjp",
            d_a,
            jacobian[0][0] + 2.0 * jacobian[3][0],
            1e-14,
        );
        assert_near(
            "decay vjp",
            d_b,
            jacobian[0][1] + 2.0 * jacobian[3][1],
            1e-14,
        );
        assert_partial(
            "decay vjp d_t",
            |p| {
                let mut moved = t;
                moved[3] = p[0];
                2.0 * decay(point[0], point[1], &moved)[3]
            },
            &[t[3]],
            0,
            d_t[3],
        );
    }
}

/// A 10-output residual: the model `a e^(-b t) + c` against data.
#[differentiable(jacobian, wrt(a, b, c))]
fn curve(a: f64, b: f64, c: f64, t: &[f64; 10], y: &[f64; 10]) -> [f64; 10] {
    let mut r = [0.0; 10];
    for i in 0..10 {
        r[i] = a * (-b * t[i]).exp() + c - y[i];
    }
    r
}

fn curve_generic<D: DualNum<Primitive = f64> + Copy>(
    p: [D; 3],
    t: &[f64; 10],
    y: &[f64; 10],
) -> [D; 10] {
    std::array::from_fn(|i| p[0] * (-p[1] * t[i]).exp() + p[2] - y[i])
}

/// One Gauss-Newton step: solve (JᵀJ) δ = -Jᵀr by Cramer's rule.
fn gauss_newton_step(p: [f64; 3], t: &[f64; 10], y: &[f64; 10]) -> [f64; 3] {
    let (r, jac) = curve_jacobian(p[0], p[1], p[2], t, y);
    let mut normal = [[0.0; 3]; 3];
    let mut rhs = [0.0; 3];
    for (ri, row) in r.iter().zip(&jac) {
        for j in 0..3 {
            rhs[j] -= row[j] * ri;
            for k in 0..3 {
                normal[j][k] += row[j] * row[k];
            }
        }
    }
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let whole = det(normal);
    std::array::from_fn(|j| {
        let mut replaced = normal;
        for (k, row) in replaced.iter_mut().enumerate() {
            row[j] = rhs[k];
        }
        p[j] + det(replaced) / whole
    })
}

#[test]
fn gauss_newton_fits_a_ten_point_residual() {
    let t: [f64; 10] = std::array::from_fn(|i| 0.3 * i as f64);
    let truth = [2.0, 0.8, 0.5];
    let y: [f64; 10] = std::array::from_fn(|i| truth[0] * (-truth[1] * t[i]).exp() + truth[2]);
    let start = [1.6, 0.6, 0.7];
    let reference = num_dual_jacobian(|p| curve_generic(p, &t, &y), start);
    let (value, jacobian) = curve_jacobian(start[0], start[1], start[2], &t, &y);
    let f = |p: &[f64]| curve(p[0], p[1], p[2], &t, &y);
    check_jacobian("curve", f, reference, start, (value, jacobian));
    let mut p = start;
    for _ in 0..12 {
        p = gauss_newton_step(p, &t, &y);
    }
    for (fitted, exact) in p.iter().zip(truth) {
        assert!(
            (fitted - exact).abs() < 1e-12,
            "fitted {p:?}, truth {truth:?}"
        );
    }
}
