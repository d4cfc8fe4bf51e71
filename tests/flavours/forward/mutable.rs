//! `&mut [f64]` parameters in forward mode and second order: `f_jvp` writes `w` as `f` does
//! and its tangent `v_w` as the tangent of what it writes; `f_hvp` and `f_hessian` differentiate
//! with respect to the values `w` holds on entry, as `f_grad` does.

use super::programs::{Dual, c};
use super::{Case, check, points};
use micrograd_runtime::prelude::*;

/// Scales `w` in place, then reads it back.
#[differentiable(hessian)]
pub fn scale_in_place(w: &mut [f64], a: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        w[i] = (w[i] * a).sin();
        s += w[i] * w[i];
    }
    s * a
}

fn scale_in_place_dual<D: Dual>(p: &[D]) -> D {
    let (w, a) = (&p[..3], p[3]);
    let mut s: D = c(0.0);
    for &w in w {
        let w = (w * a).sin();
        s += w * w;
    }
    s * a
}

#[test]
fn a_mutable_slice_in_jvp_and_hvp() {
    let case = Case::<4> {
        name: "scale_in_place",
        f: &|p| scale_in_place(&mut p[..3].to_vec(), p[3]),
        grad: &|p| {
            let mut d = vec![0.0; 3];
            let (_, d_a) = scale_in_place_grad(&mut p[..3].to_vec(), &mut d, p[3]);
            d.push(d_a);
            d
        },
        jvp: &|p, v| scale_in_place_jvp(&mut p[..3].to_vec(), &mut v[..3].to_vec(), p[3], v[3]),
        hvp: &|p, v| {
            let mut hv = vec![0.0; 3];
            let (y, hv_a) = scale_in_place_hvp(
                &mut p[..3].to_vec(),
                &mut v[..3].to_vec(),
                &mut hv,
                p[3],
                v[3],
            );
            hv.push(hv_a);
            (y, hv)
        },
        dual: &scale_in_place_dual,
    };
    for (p, v) in points(4, -1.0, 1.0) {
        check(&case, &p, &v);
    }
}

#[test]
fn a_mutable_slice_is_written_as_f_writes_it() {
    let (w0, a) = ([0.4, -0.9, 1.3], 0.7);
    let mut expected = w0;
    let value = scale_in_place(&mut expected, a);
    // f_jvp: `w` as f leaves it, `v_w` the tangent of those values: d sin(w a) = cos(w a) (ẇ a + w ȧ).
    let (mut w, mut v_w, v_a) = (w0, [1.0, 0.0, -2.0], 0.5);
    let (jvp_value, _) = scale_in_place_jvp(&mut w, &mut v_w, a, v_a);
    assert_eq!((jvp_value.to_bits(), w), (value.to_bits(), expected));
    for i in 0..3 {
        let want = (w0[i] * a).cos() * ([1.0, 0.0, -2.0][i] * a + w0[i] * v_a);
        assert!((v_w[i] - want).abs() < 1e-15, "v_w[{i}]");
    }
    // f_hessian: the Hessian with respect to the entry values, and `w` as f leaves it.
    let mut w = w0;
    let mut h = [0.0; 16];
    assert_eq!(
        scale_in_place_hessian(&mut w, a, &mut h).to_bits(),
        value.to_bits()
    );
    assert_eq!(w, expected);
    let grad = |p: &[f64]| {
        let mut d = vec![0.0; 3];
        let (_, d_a) = scale_in_place_grad(&mut p[..3].to_vec(), &mut d, p[3]);
        d.push(d_a);
        d
    };
    let x = [w0[0], w0[1], w0[2], a];
    super::hessian::check::<4>("scale_in_place", &h, &grad, &scale_in_place_dual, &x);
}

/// A `&mut [f64]` parameter left out of `wrt(..)`, written from `a` and read back: `f_jvp` and
/// `f_hvp` carry the tangent of what is written in a local of zeros, as `f_grad` carries its
/// adjoint (they used to read the written entries as constants).
#[differentiable(hessian, wrt(a))]
pub fn written_constant(a: f64, w: &mut [f64]) -> f64 {
    w[0] = (a * w[1]).sin();
    w[0] * a + w[1]
}

const W: [f64; 2] = [0.3, -1.1];

fn written_constant_dual<D: Dual>(p: &[D]) -> D {
    let a = p[0];
    let w0 = (a * W[1]).sin();
    w0 * a + c::<D>(W[1])
}

#[test]
fn a_mutable_slice_held_constant_in_jvp_and_hvp() {
    let case = Case::<1> {
        name: "written_constant",
        f: &|p| written_constant(p[0], &mut W.to_vec()),
        grad: &|p| vec![written_constant_grad(p[0], &mut W.to_vec()).1],
        jvp: &|p, v| written_constant_jvp(p[0], v[0], &mut W.to_vec()),
        hvp: &|p, v| {
            let (y, hv) = written_constant_hvp(p[0], v[0], &mut W.to_vec());
            (y, vec![hv])
        },
        dual: &written_constant_dual,
    };
    for (p, v) in points(1, -1.0, 1.0) {
        check(&case, &p, &v);
        let (_, h) = written_constant_hessian(p[0], &mut W.to_vec());
        let dual = &written_constant_dual;
        super::hessian::check::<1>("written_constant", h.as_flattened(), case.grad, dual, &p);
    }
}
