//! siblings.rs: a generated function naming a sibling holds a copy of it in its body; a hidden
//! helper copied so is not printed on its own; a cycle of siblings is copied once around.

use crate::siblings::nest;
use quote::quote;

#[test]
fn a_caller_holds_a_copy_of_its_sibling_and_a_hidden_helper_moves() {
    let expanded = quote! {
        fn f(x: f64) -> f64 { x }
        /// Public.
        fn f_hvp(x: f64) -> f64 { x }
        fn __f_lanes(x: f64) -> f64 { x }
        fn f_hessian(x: f64) -> f64 { f_hvp(x) + __f_lanes(x) + f(x) }
        const __f_outputs: usize = 1;
    };
    let expected = quote! {
        fn f(x: f64) -> f64 { x }
        /// Public.
        fn f_hvp(x: f64) -> f64 { x }
        fn f_hessian(x: f64) -> f64 {
            fn f_hvp(x: f64) -> f64 { x }
            fn __f_lanes(x: f64) -> f64 { x }
            f_hvp(x) + __f_lanes(x) + f(x)
        }
        const __f_outputs: usize = 1;
    };
    assert_eq!(
        nest(expanded, "f", &Default::default()).to_string(),
        expected.to_string()
    );
}

#[test]
fn a_cycle_of_siblings_is_copied_once_around() {
    let expanded = quote! {
        fn f_grad(x: f64) -> f64 { f_pullback(x) }
        fn f_pullback(x: f64) -> f64 { f_grad(x) }
    };
    let expected = quote! {
        fn f_grad(x: f64) -> f64 {
            fn f_pullback(x: f64) -> f64 { fn f_grad(x: f64) -> f64 { f_pullback(x) } f_grad(x) }
            f_pullback(x)
        }
        fn f_pullback(x: f64) -> f64 { fn f_grad(x: f64) -> f64 { f_pullback(x) } f_grad(x) }
    };
    assert_eq!(
        nest(expanded, "f", &Default::default()).to_string(),
        expected.to_string()
    );
}

#[test]
fn a_name_the_user_holds_is_never_a_sibling() {
    // `fn f(x: f64, f_grad: f64)`: f_pullback reads the parameter `f_grad`, which a copy of the
    // function `f_grad` in its body would shadow.
    let expanded = quote! {
        fn f_grad(x: f64, f_grad: f64) -> f64 { x * f_grad }
        fn f_pullback(x: f64, f_grad: f64) -> f64 { x * f_grad }
        fn f_hvp(x: f64, f_grad: f64) -> f64 { x * f_grad }
        fn f_hessian(x: f64, f_grad: f64) -> f64 { f_hvp(x, f_grad) }
    };
    let expected = quote! {
        fn f_grad(x: f64, f_grad: f64) -> f64 { x * f_grad }
        fn f_pullback(x: f64, f_grad: f64) -> f64 { x * f_grad }
        fn f_hvp(x: f64, f_grad: f64) -> f64 { x * f_grad }
        fn f_hessian(x: f64, f_grad: f64) -> f64 {
            fn f_hvp(x: f64, f_grad: f64) -> f64 { x * f_grad }
            f_hvp(x, f_grad)
        }
    };
    let taken = ["f", "x", "f_grad", "f64"].map(String::from).into();
    assert_eq!(
        nest(expanded, "f", &taken).to_string(),
        expected.to_string()
    );
}
