//! lower/desugar.rs: every `for` over items becomes a counted loop over a range before SSA
//! construction, its index named after the loops around it, and what the lowering still
//! does for a loop (binding hoisted sequences, a refusal) is left under the loop's id.

use crate::lower::desugar::{Loop, Loops, desugar};
use quote::quote;
use syn::parse_quote;

/// `block` desugared, printed, and what the pass left for the lowering.
fn desugared(block: syn::Block) -> (String, Loops) {
    let (block, loops) = desugar(&block);
    (quote!(#block).to_string(), loops)
}

/// `tokens` as the printer spaces them.
fn printed(tokens: proc_macro2::TokenStream) -> String {
    let block: syn::Block = syn::parse2(tokens).expect("a block");
    quote!(#block).to_string()
}

/// The first `for` of `block`'s statements, read back from its printed form.
fn first_loop(text: &str) -> syn::ExprForLoop {
    let block: syn::Block = syn::parse_str(text).expect("the output parses");
    block
        .stmts
        .iter()
        .find_map(|stmt| match stmt {
            syn::Stmt::Expr(syn::Expr::ForLoop(l), _) => Some(l.clone()),
            _ => None,
        })
        .expect("a for loop")
}

#[test]
fn a_zip_becomes_a_range_over_the_shorter() {
    let (text, _) = desugared(parse_quote!({
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
    let (text, _) = desugared(parse_quote!({
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
    let (text, loops) = desugared(parse_quote!({
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
    assert!(loops.of(&first_loop(&text)).is_none());
}

#[test]
fn hoisted_sequences_are_left_to_the_lowering_under_the_loops_id() {
    let (text, loops) = desugared(parse_quote!({
        for x in [a, b] {
            s += x;
        }
    }));
    let expected = printed(quote!({
        #[__micrograd_loop(0)]
        for __mg_k0 in 0..__mg_items0_0.len() {
            let x = &__mg_items0_0[__mg_k0];
            s += x;
        }
    }));
    assert_eq!(text, expected);
    let Some(Loop::Hoisted(hoisted)) = loops.of(&first_loop(&text)) else {
        panic!("the loop's sequence is hoisted");
    };
    let (name, items) = &hoisted[0];
    assert_eq!(name, "__mg_items0_0");
    assert_eq!(quote!(#items).to_string(), quote!([a, b]).to_string());
}

#[test]
fn a_pattern_that_does_not_fit_is_refused_where_the_loop_is() {
    let (text, loops) = desugared(parse_quote!({
        for p in w.iter().enumerate() {
            for x in u {
                s += x;
            }
        }
    }));
    // The loop is kept as written, its body not rewritten: nothing inside it is lowered.
    let expected = printed(quote!({
        #[__micrograd_loop(0)]
        for p in w.iter().enumerate() {
            for x in u {
                s += x;
            }
        }
    }));
    assert_eq!(text, expected);
    let Some(Loop::Refused(_, message)) = loops.of(&first_loop(&text)) else {
        panic!("the loop is refused");
    };
    assert_eq!(*message, "the items here are pairs: bind them as `(a, b)`");
}
