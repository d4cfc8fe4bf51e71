//! lower/paths.rs: a `const` or `static` item in the body is bound once in the block that
//! declares it, keyed by that block and its name (no syntax node's address): identical items in
//! two blocks are two items, and a closure's item is bound again each time the closure is
//! inlined.

use super::lower;
use crate::ir::{Access, Extern, Nest, Operand, VarId, Visitor};
use syn::parse_quote;

/// The names the lowered body reads without defining them, and the constants it uses.
fn externs_and_constants(item: &syn::ItemFn) -> (Vec<String>, Vec<f64>) {
    #[derive(Default)]
    struct Found(Vec<String>, Vec<f64>);
    impl Visitor<'_> for Found {
        fn visit_extern(&mut self, callee: &Extern) {
            self.0.push(callee.path.join("::"));
        }
        fn visit_operand(&mut self, operand: &Operand) {
            if let Operand::Const(c) = operand {
                self.1.push(*c);
            }
            self.super_operand(operand);
        }
        fn visit_var(&mut self, _: &VarId, _: Access) {}
    }
    let function = lower(item, &[]);
    let mut found = Found::default();
    found.visit_block(&function.body, Nest::Top);
    (found.0, found.1)
}

#[test]
fn identical_items_in_two_blocks_are_two_items() {
    let item: syn::ItemFn = parse_quote! {
        fn f(x: f64) -> f64 {
            let a = { const K: f64 = 3.0; x * K };
            let b = { const K: f64 = 3.0; x * K };
            a + b
        }
    };
    let (externs, constants) = externs_and_constants(&item);
    assert!(externs.is_empty(), "{externs:?}");
    assert_eq!(constants.iter().filter(|c| **c == 3.0).count(), 2);
}

#[test]
fn a_closures_item_is_bound_at_each_call() {
    let item: syn::ItemFn = parse_quote! {
        fn f(x: f64, y: f64) -> f64 {
            let scaled = |t: f64| { const K: f64 = 3.0; t * K };
            scaled(x) + scaled(y)
        }
    };
    let (externs, constants) = externs_and_constants(&item);
    assert!(externs.is_empty(), "{externs:?}");
    assert_eq!(constants.iter().filter(|c| **c == 3.0).count(), 2);
}

#[test]
fn an_inner_item_shadows_an_outer_one() {
    let item: syn::ItemFn = parse_quote! {
        fn f(x: f64) -> f64 {
            const K: f64 = 2.0;
            let a = { const K: f64 = 5.0; x * K };
            a + x * K
        }
    };
    let (externs, constants) = externs_and_constants(&item);
    assert!(externs.is_empty(), "{externs:?}");
    assert!(
        constants.contains(&5.0) && constants.contains(&2.0),
        "{constants:?}"
    );
}
