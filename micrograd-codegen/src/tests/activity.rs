//! diff/activity.rs: a value gets an adjoint exactly when it depends on a `wrt` input and the
//! result depends on it.

use super::{lower, param, var, wrt_vars};
use crate::diff::Activity;
use syn::parse_quote;

#[test]
fn only_values_between_the_inputs_and_the_result_are_active() {
    let function = lower(
        &parse_quote! {
            fn f(x: f64, y: f64) -> f64 {
                let a = y * 2.0;
                let b = x * a;
                let unused = x.sin();
                b + 1.0
            }
        },
        &["x"],
    );
    let activity = Activity::of(&function, &wrt_vars(&function));
    assert!(activity.is_active(param(&function, 0)), "x is an input");
    assert!(!activity.is_active(param(&function, 1)), "y is not in wrt");
    assert!(
        !activity.is_active(var(&function, "a", 0)),
        "a depends on y only"
    );
    assert!(activity.is_active(var(&function, "b", 0)));
    assert!(
        !activity.is_active(var(&function, "unused", 0)),
        "the result does not depend on it"
    );
}

#[test]
fn activity_reaches_across_loop_iterations() {
    // `s` becomes varied only in the second iteration, through `t`: a fixpoint.
    let function = lower(
        &parse_quote! {
            fn f(x: f64) -> f64 {
                let mut s = 1.0;
                let mut t = 0.0;
                for _ in 0..3 {
                    s = s + t;
                    t = x * 2.0;
                }
                s
            }
        },
        &[],
    );
    let activity = Activity::of(&function, &wrt_vars(&function));
    let versions: Vec<bool> = (0..4)
        .filter_map(|v| {
            let found = function.vars.iter().any(|info| {
                matches!(&info.origin, crate::ir::Origin::Named { name, version } if name == "s" && *version == v)
            });
            found.then(|| activity.is_active(var(&function, "s", v)))
        })
        .collect();
    assert!(
        versions.iter().skip(1).any(|&active| active),
        "some version of s in the loop is active: {versions:?}"
    );
}

#[test]
fn a_call_lent_an_array_writes_it_from_its_arguments() {
    let function = lower(
        &parse_quote! {
            fn f(x: f64) -> f64 {
                let mut h = [0.0; 2];
                g(&mut h, x);
                h[0]
            }
        },
        &[],
    );
    let activity = Activity::of(&function, &wrt_vars(&function));
    assert!(
        activity.is_active(var(&function, "h", 0)),
        "h holds what g wrote from x"
    );
}

#[test]
fn a_written_parameter_is_an_output() {
    // A caller that lent `w` seeds the adjoint of what `f` leaves in it.
    let function = lower(
        &parse_quote! {
            fn f(w: &mut [f64], x: f64) -> f64 {
                w[0] = x * x;
                0.0
            }
        },
        &[],
    );
    let activity = Activity::of(&function, &wrt_vars(&function));
    assert!(activity.is_active(param(&function, 0)));
    assert!(
        activity.is_active(param(&function, 1)),
        "x reaches w's exit entries"
    );
}

#[test]
fn the_gradient_query_agrees_with_every_rule() {
    use crate::diff::Expr;
    use crate::diff::functions::{pullback1, pullback2};
    use crate::ir::{Func, Func2};
    let flat = || Expr::Const(0.0);
    for &f in Func::ALL {
        let rule = pullback1(f, flat(), flat(), flat());
        assert_eq!(f.passes_gradient(), rule.is_some(), "{}", f.name());
    }
    for &f in Func2::ALL {
        let (to_a, to_b) = pullback2(f, flat(), flat(), flat(), flat());
        assert_eq!(f.passes_gradient(0), to_a.is_some(), "{} to a", f.name());
        assert_eq!(f.passes_gradient(1), to_b.is_some(), "{} to b", f.name());
    }
    // What the query stands for: `floor` passes nothing, `copysign` nothing to its sign.
    assert!(!Func::Floor.passes_gradient() && Func::Sin.passes_gradient());
    assert!(Func2::Copysign.passes_gradient(0) && !Func2::Copysign.passes_gradient(1));
}
