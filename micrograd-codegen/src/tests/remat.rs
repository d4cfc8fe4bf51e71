//! diff/remat.rs: values the reverse sweep reads again from their array instead of keeping
//! them, and arrays that change after a call read them.

use super::{lower, var};
use crate::diff::expr::Expr;
use crate::diff::remat;
use syn::parse_quote;

#[test]
fn a_load_from_a_slice_parameter_is_read_again() {
    let function = lower(
        &parse_quote! {
            fn f(w: &[f64]) -> f64 {
                let t = w[1];
                t * t
            }
        },
        &[],
    );
    let remat = remat::analyze(&function);
    let t = var(&function, "t", 0);
    assert!(
        matches!(remat.values.get(&t), Some(Expr::Load(..))),
        "t is w[1] again: {:?}",
        remat.values
    );
    assert!(remat.unstable_calls.is_empty());
}

#[test]
fn a_load_from_an_array_overwritten_later_is_not() {
    let function = lower(
        &parse_quote! {
            fn f(x: f64) -> f64 {
                let mut h = [0.0; 2];
                h[0] = x.sin();
                let t = h[0];
                h[0] = 2.0;
                t * t + h[0]
            }
        },
        &[],
    );
    let remat = remat::analyze(&function);
    let t = var(&function, "t", 0);
    assert!(!remat.values.contains_key(&t), "{:?}", remat.values);
}

#[test]
fn an_array_changed_after_a_call_reads_it_is_unstable() {
    let function = lower(
        &parse_quote! {
            fn f(x: f64) -> f64 {
                let mut h = [0.0; 2];
                h[0] = x;
                let s = g(&h);
                h[0] = 1.0;
                s + h[0]
            }
        },
        &[],
    );
    let remat = remat::analyze(&function);
    assert_eq!(remat.unstable_calls, vec![var(&function, "h", 0)]);
}

#[test]
fn a_call_lent_an_array_is_a_store_into_it() {
    let function = lower(
        &parse_quote! {
            fn f(x: f64) -> f64 {
                let mut h = [x, 1.0];
                let before = h[0];
                g(&mut h, x);
                let after = h[0];
                before * after
            }
        },
        &[],
    );
    let remat = remat::analyze(&function);
    let (before, after) = (var(&function, "before", 0), var(&function, "after", 0));
    assert!(
        !remat.values.contains_key(&before),
        "the call overwrites h[0]"
    );
    assert!(
        remat.values.contains_key(&after),
        "nothing writes h after it"
    );
    assert!(
        remat.unstable_calls.is_empty(),
        "the lent entries are recorded"
    );
}
