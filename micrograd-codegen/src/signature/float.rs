//! Which float type a type names: the function's scalar comes from its signature.

use super::float_type;
use crate::scalar::{GenericFloat, Scalar};
use syn::{FnArg, ReturnType, Type};

/// The float type of the first float in `sig` (a parameter, a slice's elements, the result);
/// `f64` when there is none. A float type parameter (`T: Float`, [`generic`]) is named as
/// such, its constants reached through `runtime`.
pub fn scalar(sig: &syn::Signature, runtime: &syn::Path) -> Scalar {
    let context = generic(&sig.generics)
        .map(|float| Scalar::Generic(GenericFloat::new(&float.to_string(), runtime)))
        .unwrap_or_default();
    let params = sig.inputs.iter().filter_map(|arg| match arg {
        FnArg::Typed(typed) => Some(&*typed.ty),
        FnArg::Receiver(_) => None,
    });
    let output = match &sig.output {
        ReturnType::Type(_, ty) => Some(&**ty),
        ReturnType::Default => None,
    };
    params
        .chain(output)
        .find_map(|ty| float_in(ty, context).map(|(_, scalar)| scalar))
        .unwrap_or_default()
}

/// The float type `ty` is, or holds as the elements of a slice, an array or a `Vec`, or
/// behind a reference, in a function whose scalar is `scalar`; with where it is written.
pub fn float_in(ty: &Type, scalar: Scalar) -> Option<(&Type, Scalar)> {
    match ty {
        Type::Reference(reference) => float_in(&reference.elem, scalar),
        Type::Slice(slice) => float_in(&slice.elem, scalar),
        Type::Array(array) => float_in(&array.elem, scalar),
        Type::Paren(paren) => float_in(&paren.elem, scalar),
        Type::Path(path) if path.qself.is_none() => {
            if let Some(found) = float_type(ty, scalar) {
                return Some((ty, found));
            }
            // `Vec<f64>`, `Option<f32>`, ...: the first float among the generic arguments.
            let last = path.path.segments.last()?;
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return None;
            };
            args.args.iter().find_map(|arg| match arg {
                syn::GenericArgument::Type(ty) => float_in(ty, scalar),
                _ => None,
            })
        }
        _ => None,
    }
}

/// The type parameter a function is generic over as its float: the one bounded by `Float`
/// (num-traits' trait, by any path ending in `Float`), in its `<..>` or its `where` clause.
/// The first such parameter; [`check_generic`](super::check) reports any other.
pub fn generic(generics: &syn::Generics) -> Option<&syn::Ident> {
    generics
        .type_params()
        .find(|param| is_float_param(generics, &param.ident))
        .map(|param| &param.ident)
}

/// Whether `ident`, a type parameter of `generics`, is bounded by `Float`.
pub fn is_float_param(generics: &syn::Generics, ident: &syn::Ident) -> bool {
    let inline = generics
        .type_params()
        .filter(|param| param.ident == *ident)
        .flat_map(|param| &param.bounds);
    let clause = generics
        .where_clause
        .iter()
        .flat_map(|clause| &clause.predicates)
        .filter_map(|predicate| match predicate {
            syn::WherePredicate::Type(predicate) if bounds_param(&predicate.bounded_ty, ident) => {
                Some(&predicate.bounds)
            }
            _ => None,
        })
        .flatten();
    inline.chain(clause).any(|bound| match bound {
        syn::TypeParamBound::Trait(bound) => bound
            .path
            .segments
            .last()
            .is_some_and(|last| last.ident == "Float" && last.arguments.is_none()),
        _ => false,
    })
}

/// Whether `ty` is the type parameter `ident` itself.
pub fn bounds_param(ty: &Type, ident: &syn::Ident) -> bool {
    matches!(ty, Type::Path(path) if path.qself.is_none() && path.path.is_ident(ident))
}
