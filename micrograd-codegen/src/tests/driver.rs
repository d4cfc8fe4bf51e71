//! The driver (`driver.rs`): what it differentiates for each request, read from the table of
//! flavours, and the empty sweep forward-only flavours are printed with.

use super::lower;
use crate::attr::Options;
use crate::diff::{Adjoint, differentiate};
use crate::driver::{Step, plan};
use crate::flavor::{Flavor, Params};
use crate::ir::Output;
use syn::parse_quote;

fn steps(set: fn(&mut Options), output: Output) -> Vec<Step> {
    let mut options = Options::default();
    set(&mut options);
    plan(&options, output).steps
}

#[test]
fn a_forward_only_request_builds_no_adjoint_of_its_tangent_program() {
    use Step::*;
    // `f_jvp` and `f_tangent`: the tangent programs, and `f_grad`'s and `f_pullback`'s sweeps
    // of `f` only.
    assert_eq!(
        steps(|o| o.jvp = true, Output::Scalar),
        [
            Reverse(Params::ChosenWithOutput),
            Reverse(Params::All),
            Tangent(Params::Chosen),
            Tangent(Params::All),
        ]
    );
    // Several outputs: no `f_grad`, so one sweep of `f`.
    assert_eq!(
        steps(|o| o.jvp = true, Output::Array(2)),
        [
            Reverse(Params::All),
            Tangent(Params::Chosen),
            Tangent(Params::All)
        ]
    );
    // `f_hvp` reverses the tangent program it shares with `f_jvp`; `f_hessian` adds nothing,
    // and `f_graph` reads `f_grad`'s sweep.
    let mut hessian = steps(|o| (o.hessian, o.graph) = (true, true), Output::Scalar);
    hessian.sort_by_key(|step| format!("{step:?}"));
    assert_eq!(
        hessian,
        [
            Reverse(Params::All),
            Reverse(Params::ChosenWithOutput),
            Tangent(Params::All),
            Tangent(Params::Chosen),
            TangentReverse(Params::All, Params::All),
            TangentReverse(Params::Chosen, Params::Chosen),
        ]
    );
    assert_eq!(
        steps(|o| o.jacobian = true, Output::Tuple(3)),
        [Reverse(Params::All), Jacobian]
    );
}

#[test]
fn the_plan_prints_what_the_table_emits() {
    let options = Options {
        hvp: true,
        ..Options::default()
    };
    let flavors = plan(&options, Output::Scalar).flavors;
    let emitted: Vec<Flavor> = Flavor::ALL
        .into_iter()
        .filter(|flavor| flavor.emitted(&options, Output::Scalar))
        .collect();
    assert_eq!(flavors, emitted);
}

#[test]
fn no_sweep_is_differentiating_nothing() {
    let items: [syn::ItemFn; 3] = [
        parse_quote! {
            fn f(x: f64, w: &[f64]) -> f64 {
                let mut s = 0.0;
                for i in 0..w.len() {
                    if w[i] > x { s += w[i] * x; } else { s = s.max(x.sin()); }
                }
                s
            }
        },
        parse_quote! {
            fn g(x: f64, y: f64) -> f64 {
                let mut a = [x, y];
                let mut k = 0;
                while a[0] < 10.0 { a[0] = a[0] * 2.0 + y; k += 1; }
                a[0] * (k as f64)
            }
        },
        parse_quote! {
            fn h(w: &mut [f64], x: f64) -> f64 { w[0] = x * x; w[0] + h2(x) }
        },
    ];
    for item in &items {
        let function = lower(item, &[]);
        let none = Adjoint::none(&function);
        let nothing = differentiate(&function, &Default::default());
        assert!(nothing.rev.is_empty() && none.rev.is_empty());
        assert_eq!(format!("{:?}", none.vars), format!("{:?}", nothing.vars));
        assert_eq!(format!("{:?}", none.plan), format!("{:?}", nothing.plan));
        assert_eq!(
            format!("{:?}", none.decisions),
            format!("{:?}", nothing.decisions)
        );
        assert_eq!(
            format!("{:?}", none.activity),
            format!("{:?}", nothing.activity)
        );
        assert!(nothing.declared_params.is_empty() && nothing.fused.is_none());
    }
}
