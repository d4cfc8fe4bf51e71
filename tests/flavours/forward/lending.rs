//! Arrays lent to calls as `&mut` in forward mode and second order: the caller's tangent
//! program calls the callee's tangent instead of the callee, once, with the lent array's
//! tangent beside it, and both come back written; `f_hvp` hands the recorded entries of both
//! to the callee's tangent pullback with the adjoints of the value and the tangent, and each
//! row of `f_jacobian` takes its own copy of the recorded entries. Each flavour is checked
//! against num-dual on a generic twin and against central differences (of `f` for `f_jvp` and
//! `f_jacobian`, of `f_grad` for `f_hvp` and `f_hessian`).

use super::programs::{Dual, c};
use super::{Case, check, close, hessian, points};
use micrograd_runtime::prelude::*;

/// Reads each entry of `w` and writes it back squashed: `w[i] = tanh(a w[i])`.
#[differentiable(hessian)]
pub fn squash(w: &mut [f64], a: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        w[i] = (w[i] * a).tanh();
        s += w[i];
    }
    s * a
}

fn squash_dual<D: Dual>(w: &mut [D], a: D) -> D {
    let mut s: D = c(0.0);
    for w in w.iter_mut() {
        *w = (*w * a).tanh();
        s += *w;
    }
    s * a
}

/// Writes `h` without reading it.
#[differentiable(hessian)]
pub fn fill(h: &mut [f64], x: f64) -> f64 {
    for i in 0..h.len() {
        h[i] = (x * (i as f64 + 1.0)).sin();
    }
    0.0
}

fn fill_dual<D: Dual>(h: &mut [D], x: D) -> D {
    for (i, h) in h.iter_mut().enumerate() {
        *h = (x * (i as f64 + 1.0)).sin();
    }
    c(0.0)
}

/// A local array filled by a call made for what it writes, then reduced.
#[differentiable(hessian)]
pub fn filled(x: f64, y: f64) -> f64 {
    let mut h = [0.0; 3];
    fill(&mut h, x * y);
    h[0] * h[1] + h[2] * y
}

fn filled_dual<D: Dual>(p: &[D]) -> D {
    let (x, y) = (p[0], p[1]);
    let mut h = [c::<D>(0.0); 3];
    fill_dual(&mut h, x * y);
    h[0] * h[1] + h[2] * y
}

/// A `&mut [f64]` parameter lent on whole, read after the call.
#[differentiable(hessian)]
pub fn passes_on(w: &mut [f64], a: f64) -> f64 {
    let s = squash(w, a);
    s * w[0] + w[1] * w[2]
}

fn passes_on_dual<D: Dual>(p: &[D]) -> D {
    let (mut w, a) = (p[..3].to_vec(), p[3]);
    let s = squash_dual(&mut w, a);
    s * w[0] + w[1] * w[2]
}

/// A sub-slice `&mut h[a..b]` of a local array: the entries outside it keep their tangents.
#[differentiable(hessian)]
pub fn part(x: f64, y: f64) -> f64 {
    let mut h = [x, y, x * y, 1.0];
    let s = squash(&mut h[1..3], x);
    s + h[0] * h[1] + h[2] * h[3]
}

fn part_dual<D: Dual>(p: &[D]) -> D {
    let (x, y) = (p[0], p[1]);
    let mut h = [x, y, x * y, c(1.0)];
    let s = squash_dual(&mut h[1..3], x);
    s + h[0] * h[1] + h[2] * h[3]
}

/// A lent call inside a loop, its value summed.
#[differentiable(hessian)]
pub fn looped(x: f64, y: f64) -> f64 {
    let mut h = [x, y, 0.5];
    let mut s = 0.0;
    for k in 0..3 {
        s += squash(&mut h, y + k as f64 * 0.25);
    }
    s + h[1] * h[2]
}

fn looped_dual<D: Dual>(p: &[D]) -> D {
    let (x, y) = (p[0], p[1]);
    let mut h = [x, y, c(0.5)];
    let mut s: D = c(0.0);
    for k in 0..3 {
        s += squash_dual(&mut h, y + k as f64 * 0.25);
    }
    s + h[1] * h[2]
}

/// Two lent calls in a row, the first made for what it writes.
#[differentiable(hessian)]
pub fn in_a_row(x: f64, y: f64) -> f64 {
    let mut h = [x, y, x - y];
    squash(&mut h, x);
    let t = squash(&mut h, y);
    t * h[0] + h[2]
}

fn in_a_row_dual<D: Dual>(p: &[D]) -> D {
    let (x, y) = (p[0], p[1]);
    let mut h = [x, y, x - y];
    squash_dual(&mut h, x);
    let t = squash_dual(&mut h, y);
    t * h[0] + h[2]
}

