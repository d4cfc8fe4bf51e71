//! What each use says of a field's kind (`fields.rs`): the methods that make their receiver a
//! slice, the literal beside an operator, the type written in a `let`, and how two readings of
//! one field merge.

use crate::ir::FieldKind;
use syn::Expr;

/// Methods that make their receiver a slice.
pub(super) const SLICE_METHODS: [&str; 8] = [
    "len",
    "iter",
    "is_empty",
    "chunks",
    "chunks_exact",
    "windows",
    "first",
    "last",
];

/// Whether `name` is one of [`SLICE_METHODS`].
pub(in crate::lower) fn is_slice_method(name: &str) -> bool {
    SLICE_METHODS.contains(&name)
}

/// Methods integers share with `f64`: their receiver's kind comes from their argument.
pub(super) const SHARED_METHODS: [&str; 4] = ["min", "max", "abs", "pow"];

/// Two readings of one field: the more specific, or `None` if they disagree.
pub(super) fn merge(a: FieldKind, b: FieldKind) -> Option<FieldKind> {
    use FieldKind::{Elements, Slice, Whole};
    match (a, b) {
        _ if a == b => Some(a),
        (Whole, Slice) | (Slice, Whole) => Some(Slice),
        // `self.layers.len()` beside `self.layers[i].forward(x)`: its length.
        (Elements, Slice | Whole) | (Slice | Whole, Elements) => Some(Elements),
        _ => None,
    }
}

/// The kind a literal gives the other operand of a binary operator.
pub(super) fn literal_kind(expr: &Expr) -> Option<FieldKind> {
    let Expr::Lit(lit) = expr else { return None };
    match &lit.lit {
        syn::Lit::Int(int) if int.suffix().starts_with('f') => Some(FieldKind::Scalar),
        syn::Lit::Int(_) => Some(FieldKind::Int),
        syn::Lit::Float(_) => Some(FieldKind::Scalar),
        syn::Lit::Bool(_) => Some(FieldKind::Bool),
        _ => None,
    }
}

/// What `let x: T = p.f;` says of the field.
pub(super) fn annotated_kind(ty: &syn::Type) -> Option<FieldKind> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let name = path.path.get_ident()?.to_string();
    match name.as_str() {
        "f64" | "f32" => Some(FieldKind::Scalar),
        "bool" => Some(FieldKind::Bool),
        _ if crate::signature::is_int_name(&name) => Some(FieldKind::Int),
        _ => None,
    }
}
