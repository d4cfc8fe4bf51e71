//! Functions generic over `T: Float` (num-traits', through `micrograd_runtime::num_traits`;
//! issue 25): the generated functions are generic the same way and are called at `f64` and
//! `f32` by inference. Every flavour at both types, against central differences and num-dual
//! (on twins generic over `DualNum`: num-dual's numbers are not num-traits `Float`s); each
//! value bit for bit `f::<f64>`'s (`f::<f32>`'s).

#![deny(warnings)] // the generated code compiles without one (clippy runs with -D warnings)
#![allow(clippy::needless_range_loop)] // entries of several arrays by one index

use crate::common;

use common::oracle;
use common::{assert_f32_partial, assert_gradient, assert_near, assert_same_value, derivative};
use micrograd_runtime::num_traits::{Float, FloatConst, FromPrimitive};
use micrograd_runtime::prelude::*;
use num_dual::DualNum;
use std::iter::Sum;
use std::ops::AddAssign;

/// Rosenbrock over a slice, as optimization crates write it.
#[differentiable(hessian)]
pub fn rosenbrock<T: Float>(x: &[T]) -> T {
    let mut s = T::zero();
    for i in 0..x.len() - 1 {
        let a = T::one() - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s = s + a * a + T::from(100.0).unwrap() * b * b;
    }
    s
}

/// A logistic regression's loss on one example, with the bounds in a `where` clause and the
/// dot product through `Sum`.
#[differentiable(hessian, wrt(w, b))]
pub fn logistic<T>(w: &[T], b: T, x: &[T], y: T) -> T
where
    T: Float + Sum,
{
    let z: T = w.iter().zip(x.iter()).map(|(wi, xi)| *wi * *xi).sum::<T>() + b;
    let p = T::one() / (T::one() + (-z).exp());
    -(y * p.ln() + (T::one() - y) * (T::one() - p).ln())
}

/// `FloatConst`'s constants, `T::from` of literals and of an integer.
#[differentiable(hessian)]
pub fn wave<T: Float + FloatConst>(x: T, a: T, n: usize) -> T {
    let k = T::from(n).unwrap();
    (T::PI() * x * k).sin() * a + T::from(0.5).unwrap() * x * x + T::FRAC_PI_4() * a.powi(3)
        - (x * T::LN_2()).exp2() / T::from(-3.0).unwrap()
}

/// A const generic beside the float, its length read as a float.
#[differentiable(hessian)]
pub fn spread<T: Float, const N: usize>(x: &[T; N]) -> T {
    let mut s = T::zero();
    for i in 0..N {
        s = s + (x[i] - T::from(i).unwrap() * T::from(0.25).unwrap()).powi(2);
    }
    (s / T::from(N).unwrap()).sqrt()
}

/// Calls between generic functions, at whichever `T` the caller is called.
#[differentiable(hessian)]
pub fn calls<T: Float>(x: &[T], s: T) -> T {
    rosenbrock(x) * s.tanh() + spread(&[x[0], s])
}

/// `+=` where the user bounds `T` by `AddAssign` (the generated code needs no such bound), and
/// `.iter().copied()` in a `for`.
#[differentiable(hvp)]
pub fn squares<T: Float + AddAssign>(x: &[T]) -> T {
    let mut s = T::zero();
    for v in x.iter().copied() {
        s += v * v * T::from(1.5).unwrap();
    }
    s
}

/// More of the forms generic code is written in: data of `T` (never differentiated), a fold
/// from `T::zero()`, `mul_add`, `T::from_f64` and `T::from_usize`, a typed `let`, an `if` on
/// `T`s, two outputs.
#[differentiable(jvp, wrt(w))]
pub fn forms<T: Float + FromPrimitive>(w: &[T], pts: &[[T; 2]], n: usize) -> (T, T) {
    let s = w.iter().fold(T::zero(), |acc, v| acc + *v * *v);
    let mut fit: T = T::from_f64(0.3).unwrap() + T::from(-0.25f64).unwrap();
    for i in 0..pts.len() {
        let r = w[0].mul_add(pts[i][0], w[1]) - pts[i][1];
        fit = fit + if r > T::zero() { r * r } else { -r };
    }
    (s / T::from_usize(n).unwrap(), fit.sqrt())
}

