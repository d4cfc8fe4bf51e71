//! The structural type of a value: what a type as written is made of, and what indexing it,
//! `.k`, iterating over it or destructuring it yields.
//!
//! Before: `&[([f64; 2], usize)]` After: `Ref(Slice(Tuple([Array(Float(f64), 2), Int("usize")])))`
//!
//! Today it types the reads of passive data (parameters that are never differentiated,
//! `lower/data.rs`). It is the seed of the one type model of issue 24: `signature::Kind`,
//! `ir::Ty` and `ir::FieldKind` are each a corner of it, and are meant to become queries on it
//! (a parameter's shadow and tangent layouts, whether a value carries a derivative), so that a
//! new parameter kind is a case of [`read`] and a printer. Nothing here depends on `syn` but
//! [`read`].

use crate::ir::Scalar;

/// What a value is made of.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// `f64` or `f32`.
    Float(Scalar),
    /// A primitive integer, by name (`usize`, `i32`, ...).
    Int(String),
    /// `bool`.
    Bool,
    /// `str`, whose `len()` is an integer.
    Str,
    /// `[T; N]`, with `N` when it is a literal.
    Array(Box<Type>, Option<u128>),
    /// `[T]`.
    Slice(Box<Type>),
    /// `Vec<T>`.
    Vec(Box<Type>),
    /// `(A, B, ..)`; `()` has no elements.
    Tuple(Vec<Type>),
    /// `&T` or `&mut T`.
    Ref {
        /// `&mut`.
        mutable: bool,
        /// `T`.
        elem: Box<Type>,
    },
    /// Anything else (a user struct, `Option<f64>`, a generic), as written: passed through,
    /// never looked into.
    Opaque(String),
}

/// The structural form of `ty`.
pub fn read(ty: &syn::Type) -> Type {
    use syn::Type as T;
    match ty {
        T::Paren(inner) => read(&inner.elem),
        T::Group(inner) => read(&inner.elem),
        T::Reference(reference) => Type::Ref {
            mutable: reference.mutability.is_some(),
            elem: Box::new(read(&reference.elem)),
        },
        T::Slice(slice) => Type::Slice(Box::new(read(&slice.elem))),
        T::Array(array) => Type::Array(Box::new(read(&array.elem)), literal(&array.len)),
        T::Tuple(tuple) => Type::Tuple(tuple.elems.iter().map(read).collect()),
        T::Path(_) => path(ty),
        other => opaque(other),
    }
}

/// `ty` as a user writes it (`&[[f64; 2]]`), for messages.
pub fn spelled(ty: &syn::Type) -> String {
    let mut text = quote::ToTokens::to_token_stream(ty).to_string();
    for (from, to) in [
        ("& ", "&"),
        (" ;", ";"),
        ("[ ", "["),
        (" ]", "]"),
        ("( ", "("),
        (" )", ")"),
        (" ,", ","),
        (" <", "<"),
        ("< ", "<"),
        (" >", ">"),
        (":: ", "::"),
        (" ::", "::"),
    ] {
        text = text.replace(from, to);
    }
    text
}

fn path(ty: &syn::Type) -> Type {
    if let Some(scalar) = crate::signature::float_type(ty) {
        return Type::Float(scalar);
    }
    let syn::Type::Path(path) = ty else {
        return opaque(ty);
    };
    let names = crate::signature::segments(&path.path);
    let last = path.path.segments.last();
    let args = last.map(|last| &last.arguments);
    match (names.as_slice(), args) {
        _ if path.qself.is_some() => opaque(ty),
        ([name], Some(syn::PathArguments::None)) if name == "bool" => Type::Bool,
        ([name], Some(syn::PathArguments::None)) if name == "str" => Type::Str,
        ([name], Some(syn::PathArguments::None)) if crate::signature::is_int_name(name) => {
            Type::Int(name.clone())
        }
        (names, Some(syn::PathArguments::AngleBracketed(args))) if is_vec(names) => {
            match args.args.iter().collect::<Vec<_>>().as_slice() {
                [syn::GenericArgument::Type(elem)] => Type::Vec(Box::new(read(elem))),
                _ => opaque(ty),
            }
        }
        _ => opaque(ty),
    }
}

