//! `f_jacobian` of functions returning `()` that write their outputs through `&mut`
//! parameters: the blocks (outputs × `w.len()`) and `f64` columns against central differences
//! of `f` itself, and against the columns of the function's own `f_jvp`; the outputs written
//! as `f` writes them, from the values they held on entry.

use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;

/// A residual with a branch per entry, written into `out`; `err` accumulates onto its value
/// on entry (so the outputs' entry values must be restored before each column).
#[differentiable(jacobian)]
fn residual(x: &[f64], y: &[f64], a: f64, out: &mut [f64], err: &mut f64) {
    for i in 0..x.len() {
        if x[i] > 0.0 {
            out[i] = a * x[i] * y[i] - 1.0;
        } else {
            out[i] = (a * x[i]).sin() + y[i] * y[i];
        }
        *err += out[i] * out[i];
    }
}

/// One output entry, two input slices.
#[differentiable(jacobian)]
fn dot(x: &[f64], y: &[f64], e: &mut f64) {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i] * y[i].exp();
    }
    *e = s;
}

/// `wrt(..)` picks the input and the output; `scale` is passed through.
#[differentiable(jacobian, wrt(x, out))]
fn scaled(x: &[f64], scale: f64, out: &mut [f64]) {
    for i in 0..out.len() {
        out[i] = scale * x[i % x.len()] * x[(i + 1) % x.len()];
    }
}

/// The central-difference Jacobian of `eval` (inputs → outputs) at `point`, row-major.
fn central(eval: impl Fn(&[f64]) -> Vec<f64>, point: &[f64]) -> Vec<Vec<f64>> {
    let h = 1e-6;
    let m = eval(point).len();
    let mut rows = vec![vec![0.0; point.len()]; m];
    for j in 0..point.len() {
        let (mut plus, mut minus) = (point.to_vec(), point.to_vec());
        plus[j] += h;
        minus[j] -= h;
        let (p, q) = (eval(&plus), eval(&minus));
        for i in 0..m {
            rows[i][j] = (p[i] - q[i]) / (2.0 * h);
        }
    }
    rows
}

fn assert_close(name: &str, got: f64, want: f64) {
    let tol = 1e-6 * (1.0 + want.abs());
    assert!((got - want).abs() < tol, "{name}: {got} != {want}");
}

#[test]
fn residual_blocks_against_central_differences_and_jvp() {
    let x = [0.7, -0.4, 1.3];
    let y = [0.2, 0.9, -1.1];
    let a = 1.7;
    let n = x.len();
    let m = n + 1;
    let entry_err = 0.25;
    let (mut out, mut err) = ([9.0; 3], entry_err);
    let (mut d_x, mut d_y, mut d_a) = (vec![0.0; m * n], vec![0.0; m * n], vec![0.0; m]);
    residual_jacobian(&x, &mut d_x, &y, &mut d_y, a, &mut d_a, &mut out, &mut err);
    // The outputs as `f` writes them from the same entry values.
    let (mut f_out, mut f_err) = ([9.0; 3], entry_err);
    residual(&x, &y, a, &mut f_out, &mut f_err);
    assert_eq!((out, err), (f_out, f_err));

    // Inputs flattened (x, y, a) → outputs (out, err).
    let eval = |p: &[f64]| {
        let (mut out, mut err) = ([0.0; 3], entry_err);
        residual(&p[0..3], &p[3..6], p[6], &mut out, &mut err);
        let mut v = out.to_vec();
        v.push(err);
        v
    };
    let mut point = x.to_vec();
    point.extend(y);
    point.push(a);
    let rows = central(eval, &point);
    for i in 0..m {
        for j in 0..n {
            assert_close(&format!("d out{i}/d x{j}"), d_x[i * n + j], rows[i][j]);
            assert_close(&format!("d out{i}/d y{j}"), d_y[i * n + j], rows[i][n + j]);
        }
        assert_close(&format!("d out{i}/d a"), d_a[i], rows[i][2 * n]);
    }

    // Against the columns of `residual_jvp`, along each input entry.
    for j in 0..2 * n + 1 {
        let mut v = vec![0.0; 2 * n + 1];
        v[j] = 1.0;
        let (mut out, mut v_out, mut err, mut v_err) = ([0.0; 3], [0.0; 3], entry_err, 0.0);
        residual_jvp(
            &x,
            &v[0..3],
            &y,
            &v[3..6],
            a,
            v[6],
            &mut out,
            &mut v_out,
            &mut err,
            &mut v_err,
        );
        let mut column: Vec<f64> = v_out.to_vec();
        column.push(v_err);
        for (i, t) in column.iter().enumerate() {
            let got = match j {
                j if j < n => d_x[i * n + j],
                j if j < 2 * n => d_y[i * n + j - n],
                _ => d_a[i],
            };
            assert_eq!(got, *t, "output {i}, column {j}");
        }
    }
}

#[test]
fn one_output_two_slices() {
    let x = [0.5, -1.5, 2.0, 0.1];
    let y = [0.3, -0.2, 0.1, 1.0];
    let mut e = 0.0;
    let (mut d_x, mut d_y) = ([0.0; 4], [0.0; 4]);
    dot_jacobian(&x, &mut d_x, &y, &mut d_y, &mut e);
    let mut want = 0.0;
    dot(&x, &y, &mut want);
    assert_eq!(e, want);
    for i in 0..4 {
        // ∂/∂x_i = e^{y_i}, ∂/∂y_i = x_i e^{y_i}: closed forms.
        assert_close("d e/d x", d_x[i], y[i].exp());
        assert_close("d e/d y", d_y[i], x[i] * y[i].exp());
    }
}