/// A vector output and its Jacobian.
#[differentiable(jacobian, jvp)]
pub fn polar<T: Float>(r: T, theta: T) -> [T; 2] {
    [r * theta.cos(), r * theta.sin() * T::from(2.0).unwrap()]
}

// num-dual twins of the functions above, written the same way.

fn rosenbrock_d<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let mut s = D::from(0.0);
    for i in 0..x.len() - 1 {
        let a = D::from(1.0) - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s += a * a + D::from(100.0) * b * b;
    }
    s
}

fn logistic_d<D: DualNum<Primitive = f64> + Copy>(w: &[D], b: D, x: &[f64], y: f64) -> D {
    let z = w[0] * x[0] + w[1] * x[1] + b;
    let p = (D::from(1.0) + (-z).exp()).recip();
    -(p.ln() * y + (D::from(1.0) - p).ln() * (1.0 - y))
}

fn wave_d<D: DualNum<Primitive = f64> + Copy>(x: D, a: D, n: usize) -> D {
    use std::f64::consts::{FRAC_PI_4, LN_2, PI};
    (x * PI * n as f64).sin() * a + x * x * 0.5 + a.powi(3) * FRAC_PI_4 - (x * LN_2).exp2() / -3.0
}

fn spread_d<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let mut s = D::from(0.0);
    for (i, &xi) in x.iter().enumerate() {
        s += (xi - D::from(i as f64 * 0.25)).powi(2);
    }
    (s / x.len() as f64).sqrt()
}

fn calls_d<D: DualNum<Primitive = f64> + Copy>(x: &[D], s: D) -> D {
    rosenbrock_d(x) * s.tanh() + spread_d(&[x[0], s])
}

fn polar_d<D: DualNum<Primitive = f64> + Copy>(r: D, theta: D) -> [D; 2] {
    [r * theta.cos(), r * theta.sin() * 2.0]
}

/// Points at which the functions are smooth.
const POINTS: [[f64; 3]; 3] = [[0.3, -0.7, 1.1], [-1.2, 0.4, 0.9], [0.8, 1.5, -0.25]];

fn wide(x: &[f32]) -> Vec<f64> {
    x.iter().map(|&v| f64::from(v)).collect()
}

fn narrow(x: &[f64]) -> Vec<f32> {
    x.iter().map(|&v| v as f32).collect()
}

/// `f32` results against the `f64` reference: to f32's precision.
fn assert_close32(name: &str, got: &[f32], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{name}");
    for (g, w) in got.iter().zip(want) {
        assert_near(name, f64::from(*g), *w, 2e-4);
    }
}

