//! The primitive types by name, as a user spells them: the floats (`f32`, `core::primitive::f64`)
//! and the integers. On the lowest floor with `scalar`: `types` reads a type with them, and
//! `signature` and `lower` read names with them.

use crate::scalar::Scalar;
use syn::Type;

const INT_TYPES: [&str; 12] = [
    "usize", "isize", "u8", "u16", "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128",
];

/// The float type `ty` names in a function whose scalar is `scalar`: `f32` or
/// `core::primitive::f32` (also via `std`), or the function's generic float `T`.
pub fn float_type(ty: &Type, scalar: Scalar) -> Option<Scalar> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let segments = segments(&path.path);
    match segments.as_slice() {
        [name] => scalar.named(name),
        [root, primitive, name]
            if (root == "core" || root == "std") && primitive == "primitive" =>
        {
            Scalar::from_name(name)
        }
        _ => None,
    }
}

/// The identifiers of a path's segments: `std::f64::consts::PI` gives `["std", "f64", "consts", "PI"]`.
pub fn segments(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// Whether `name` is a primitive integer type.
pub fn is_int_name(name: &str) -> bool {
    INT_TYPES.contains(&name)
}
