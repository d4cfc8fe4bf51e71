//! The rows of the flavour table: `f`'s own, then the nested ones (`nested/`), each a row of
//! `f`'s applied to `f_grad` or `f_jvp`.

use super::{Flavor, Missing, Needs, Outputs, Params, Request, Returns, Seed, Spec};

/// Every flavour, in the order they are emitted (and of [`Flavor`]'s variants): the rows of
/// `f`, then the nested ones.
pub const TABLE: [Spec; OWN.len() + NESTED.len()] = {
    let mut all = [OWN[0]; OWN.len() + NESTED.len()];
    let mut k = 0;
    while k < all.len() {
        all[k] = if k < OWN.len() {
            OWN[k]
        } else {
            NESTED[k - OWN.len()]
        };
        k += 1;
    }
    all
};

/// The rows of `f` itself.
pub(super) const OWN: [Spec; 9] = [
    Spec {
        flavor: Flavor::Grad,
        suffix: "grad",
        callee: false,
        differentiates: Params::ChosenWithOutput,
        tangents: Params::None,
        seed: Seed::Never,
        whole_shadows: true,
        returns: Returns::ValueAndPartials,
        request: Request::Always,
        outputs: Outputs::One,
        needs: Needs::Adjoint(Params::ChosenWithOutput),
        of: None,
        like: Flavor::Grad,
        missing: Missing::Absent,
    },
    Spec {
        flavor: Flavor::Pullback,
        suffix: "pullback",
        callee: false,
        differentiates: Params::All,
        tangents: Params::None,
        seed: Seed::Always,
        whole_shadows: false,
        returns: Returns::Partials,
        request: Request::Always,
        outputs: Outputs::Any,
        needs: Needs::Adjoint(Params::All),
        of: None,
        like: Flavor::Pullback,
        missing: Missing::Absent,
    },
    Spec {
        flavor: Flavor::Graph,
        suffix: "graph",
        callee: false,
        differentiates: Params::None,
        tangents: Params::None,
        seed: Seed::Never,
        whole_shadows: false,
        returns: Returns::Graph,
        request: Request::Graph,
        outputs: Outputs::One,
        // `f_grad`'s sweep: it prints a node per variable of the sweep it is given.
        needs: Needs::Adjoint(Params::ChosenWithOutput),
        of: None,
        like: Flavor::Graph,
        missing: Missing::Absent,
    },
    Spec {
        flavor: Flavor::Jvp,
        suffix: "jvp",
        callee: false,
        differentiates: Params::None,
        tangents: Params::Chosen,
        seed: Seed::Never,
        whole_shadows: true,
        returns: Returns::ValueAndTangent,
        request: Request::Jvp,
        outputs: Outputs::Any,
        needs: Needs::Tangent,
        of: None,
        like: Flavor::Jvp,
        missing: Missing::Absent,
    },
    Spec {
        flavor: Flavor::Tangent,
        suffix: "tangent",
        callee: true,
        differentiates: Params::None,
        tangents: Params::All,
        seed: Seed::Never,
        whole_shadows: false,
        returns: Returns::Tangent,
        request: Request::Jvp,
        outputs: Outputs::Any,
        needs: Needs::Tangent,
        of: None,
        like: Flavor::Tangent,
        missing: Missing::Refuses("BuiltWithJvp"),
    },
    Spec {
        flavor: Flavor::Hvp,
        suffix: "hvp",
        callee: false,
        differentiates: Params::Chosen,
        tangents: Params::Chosen,
        seed: Seed::Several,
        whole_shadows: true,
        returns: Returns::ValueAndPartials,
        request: Request::Hvp,
        outputs: Outputs::Any,
        needs: Needs::TangentAdjoint,
        of: None,
        like: Flavor::Hvp,
        missing: Missing::Absent,
    },
    Spec {
        flavor: Flavor::TangentPullback,
        suffix: "tangent_pullback",
        callee: true,
        differentiates: Params::All,
        tangents: Params::All,
        seed: Seed::Always,
        whole_shadows: false,
        returns: Returns::Partials,
        request: Request::Hvp,
        outputs: Outputs::Any,
        needs: Needs::TangentAdjoint,
        of: None,
        like: Flavor::TangentPullback,
        missing: Missing::Refuses("BuiltWithHvp"),
    },
    Spec {
        flavor: Flavor::Hessian,
        suffix: "hessian",
        callee: false,
        differentiates: Params::None,
        tangents: Params::None,
        seed: Seed::Never,
        whole_shadows: false,
        returns: Returns::Hessian,
        request: Request::Hessian,
        outputs: Outputs::One,
        needs: Needs::Nothing,
        of: None,
        like: Flavor::Hessian,
        missing: Missing::Absent,
    },
    Spec {
        flavor: Flavor::Jacobian,
        suffix: "jacobian",
        callee: false,
        differentiates: Params::ChosenInJacobian,
        tangents: Params::None,
        seed: Seed::Never,
        whole_shadows: false,
        returns: Returns::Jacobian,
        request: Request::Jacobian,
        outputs: Outputs::Several,
        needs: Needs::Columns,
        of: None,
        like: Flavor::Jacobian,
        missing: Missing::Absent,
    },
];

/// The rows of `f_grad` and `f_jvp`.
pub(super) const NESTED: [Spec; 6] = [
    nested(
        Flavor::GradPullback,
        "grad_pullback",
        Flavor::Grad,
        Flavor::Pullback,
        Needs::Composed,
        Missing::Refuses("NestedBuiltWithHvp"),
    ),
    nested(
        Flavor::GradTangent,
        "grad_tangent",
        Flavor::Grad,
        Flavor::Tangent,
        Needs::Composed,
        Missing::Refuses("NestedBuiltWithHvp"),
    ),
    nested(
        Flavor::GradTangentPullback,
        "grad_tangent_pullback",
        Flavor::Grad,
        Flavor::TangentPullback,
        Needs::Refused,
        Missing::Refuses("SecondOrderOnly"),
    ),
    nested(
        Flavor::JvpPullback,
        "jvp_pullback",
        Flavor::Jvp,
        Flavor::Pullback,
        Needs::Composed,
        Missing::Refuses("NestedBuiltWithHvp"),
    ),
    nested(
        Flavor::JvpTangent,
        "jvp_tangent",
        Flavor::Jvp,
        Flavor::Tangent,
        Needs::Composed,
        Missing::Refuses("NestedBuiltWithHvp"),
    ),
    nested(
        Flavor::JvpTangentPullback,
        "jvp_tangent_pullback",
        Flavor::Jvp,
        Flavor::TangentPullback,
        Needs::Refused,
        Missing::Refuses("SecondOrderOnly"),
    ),
];

/// A nested flavour's row: `like`'s row of `f` applied to the function `of` (its parameters,
/// tangents, seed, shadows and result), built with `hvp` (each is composed from
/// `__f_tangent_pullback`'s body) for one `f64` output, `needs` and `missing` its own.
const fn nested(
    flavor: Flavor,
    suffix: &'static str,
    of: Flavor,
    like: Flavor,
    needs: Needs,
    missing: Missing,
) -> Spec {
    Spec {
        flavor,
        suffix,
        request: Request::Hvp,
        outputs: Outputs::One,
        needs,
        of: Some(of),
        like,
        missing,
        ..OWN[like as usize]
    }
}
