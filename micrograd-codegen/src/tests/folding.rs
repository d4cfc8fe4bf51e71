//! diff/fold.rs: a reversed loop iteration opens without a chain of copies of the slot's
//! adjoint, and every adjoint is `mut` exactly when something writes it later.

use super::all;
use crate::diff::Rev;
use crate::diff::expr::Expr;
use crate::diff::fold;
use syn::parse_quote;

fn loop_program() -> syn::ItemFn {
    parse_quote! {
        fn f(x: f64, w: &[f64]) -> f64 {
            let mut s = x;
            for i in 0..w.len() {
                s += w[i];
            }
            s * x
        }
    }
}

/// The reverse sweep as the sweep and the merge of `+=`s leave it, before folding.
fn swept(item: &syn::ItemFn) -> Vec<Rev> {
    let function = super::lower(item, &[]);
    let activity = crate::diff::Activity::of(&function, &super::wrt_vars(&function));
    let remat = crate::diff::remat::analyze(&function);
    let mut vars = function.vars.clone();
    let (mut rev, _, _) =
        crate::diff::reverse::sweep(&function, &activity, &remat.values, &mut vars);
    crate::diff::merge::merge_adds(&mut rev);
    rev
}

/// The copy pairs `let d_c = d_s; .. d_s = d_c;` in loop bodies.
fn copy_pairs(rev: &[Rev]) -> usize {
    let mut pairs = 0;
    for stmt in all(rev) {
        let Rev::Loop { body, .. } = stmt else {
            continue;
        };
        for stmt in body {
            let Rev::Let {
                var: copy,
                expr: Expr::Adj(slot),
                ..
            } = stmt
            else {
                continue;
            };
            pairs += body
                .iter()
                .filter(|s| matches!(s, Rev::Set(target, Expr::Adj(from)) if target == slot && from == copy))
                .count();
        }
    }
    pairs
}

/// Adjoints declared `mut` that nothing writes, or written but not `mut`.
fn wrong_mutability(rev: &[Rev]) -> Vec<String> {
    let statements = all(rev);
    let written = |v| {
        statements
            .iter()
            .any(|s| matches!(s, Rev::Set(w, _) | Rev::Add(w, _) if *w == v))
    };
    statements
        .iter()
        .filter(|s| matches!(s, Rev::Let { var, mutable, .. } if *mutable != written(*var)))
        .map(|s| format!("{s:?}"))
        .collect()
}

#[test]
fn the_copy_pair_opening_a_loop_iteration_is_folded() {
    let mut rev = swept(&loop_program());
    assert_eq!(copy_pairs(&rev), 1, "the sweep writes one pair: {rev:?}");
    fold::fold_copies(&mut rev);
    assert_eq!(copy_pairs(&rev), 0, "{rev:?}");
}

#[test]
fn adjoints_are_mut_exactly_when_written_later() {
    let mut rev = swept(&loop_program());
    fold::fold_copies(&mut rev);
    assert!(
        !wrong_mutability(&rev).is_empty(),
        "folding removed the write that made the slot `mut`"
    );
    fold::settle_mutability(&mut rev);
    assert_eq!(wrong_mutability(&rev), Vec::<String>::new());
}
