//! References for the numeric tests: central finite differences and a tolerant comparison;
//! `oracle` checks what the macro computed against the references a test names.
//!
//! Every gradient a test checks is compared with a reference computed here from the plain
//! function `f` only, never from `f_grad`.

// Each test crate includes this module and uses a different part of it.
#![allow(dead_code)]

pub mod oracle;

/// The finite-difference step at `x`: small against `|x|`, never below `1e-6`.
pub fn step(x: f64) -> f64 {
    1e-6 * x.abs().max(1.0)
}

/// The central difference `(f(x + h) - f(x - h)) / 2h` with `h = step(x)`, and the larger of
/// `|f(x + h)|`, `|f(x - h)|` (what bounds its rounding error).
fn central(mut f: impl FnMut(f64) -> f64, x: f64) -> (f64, f64) {
    let h = step(x);
    // The step actually taken, exact in binary: (x + h) - (x - h) may differ from 2h.
    let (hi, lo) = (x + h, x - h);
    let (f_hi, f_lo) = (f(hi), f(lo));
    ((f_hi - f_lo) / (hi - lo), f_hi.abs().max(f_lo.abs()))
}

/// The central difference of a one-variable function at `x`.
pub fn derivative(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    central(f, x).0
}

/// The tolerance for comparing an exact derivative with a central difference at `x`, where `f`
/// is about `magnitude`: truncation error is `O(h^2)`, relative to the derivative (`1e-6`), and
/// rounding error is about `eps * |f| / h`, absolute (a safety factor of 64 on top).
fn tolerance(analytic: f64, numeric: f64, x: f64, magnitude: f64) -> f64 {
    let rounding = 64.0 * f64::EPSILON * magnitude.max(1.0) / step(x);
    1e-6 * analytic.abs().max(numeric.abs()) + rounding + 1e-9
}

/// Panics unless `analytic` matches the central difference of `f` in coordinate `i` at `point`.
pub fn assert_partial(
    name: &str,
    f: impl Fn(&[f64]) -> f64,
    point: &[f64],
    i: usize,
    analytic: f64,
) {
    let mut moved = point.to_vec();
    let (numeric, magnitude) = central(
        |xi| {
            moved[i] = xi;
            f(&moved)
        },
        point[i],
    );
    assert!(
        numeric.is_finite(),
        "{name}: the reference is {numeric} at {point:?}: pick a point inside the domain",
    );
    let tol = tolerance(analytic, numeric, point[i], magnitude);
    assert!(
        (analytic - numeric).abs() <= tol,
        "{name}: d/dx[{i}] is {analytic:e} by the gradient but {numeric:e} by central differences \
         (|diff| {:e} > tol {tol:e}) at point {point:?}",
        (analytic - numeric).abs(),
    );
}

/// Panics unless every entry of `gradient` matches central differences of `f` at `point`.
pub fn assert_gradient(name: &str, f: impl Fn(&[f64]) -> f64, point: &[f64], gradient: &[f64]) {
    assert_eq!(
        point.len(),
        gradient.len(),
        "{name}: {} partials for {} coordinates at {point:?}",
        gradient.len(),
        point.len(),
    );
    for (i, &g) in gradient.iter().enumerate() {
        assert_partial(name, &f, point, i, g);
    }
}

/// Panics unless `a` and `b` agree to `tol`, relative to the larger, and absolute below 1.
pub fn assert_near(name: &str, a: f64, b: f64, tol: f64) {
    let bound = tol * a.abs().max(b.abs()).max(1.0);
    assert!(
        (a - b).abs() <= bound,
        "{name}: {a:e} and {b:e} differ by {:e} > {bound:e}",
        (a - b).abs(),
    );
}

/// Panics unless `value` is bit for bit what `f` returned.
pub fn assert_same_value(name: &str, from_grad: f64, from_f: f64, point: &[f64]) {
    assert_eq!(
        from_grad.to_bits(),
        from_f.to_bits(),
        "{name}: f_grad returned {from_grad:e} but f returned {from_f:e} at {point:?}",
    );
}

/// Checks a function of one `f64` and its `_grad` at each point: value bit-identical,
/// derivative against central differences.
pub fn check1(name: &str, f: fn(f64) -> f64, g: fn(f64) -> (f64, f64), points: &[f64]) {
    for &a in points {
        let (value, da) = g(a);
        assert_same_value(name, value, f(a), &[a]);
        assert_gradient(name, |p| f(p[0]), &[a], &[da]);
    }
}

/// [`check1`] for a function of two `f64`s.
pub fn check2(
    name: &str,
    f: fn(f64, f64) -> f64,
    g: fn(f64, f64) -> (f64, f64, f64),
    points: &[[f64; 2]],
) {
    for &[a, b] in points {
        let (value, da, db) = g(a, b);
        assert_same_value(name, value, f(a, b), &[a, b]);
        assert_gradient(name, |p| f(p[0], p[1]), &[a, b], &[da, db]);
    }
}