#[test]
fn rosenbrock_in_every_flavour_at_f64_and_f32() {
    for x in POINTS {
        let reference = oracle::dual_gradient(rosenbrock_d, &x).1;
        let hessian = oracle::dual_hessian(rosenbrock_d, &x);
        // f64
        let mut d_x = [0.0; 3];
        let value = rosenbrock_grad(&x, &mut d_x);
        assert_same_value("rosenbrock", value, rosenbrock(&x), &x);
        assert_gradient("rosenbrock", rosenbrock::<f64>, &x, &d_x);
        for k in 0..3 {
            assert_near("rosenbrock grad vs num-dual", d_x[k], reference[k], 1e-12);
        }
        let mut d_p = [0.0; 3];
        rosenbrock_pullback(&x, &mut d_p, 0.5);
        for k in 0..3 {
            assert_near("rosenbrock pullback", d_p[k], 0.5 * reference[k], 1e-12);
        }
        let v = [0.5, -1.0, 2.0];
        let (value_jvp, jvp) = rosenbrock_jvp(&x, &v);
        assert_same_value("rosenbrock_jvp", value_jvp, rosenbrock(&x), &x);
        let want: f64 = (0..3).map(|k| reference[k] * v[k]).sum();
        assert_near("rosenbrock jvp", jvp, want, 1e-12);
        let mut hv = [0.0; 3];
        let value_hvp = rosenbrock_hvp(&x, &v, &mut hv);
        assert_same_value("rosenbrock_hvp", value_hvp, rosenbrock(&x), &x);
        for i in 0..3 {
            let want: f64 = (0..3).map(|j| hessian[i][j] * v[j]).sum();
            assert_near("rosenbrock hvp", hv[i], want, 1e-12);
        }
        let mut hess = [0.0; 9];
        let value_h = rosenbrock_hessian(&x, &mut hess);
        assert_same_value("rosenbrock_hessian", value_h, rosenbrock(&x), &x);
        for i in 0..3 {
            for j in 0..3 {
                assert_near("rosenbrock hessian", hess[3 * i + j], hessian[i][j], 1e-12);
            }
        }
        // f32: the same functions, inferred from the arguments.
        let x32 = narrow(&x);
        let reference = oracle::dual_gradient(rosenbrock_d, &wide(&x32)).1;
        let hessian = oracle::dual_hessian(rosenbrock_d, &wide(&x32));
        let mut d_x32 = [0.0_f32; 3];
        let value32 = rosenbrock_grad(&x32, &mut d_x32);
        assert_eq!(value32.to_bits(), rosenbrock(&x32).to_bits());
        assert_close32("rosenbrock f32 grad", &d_x32, &reference);
        let mut d_p32 = [0.0_f32; 3];
        rosenbrock_pullback(&x32, &mut d_p32, 1.0_f32);
        assert_close32("rosenbrock f32 pullback", &d_p32, &reference);
        let v32 = narrow(&v);
        let (value_jvp32, jvp32) = rosenbrock_jvp(&x32, &v32);
        assert_eq!(value_jvp32.to_bits(), rosenbrock(&x32).to_bits());
        let want: f64 = (0..3).map(|k| reference[k] * f64::from(v32[k])).sum();
        assert_close32("rosenbrock f32 jvp", &[jvp32], &[want]);
        let mut hv32 = [0.0_f32; 3];
        let value_hvp32 = rosenbrock_hvp(&x32, &v32, &mut hv32);
        assert_eq!(value_hvp32.to_bits(), rosenbrock(&x32).to_bits());
        let want: Vec<f64> = (0..3)
            .map(|i| (0..3).map(|j| hessian[i][j] * f64::from(v32[j])).sum())
            .collect();
        assert_close32("rosenbrock f32 hvp", &hv32, &want);
        let mut hess32 = [0.0_f32; 9];
        let value_h32 = rosenbrock_hessian(&x32, &mut hess32);
        assert_eq!(value_h32.to_bits(), rosenbrock(&x32).to_bits());
        let flat: Vec<f64> = hessian.concat();
        assert_close32("rosenbrock f32 hessian", &hess32, &flat);
    }
}

