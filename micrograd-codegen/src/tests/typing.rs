//! lower/typing.rs: a name the function cannot see is typed by its uses across the function;
//! where none decides and the lowering needs a type at once, the pass guesses a float
//! (`Infer::guess`), after every use and hint that decides.

use super::{lower, var};
use crate::ir::Ty;
use syn::parse_quote;

/// `item` expanded: the `compile_error!`s it reports, as text.
fn refusals(item: proc_macro2::TokenStream) -> String {
    let expanded = crate::expand(proc_macro2::TokenStream::new(), item).to_string();
    (expanded.split("compile_error").skip(1))
        .map(|error| error.split(';').next().unwrap_or_default().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_mutable_copy_of_a_name_nothing_decides_is_a_float() {
    let function = lower(
        &parse_quote! {
            fn f(x: f64) -> f64 {
                let k = K1;
                let mut y = k;
                let mut z = { let t = x; k };
                if x > 0.5 { y = K3; z = y; }
                if z > S1 { x } else { -x }
            }
        },
        &[],
    );
    assert_eq!(function.vars[var(&function, "y", 0).0 as usize].ty, Ty::F64);
    assert_eq!(function.vars[var(&function, "z", 0).0 as usize].ty, Ty::F64);
}

#[test]
fn a_use_that_decides_wins_over_the_guess() {
    // `n -= 1` makes `N` an integer; `K as f64` (a weak hint) makes `K` one.
    let function = lower(
        &parse_quote! {
            fn f(x: f64) -> f64 {
                let mut n = N;
                n -= 1;
                let mut m = K;
                let c = K as f64;
                x * (n as f64) + c
            }
        },
        &[],
    );
    assert_eq!(function.vars[var(&function, "n", 0).0 as usize].ty, Ty::Int);
    assert_eq!(function.vars[var(&function, "m", 0).0 as usize].ty, Ty::Int);
}

#[test]
fn a_name_passed_beside_a_float_is_a_float_and_alone_is_refused() {
    let beside = quote::quote! {
        fn f(x: f64) -> f64 {
            let x4 = K1;
            gf(x4, x)
        }
    };
    assert_eq!(refusals(beside), "");
    let alone = quote::quote! {
        fn f(x: f64) -> f64 {
            let k = K1;
            x + g(k)
        }
    };
    assert!(
        refusals(alone).contains("cannot tell whether this is an"),
        "a lone argument nothing decides is refused"
    );
    // Beside an integer argument, no guess either.
    let int_beside = quote::quote! {
        fn f(x: f64, n: usize) -> f64 {
            let k = K1;
            x + g(k, n)
        }
    };
    assert!(refusals(int_beside).contains("cannot tell whether this is an"));
}