/// `Vec`, `std::vec::Vec` or `alloc::vec::Vec`.
fn is_vec(names: &[String]) -> bool {
    match names {
        [vec] => vec == "Vec",
        [root, module, vec] => {
            (root == "std" || root == "alloc") && module == "vec" && vec == "Vec"
        }
        _ => false,
    }
}

fn opaque(ty: &syn::Type) -> Type {
    Type::Opaque(quote::ToTokens::to_token_stream(ty).to_string())
}

fn literal(len: &syn::Expr) -> Option<u128> {
    match len {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(n),
            ..
        }) => n.base10_parse().ok(),
        _ => None,
    }
}

impl Type {
    /// The value behind any references: what `x[i]`, `x.k` and `x.len()` read through.
    pub fn referent(&self) -> &Type {
        match self {
            Type::Ref { elem, .. } => elem.referent(),
            other => other,
        }
    }

    /// What `x[i]` yields, and what `for e in x` binds (as a value, `&e` or `*e` alike):
    /// the element of an array, a slice or a `Vec`.
    pub fn elem(&self) -> Option<&Type> {
        match self.referent() {
            Type::Array(elem, _) | Type::Slice(elem) | Type::Vec(elem) => Some(elem),
            _ => None,
        }
    }

    /// What `x.k` yields: element `k` of a tuple.
    pub fn field(&self, k: usize) -> Option<&Type> {
        match self.referent() {
            Type::Tuple(elems) => elems.get(k),
            _ => None,
        }
    }

    /// What `let (a, b) = x;` or `let [a, b] = x;` binds: the elements of a tuple, or of an
    /// array of literal length.
    pub fn parts(&self) -> Option<Vec<&Type>> {
        match self.referent() {
            Type::Tuple(elems) => Some(elems.iter().collect()),
            Type::Array(elem, Some(n)) => Some((0..*n).map(|_| &**elem).collect()),
            _ => None,
        }
    }

    /// Whether it is a sequence of floats (`[f64]`, `[f64; N]`, `Vec<f64>`), of which the
    /// macro differentiates parameters.
    pub fn is_float_sequence(&self) -> bool {
        self.elem()
            .is_some_and(|elem| matches!(elem, Type::Float(_)))
    }

    /// Whether `x.len()` is an integer: arrays, slices, `Vec`s and `str`.
    pub fn has_len(&self) -> bool {
        matches!(
            self.referent(),
            Type::Array(..) | Type::Slice(_) | Type::Vec(_) | Type::Str
        )
    }

    /// The float type of the first float it holds, if it holds any a reader can see.
    pub fn float(&self) -> Option<Scalar> {
        match self {
            Type::Float(scalar) => Some(*scalar),
            Type::Int(_) | Type::Bool | Type::Str | Type::Opaque(_) => None,
            Type::Array(elem, _) | Type::Slice(elem) | Type::Vec(elem) => elem.float(),
            Type::Ref { elem, .. } => elem.float(),
            Type::Tuple(elems) => elems.iter().find_map(Type::float),
        }
    }

    /// Whether a copy of it is a bitwise copy (`Copy`), as far as its structure tells:
    /// references and primitives, and arrays and tuples of them. `Vec`s are not, and opaque
    /// types may not be.
    pub fn is_copy(&self) -> bool {
        match self {
            Type::Float(_) | Type::Int(_) | Type::Bool => true,
            Type::Ref { mutable, .. } => !mutable,
            Type::Array(elem, _) => elem.is_copy(),
            Type::Tuple(elems) => elems.iter().all(Type::is_copy),
            Type::Str | Type::Slice(_) | Type::Vec(_) | Type::Opaque(_) => false,
        }
    }
}
