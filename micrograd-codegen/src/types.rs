//! The structural type of a value: what a type as written is made of, and what indexing it,
//! `.k`, iterating over it or destructuring it yields.
//!
//! Before: `&[([f64; 2], usize)]` After: `Ref(Slice(Tuple([Array(Float(f64), 2), Int("usize")])))`
//!
//! It types the reads of passive data (parameters that are never differentiated,
//! `lower/data.rs`), and it is what a parameter is: how differentiation treats a parameter
//! ([`Type::kind`]: whether it is differentiated, its shadow, its partial and its tangent) is a
//! query on its type, so a new parameter kind is a case of [`read`], of [`Type::kind`] and of
//! the printer of its shadow. Lengths and names the macro does not interpret are kept as the
//! tokens the user wrote ([`Tokens`]), printed back unchanged. Nothing here depends on `syn`
//! but [`read`].

mod kind;
mod layout;

pub use kind::Kind;
pub use layout::{Held, Layout};

use crate::scalar::Scalar;
use proc_macro2::TokenStream;

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
    /// `[T; N]`.
    Array(Box<Type>, Len),
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
    /// A type named by a path the macro does not look into, of which behind `&` a parameter
    /// struct (`p: &S` with `#[derive(Differentiable)]`) is one: `S`, `Option<f64>`, `Foo<T>`;
    /// no primitive and no `Vec`.
    Named(Tokens),
    /// Anything else (`char`, `<T as Tr>::X`, `fn(f64) -> f64`), as written: passed through,
    /// never looked into.
    Opaque(Tokens),
}

/// Tokens as the user wrote them, with their spans: printed back unchanged, compared by text.
#[derive(Clone, Debug)]
pub struct Tokens(pub TokenStream);

impl PartialEq for Tokens {
    fn eq(&self, other: &Tokens) -> bool {
        self.0.to_string() == other.0.to_string()
    }
}

impl quote::ToTokens for Tokens {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.0.to_tokens(tokens);
    }
}

/// The length of an array type: `3` or `N`, as written, and its value when it is a literal.
#[derive(Clone, Debug, PartialEq)]
pub struct Len {
    /// The value of a literal length.
    pub value: Option<u128>,
    /// The length as written.
    pub tokens: Tokens,
}

impl quote::ToTokens for Len {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.tokens.to_tokens(tokens);
    }
}

/// The structural form of `ty`, in a function whose scalar is `scalar` (which names its
/// generic float `T`, if it has one).
pub fn read(ty: &syn::Type, scalar: Scalar) -> Type {
    use syn::Type as T;
    let read = |ty: &syn::Type| read(ty, scalar);
    match ty {
        T::Paren(inner) => read(&inner.elem),
        T::Group(inner) => read(&inner.elem),
        T::Reference(reference) => Type::Ref {
            mutable: reference.mutability.is_some(),
            elem: Box::new(read(&reference.elem)),
        },
        T::Slice(slice) => Type::Slice(Box::new(read(&slice.elem))),
        T::Array(array) => Type::Array(
            Box::new(read(&array.elem)),
            Len {
                value: literal(&array.len),
                tokens: Tokens(quote::ToTokens::to_token_stream(&array.len)),
            },
        ),
        T::Tuple(tuple) => Type::Tuple(tuple.elems.iter().map(read).collect()),
        T::Path(_) => path(ty, scalar),
        other => opaque(other),
    }
}