#[test]
fn logistic_loss_at_f64_and_f32() {
    let x = [0.5, -1.5, 2.0];
    for (p, y) in POINTS.iter().zip([0.0, 1.0, 1.0]) {
        let (w, b) = (&p[..2], p[2]);
        let whole = |q: &[f64]| logistic(&q[..2], q[2], &x[..2], y);
        let mut d_w = [0.0; 2];
        let (value, d_b) = logistic_grad(w, &mut d_w, b, &x[..2], y);
        assert_same_value("logistic", value, whole(p), p);
        let gradient = [d_w[0], d_w[1], d_b];
        assert_gradient("logistic", whole, p, &gradient);
        let reference = oracle::dual_gradient(|q| logistic_d(&q[..2], q[2], &x[..2], y), p).1;
        for k in 0..3 {
            assert_near("logistic vs num-dual", gradient[k], reference[k], 1e-12);
        }
        let hessian = oracle::dual_hessian(|q| logistic_d(&q[..2], q[2], &x[..2], y), p);
        let mut hess = [0.0; 9];
        let value_h = logistic_hessian(w, b, &x[..2], y, &mut hess);
        assert_same_value("logistic_hessian", value_h, whole(p), p);
        for i in 0..3 {
            for j in 0..3 {
                assert_near("logistic hessian", hess[3 * i + j], hessian[i][j], 1e-10);
            }
        }
        // f32
        let (w32, b32, x32, y32) = (narrow(w), b as f32, narrow(&x[..2]), y as f32);
        let mut d_w32 = [0.0_f32; 2];
        let (value32, d_b32) = logistic_grad(&w32, &mut d_w32, b32, &x32, y32);
        assert_eq!(value32.to_bits(), logistic(&w32, b32, &x32, y32).to_bits());
        let at32 = [f64::from(w32[0]), f64::from(w32[1]), f64::from(b32)];
        let x32w = wide(&x32);
        let reference =
            oracle::dual_gradient(|q| logistic_d(&q[..2], q[2], &x32w, f64::from(y32)), &at32).1;
        assert_close32("logistic f32", &[d_w32[0], d_w32[1], d_b32], &reference);
    }
}

#[test]
fn constants_of_float_const_and_from() {
    for p in POINTS {
        let (x, a) = (p[0], p[1]);
        for n in [1, 3] {
            let (value, d_x, d_a) = wave_grad(x, a, n);
            assert_same_value("wave", value, wave(x, a, n), &p);
            assert_gradient("wave", |q| wave(q[0], q[1], n), &[x, a], &[d_x, d_a]);
            let reference = oracle::dual_gradient(|q| wave_d(q[0], q[1], n), &[x, a]).1;
            assert_near("wave vs num-dual x", d_x, reference[0], 1e-12);
            assert_near("wave vs num-dual a", d_a, reference[1], 1e-12);
            let hessian = oracle::dual_hessian(|q| wave_d(q[0], q[1], n), &[x, a]);
            let (value_h, h) = wave_hessian(x, a, n);
            assert_same_value("wave_hessian", value_h, wave(x, a, n), &p);
            for i in 0..2 {
                for j in 0..2 {
                    assert_near("wave hessian", h[i][j], hessian[i][j], 1e-10);
                }
            }
            let (x32, a32) = (x as f32, a as f32);
            let (value32, d_x32, d_a32) = wave_grad(x32, a32, n);
            assert_eq!(value32.to_bits(), wave(x32, a32, n).to_bits());
            let reference =
                oracle::dual_gradient(|q| wave_d(q[0], q[1], n), &[f64::from(x32), f64::from(a32)])
                    .1;
            assert_close32("wave f32", &[d_x32, d_a32], &reference);
            let (value_h32, h32) = wave_hessian(x32, a32, n);
            assert_eq!(value_h32.to_bits(), wave(x32, a32, n).to_bits());
            let hessian =
                oracle::dual_hessian(|q| wave_d(q[0], q[1], n), &[f64::from(x32), f64::from(a32)]);
            assert_close32("wave f32 hessian", &h32.concat(), &hessian.concat());
        }
    }
}

#[test]
fn float_consts_from_f64_are_the_f32_constants() {
    // A generic float's constants print as `T::from` of the `f64` constant: at `f32` that is
    // num-traits' (and core's) `f32` constant, for every constant `FloatConst` has.
    macro_rules! same {
        ($($name:ident)*) => {$(
            assert_eq!(
                <f32 as num_traits_check::FloatConst>::$name().to_bits(),
                (std::f64::consts::$name as f32).to_bits(),
                stringify!($name),
            );
        )*};
    }
    use micrograd_runtime::num_traits as num_traits_check;
    same!(E FRAC_1_PI FRAC_1_SQRT_2 FRAC_2_PI FRAC_2_SQRT_PI FRAC_PI_2 FRAC_PI_3 FRAC_PI_4
        FRAC_PI_6 FRAC_PI_8 LN_10 LN_2 LOG10_E LOG2_E PI SQRT_2 TAU LOG10_2 LOG2_10);
}

