//! The table of flavours (`flavor.rs`): its rows are in [`Flavor`]'s order, and the options
//! imply one another as the attribute's reference says.

use crate::attr::Options;
use crate::flavor::{Flavor, Missing, Params, Returns, Seed, TABLE};
use crate::ir::Output;

#[test]
fn each_row_is_its_flavors() {
    let rows = Flavor::ALL.into_iter().chain(Flavor::NESTED);
    for (k, flavor) in rows.enumerate() {
        assert_eq!(flavor as usize, k, "{flavor:?}");
        assert_eq!(flavor.spec().flavor, flavor);
    }
    assert_eq!(Flavor::ALL.len() + Flavor::NESTED.len(), TABLE.len());
    let mut suffixes: Vec<&str> = TABLE.iter().map(|spec| spec.suffix).collect();
    suffixes.sort();
    suffixes.dedup();
    assert_eq!(
        suffixes.len(),
        TABLE.len(),
        "two flavours would have one name"
    );
}

#[test]
fn a_nested_row_is_a_row_of_f_applied_to_a_flavour_of_f() {
    for flavor in Flavor::ALL {
        let spec = flavor.spec();
        assert_eq!((spec.of, spec.like), (None, flavor));
    }
    for flavor in Flavor::NESTED {
        let (spec, like) = (flavor.spec(), flavor.spec().like.spec());
        let of = spec.of.expect("a nested row is of a flavour of `f`");
        assert!(Flavor::ALL.contains(&of) && Flavor::ALL.contains(&like.flavor));
        // Its name is the flavour's it is like, of `f_grad` or `f_jvp`.
        assert_eq!(spec.suffix, format!("{}_{}", of.suffix(), like.suffix));
        assert_eq!(
            (spec.differentiates, spec.tangents, spec.seed, spec.callee),
            (like.differentiates, like.tangents, like.seed, like.callee)
        );
        assert_ne!(spec.missing, Missing::Absent, "{flavor:?} has a stub");
    }
    // A pullback of a tangent program refuses only where its tangent is built.
    assert_eq!(Flavor::TangentPullback.after(), Some(Flavor::Tangent));
    assert_eq!(
        Flavor::GradTangentPullback.after(),
        Some(Flavor::GradTangent)
    );
    assert_eq!(Flavor::JvpTangentPullback.after(), Some(Flavor::JvpTangent));
    assert_eq!(Flavor::GradPullback.after(), None);
}

#[test]
fn a_flavor_that_differentiates_returns_partials() {
    for spec in &TABLE {
        let partials = matches!(
            spec.returns,
            Returns::ValueAndPartials | Returns::Partials | Returns::Jacobian
        );
        assert_eq!(spec.differentiates != Params::None, partials, "{spec:?}");
        // A pullback is seeded by its caller.
        if spec.returns == Returns::Partials {
            assert_eq!(spec.seed, Seed::Always, "{spec:?}");
        }
    }
}

#[test]
fn options_imply_the_flavours_they_call() {
    let with = |set: fn(&mut Options)| {
        let mut options = Options::default();
        set(&mut options);
        Flavor::ALL
            .into_iter()
            .filter(|flavor| flavor.requested(&options))
            .collect::<Vec<_>>()
    };
    use Flavor::*;
    assert_eq!(with(|_| {}), [Grad, Pullback]);
    assert_eq!(with(|o| o.jvp = true), [Grad, Pullback, Jvp, Tangent]);
    let hvp = [Grad, Pullback, Jvp, Tangent, Hvp, TangentPullback];
    assert_eq!(with(|o| o.hvp = true), hvp);
    assert_eq!(
        with(|o| o.hessian = true),
        [Grad, Pullback, Jvp, Tangent, Hvp, TangentPullback, Hessian]
    );
    assert_eq!(with(|o| o.graph = true), [Grad, Pullback, Graph]);
    assert_eq!(with(|o| o.jacobian = true), [Grad, Pullback, Jacobian]);
    // By output: a vector has no gradient, graph or Hessian, one `f64` no Jacobian.
    let mut options = Options::default();
    (options.graph, options.hessian, options.jacobian) = (true, true, true);
    let emitted = |output| {
        Flavor::ALL
            .into_iter()
            .filter(|flavor| flavor.emitted(&options, output))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        emitted(Output::Scalar),
        [
            Grad,
            Pullback,
            Graph,
            Jvp,
            Tangent,
            Hvp,
            TangentPullback,
            Hessian
        ]
    );
    assert_eq!(
        emitted(Output::Array(2)),
        [Pullback, Jvp, Tangent, Hvp, TangentPullback, Jacobian]
    );
}