/// Reads each entry and the one it wrote before: `w[i] = tanh(w[i] + a w[i - 1])`.
#[differentiable(hessian)]
pub fn smooth(w: &mut [f64], a: f64) -> f64 {
    for i in 1..w.len() {
        w[i] = (w[i] + a * w[i - 1]).tanh();
    }
    w[w.len() - 1] * a
}

fn smooth_dual<D: Dual>(w: &mut [D], a: D) -> D {
    for i in 1..w.len() {
        w[i] = (w[i] + a * w[i - 1]).tanh();
    }
    w[w.len() - 1] * a
}

/// The caller reads the lent array before and after a callee that reads and writes it.
#[differentiable(hessian)]
pub fn reads_and_writes(x: f64, y: f64) -> f64 {
    let mut h = [x * y, x - y, y];
    let before = h[0] * h[2];
    let r = smooth(&mut h, x);
    before * r + h[0] + h[1] * h[2]
}

fn reads_and_writes_dual<D: Dual>(p: &[D]) -> D {
    let (x, y) = (p[0], p[1]);
    let mut h = [x * y, x - y, y];
    let before = h[0] * h[2];
    let r = smooth_dual(&mut h, x);
    before * r + h[0] + h[1] * h[2]
}

/// `f_jvp` and `f_hvp` of a function of `(x, y)` against num-dual and central differences
/// ([`check`]), and `f_hessian` against num-dual's, symmetric.
macro_rules! check_two {
    ($f:ident, $grad:ident, $jvp:ident, $hvp:ident, $hessian:ident, $dual:ident) => {{
        let case = Case::<2> {
            name: stringify!($f),
            f: &|p| $f(p[0], p[1]),
            grad: &|p| {
                let (_, dx, dy) = $grad(p[0], p[1]);
                vec![dx, dy]
            },
            jvp: &|p, v| $jvp(p[0], v[0], p[1], v[1]),
            hvp: &|p, v| {
                let (y, hx, hy) = $hvp(p[0], v[0], p[1], v[1]);
                (y, vec![hx, hy])
            },
            dual: &$dual,
        };
        for (p, v) in points(2, -1.0, 1.0) {
            check(&case, &p, &v);
            let (value, h) = $hessian(p[0], p[1]);
            assert_eq!(
                value.to_bits(),
                $f(p[0], p[1]).to_bits(),
                "f_hessian's value"
            );
            let grad = |q: &[f64]| (case.grad)(q);
            hessian::check::<2>(case.name, h.as_flattened(), &grad, &$dual, &p);
        }
    }};
}

#[test]
fn a_local_array_filled_by_a_call_then_reduced() {
    check_two!(
        filled,
        filled_grad,
        filled_jvp,
        filled_hvp,
        filled_hessian,
        filled_dual
    );
}

#[test]
fn a_sub_slice_lent() {
    check_two!(part, part_grad, part_jvp, part_hvp, part_hessian, part_dual);
}

#[test]
fn a_call_lent_an_array_in_a_loop() {
    check_two!(
        looped,
        looped_grad,
        looped_jvp,
        looped_hvp,
        looped_hessian,
        looped_dual
    );
}

#[test]
fn two_lent_calls_in_a_row() {
    check_two!(
        in_a_row,
        in_a_row_grad,
        in_a_row_jvp,
        in_a_row_hvp,
        in_a_row_hessian,
        in_a_row_dual
    );
}

#[test]
fn a_callee_that_reads_and_writes_the_lent_array() {
    check_two!(
        reads_and_writes,
        reads_and_writes_grad,
        reads_and_writes_jvp,
        reads_and_writes_hvp,
        reads_and_writes_hessian,
        reads_and_writes_dual
    );
}

#[test]
fn a_mut_parameter_passed_on() {
    let grad = |p: &[f64]| {
        let mut d = vec![0.0; 3];
        let (_, d_a) = passes_on_grad(&mut p[..3].to_vec(), &mut d, p[3]);
        d.push(d_a);
        d
    };
    let case = Case::<4> {
        name: "passes_on",
        f: &|p| passes_on(&mut p[..3].to_vec(), p[3]),
        grad: &grad,
        jvp: &|p, v| passes_on_jvp(&mut p[..3].to_vec(), &mut v[..3].to_vec(), p[3], v[3]),
        hvp: &|p, v| {
            let mut hv = vec![0.0; 3];
            let (w, v_w) = (&mut p[..3].to_vec(), &mut v[..3].to_vec());
            let (y, hv_a) = passes_on_hvp(w, v_w, &mut hv, p[3], v[3]);
            hv.push(hv_a);
            (y, hv)
        },
        dual: &passes_on_dual,
    };
    for (p, v) in points(4, -1.0, 1.0) {
        check(&case, &p, &v);
        let (mut w, mut h) = (p[..3].to_vec(), [0.0; 16]);
        let value = passes_on_hessian(&mut w, p[3], &mut h);
        let mut by_f = p[..3].to_vec();
        assert_eq!(value.to_bits(), passes_on(&mut by_f, p[3]).to_bits());
        assert_eq!(w, by_f, "f_hessian writes `w` as `f` does");
        hessian::check::<4>("passes_on", &h, &grad, &passes_on_dual, &p);
    }
}