#[test]
fn const_generics_and_calls() {
    for p in POINTS {
        let (x, s) = ([p[0], p[1]], p[2]);
        let mut d_x = [0.0; 2];
        let (value, d_s) = calls_grad(&x, &mut d_x, s);
        assert_same_value("calls", value, calls(&x, s), &p);
        let whole = |q: &[f64]| calls(&q[..2], q[2]);
        assert_gradient("calls", whole, &p, &[d_x[0], d_x[1], d_s]);
        let reference = oracle::dual_gradient(|q| calls_d(&q[..2], q[2]), &p).1;
        for (k, g) in [d_x[0], d_x[1], d_s].into_iter().enumerate() {
            assert_near("calls vs num-dual", g, reference[k], 1e-12);
        }
        let hessian = oracle::dual_hessian(|q| calls_d(&q[..2], q[2]), &p);
        let mut hess = [0.0; 9];
        calls_hessian(&x, s, &mut hess);
        for i in 0..3 {
            for j in 0..3 {
                assert_near("calls hessian", hess[3 * i + j], hessian[i][j], 1e-10);
            }
        }
        let mut d_p = [0.0; 3];
        let value = spread_grad(&p, &mut d_p);
        assert_same_value("spread", value, spread(&p), &p);
        let reference = oracle::dual_gradient(spread_d, &p).1;
        assert_gradient("spread", |q| spread(&[q[0], q[1], q[2]]), &p, &d_p);
        for k in 0..3 {
            assert_near("spread vs num-dual", d_p[k], reference[k], 1e-12);
        }
        // f32
        let (x32, s32) = ([p[0] as f32, p[1] as f32], p[2] as f32);
        let mut d_x32 = [0.0_f32; 2];
        let (value32, d_s32) = calls_grad(&x32, &mut d_x32, s32);
        assert_eq!(value32.to_bits(), calls(&x32, s32).to_bits());
        let at = [f64::from(x32[0]), f64::from(x32[1]), f64::from(s32)];
        let reference = oracle::dual_gradient(|q| calls_d(&q[..2], q[2]), &at).1;
        assert_close32("calls f32", &[d_x32[0], d_x32[1], d_s32], &reference);
        let p32 = [p[0] as f32, p[1] as f32, p[2] as f32];
        let mut d_p32 = [0.0_f32; 3];
        let value32 = spread_grad(&p32, &mut d_p32);
        assert_eq!(value32.to_bits(), spread(&p32).to_bits());
        let reference = oracle::dual_gradient(spread_d, &wide(&p32)).1;
        assert_close32("spread f32", &d_p32, &reference);
    }
}

#[test]
fn vector_output_jacobian_and_jvp() {
    for p in POINTS {
        let (r, t) = (p[0], p[1]);
        let (value, jacobian) = polar_jacobian(r, t);
        assert_eq!(value, polar(r, t));
        for row in 0..2 {
            let reference = oracle::dual_gradient(|q| polar_d(q[0], q[1])[row], &[r, t]).1;
            for col in 0..2 {
                assert_near("polar jacobian", jacobian[row][col], reference[col], 1e-12);
            }
            assert_gradient("polar", |q| polar(q[0], q[1])[row], &[r, t], &jacobian[row]);
        }
        let (value, jvp) = polar_jvp(r, 0.5, t, -2.0);
        assert_eq!(value, polar(r, t));
        for row in 0..2 {
            let reference = oracle::dual_gradient(|q| polar_d(q[0], q[1])[row], &[r, t]).1;
            let want = reference[0] * 0.5 - reference[1] * 2.0;
            assert_near("polar jvp", jvp[row], want, 1e-12);
        }
        let (r32, t32) = (r as f32, t as f32);
        let (value32, jacobian32) = polar_jacobian(r32, t32);
        assert_eq!(value32, polar(r32, t32));
        for row in 0..2 {
            let reference = oracle::dual_gradient(
                |q| polar_d(q[0], q[1])[row],
                &[f64::from(r32), f64::from(t32)],
            )
            .1;
            assert_close32("polar f32", &jacobian32[row], &reference);
        }
        let (value32, jvp32) = polar_jvp(r32, 1.0_f32, t32, 0.0);
        assert_eq!(value32, polar(r32, t32));
        assert_close32(
            "polar f32 jvp",
            &jvp32,
            &[f64::from(jacobian32[0][0]), f64::from(jacobian32[1][0])],
        );
    }
}

