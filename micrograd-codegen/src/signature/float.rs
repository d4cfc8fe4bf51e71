//! Which float type a type names: the function's scalar comes from its signature.

use super::segments;
use crate::ir::Scalar;
use syn::{FnArg, ReturnType, Type};

/// The float type `ty` names, spelled `f32` or `core::primitive::f32` (also via `std`).
pub fn float_type(ty: &Type) -> Option<Scalar> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let segments = segments(&path.path);
    match segments.as_slice() {
        [name] => Scalar::from_name(name),
        [root, primitive, name]
            if (root == "core" || root == "std") && primitive == "primitive" =>
        {
            Scalar::from_name(name)
        }
        _ => None,
    }
}

/// The float type of the first float in `sig` (a parameter, a slice's elements, the result);
/// `f64` when there is none.
pub fn scalar(sig: &syn::Signature) -> Scalar {
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
        .find_map(|ty| float_in(ty).map(|(_, scalar)| scalar))
        .unwrap_or_default()
}

/// The float type `ty` is, or holds as the elements of a slice, an array or a `Vec`, or
/// behind a reference; with where it is written.
pub fn float_in(ty: &Type) -> Option<(&Type, Scalar)> {
    match ty {
        Type::Reference(reference) => float_in(&reference.elem),
        Type::Slice(slice) => float_in(&slice.elem),
        Type::Array(array) => float_in(&array.elem),
        Type::Paren(paren) => float_in(&paren.elem),
        Type::Path(path) if path.qself.is_none() => {
            if let Some(scalar) = float_type(ty) {
                return Some((ty, scalar));
            }
            // `Vec<f64>`, `Option<f32>`, ...: the first float among the generic arguments.
            let last = path.path.segments.last()?;
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return None;
            };
            args.args.iter().find_map(|arg| match arg {
                syn::GenericArgument::Type(ty) => float_in(ty),
                _ => None,
            })
        }
        _ => None,
    }
}