/// `f_jvp` writes a lent `&mut [f64]` parameter as `f` does, and its tangent with the
/// tangent of what it writes (num-dual's, entry by entry).
#[test]
fn jvp_writes_the_lent_parameter_and_its_tangent() {
    let (w0, a, v_w0, v_a) = ([0.4, -0.9, 1.3], 0.7, [1.0, 0.0, -2.0], 0.5);
    let mut expected = w0;
    passes_on(&mut expected, a);
    let (mut w, mut v_w) = (w0, v_w0);
    passes_on_jvp(&mut w, &mut v_w, a, v_a);
    assert_eq!(w, expected);
    type D = num_dual::Dual64;
    let mut duals = [0, 1, 2].map(|i| D::new(w0[i], v_w0[i]));
    squash_dual(&mut duals, D::new(a, v_a));
    for i in 0..3 {
        assert!(close(v_w[i], duals[i].eps, 1e-14), "v_w[{i}]");
    }
}

/// Two outputs through lent calls, one in a loop.
#[differentiable(jacobian)]
pub fn outputs(x: f64, y: f64, z: f64) -> [f64; 2] {
    let mut h = [x, y * z, 0.5];
    let s = squash(&mut h, z);
    let mut t = 0.0;
    for k in 0..2 {
        t += smooth(&mut h[k..k + 2], x + k as f64);
    }
    [s * h[0] + t, h[1] * h[2] - s]
}

fn outputs_dual<D: Dual>(x: D, y: D, z: D) -> [D; 2] {
    let mut h = [x, y * z, c(0.5)];
    let s = squash_dual(&mut h, z);
    let mut t: D = c(0.0);
    for k in 0..2 {
        t += smooth_dual(&mut h[k..k + 2], x + k as f64);
    }
    [s * h[0] + t, h[1] * h[2] - s]
}

#[test]
fn jacobian_through_lent_calls() {
    for (p, _) in points(3, -1.0, 1.0) {
        let (value, jacobian) = outputs_jacobian(p[0], p[1], p[2]);
        let plain = outputs(p[0], p[1], p[2]);
        assert_eq!(
            value.map(f64::to_bits),
            plain.map(f64::to_bits),
            "the value"
        );
        let (_, reference) = num_dual::jacobian(
            |q: nalgebra::SVector<num_dual::DualSVec64<3>, 3>| {
                nalgebra::SVector::from(outputs_dual(q[0], q[1], q[2]))
            },
            &nalgebra::SVector::from_column_slice(&p),
        );
        for i in 0..2 {
            for j in 0..3 {
                let (a, b) = (jacobian[i][j], reference[(i, j)]);
                assert!(close(a, b, 1e-12), "J[{i}][{j}] {a:e}, num-dual {b:e}");
                let component = |q: &[f64]| outputs(q[0], q[1], q[2])[i];
                super::common::assert_partial("outputs", component, &p, j, a);
            }
        }
    }
}

/// A `&mut [f64]` parameter left out of `wrt(..)`, lent on: its tangent is a local of zeros,
/// which the callee writes with the tangent of what it writes from `x`.
#[differentiable(hessian, wrt(x))]
pub fn held_constant(x: f64, w: &mut [f64]) -> f64 {
    let s = squash(w, x);
    s + w[1] * x
}

const W: [f64; 3] = [0.5, 0.7, -0.2];

fn held_constant_dual<D: Dual>(p: &[D]) -> D {
    let mut w = W.map(c::<D>);
    let s = squash_dual(&mut w, p[0]);
    s + w[1] * p[0]
}

#[test]
fn a_mut_parameter_held_constant_lent_on() {
    let case = Case::<1> {
        name: "held_constant",
        f: &|p| held_constant(p[0], &mut W.to_vec()),
        grad: &|p| vec![held_constant_grad(p[0], &mut W.to_vec()).1],
        jvp: &|p, v| held_constant_jvp(p[0], v[0], &mut W.to_vec()),
        hvp: &|p, v| {
            let (y, hv) = held_constant_hvp(p[0], v[0], &mut W.to_vec());
            (y, vec![hv])
        },
        dual: &held_constant_dual,
    };
    for (p, v) in points(1, -1.0, 1.0) {
        check(&case, &p, &v);
        let (value, h) = held_constant_hessian(p[0], &mut W.to_vec());
        assert_eq!(
            value.to_bits(),
            held_constant(p[0], &mut W.to_vec()).to_bits()
        );
        hessian::check::<1>(
            "held_constant",
            h.as_flattened(),
            case.grad,
            &held_constant_dual,
            &p,
        );
    }
}
