//! What the pullback's doc promises about skipping shadows holds: `&mut []` skips a read-only
//! slice's partials, and the doc offers it only for those (a written slice's shadow is read by
//! the reverse sweep, so passing `&mut []` there panics).

use micrograd_runtime::prelude::*;

#[differentiable]
fn mixed(w: &mut [f64], x: &[f64], k: f64) -> f64 {
    w[0] = w[1] * k + x[0];
    w[0] * w[1] * x[1]
}

const W: [f64; 2] = [0.5, -1.25];
const X: [f64; 2] = [2.0, 0.75];

#[test]
fn an_empty_read_only_shadow_skips_its_partials() {
    let (mut w, mut d_w, mut d_x) = (W, [0.0; 2], [0.0; 2]);
    let d_k = mixed_pullback(&mut w, &mut d_w, &X, &mut d_x, 1.5, 2.0);
    let (mut w_skip, mut d_w_skip) = (W, [0.0; 2]);
    let d_k_skip = mixed_pullback(&mut w_skip, &mut d_w_skip, &X, &mut [], 1.5, 2.0);
    assert_eq!(
        (d_k_skip.to_bits(), d_w_skip, w_skip),
        (d_k.to_bits(), d_w, w)
    );
    // f = (w₁ k + x₀) w₁ x₁: ∂f/∂k = w₁² x₁, ∂f/∂x₀ = w₁ x₁, ∂f/∂x₁ = (w₁ k + x₀) w₁.
    let w1 = W[1];
    assert_eq!(d_k, 2.0 * w1 * w1 * X[1]);
    assert_eq!(d_x, [2.0 * w1 * X[1], 2.0 * (w1 * 1.5 + X[0]) * w1]);
}

#[test]
#[should_panic(expected = "the shadow `d_w` has 0 entries but `w` has 2")]
fn an_empty_written_shadow_panics() {
    let (mut w, mut d_x) = (W, [0.0; 2]);
    mixed_pullback(&mut w, &mut [], &X, &mut d_x, 1.5, 2.0);
}

#[test]
fn the_doc_offers_to_skip_only_the_read_only_shadow() {
    let item = quote::quote! {
        fn mixed(w: &mut [f64], x: &[f64], k: f64) -> f64 {
            w[0] = w[1] * k + x[0];
            w[0] * w[1] * x[1]
        }
    };
    let expanded = micrograd_codegen::expand(proc_macro2::TokenStream::new(), item).to_string();
    let pullback_doc = expanded
        .split("# [doc =")
        .find(|doc| doc.contains("The pullback"))
        .expect("the pullback has a doc");
    assert!(
        pullback_doc.contains("(pass `&mut []` to skip `d_x`)"),
        "{pullback_doc}"
    );
    assert!(!pullback_doc.contains("skip one"), "{pullback_doc}");
}
