//! lower/desugar.rs: every `for` over items becomes a counted loop over a range before SSA
//! construction, its index named after the loops around it; what the lowering still does for
//! a loop (binding hoisted sequences, a refusal) and what each loop's and branch's syntax says
//! (its exits, the names it carries) is kept under the node's id.

use crate::lower::desugar::{Facts, Loop, Nodes, desugar};
use crate::lower::scan::Escape;
use quote::quote;
use syn::parse_quote;
use syn::visit_mut::VisitMut;

/// Removes the ids the pass gives nodes, so that the rewrite prints as a user would write it.
struct Unmark;

impl VisitMut for Unmark {
    fn visit_attributes_mut(&mut self, attrs: &mut Vec<syn::Attribute>) {
        attrs.retain(|a| !a.path().is_ident(crate::names::lowered::NODE_ID));
    }
}

/// `block` desugared and printed without its ids, and the table of its nodes' facts.
fn desugared(block: syn::Block) -> (String, Nodes, syn::Block) {
    let mut used = std::collections::HashSet::new();
    let (block, nodes) = desugar(
        &block,
        (crate::ir::Scalar::F64, Default::default()),
        &mut used,
    );
    let block = block.0.clone();
    let mut unmarked = block.clone();
    Unmark.visit_block_mut(&mut unmarked);
    (quote!(#unmarked).to_string(), nodes, block)
}

/// The facts of the first `for` among `block`'s statements.
fn first_loop<'n>(nodes: &'n Nodes, block: &syn::Block) -> &'n Facts {
    let the_loop = block.stmts.iter().find_map(|stmt| match stmt {
        syn::Stmt::Expr(e @ syn::Expr::ForLoop(_), _) => Some(e),
        _ => None,
    });
    nodes
        .of_expr(the_loop.expect("a for loop"))
        .expect("the loop has an id")
}