/// `ty` as a user writes it (`&[[f64; 2]]`), for messages.
pub fn spelled(ty: &impl quote::ToTokens) -> String {
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

fn path(ty: &syn::Type, scalar: Scalar) -> Type {
    if let Some(scalar) = crate::primitives::float_type(ty, scalar) {
        return Type::Float(scalar);
    }
    let syn::Type::Path(path) = ty else {
        return opaque(ty);
    };
    let names = crate::primitives::segments(&path.path);
    let last = path.path.segments.last();
    let args = last.map(|last| &last.arguments);
    match (names.as_slice(), args) {
        _ if path.qself.is_some() => opaque(ty),
        ([name], Some(syn::PathArguments::None)) if name == "bool" => Type::Bool,
        ([name], Some(syn::PathArguments::None)) if name == "str" => Type::Str,
        ([name], Some(syn::PathArguments::None)) if crate::primitives::is_int_name(name) => {
            Type::Int(name.clone())
        }
        (names, Some(syn::PathArguments::AngleBracketed(args))) if is_vec(names) => {
            match args.args.iter().collect::<Vec<_>>().as_slice() {
                [syn::GenericArgument::Type(elem)] => Type::Vec(Box::new(read(elem, scalar))),
                _ => opaque(ty),
            }
        }
        (names, _) if !names.last().is_some_and(|name| is_primitive(name)) => {
            Type::Named(Tokens(quote::ToTokens::to_token_stream(ty)))
        }
        _ => opaque(ty),
    }
}

/// Whether a path ending in `name` names a primitive type or `Vec` rather than a user's type.
fn is_primitive(name: &str) -> bool {
    ["f64", "f32", "bool", "str", "char", "Vec"].contains(&name)
        || crate::primitives::is_int_name(name)
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
    Type::Opaque(Tokens(quote::ToTokens::to_token_stream(ty)))
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
            Type::Array(elem, Len { value: Some(n), .. }) => {
                Some((0..*n).map(|_| &**elem).collect())
            }
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
            Type::Int(_) | Type::Bool | Type::Str | Type::Named(_) | Type::Opaque(_) => None,
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
            Type::Str | Type::Slice(_) | Type::Vec(_) | Type::Named(_) | Type::Opaque(_) => false,
        }
    }
}

/// Whether `ty` is a float.
fn is_float(ty: &Type) -> bool {
    matches!(ty, Type::Float(_))
}

/// The length of `ty` if it is a row of floats, `[f64; N]`.
fn float_row(ty: &Type) -> Option<&Len> {
    match ty {
        Type::Array(elem, len) if is_float(elem) => Some(len),
        _ => None,
    }
}

impl Type {
    /// How differentiation treats a parameter of this type (one the signature accepts: it
    /// refuses `&mut` of anything but a float slice, and `Vec<f64>` by value, first).
    pub fn kind(&self) -> Kind<'_> {
        match self {
            Type::Float(_) => Kind::Scalar,
            Type::Int(_) => Kind::Int,
            Type::Bool => Kind::Bool,
            Type::Array(elem, len) if is_float(elem) => Kind::Array(len),
            Type::Array(elem, rows) => match float_row(elem) {
                Some(row) => Kind::Rows {
                    row,
                    rows: Some(rows),
                    by_value: true,
                },
                None => Kind::Data,
            },
            Type::Ref {
                mutable: true,
                elem,
            } => match &**elem {
                Type::Slice(elem) if is_float(elem) => Kind::SliceMut,
                Type::Float(_) => Kind::ScalarMut,
                _ => Kind::Data,
            },
            Type::Ref {
                mutable: false,
                elem,
            } => match &**elem {
                Type::Float(_) => Kind::Scalar,
                Type::Slice(elem) if is_float(elem) => Kind::Slice(None),
                Type::Array(elem, len) if is_float(elem) => Kind::Slice(Some(len)),
                Type::Vec(elem) if is_float(elem) => Kind::Vec,
                // `&Vec<Vec<f64>>` is read as `&[Vec<f64>]` is, as `&Vec<f64>` is as `&[f64]`.
                Type::Slice(elem) | Type::Vec(elem) if matches!(&**elem, Type::Vec(row) if is_float(row)) => {
                    Kind::Ragged
                }
                Type::Slice(elem) => match float_row(elem) {
                    Some(row) => Kind::Rows {
                        row,
                        rows: None,
                        by_value: false,
                    },
                    None => Kind::Data,
                },
                Type::Array(elem, rows) => match float_row(elem) {
                    Some(row) => Kind::Rows {
                        row,
                        rows: Some(rows),
                        by_value: false,
                    },
                    None => Kind::Data,
                },
                Type::Named(path) => Kind::Struct(path),
                _ => Kind::Data,
            },
            _ => Kind::Data,
        }
    }
}
