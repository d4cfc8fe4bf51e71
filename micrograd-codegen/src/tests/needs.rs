//! diff/needs.rs: what the forward sweep keeps for the reverse one.

use super::{differentiate, var};
use syn::parse_quote;

#[test]
fn a_dot_product_records_nothing() {
    let (_, adjoint) = differentiate(
        &parse_quote! {
            fn f(w: &[f64], v: &[f64]) -> f64 {
                let mut s = 0.0;
                for i in 0..w.len() {
                    s += w[i] * v[i];
                }
                s
            }
        },
        &[],
    );
    assert!(
        adjoint.plan.records.values().all(Vec::is_empty),
        "{:?}",
        adjoint.plan.records
    );
}

#[test]
fn a_value_overwritten_in_a_loop_is_recorded() {
    let (function, adjoint) = differentiate(
        &parse_quote! {
            fn f(x: f64) -> f64 {
                let mut s = x;
                for _ in 0..3 {
                    s = s.sin();
                }
                s
            }
        },
        &[],
    );
    let recorded: Vec<_> = adjoint.plan.records.values().flatten().collect();
    assert_eq!(recorded.len(), 1, "one value per iteration: {recorded:?}");
    let versions: Vec<_> = (0..3)
        .filter(|&v| {
            function.vars.iter().any(|info| {
                matches!(&info.origin, crate::ir::Origin::Named { name, version } if name == "s" && *version == v)
            })
        })
        .map(|v| var(&function, "s", v))
        .collect();
    assert!(
        versions.contains(recorded[0]),
        "the recorded value is a version of s"
    );
}

#[test]
fn an_integer_the_reverse_sweep_reads_is_computed_again() {
    let (function, adjoint) = differentiate(
        &parse_quote! {
            fn f(w: &[f64]) -> f64 {
                let mut s = 0.0;
                for i in 0..w.len() {
                    let k = w.len() - 1 - i;
                    s += w[k] * w[i];
                }
                // The sum's adjoint needs the sum, so the loop is reversed after it runs (a
                // plain `s` would reverse each iteration inside it, where `k` is in scope).
                s.sin()
            }
        },
        &[],
    );
    let k = var(&function, "k", 0);
    assert!(
        adjoint
            .plan
            .recompute
            .values()
            .any(|list| list.contains(&k)),
        "{:?}",
        adjoint.plan.recompute
    );
    assert!(
        adjoint.plan.records.values().all(Vec::is_empty),
        "integers are never recorded"
    );
}

#[test]
fn a_cheap_value_of_recorded_operands_is_computed_again() {
    // Newton's method for a cube root: the reversed step needs x, x², 3x, 3x² and the step;
    // only x and the step (a division) are recorded, the products are computed again.
    let (function, adjoint) = differentiate(
        &parse_quote! {
            fn f(a: f64) -> f64 {
                let mut x = 1.0;
                for _ in 0..6 {
                    x = x - (x * x * x - a) / (3.0 * x * x);
                }
                x
            }
        },
        &[],
    );
    let recorded: Vec<_> = adjoint.plan.records.values().flatten().collect();
    assert_eq!(recorded.len(), 2, "{recorded:?}");
    let computed: Vec<_> = adjoint.plan.recompute.values().flatten().collect();
    assert_eq!(computed.len(), 3, "x², 3x and 3x²: {computed:?}");
    assert!(
        computed
            .iter()
            .all(|v| function.vars[v.0 as usize].ty == crate::ir::Ty::F64)
    );
}
