//! diff/tangent/: the tangent program has a tangent parameter after each varying parameter and
//! no other, leaves the tangent of an inactive parameter unread, and returns tangents where `f`
//! returns values (which it keeps, bit for bit, in [`crate::diff::tangent::Tangent::values`]).

use super::{lower, param};
use crate::diff::tangent::transform;
use std::collections::HashSet;
use syn::parse_quote;

fn product() -> syn::ItemFn {
    parse_quote! {
        fn f(x: f64, y: f64) -> f64 {
            let c = x * y;
            c.tanh()
        }
    }
}

#[test]
fn only_varying_parameters_get_a_tangent() {
    let function = lower(&product(), &[]);
    let x = param(&function, 0);
    let tangent = transform(&function, &HashSet::from([x]));
    assert!(tangent.tangents[0].is_some(), "x varies: it has a tangent");
    assert!(tangent.tangents[1].is_none(), "y is held: no tangent");
    // x, v_x, y.
    assert_eq!(tangent.function.params.len(), 3);
    assert_eq!(tangent.function.params[1].var, tangent.tangents[0].unwrap());
    assert!(tangent.unread.is_empty());
}

#[test]
fn an_inactive_parameter_s_tangent_is_unread() {
    let item: syn::ItemFn = parse_quote! {
        fn f(x: f64, y: f64) -> f64 {
            x * 2.0
        }
    };
    let function = lower(&item, &[]);
    let (x, y) = (param(&function, 0), param(&function, 1));
    let tangent = transform(&function, &HashSet::from([x, y]));
    let (v_x, v_y) = (tangent.tangents[0].unwrap(), tangent.tangents[1].unwrap());
    assert_eq!(tangent.unread, vec![v_y], "nothing reads y's tangent");
    assert!(!tangent.unread.contains(&v_x));
}

#[test]
fn the_results_are_tangents_and_the_values_are_f_s() {
    let function = lower(&product(), &[]);
    let varying: HashSet<_> = function.params.iter().map(|p| p.var).collect();
    let tangent = transform(&function, &varying);
    assert_eq!(
        tangent.values, function.results,
        "f's results, as they were"
    );
    assert_eq!(tangent.function.results.len(), function.results.len());
    assert_ne!(
        tangent.function.results, function.results,
        "the tangent program returns the tangent, not the value"
    );
    let with_value = tangent.with_value();
    assert_eq!(with_value.function.results.len(), 2, "(y, v_y)");
    assert_eq!(with_value.function.results[0], function.results[0]);
}
