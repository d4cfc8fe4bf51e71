//! Arrays lent to calls as `&mut` in forward mode and second order: the caller's tangent
//! program calls the callee's tangent instead of the callee, once, with the lent array's
//! tangent beside it, and both come back written.

use super::programs::{Dual, c};
use super::{close, moved, points};
use micrograd_runtime::prelude::*;

/// Reads each entry of `w` and writes it back squashed: `w[i] = tanh(a w[i])`.
#[differentiable(jvp)]
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
#[differentiable(jvp)]
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
#[differentiable(jvp)]
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
#[differentiable(jvp)]
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
#[differentiable(jvp)]
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
#[differentiable(jvp)]
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
#[differentiable(jvp)]
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
#[differentiable(jvp)]
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
#[differentiable(jvp)]
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

type Jvp<'a> = &'a dyn Fn(&[f64], &[f64]) -> (f64, f64);
type Generic<'a, const N: usize> =
    &'a dyn Fn(&[num_dual::Dual2SVec64<N>]) -> num_dual::Dual2SVec64<N>;

fn check_jvp<const N: usize>(
    name: &str,
    f: &dyn Fn(&[f64]) -> f64,
    jvp: Jvp,
    dual: Generic<N>,
    lo_hi: (f64, f64),
) {
    for (x, v) in points(N, lo_hi.0, lo_hi.1) {
        let (value, d) = jvp(&x, &v);
        assert_eq!(value.to_bits(), f(&x).to_bits(), "{name}: f_jvp's value");
        let (_, gradient, _) = num_dual::hessian(
            |p: nalgebra::SVector<num_dual::Dual2SVec64<N>, N>| dual(p.as_slice()),
            &nalgebra::SVector::from_column_slice(&x),
        );
        let want: f64 = gradient.iter().zip(&v).map(|(g, v)| g * v).sum();
        assert!(
            close(d, want, 1e-12),
            "{name}: jvp {d:e}, num-dual {want:e}"
        );
        super::common::assert_partial(name, |t| f(&moved(&x, &v, t[0])), &[0.0], 0, d);
    }
}

#[test]
fn jvp_through_lent_calls() {
    check_jvp::<2>(
        "filled",
        &|p| filled(p[0], p[1]),
        &|p, v| filled_jvp(p[0], v[0], p[1], v[1]),
        &filled_dual,
        (-1.0, 1.0),
    );
    check_jvp::<4>(
        "passes_on",
        &|p| passes_on(&mut p[..3].to_vec(), p[3]),
        &|p, v| passes_on_jvp(&mut p[..3].to_vec(), &mut v[..3].to_vec(), p[3], v[3]),
        &passes_on_dual,
        (-1.0, 1.0),
    );
    type Two = (fn(f64, f64) -> f64, fn(f64, f64, f64, f64) -> (f64, f64));
    let twos: [(&str, Two, Generic<2>); 4] = [
        ("part", (part, part_jvp), &part_dual),
        ("looped", (looped, looped_jvp), &looped_dual),
        ("in_a_row", (in_a_row, in_a_row_jvp), &in_a_row_dual),
        (
            "reads_and_writes",
            (reads_and_writes, reads_and_writes_jvp),
            &reads_and_writes_dual,
        ),
    ];
    for (name, (f, jvp), dual) in twos {
        check_jvp::<2>(
            name,
            &|p| f(p[0], p[1]),
            &|p, v| jvp(p[0], v[0], p[1], v[1]),
            dual,
            (-1.0, 1.0),
        );
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