/// [`check1`] for a function of three `f64`s.
pub fn check3(
    name: &str,
    f: fn(f64, f64, f64) -> f64,
    g: fn(f64, f64, f64) -> (f64, f64, f64, f64),
    points: &[[f64; 3]],
) {
    for &[a, b, c] in points {
        let (value, da, db, dc) = g(a, b, c);
        assert_same_value(name, value, f(a, b, c), &[a, b, c]);
        assert_gradient(name, |p| f(p[0], p[1], p[2]), &[a, b, c], &[da, db, dc]);
    }
}

/// Checks a function of one slice: `g(w, d_w)` must return `f(w)` bit for bit and add the
/// gradient into a zeroed `d_w`.
pub fn check_slice(
    name: &str,
    f: impl Fn(&[f64]) -> f64,
    g: impl Fn(&[f64], &mut [f64]) -> f64,
    w: &[f64],
) {
    let mut d_w = vec![0.0; w.len()];
    let value = g(w, &mut d_w);
    assert_same_value(name, value, f(w), w);
    assert_gradient(name, f, w, &d_w);
}

/// The signature of `f_grad` for `f(w: &[f64], x: &[f64])`.
pub type TwoSliceGrad = fn(&[f64], &mut [f64], &[f64], &mut [f64]) -> f64;

/// Checks `g(w, d_w, x, d_x)` against `f(w, x)`, differentiating both slices.
pub fn check_two_slices(
    name: &str,
    f: fn(&[f64], &[f64]) -> f64,
    g: TwoSliceGrad,
    w: &[f64],
    x: &[f64],
) {
    let (mut d_w, mut d_x) = (vec![0.0; w.len()], vec![0.0; x.len()]);
    let value = g(w, &mut d_w, x, &mut d_x);
    let n = w.len();
    let point: Vec<f64> = w.iter().chain(x).copied().collect();
    assert_same_value(name, value, f(w, x), &point);
    let gradient: Vec<f64> = d_w.iter().chain(&d_x).copied().collect();
    assert_gradient(name, |p| f(&p[..n], &p[n..]), &point, &gradient);
}

/// Checks `g` (the value, then the partials) against `f` (value bit for bit, gradient against
/// central differences) and against `v`, the same program on the `Value` engine, at each point.
pub fn check_with_value(
    name: &str,
    f: &dyn Fn(&[f64]) -> f64,
    g: &dyn Fn(&[f64]) -> Vec<f64>,
    v: &dyn Fn(&[micrograd_runtime::Value]) -> micrograd_runtime::Value,
    points: &[&[f64]],
) {
    for point in points {
        let out = g(point);
        assert_same_value(name, out[0], f(point), point);
        assert_gradient(name, f, point, &out[1..]);
        let inputs: Vec<micrograd_runtime::Value> = point
            .iter()
            .map(|x| micrograd_runtime::Value::new(*x))
            .collect();
        let value = v(&inputs);
        value.backward();
        assert_near(&format!("{name} (Value)"), value.data(), out[0], 1e-12);
        for (i, input) in inputs.iter().enumerate() {
            let label = format!("{name} d/dx[{i}] (Value)");
            assert_near(&label, input.grad(), out[i + 1], 1e-9);
        }
    }
}

/// Panics unless `analytic`, a partial an `f32` function computed in `f32`, matches the central
/// difference in coordinate `i` of `wide`, the same function written in `f64`, at `point` (the
/// `f32` point, widened). The tolerance fits `f32`: a few hundred ulps of `f32` relative to the
/// derivative, plus its rounding absolute at the scale of the function's value.
pub fn assert_f32_partial(
    name: &str,
    wide: impl Fn(&[f64]) -> f64,
    point: &[f64],
    i: usize,
    analytic: f32,
) {
    let mut moved = point.to_vec();
    let (numeric, magnitude) = central(
        |xi| {
            moved[i] = xi;
            wide(&moved)
        },
        point[i],
    );
    assert!(
        numeric.is_finite(),
        "{name}: the reference is {numeric} at {point:?}"
    );
    let analytic = f64::from(analytic);
    let tol = 3e-5 * analytic.abs().max(numeric.abs()) + 1e-6 * magnitude.max(1.0);
    assert!(
        (analytic - numeric).abs() <= tol,
        "{name}: d/dx[{i}] is {analytic:e} in f32 but {numeric:e} by central differences in f64 \
         (|diff| {:e} > tol {tol:e}) at point {point:?}",
        (analytic - numeric).abs(),
    );
}