/// `tokens` as the printer spaces them.
fn printed(tokens: proc_macro2::TokenStream) -> String {
    let block: syn::Block = syn::parse2(tokens).expect("a block");
    quote!(#block).to_string()
}

#[test]
fn a_zip_becomes_a_range_over_the_shorter() {
    let (text, ..) = desugared(parse_quote!({
        for (a, b) in w.iter().zip(x) {
            s += a * b;
        }
    }));
    let expected = printed(quote!({
        for __mg_k0 in 0..w.len().min(x.len()) {
            let a = &w[__mg_k0];
            let b = &x[__mg_k0];
            s += a * b;
        }
    }));
    assert_eq!(text, expected);
}

#[test]
fn the_index_is_named_after_the_loops_around_it() {
    // A `for` inside another, inside a `while`, inside the closure of a reduction chain.
    let (text, ..) = desugared(parse_quote!({
        for &v in w.iter().rev() {
            for x in u {
                s += v * x;
            }
        }
        while s > 1.0 {
            for x in u {
                s -= x;
            }
        }
        let t = w
            .iter()
            .map(|y| {
                let mut q = *y;
                for x in u {
                    q += x;
                }
                q
            })
            .sum::<f64>();
    }));
    let expected = printed(quote!({
        for __mg_k0 in 0..w.len() {
            let v = &w[(w.len() - 1 - __mg_k0)];
            for __mg_k1 in 0..u.len() {
                let x = &u[__mg_k1];
                s += v * x;
            }
        }
        while s > 1.0 {
            for __mg_k1 in 0..u.len() {
                let x = &u[__mg_k1];
                s -= x;
            }
        }
        let t = w
            .iter()
            .map(|y| {
                let mut q = *y;
                for __mg_k1 in 0..u.len() {
                    let x = &u[__mg_k1];
                    q += x;
                }
                q
            })
            .sum::<f64>();
    }));
    assert_eq!(text, expected);
}

#[test]
fn ranges_stay_and_reversed_ranges_count_up() {
    let (text, nodes, block) = desugared(parse_quote!({
        for i in 0..n {
            s += w[i];
        }
        for i in (1..n).rev() {
            s += w[i];
        }
    }));
    let expected = printed(quote!({
        for i in 0..n {
            s += w[i];
        }
        for __mg_k0 in 1..n {
            let i = (1) + (n) - 1 - __mg_k0;
            s += w[i];
        }
    }));
    assert_eq!(text, expected);
    assert!(first_loop(&nodes, &block).rewrite.is_none());
}

#[test]
fn hoisted_sequences_are_left_to_the_lowering_under_the_loops_id() {
    let (text, nodes, block) = desugared(parse_quote!({
        for x in [a, b] {
            s += x;
        }
    }));
    let expected = printed(quote!({
        for __mg_k0 in 0..__mg_items0_0.len() {
            let x = &__mg_items0_0[__mg_k0];
            s += x;
        }
    }));
    assert_eq!(text, expected);
    let Some(Loop::Hoisted(hoisted)) = &first_loop(&nodes, &block).rewrite else {
        panic!("the loop's sequence is hoisted");
    };
    let (name, items) = &hoisted[0];
    assert_eq!(name, "__mg_items0_0");
    assert_eq!(quote!(#items).to_string(), quote!([a, b]).to_string());
}

#[test]
fn a_pattern_that_does_not_fit_is_refused_where_the_loop_is() {
    let (text, nodes, block) = desugared(parse_quote!({
        for p in w.iter().enumerate() {
            for x in u {
                s += x;
            }
        }
    }));
    // The loop is kept as written, its body not rewritten: nothing inside it is lowered.
    let expected = printed(quote!({
        for p in w.iter().enumerate() {
            for x in u {
                s += x;
            }
        }
    }));
    assert_eq!(text, expected);
    let Some(Loop::Refused(_, message)) = &first_loop(&nodes, &block).rewrite else {
        panic!("the loop is refused");
    };
    assert_eq!(*message, "the items here are pairs: bind them as `(a, b)`");
}

#[test]
fn each_loop_and_branch_is_read_once_into_its_facts() {
    let (_, nodes, block) = desugared(parse_quote!({
        'outer: for i in 0..n {
            let mut t = 0.0;
            while t < 1.0 {
                t += w[i];
                s += t;
                if t > 2.0 {
                    break 'outer;
                }
            }
            if s > 9.0 {
                return s;
            }
        }
    }));
    let outer = first_loop(&nodes, &block);
    let label = Escape::Break(Some("outer".to_string()));
    // `t` is declared inside: only `s` is carried from one iteration to the next.
    assert_eq!(outer.carried, ["s".to_string()].into());
    assert_eq!(outer.exits, [label.clone(), Escape::Return]);
    // Its own labelled `break` stays inside it; the `return` leaves.
    assert_eq!(outer.leaving, [Escape::Return]);
    let syn::Stmt::Expr(syn::Expr::ForLoop(the_loop), _) = &block.stmts[0] else {
        panic!("the loop is the first statement");
    };
    let facts = |k: usize| match &the_loop.body.stmts[k] {
        syn::Stmt::Expr(e, _) => nodes.of_expr(e).expect("the node has an id"),
        _ => panic!("an expression statement"),
    };
    let inner = facts(1);
    assert_eq!(inner.carried, ["s".to_string(), "t".to_string()].into());
    assert_eq!(inner.exits, std::slice::from_ref(&label));
    assert_eq!(inner.leaving, [label]);
    assert_eq!(facts(2).leaving, [Escape::Return]);
}

#[test]
fn a_path_given_to_map_or_fold_becomes_the_closure_calling_it() {
    let (text, ..) = desugared(parse_quote!({
        let m = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let s = x.iter().map(f64::exp).sum::<f64>();
        let u = x.iter().map(f64::unknown).sum::<f64>();
        let k = x.iter().fold(0.0, f64::exp);
        let v = x.iter().map(g).sum::<f64>();
    }));
    // A path of the wrong arity (`fold(.., f64::exp)`) is left for the lowering to refuse, and
    // a path that names no method of `f64` (`g`) stays as written.
    let expected = printed(quote!({
        let m = x
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, |acc, x| f64::max(acc, x));
        let s = x.iter().map(|x| f64::exp(x)).sum::<f64>();
        let u = x.iter().map(|x| f64::unknown(x)).sum::<f64>();
        let k = x.iter().fold(0.0, f64::exp);
        let v = x.iter().map(g).sum::<f64>();
    }));
    assert_eq!(text, expected);
}

#[test]
fn a_store_through_a_deref_is_a_store_into_entry_zero() {
    // Reads through `*y` and bit assignments stay as written.
    let (text, ..) = desugared(parse_quote!({
        *y = x;
        *y += x * x;
        *(y) -= 1.0;
        *y &= 1;
        let z = *y;
    }));
    let expected = printed(quote!({
        y[0] = x;
        y[0] += x * x;
        (y)[0] -= 1.0;
        *y &= 1;
        let z = *y;
    }));
    assert_eq!(text, expected);
}

/// `**y = ..` is refused with a message at `*y`: the lowering built `*y[0]` as syntax to
/// store into, which does not parse as an index, and panicked.
#[test]
fn a_double_deref_store_is_refused_not_a_panic() {
    let item: proc_macro2::TokenStream = quote::quote! {
        fn f(x: f64, y: &mut f64) -> f64 {
            **y = x;
            x
        }
    };
    let expanded = crate::expand(proc_macro2::TokenStream::new(), item).to_string();
    assert!(expanded.contains("compile_error"), "{expanded}");
}

#[test]
fn a_closure_s_assignments_outside_it_are_its_facts() {
    // One closure bound by `let`, one given to a chain, one a path became: each read once.
    let (_, nodes, block) = desugared(parse_quote!({
        let g = |x: f64| {
            let mut u = x;
            u += 1.0;
            s += u;
            u
        };
        let t = w.iter().map(|y| y * 2.0).fold(0.0, f64::max);
    }));
    let init = |k: usize| match &block.stmts[k] {
        syn::Stmt::Local(local) => &*local.init.as_ref().expect("a value").expr,
        _ => panic!("a let"),
    };
    let carried = |e: &syn::Expr| {
        nodes
            .of_expr(e)
            .expect("the closure has an id")
            .carried
            .clone()
    };
    // `u` is declared inside: only `s` lives outside.
    assert_eq!(carried(init(0)), ["s".to_string()].into());
    let syn::Expr::MethodCall(fold) = init(1) else {
        panic!("a fold");
    };
    let syn::Expr::MethodCall(map) = &*fold.receiver else {
        panic!("a map");
    };
    assert!(carried(&map.args[0]).is_empty());
    assert!(carried(&fold.args[1]).is_empty());
}

#[test]
fn a_tuple_fill_is_zeros_then_a_loop_storing_the_tuple() {
    // Names minted in the order the statements are written, outer before inner, free of the
    // function's own (`__mg_entry` is the user's here).
    let mut used: std::collections::HashSet<String> = ["__mg_entry".to_string()].into();
    let block: syn::Block = parse_quote!({
        let mut ps = [(x0, v0); 2];
        let qs: [(f64, f64, f64); N] = [((a, b.sin(), 1.0)); N];
        for i in 0..n {
            let rs = vec![(x0,); 3];
        }
        let kept = [0.0; 2];
        let refused = [(x0, v0); 2] else {
            return 0.0;
        };
    });
    let (block, _) = desugar(
        &block,
        (crate::ir::Scalar::F64, Default::default()),
        &mut used,
    );
    let mut unmarked = block.0.clone();
    Unmark.visit_block_mut(&mut unmarked);
    let expected = printed(quote!({
        let mut ps = [(0.0, 0.0); 2];
        for __mg_entry_ in 0..2 {
            ps[__mg_entry_] = (x0, v0);
        }
        let qs: [(f64, f64, f64); N] = [(0.0, 0.0, 0.0); N];
        for __mg_entry__ in 0..N {
            qs[__mg_entry__] = ((a, b.sin(), 1.0));
        }
        for i in 0..n {
            let rs = vec![(0.0,); 3];
            for __mg_entry___ in 0..3 {
                rs[__mg_entry___] = (x0,);
            }
        }
        let kept = [0.0; 2];
        let refused = [(x0, v0); 2] else {
            return 0.0;
        };
    }));
    assert_eq!(quote!(#unmarked).to_string(), expected);
    assert!(used.contains("__mg_entry___"));
}

#[test]
fn a_call_taken_whole_into_a_local_array_is_a_loop_over_its_outputs() {
    // One rewrite for every length a caller can write: none (the callee's hidden count), a
    // named one in the `let`'s type, and an assignment to an array of a named length (its own),
    // whose arguments read a copy; a literal length is left to the lowering, as is a closure.
    // Names are minted for the assignments first, then for the `let`s from the last.
    let mut used = std::collections::HashSet::new();
    let block: syn::Block = parse_quote!({
        let oc = m::g(x, y);
        let h: [f64; N] = g(x, oc[0]);
        let mut w = [0.0; N];
        w = g(w[1], x);
        let kept: [f64; 3] = g(x, y);
        let c = |a: f64| [a, a];
        let d = c(x);
        oc[1] + h[2] + w[0] + kept[0] + d[0]
    });
    let bound = ["x".to_string(), "y".to_string()].into();
    let (block, _) = desugar(&block, (crate::ir::Scalar::F64, bound), &mut used);
    let mut unmarked = block.0.clone();
    Unmark.visit_block_mut(&mut unmarked);
    let expected = printed(quote!({
        let mut oc = [0.0; m::__g_outputs];
        for __mg_output__ in 0..m::__g_outputs {
            oc[__mg_output__] = m::g(x, y)[__mg_output__];
        }
        let mut h: [f64; N] = [0.0; N];
        for __mg_output_ in 0..N {
            h[__mg_output_] = g(x, oc[0])[__mg_output_];
        }
        let mut w = [0.0; N];
        let __mg_copied = w;
        for __mg_output in 0..w.len() {
            w[__mg_output] = g(__mg_copied[1], x)[__mg_output];
        }
        let kept: [f64; 3] = g(x, y);
        let c = |a: f64| [a, a];
        let d = c(x);
        oc[1] + h[2] + w[0] + kept[0] + d[0]
    }));
    assert_eq!(quote!(#unmarked).to_string(), expected);
}
