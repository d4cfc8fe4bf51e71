//! emit/: which parameters each flavour differentiates, and the printed `f_grad` returns `f`'s
//! value and one partial per differentiated `f64`, named after the user's parameters.

use super::{differentiate, param};
use crate::emit::{Flavor, generate, wrt};
use std::collections::HashSet;
use syn::parse_quote;

fn item() -> syn::ItemFn {
    parse_quote! {
        fn f(x: f64, y: f64, n: usize) -> f64 {
            x * y * (n as f64)
        }
    }
}

#[test]
fn each_flavour_differentiates_its_parameters() {
    let (function, _) = differentiate(&item(), &["x"]);
    let (x, y) = (param(&function, 0), param(&function, 1));
    assert_eq!(wrt(&function, Flavor::Grad), HashSet::from([x]), "wrt(x)'s");
    assert_eq!(wrt(&function, Flavor::Hvp), HashSet::from([x]));
    assert_eq!(
        wrt(&function, Flavor::Pullback),
        HashSet::from([x, y]),
        "every differentiable parameter, never the integer"
    );
    assert!(wrt(&function, Flavor::Jvp).is_empty());
}

#[test]
fn f_grad_returns_the_value_and_the_partials_it_differentiates() {
    let item = item();
    let mut errors = crate::error::Errors::default();
    let sig = crate::signature::check(&item, &syn::parse_quote!(::micrograd_runtime), &mut errors)
        .expect("a valid signature");
    let (function, adjoint) = differentiate(&item, &["x"]);
    let options = crate::attr::Options::default();
    let printed = generate(&sig, &function, &adjoint, Flavor::Grad, &options).to_string();
    let compact: String = printed.split_whitespace().collect();
    let float = "::core::primitive::f64";
    assert!(
        compact.contains(&format!(
            "fnf_grad(x:{float},y:{float},n:usize,)->({float},{float})"
        )),
        "f_grad's signature: the value and one partial: {printed}"
    );
    assert!(compact.contains("d_x"), "x's partial: {printed}");
    assert!(
        !compact.contains("d_y"),
        "y is not differentiated: {printed}"
    );
    let file: syn::File = syn::parse2(generate(&sig, &function, &adjoint, Flavor::Grad, &options))
        .expect("f_grad parses as Rust items");
    assert!(!file.items.is_empty());
}
