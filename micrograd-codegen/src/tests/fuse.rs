//! diff/fuse.rs: which loops reverse each iteration inside the forward loop, and what moves
//! before them.

use super::{differentiate, var};
use crate::diff::Rev;
use syn::parse_quote;

#[test]
fn a_mean_over_points_is_fused_with_its_divisor_moved_before_the_loop() {
    let (function, adjoint) = differentiate(
        &parse_quote! {
            fn f(w: &[f64], xs: &[f64]) -> f64 {
                let mut total = 0.0;
                for i in 0..xs.len() {
                    total += (w[0] * xs[i]).tanh();
                }
                let n = xs.len() as f64;
                total / n
            }
        },
        &["w"],
    );
    let fusion = adjoint.fused.as_ref().expect("the loop is fused");
    assert_eq!(fusion.hoisted, vec![var(&function, "n", 0)]);
    assert!(
        matches!(adjoint.rev.get(fusion.seeds), Some(Rev::Loop { the_loop, .. }) if *the_loop == fusion.the_loop),
        "{:?}",
        adjoint.rev
    );
    assert!(adjoint.plan.records.values().all(Vec::is_empty));
}

#[test]
fn a_sum_whose_adjoint_needs_the_sum_is_not() {
    let (_, adjoint) = differentiate(
        &parse_quote! {
            fn f(w: &[f64]) -> f64 {
                let mut total = 0.0;
                for i in 0..w.len() {
                    total += w[i].exp();
                }
                total.ln()
            }
        },
        &[],
    );
    assert!(adjoint.fused.is_none());
}

#[test]
fn a_loop_that_reads_its_running_sum_is_not() {
    let (_, adjoint) = differentiate(
        &parse_quote! {
            fn f(w: &[f64]) -> f64 {
                let mut total = 1.0;
                for i in 0..w.len() {
                    total += total * w[i];
                }
                total
            }
        },
        &[],
    );
    assert!(adjoint.fused.is_none());
}

#[test]
fn a_local_arrays_windows_passed_to_a_call_are_fused_with_its_adjoint_declared_first() {
    let (function, adjoint) = differentiate(
        &parse_quote! {
            fn f(w: &[f64]) -> f64 {
                let mut b = vec![0.0; w.len()];
                for i in 0..w.len() {
                    b[i] = w[i] * 2.0;
                }
                let mut s = 0.0;
                for i in 0..w.len() - 1 {
                    s += g(&b[i..i + 2]);
                }
                s
            }
        },
        &["w"],
    );
    let fusion = adjoint.fused.as_ref().expect("the loop is fused");
    let b = var(&function, "b", 0);
    assert!(
        adjoint.rev[..fusion.seeds]
            .iter()
            .any(|s| matches!(s, Rev::ZeroArray(a) if *a == b)),
        "{:?}",
        adjoint.rev
    );
}