#[test]
fn add_assign_bound_by_the_user() {
    for p in POINTS {
        let mut d_p = [0.0; 3];
        let value = squares_grad(&p, &mut d_p);
        assert_same_value("squares", value, squares(&p), &p);
        for k in 0..3 {
            assert_eq!(d_p[k], 3.0 * p[k], "the closed form 3 x");
        }
        let mut hv = [0.0; 3];
        let (value, jvp) = squares_jvp(&p, &[1.0, 0.0, -1.0]);
        assert_same_value("squares_jvp", value, squares(&p), &p);
        assert_near("squares jvp", jvp, 3.0 * (p[0] - p[2]), 1e-15);
        squares_hvp(&p, &[1.0, 0.0, -1.0], &mut hv);
        assert_eq!(hv, [3.0, 0.0, -3.0], "H = 3 I");
        let p32 = p.map(|v| v as f32);
        let mut d_p32 = [0.0_f32; 3];
        let value32 = squares_grad(&p32, &mut d_p32);
        assert_eq!(value32.to_bits(), squares(&p32).to_bits());
        for k in 0..3 {
            assert_eq!(d_p32[k], 3.0 * p32[k], "the closed form 3 x in f32");
        }
    }
}

#[test]
fn data_folds_and_two_outputs() {
    let pts = [[0.5, 1.0], [-1.0, 0.25], [2.0, -0.5]];
    for p in POINTS {
        let w = &p[..2];
        let (mut d_w0, mut d_w1) = ([0.0; 2], [0.0; 2]);
        forms_pullback(w, &mut d_w0, &pts, 3, (1.0, 0.0));
        forms_pullback(w, &mut d_w1, &pts, 3, (0.0, 1.0));
        assert_gradient("forms.0", |q| forms(q, &pts, 3).0, w, &d_w0);
        assert_gradient("forms.1", |q| forms(q, &pts, 3).1, w, &d_w1);
        let (value, jvp) = forms_jvp(w, &[1.0, -0.5], &pts, 3);
        assert_eq!(value, forms(w, &pts, 3));
        // Central differences along the tangent.
        let along = |t: f64| forms(&[w[0] + t, w[1] - 0.5 * t], &pts, 3);
        assert_near("forms jvp.0", jvp.0, derivative(|t| along(t).0, 0.0), 1e-8);
        assert_near("forms jvp.1", jvp.1, derivative(|t| along(t).1, 0.0), 1e-8);
        let (w32, pts32) = (narrow(w), pts.map(|r| r.map(|v| v as f32)));
        let mut d_w32 = [0.0_f32; 2];
        forms_pullback(&w32, &mut d_w32, &pts32, 3, (1.0_f32, 0.0));
        let (value32, _) = forms_jvp(&w32, &[1.0, -0.5], &pts32, 3);
        assert_eq!(value32, forms(&w32, &pts32, 3));
        // Central differences of `forms::<f64>` at the `f32` point.
        let wide_pts = pts32.map(|r| r.map(f64::from));
        for k in 0..2 {
            let f = |q: &[f64]| forms(q, &wide_pts, 3).0;
            assert_f32_partial("forms f32", f, &wide(&w32), k, d_w32[k]);
        }
    }
}
