//! A sub-slice whose range is out of bounds panics in every flavour where `f` takes it, with
//! `f`'s message, even when the view is never read or read only in a branch not taken: the
//! generated code reads a view's entries from its base, so it checks the range on its own.

use micrograd_runtime::prelude::*;

const W: [f64; 4] = [0.5, -1.5, 2.0, 0.25];

/// The view is read only where `x > 100`.
#[differentiable(jvp, hvp, hessian, graph)]
fn unread(w: &[f64], x: f64, hi: usize) -> f64 {
    let s = &w[2..hi];
    if x > 100.0 { s[0] * x } else { w[0] * x }
}

/// A view of a view, whose start is past the inner view's end.
#[differentiable(jvp, hvp, hessian, graph)]
fn nested(w: &[f64], x: f64, k: usize) -> f64 {
    let a = &w[1..];
    let b = &a[k..];
    if x > 100.0 { b[0] } else { w[1] * x * x }
}

/// A range whose start is past its end.
#[differentiable(jvp, hvp, hessian, graph)]
fn crossed(w: &[f64], x: f64, k: usize) -> f64 {
    let s = &w[k..2];
    if x > 100.0 { s[0] } else { w[2] * x }
}

/// A `#[should_panic]` test for each call, expecting `f`'s message; the calls may use a shadow,
/// a tangent and a Hessian buffer under the names given first.
macro_rules! panics {
    ($d_w:ident, $v_w:ident, $hess:ident; $($name:ident: $message:literal => $call:expr;)*) => {
        $(
            #[test]
            #[should_panic(expected = $message)]
            fn $name() {
                let (mut $d_w, $v_w, mut $hess) = ([0.0; 4], [1.0; 4], [0.0; 25]);
                let _ = (&mut $d_w, &$v_w, &mut $hess);
                std::hint::black_box($call);
            }
        )*
    };
}

panics! {
    d_w, v_w, hess;
    unread_f: "range end index 10 out of range for slice of length 4" => unread(&W, 1.5, 10);
    unread_grad_panics: "range end index 10 out of range for slice of length 4" => unread_grad(&W, &mut d_w, 1.5, 10);
    unread_pullback_panics: "range end index 10 out of range for slice of length 4" => unread_pullback(&W, &mut d_w, 1.5, 10, 1.0);
    unread_jvp_panics: "range end index 10 out of range for slice of length 4" => unread_jvp(&W, &v_w, 1.5, 1.0, 10);
    unread_hvp_panics: "range end index 10 out of range for slice of length 4" => unread_hvp(&W, &v_w, &mut d_w, 1.5, 1.0, 10);
    unread_hessian_panics: "range end index 10 out of range for slice of length 4" => unread_hessian(&W, 1.5, 10, &mut hess);
    unread_graph_panics: "range end index 10 out of range for slice of length 4" => unread_graph(&W, 1.5, 10);
    nested_f: "range start index 5 out of range for slice of length 3" => nested(&W, 1.5, 5);
    nested_grad_panics: "range start index 5 out of range for slice of length 3" => nested_grad(&W, &mut d_w, 1.5, 5);
    nested_pullback_panics: "range start index 5 out of range for slice of length 3" => nested_pullback(&W, &mut d_w, 1.5, 5, 1.0);
    nested_jvp_panics: "range start index 5 out of range for slice of length 3" => nested_jvp(&W, &v_w, 1.5, 1.0, 5);
    nested_hvp_panics: "range start index 5 out of range for slice of length 3" => nested_hvp(&W, &v_w, &mut d_w, 1.5, 1.0, 5);
    nested_hessian_panics: "range start index 5 out of range for slice of length 3" => nested_hessian(&W, 1.5, 5, &mut hess);
    nested_graph_panics: "range start index 5 out of range for slice of length 3" => nested_graph(&W, 1.5, 5);
    crossed_f: "slice index starts at 3 but ends at 2" => crossed(&W, 1.5, 3);
    crossed_grad_panics: "slice index starts at 3 but ends at 2" => crossed_grad(&W, &mut d_w, 1.5, 3);
    crossed_pullback_panics: "slice index starts at 3 but ends at 2" => crossed_pullback(&W, &mut d_w, 1.5, 3, 1.0);
    crossed_jvp_panics: "slice index starts at 3 but ends at 2" => crossed_jvp(&W, &v_w, 1.5, 1.0, 3);
    crossed_hvp_panics: "slice index starts at 3 but ends at 2" => crossed_hvp(&W, &v_w, &mut d_w, 1.5, 1.0, 3);
    crossed_hessian_panics: "slice index starts at 3 but ends at 2" => crossed_hessian(&W, 1.5, 3, &mut hess);
    crossed_graph_panics: "slice index starts at 3 but ends at 2" => crossed_graph(&W, 1.5, 3);
}

/// In range, the checks pass and change nothing: values bit for bit `f`'s, gradients the
/// closed forms (`x w₀`, `w₁ x²`, `w₂ x`).
#[test]
fn in_range_views_keep_values_and_gradients() {
    let mut d_w = [0.0; 4];
    let (value, d_x) = unread_grad(&W, &mut d_w, 1.5, 4);
    assert_eq!(value.to_bits(), unread(&W, 1.5, 4).to_bits());
    assert_eq!((d_x, d_w), (W[0], [1.5, 0.0, 0.0, 0.0]));
    let mut d_w = [0.0; 4];
    let (value, d_x) = nested_grad(&W, &mut d_w, 1.5, 3);
    assert_eq!(value.to_bits(), nested(&W, 1.5, 3).to_bits());
    assert_eq!((d_x, d_w), (2.0 * W[1] * 1.5, [0.0, 2.25, 0.0, 0.0]));
    let mut d_w = [0.0; 4];
    let (value, d_x) = crossed_grad(&W, &mut d_w, 1.5, 2);
    assert_eq!(value.to_bits(), crossed(&W, 1.5, 2).to_bits());
    assert_eq!((d_x, d_w), (W[2], [0.0, 0.0, 1.5, 0.0]));
}