#[test]
fn chosen_outputs_only() {
    let x = [0.5, -1.5, 2.0];
    let mut out = [0.0; 5];
    let mut d_x = vec![0.0; 5 * 3];
    scaled_jacobian(&x, &mut d_x, 2.0, &mut out);
    let mut f_out = [0.0; 5];
    scaled(&x, 2.0, &mut f_out);
    assert_eq!(out, f_out);
    let eval = |p: &[f64]| {
        let mut out = [0.0; 5];
        scaled(p, 2.0, &mut out);
        out.to_vec()
    };
    let rows = central(eval, &x);
    for i in 0..5 {
        for j in 0..3 {
            assert_close(&format!("d out{i}/d x{j}"), d_x[i * 3 + j], rows[i][j]);
        }
    }
}

#[test]
#[should_panic(expected = "the Jacobian block `d_x` has 3 entries")]
fn a_short_block_is_refused() {
    let (mut out, mut err) = ([0.0; 3], 0.0);
    let (mut d_x, mut d_y, mut d_a) = ([0.0; 3], [0.0; 12], [0.0; 4]);
    residual_jacobian(
        &[1.0; 3], &mut d_x, &[1.0; 3], &mut d_y, 1.0, &mut d_a, &mut out, &mut err,
    );
}

#[test]
fn no_columns_still_writes_the_outputs() {
    let mut e = 5.0;
    dot_jacobian(&[], &mut [], &[], &mut [], &mut e);
    assert_eq!(e, 0.0);
}

/// The same in `f32` and generic over `T: Float`.
#[differentiable(jacobian)]
fn cubes32(x: &[f32], out: &mut [f32]) {
    for i in 0..x.len() {
        out[i] = x[i] * x[i] * x[i];
    }
}

#[differentiable(jacobian)]
fn cubes<T: Float>(x: &[T], a: T, out: &mut [T]) {
    for i in 0..x.len() {
        out[i] = a * x[i] * x[i] * x[i];
    }
}

#[test]
fn f32_and_generic_floats() {
    let (mut out, mut d_x) = ([0.0f32; 2], [0.0f32; 4]);
    cubes32_jacobian(&[1.0, 2.0], &mut d_x, &mut out);
    assert_eq!((out, d_x), ([1.0, 8.0], [3.0, 0.0, 0.0, 12.0])); // 3 x²
    let (mut out, mut d_x, mut d_a) = ([0.0f64; 2], [0.0f64; 4], [0.0f64; 2]);
    cubes_jacobian(&[1.0, 2.0], &mut d_x, 2.0, &mut d_a, &mut out);
    assert_eq!(
        (out, d_x, d_a),
        ([2.0, 16.0], [6.0, 0.0, 0.0, 24.0], [1.0, 8.0])
    );
    let (mut out, mut d_x, mut d_a) = ([0.0f32; 2], [0.0f32; 4], [0.0f32; 2]);
    cubes_jacobian(&[1.0, 2.0], &mut d_x, 2.0, &mut d_a, &mut out);
    assert_eq!(
        (out, d_x, d_a),
        ([2.0, 16.0], [6.0, 0.0, 0.0, 24.0], [1.0, 8.0])
    );
}

#[derive(Differentiable)]
struct Scale {
    k: f64,
}

impl Scale {
    #[differentiable(jacobian, wrt(x, out))]
    fn apply(&self, x: &[f64], out: &mut [f64]) {
        for i in 0..x.len() {
            out[i] = self.k * x[i];
        }
    }
}

#[test]
fn a_method() {
    let scale = Scale { k: 3.0 };
    let (mut out, mut d_x) = ([0.0; 2], [0.0; 4]);
    scale.apply_jacobian(&[1.0, 2.0], &mut d_x, &mut out);
    assert_eq!((out, d_x), ([3.0, 6.0], [3.0, 0.0, 0.0, 3.0])); // k I
}

/// A `&Vec<f64>` input and two `f64`s, one `&mut f64` output.
#[allow(clippy::ptr_arg)] // the `&Vec<f64>` parameter is what is tested
#[differentiable(jacobian)]
fn weighted(w: &Vec<f64>, a: f64, b: f64, y: &mut f64) {
    let mut s = b * b;
    for i in 0..w.len() {
        s += a * w[i] * w[i];
    }
    *y = s;
}

#[test]
fn vec_and_scalars_into_one_scalar() {
    let w = vec![1.0, -2.0];
    let (mut y, mut d_w, mut d_a, mut d_b) = (0.0, [0.0; 2], [0.0; 1], [0.0; 1]);
    weighted_jacobian(&w, &mut d_w, 1.5, &mut d_a, 0.5, &mut d_b, &mut y);
    assert_eq!(y, 0.25 + 1.5 * 5.0);
    // ∂y/∂w = 2 a w, ∂y/∂a = Σ w², ∂y/∂b = 2b: closed forms.
    assert_eq!((d_w, d_a, d_b), ([3.0, -6.0], [5.0], [1.0]));
}
