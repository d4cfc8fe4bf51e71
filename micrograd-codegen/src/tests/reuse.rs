//! diff/reverse.rs, `reuse`: a derivative that a block already computed in its forward sweep
//! is read from there, not computed again (and not recorded twice in a loop).

use super::{all, differentiate, var};
use crate::diff::Rev;
use crate::ir::Func;
use syn::parse_quote;

/// The functions of `f64` the reverse sweep `rev` calls, read off its debug form.
fn calls(rev: &[Rev]) -> Vec<Func> {
    let text = format!("{rev:?}");
    Func::ALL
        .iter()
        .copied()
        .filter(|f| text.contains(&format!("Call1({f:?},")))
        .collect()
}

#[test]
fn sine_and_cosine_of_one_value_are_read_back() {
    let item = parse_quote! {
        fn f(x: f64) -> f64 {
            let s = x.sin();
            let c = x.cos();
            s * c
        }
    };
    let (function, adjoint) = differentiate(&item, &[]);
    assert!(calls(&adjoint.rev).is_empty(), "{:?}", adjoint.rev);
    let (s, c) = (var(&function, "s", 0), var(&function, "c", 0));
    let mut read = Vec::new();
    for stmt in all(&adjoint.rev) {
        if let Some(expr) = crate::diff::evaluated(stmt) {
            expr.visit_vars(&mut |v| read.push(v));
        }
    }
    assert!(read.contains(&s) && read.contains(&c), "{:?}", adjoint.rev);
}

#[test]
fn a_value_of_another_iteration_is_not_reused() {
    // `x.cos()` is computed after the loop, from the final `x`; inside the loop the reverse
    // needs the cosine of each iteration's `x`, so it computes it.
    let item = parse_quote! {
        fn f(x0: f64) -> f64 {
            let mut x = x0;
            for _ in 0..3 {
                x = x.sin();
            }
            x.cos()
        }
    };
    let (_, adjoint) = differentiate(&item, &[]);
    let loop_calls: Vec<Func> = adjoint
        .rev
        .iter()
        .filter_map(|s| match s {
            Rev::Loop { body, .. } => Some(calls(body)),
            Rev::Guard { body, .. } => Some(calls(body)),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(loop_calls, vec![Func::Cos], "{:?}", adjoint.rev);
}
