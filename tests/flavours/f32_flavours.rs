//! The other flavours in `f32` (issue 13): `f_jvp`, `f_hvp`, `f_hessian`, vector outputs and
//! `f_jacobian` of functions written in `f32`, against the same functions written in `f64`.

macro_rules! flavours {
    ($T:ident, $S:ident) => {
        use micrograd_runtime::prelude::*;

        #[differentiable(hessian)]
        pub fn rosen(a: $T, b: $T) -> $T {
            (1.0 - a).powi(2) + 100.0 * (b - a * a).powi(2) + (a * b).tanh()
        }

        #[differentiable(hvp)]
        pub fn cubes(w: &[$T], x: $T) -> $T {
            let mut s = 0.0;
            for i in 0..w.len() {
                s += (w[i] * x).powi(3) + w[i].sin();
            }
            s
        }

        #[differentiable(jacobian, wrt(a, b))]
        pub fn residual(a: $T, b: $T, t: &[$T; 3]) -> [$T; 3] {
            let mut r = [0.0; 3];
            for i in 0..3 {
                r[i] = a * (-b * t[i]).exp() - 0.5 * t[i];
            }
            r
        }

        #[differentiable(wrt(a))]
        pub fn pair(a: $T, b: $T) -> ($T, $T) {
            (a * b, a.exp() + b)
        }

        pub use super::$S as Affine;

        #[differentiable(hessian)]
        pub fn affine(p: &Affine, x: $T) -> $T {
            (p.w[0] * x + p.w[1] * x * x + p.b).tanh() * p.b
        }
    };
}

// Outside the macro: the derive's `self` would otherwise take `macro_rules!` hygiene from `$T`.
/// The parameters of `affine` in `f32`.
#[derive(micrograd_runtime::prelude::Differentiable)]
pub struct Affine32 {
    /// The weights.
    pub w: [f32; 2],
    /// The bias.
    pub b: f32,
}

/// The parameters of `affine` in `f64`.
#[derive(micrograd_runtime::prelude::Differentiable)]
pub struct Affine64 {
    /// The weights.
    pub w: [f64; 2],
    /// The bias.
    pub b: f64,
}

mod narrow {
    flavours!(f32, Affine32);
}

mod wide {
    flavours!(f64, Affine64);
}

/// `a` (an `f32` result) is `b` (the `f64` one) to `f32` accuracy.
fn near(what: &str, a: f32, b: f64) {
    let tol = 1e-5 * b.abs().max(1.0);
    assert!(
        (f64::from(a) - b).abs() <= tol,
        "{what}: {a} in f32, {b} in f64"
    );
}

#[test]
fn jvp_hvp_and_hessian_in_f32() {
    let (a, b) = (0.75_f32, -0.4_f32);
    let (wa, wb) = (f64::from(a), f64::from(b));
    let (value, jvp) = narrow::rosen_jvp(a, 1.0, b, 0.5);
    assert_eq!(value.to_bits(), narrow::rosen(a, b).to_bits());
    near("jvp", jvp, wide::rosen_jvp(wa, 1.0, wb, 0.5).1);
    let (value, hessian) = narrow::rosen_hessian(a, b);
    let (_, want) = wide::rosen_hessian(wa, wb);
    assert_eq!(value.to_bits(), narrow::rosen(a, b).to_bits());
    for i in 0..2 {
        for j in 0..2 {
            near("hessian", hessian[i][j], want[i][j]);
        }
    }
    let w = [0.3_f32, -1.2, 0.8];
    let ww = w.map(f64::from);
    let (mut hv, mut hv64) = ([0.0_f32; 3], [0.0_f64; 3]);
    let (_, hx) = narrow::cubes_hvp(&w, &[1.0, 0.5, -0.25], &mut hv, 0.9, 0.5);
    let (_, hx64) = wide::cubes_hvp(&ww, &[1.0, 0.5, -0.25], &mut hv64, 0.9, 0.5);
    near("hvp x", hx, hx64);
    for i in 0..3 {
        near("hvp w", hv[i], hv64[i]);
    }
}

#[test]
fn vector_outputs_and_jacobians_in_f32() {
    let t = [0.0_f32, 0.5, 1.0];
    let (r, jacobian) = narrow::residual_jacobian(2.5, 0.5, &t);
    let (r64, want) = wide::residual_jacobian(2.5, 0.5, &t.map(f64::from));
    assert_eq!(r, narrow::residual(2.5, 0.5, &t));
    for i in 0..3 {
        near("residual", r[i], r64[i]);
        for j in 0..2 {
            near("jacobian", jacobian[i][j], want[i][j]);
        }
    }
    let (d_a, d_b): (f32, f32) = narrow::pair_pullback(0.5, 2.0, (1.0, 0.25));
    let (want_a, want_b) = wide::pair_pullback(0.5, 2.0, (1.0, 0.25));
    near("pullback a", d_a, want_a);
    near("pullback b", d_b, want_b);
}

/// A parameter struct's Hessian in `f32`: its entries are the function's float type.
#[test]
fn struct_hessian_in_f32() {
    let (w, b, x) = ([0.4_f32, -0.7], 0.3_f32, 1.1_f32);
    let mut h = [0.0_f32; 16];
    let value = narrow::affine_hessian(&narrow::Affine { w, b }, x, &mut h);
    assert_eq!(
        value.to_bits(),
        narrow::affine(&narrow::Affine { w, b }, x).to_bits()
    );
    let wide_p = wide::Affine {
        w: w.map(f64::from),
        b: f64::from(b),
    };
    let mut want = [0.0_f64; 16];
    wide::affine_hessian(&wide_p, f64::from(x), &mut want);
    for i in 0..16 {
        near("struct hessian", h[i], want[i]);
    }
}
