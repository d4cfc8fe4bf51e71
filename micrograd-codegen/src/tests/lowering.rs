//! lower/: each rebinding of a name is a new version of it, `wrt(..)` marks the parameters it
//! names and no others, and integers are never differentiated.

use super::{lower, var};
use syn::parse_quote;

#[test]
fn each_rebinding_is_a_new_version() {
    let item: syn::ItemFn = parse_quote! {
        fn f(x: f64) -> f64 {
            let a = x * 2.0;
            let a = a * a;
            a
        }
    };
    let function = lower(&item, &[]);
    let (first, second) = (var(&function, "a", 0), var(&function, "a", 1));
    assert_ne!(first, second);
}

#[test]
fn wrt_marks_the_parameters_it_names() {
    let item: syn::ItemFn = parse_quote! {
        fn f(x: f64, y: f64, w: &[f64], n: usize) -> f64 {
            x * y + w[n]
        }
    };
    let marked =
        |wrt: &[&str]| -> Vec<bool> { lower(&item, wrt).params.iter().map(|p| p.wrt).collect() };
    assert_eq!(marked(&["y"]), [false, true, false, false]);
    assert_eq!(marked(&["x", "w"]), [true, false, true, false]);
    // Without wrt(..): every f64 and slice, never the integer.
    assert_eq!(marked(&[]), [true, true, true, false]);
}

/// Found by tests/fuzz_expand's mutated programs: an array of rows whose literal lengths
/// multiply past `u128` panicked in `view::mul`'s folding; the product is left to rustc.
#[test]
fn rows_whose_length_overflows_are_not_folded() {
    let item: proc_macro2::TokenStream = quote::quote! {
        fn f(x: f64) -> f64 {
            let mut l = [[0.0; 340282366920938463463374607431768211455]; 2];
            l[0][0] = x;
            l[0][0]
        }
    };
    let _ = crate::expand(proc_macro2::TokenStream::new(), item);
}

/// `mut K` in a match arm is a binding (`mut` binds a name, whatever its case), not the
/// constant `K`: the lowering read it as the path `mut K` and panicked, parsing that path.
#[test]
fn a_mut_upper_case_name_in_an_arm_binds_it() {
    let item: proc_macro2::TokenStream = quote::quote! {
        fn f(x: f64, n: usize) -> f64 {
            match n {
                0 => x,
                mut K => { K += 1; x * K as f64 }
            }
        }
    };
    let expanded = crate::expand(proc_macro2::TokenStream::new(), item).to_string();
    assert!(!expanded.contains("compile_error"), "{expanded}");
}

/// `let [a, b] = w.map(..)` of a float array: the map is the `Vec` collected from `w.iter()`,
/// and a `collect` bound to a pattern is refused with the message a `collect` gets anywhere
/// but a `let` of a name, at the `map`.
#[test]
fn an_array_map_bound_to_a_pattern_is_refused_at_the_map() {
    let item: proc_macro2::TokenStream = quote::quote! {
        fn f(x: f64) -> f64 {
            let w = [x, 2.0 * x];
            let [a, b] = w.map(|t| t * t);
            a + b
        }
    };
    let expanded = crate::expand(proc_macro2::TokenStream::new(), item).to_string();
    assert!(
        expanded.contains("`collect` makes a `Vec` bound by a `let` outside loops"),
        "{expanded}"
    );
}

/// A closure given to a chain that assigns a name outside it is refused: the pass reads the
/// names its body assigns once, as a node's facts (`Lowerer::assigned_by`).
#[test]
fn a_closure_assigning_outside_it_is_refused() {
    let item: proc_macro2::TokenStream = quote::quote! {
        fn f(w: &[f64]) -> f64 {
            let mut s = 0.0;
            let t: f64 = w.iter().map(|x| { s += x; x * 2.0 }).sum();
            s + t
        }
    };
    let expanded = crate::expand(proc_macro2::TokenStream::new(), item).to_string();
    assert!(expanded.contains("this closure assigns `s`"), "{expanded}");
}

/// A `vec!` of tuples outside loops is refused once, at its fill, though the desugaring pass
/// wrote it as zeros and a loop storing the tuple (`desugar/tuple_fills.rs`): the loop's store
/// into the refused array reports nothing more.
#[test]
fn a_vec_of_tuples_is_refused_once_at_its_fill() {
    let item: proc_macro2::TokenStream = quote::quote! {
        fn f(x: f64) -> f64 {
            let ps = vec![(x, 2.0 * x); 3];
            ps[0].0
        }
    };
    let expanded = crate::expand(proc_macro2::TokenStream::new(), item).to_string();
    assert_eq!(expanded.matches("compile_error").count(), 1, "{expanded}");
    assert!(expanded.contains("a `vec!` holds floats"), "{expanded}");
}

/// Two `Vec`s of lengths written apart, assigned or swapped whole: `f` panics where their
/// lengths differ, and so does every flavour, by the assertion kept in the forward sweep,
/// `assert_eq!(u.len(), v.len(), ..)` before the entries are copied.
#[test]
fn whole_vecs_of_lengths_written_apart_are_checked_to_agree() {
    let item: proc_macro2::TokenStream = quote::quote! {
        fn f(x: f64, n: usize, m: usize) -> f64 {
            let mut u = vec![x; n];
            let mut v = vec![2.0; m];
            u = v;
            std::mem::swap(&mut u, &mut v);
            u[0] * v[0]
        }
    };
    let expanded = crate::expand(proc_macro2::TokenStream::new(), item).to_string();
    let check = |a: &str, b: &str| {
        format!(
            "assert_eq ! ({a} . len () , {b} . len () , \"`#[differentiable]` assigns or swaps whole `Vec`s of one length only: `{a}` and `{b}` differ\")"
        )
    };
    assert!(expanded.contains(&check("u", "v")), "{expanded}");
    assert!(!expanded.contains("compile_error"), "{expanded}");
}

/// `std::mem::swap` of two `f64`s, in a loop, in a branch and of a parameter: the three
/// copies through a held value, `let t = p; p = q; q = t;`, as new versions of each name.
#[test]
fn a_swap_of_two_floats_is_three_copies() {
    let item: proc_macro2::TokenStream = quote::quote! {
        fn f(a: f64, b: f64, n: usize) -> f64 {
            let (mut p, mut q) = (a, b);
            for i in 0..n {
                p = p * q + 0.25;
                if p > q {
                    std::mem::swap(&mut p, &mut q);
                }
            }
            let mut r = a;
            core::mem::swap(&mut r, &mut p);
            p - q * r
        }
    };
    let expanded = crate::expand(proc_macro2::TokenStream::new(), item).to_string();
    assert!(!expanded.contains("compile_error"), "{expanded}");
    // In the loop's branch, then after it (of `r` and `p` as the loop left it).
    for copies in [
        "let __mg_swapped = p_2 ; let p_3 = q_1 ; let q_2 = __mg_swapped ;",
        "let __mg_swapped_ = r ; let r_1 = p_1 ; let p_5 = __mg_swapped_ ;",
    ] {
        assert!(expanded.contains(copies), "{expanded}");
    }
}
