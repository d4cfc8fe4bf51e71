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

/// How differentiation treats a parameter of a type: the answer of [`Type::kind`], of which
/// whether it is differentiated, its shadow, its partial and its tangent are queries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind<'a> {
    /// `x: f64`, or `x: &f64` (read through the reference, `*x` and `x` alike): its partial is
    /// an entry of the returned tuple, its tangent an `f64`.
    Scalar,
    /// `w: &[f64]` or `w: &[f64; N]` (with `N`): its shadow `d_w: &mut [f64]` follows it.
    Slice(Option<&'a Len>),
    /// `w: &Vec<f64>`: a slice to the body; its shadow is `d_w: &mut [f64]`.
    Vec,
    /// `w: [f64; N]` by value: no shadow; its partials come back as one `[f64; N]`.
    Array(&'a Len),
    /// `w: &[[f64; N]]` or `w: &[[f64; N]; M]` (with `M`): rows of `N` floats, which the
    /// body reads as one row-major slice of floats (`w[i][j]` its entry `i * N + j`); its
    /// shadow `d_w: &mut [[f64; N]]` (of the same shape) follows it, and its tangent has its
    /// type. `w: [[f64; N]; M]` by value (`by_value`) is read the same way, and has no shadow:
    /// its partials come back as one `[[f64; N]; M]`, as an array's by value do.
    Rows {
        /// `N`, the length of a row.
        row: &'a Len,
        /// `M`, the number of rows, where the type fixes it.
        rows: Option<&'a Len>,
        /// Taken by value, `[[f64; N]; M]`.
        by_value: bool,
    },
    /// `w: &mut [f64]`: read and written; its shadow `d_w: &mut [f64]` receives the gradient
    /// with respect to the values `w` held on entry.
    SliceMut,
    /// `y: &mut f64`: read and written, one entry of a `&mut [f64]` to the generated code
    /// (`core::slice::from_mut`); its shadow `d_y: &mut f64` receives the gradient with respect
    /// to the value `y` held on entry, and holds the adjoint of its final value on entry to
    /// `f_pullback`.
    ScalarMut,
    /// An integer, passed through.
    Int,
    /// `flag: bool`, passed through.
    Bool,
    /// `p: &S` for a parameter struct `S` (`#[derive(Differentiable)]`): its shadow is
    /// `d_p: &mut S`.
    Struct(&'a Tokens),
    /// Data of any other type (`pts: &[[f64; 2]]`, `labels: &[usize]`, `o: Option<f64>`),
    /// passed through and never differentiated; the body reads it through its structure.
    Data,
}

impl<'a> Kind<'a> {
    /// Whether the parameter can be differentiated (an `f64`, a slice, an array or a struct).
    pub fn is_differentiable(self) -> bool {
        matches!(
            self,
            Kind::Scalar
                | Kind::Slice(_)
                | Kind::Vec
                | Kind::Array(_)
                | Kind::Rows { .. }
                | Kind::SliceMut
                | Kind::ScalarMut
                | Kind::Struct(_)
        )
    }

    /// The length of a row where it holds rows of floats (`&[[f64; N]]`): how the body indexes
    /// its flat storage.
    pub fn row(self) -> Option<&'a Len> {
        match self {
            Kind::Rows { row, .. } => Some(row),
            _ => None,
        }
    }

    /// Whether it holds several floats: the generated code names a shadow `d_w` for it (a
    /// parameter after `w`, or a local for an array by value).
    pub fn is_sequence(self) -> bool {
        matches!(
            self,
            Kind::Slice(_)
                | Kind::Vec
                | Kind::Array(_)
                | Kind::Rows { .. }
                | Kind::SliceMut
                | Kind::ScalarMut
                | Kind::Struct(_)
        )
    }

    /// Whether a differentiated parameter of this kind has a shadow `d_w` after it.
    pub fn has_shadow(self) -> bool {
        matches!(
            self,
            Kind::Slice(_)
                | Kind::Vec
                | Kind::Rows {
                    by_value: false,
                    ..
                }
                | Kind::SliceMut
                | Kind::ScalarMut
                | Kind::Struct(_)
        )
    }

    /// The type of its shadow `d_w`, the parameter after it that its gradient is added into:
    /// `&mut [f64]` after a float sequence read through a reference (`&mut [f64; N]` after
    /// `&[f64; N]` where `sized`: `f_grad` and `f_hvp` keep the length in the type; the
    /// pullbacks take slices, so a caller may pass a part of its own), `&mut S` after a
    /// parameter struct. The others have none.
    pub fn shadow(self, scalar: Scalar, sized: bool) -> Option<Type> {
        let float = Box::new(Type::Float(scalar));
        let elem = match self {
            Kind::Slice(Some(len)) if sized => Type::Array(float, len.clone()),
            Kind::Slice(_) | Kind::Vec | Kind::SliceMut => Type::Slice(float),
            Kind::Rows {
                row,
                rows,
                by_value: false,
            } => {
                let row = Box::new(Type::Array(float, row.clone()));
                match rows {
                    Some(rows) if sized => Type::Array(row, rows.clone()),
                    _ => Type::Slice(row),
                }
            }
            Kind::Struct(path) => Type::Named(path.clone()),
            Kind::ScalarMut => Type::Float(scalar),
            _ => return None,
        };
        Some(Type::Ref {
            mutable: true,
            elem: Box::new(elem),
        })
    }

    /// Whether the length of its shadow is checked when the function runs: a slice's, which
    /// its type does not fix (`sized` as for [`Kind::shadow`]).
    pub fn shadow_has_len(self, sized: bool) -> bool {
        self.shadow(Scalar::F64, sized)
            .is_some_and(|shadow| matches!(shadow.referent(), Type::Slice(_)))
    }

    /// The type of its partial in the tuple `f_grad` and `f_pullback` return: an `f64`'s is an
    /// `f64`, an array's by value an array of the same type. The others have none.
    pub fn partial(self, scalar: Scalar) -> Option<Type> {
        let float = Type::Float(scalar);
        match self {
            Kind::Scalar => Some(float),
            Kind::Array(len) => Some(Type::Array(Box::new(float), len.clone())),
            Kind::Rows {
                row,
                rows: Some(rows),
                by_value: true,
            } => {
                let row = Type::Array(Box::new(float), row.clone());
                Some(Type::Array(Box::new(row), rows.clone()))
            }
            _ => None,
        }
    }

    /// Whether its partial is returned in the tuple rather than added into a shadow.
    pub fn has_partial(self) -> bool {
        self.partial(Scalar::F64).is_some()
    }

    /// Whether the function writes it (`&mut [f64]`): its callers lend it, the reverse sweep
    /// reads its shadow, and its tangent is written as it is.
    pub fn is_written(self) -> bool {
        matches!(self, Kind::SliceMut | Kind::ScalarMut)
    }

    /// Whether it is one `f64` the generated code reads as a one-entry `&mut [f64]`
    /// (`core::slice::from_mut`), as it does its shadow and tangent.
    pub fn is_one_entry(self) -> bool {
        matches!(self, Kind::ScalarMut)
    }

    /// Whether `f_jacobian` differentiates it: an `f64` fills entries of the rows, a read-only
    /// slice a block `d_w` (`m × w.len()`, row-major) after it.
    pub fn in_jacobian(self) -> bool {
        matches!(
            self,
            Kind::Scalar
                | Kind::Slice(_)
                | Kind::Vec
                | Kind::Rows {
                    by_value: false,
                    ..
                }
        )
    }

    /// How the lowered body holds it: the lowering makes its variable of this layout with its
    /// lengths lowered ([`Layout::map`]; rows, [`Kind::row`], held flat), so a new kind answers
    /// here and the lowering does not change.
    pub fn layout(self) -> Layout<&'a Len, ()> {
        match self {
            Kind::Scalar => Layout::F64,
            Kind::Int => Layout::Int,
            Kind::Bool => Layout::Bool,
            Kind::Slice(len) => Layout::slice(len, false),
            // A `&Vec<f64>` is read as a slice.
            Kind::Vec => Layout::slice(None, false),
            // Read through a reference in the generated code (`emit`'s `array_params`).
            Kind::Array(len) => Layout::given(len),
            // A `&mut f64` is read as a one-entry `&mut [f64]` (`emit`'s `array_params`).
            Kind::SliceMut | Kind::ScalarMut => Layout::slice(None, true),
            // Read as one row-major slice of floats (`emit` binds `w.as_flattened()`), its
            // length counted in rows here; by value, given as an array by value is.
            Kind::Rows {
                rows: Some(rows),
                by_value: true,
                ..
            } => Layout::given(rows),
            Kind::Rows { rows, .. } => Layout::slice(rows, false),
            // Read only by calls, which pass it and its shadow on as they pass a slice's.
            Kind::Struct(_) => Layout::slice(None, false),
            Kind::Data => Layout::Data(()),
        }
    }
}

/// How a value is held, one model for a parameter's kind and a variable of the IR, generic over
/// how its lengths are written (`L`) and what describes its data (`D`): [`Kind::layout`] says
/// how the lowered body holds a parameter as a `Layout<&Len, ()>` (lengths as the type writes
/// them), and the IR's type of a variable, `ir::Ty`, is a `Layout<ir::IntExpr, Type>` (lengths
/// as integers of the body, data with its structure), into which the lowering maps a kind's
/// layout ([`Layout::map`]) without a match on the kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Layout<L, D> {
    /// One float of the function's float type (`f64` or `f32`), differentiable.
    F64,
    /// An integer: passed through, never differentiated.
    Int,
    /// A `bool`: passed through, never differentiated.
    Bool,
    /// Floats in a sequence, differentiable entry by entry.
    Floats {
        /// How many, where the type or the allocation fixes it: a parameter's `N` of
        /// `&[f64; N]`, a local array's `N` or a `Vec`'s `n`. For a parameter of rows
        /// ([`Kind::row`]) a kind's layout counts the rows, which the IR holds flat (`len` rows
        /// times the row's length, in row-major order).
        len: Option<L>,
        /// Who holds them: the caller, or the body as an array or a `Vec`.
        held: Held,
    },
    /// Data that is never differentiated (`pts: &[[f64; 2]]`), read through its structure
    /// (`ir::Place`).
    Data(D),
}

/// Who holds a [`Layout::Floats`]: the one fact about a sequence of floats that differs
/// between a parameter and a local, which the passes ask instead of telling the two apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// The caller lends them, and the generated code holds a reference: a parameter by
    /// reference, or a field of a parameter struct. The body writes them where `mutable`
    /// (`&mut [f64]`, `&mut f64`).
    Lent {
        /// Whether the body writes them.
        mutable: bool,
    },
    /// The caller gives them by value (`w: [f64; N]`): read as a lent `&[f64; N]` is (the
    /// generated code binds `let w = &w;`, `emit`'s `array_params`), but passed on by value,
    /// and its gradient is a partial in the returned tuple, not a shadow the caller lends.
    Given,
    /// The body's own local array, `[c; N]`: its length is a constant.
    Array,
    /// The body's own `Vec` (`vec![c; n]`): its length may be known at run time only, and its
    /// tangent and adjoint are `Vec`s of the same length.
    Vec,
}

impl<L, D> Layout<L, D> {
    /// Floats the caller lends: `len` where the type fixes it, `mutable` where the body
    /// writes them.
    pub fn slice(len: Option<L>, mutable: bool) -> Self {
        Layout::Floats {
            len,
            held: Held::Lent { mutable },
        }
    }

    /// Floats the caller gives by value, `[f64; N]` of length `len`.
    pub fn given(len: L) -> Self {
        Layout::Floats {
            len: Some(len),
            held: Held::Given,
        }
    }

    /// Floats the body owns: a local array `[c; N]` of `len` entries, or a `Vec`
    /// (`vec![c; n]`) where `vec`.
    pub fn local(len: L, vec: bool) -> Self {
        Layout::Floats {
            len: Some(len),
            held: if vec { Held::Vec } else { Held::Array },
        }
    }

    /// The same layout with its lengths and its data described otherwise: a kind's layout
    /// with its lengths lowered into the body's integers, as the IR's type.
    pub fn map<M, E>(self, len: impl FnOnce(L) -> M, data: impl FnOnce(D) -> E) -> Layout<M, E> {
        match self {
            Layout::F64 => Layout::F64,
            Layout::Int => Layout::Int,
            Layout::Bool => Layout::Bool,
            Layout::Floats { len: n, held } => Layout::Floats {
                len: n.map(len),
                held,
            },
            Layout::Data(d) => Layout::Data(data(d)),
        }
    }

    /// Who holds its floats, if it is a sequence of floats.
    pub fn held(&self) -> Option<Held> {
        match self {
            Layout::Floats { held, .. } => Some(*held),
            _ => None,
        }
    }

    /// Whether it holds floats in a sequence, lent or owned.
    pub fn is_floats(&self) -> bool {
        self.held().is_some()
    }

    /// Whether its floats are the caller's: a parameter (or a struct's field), which the
    /// generated code holds as a reference, given by value or lent.
    pub fn is_lent(&self) -> bool {
        matches!(self.held(), Some(Held::Lent { .. } | Held::Given))
    }

    /// Whether its floats are the caller's `[f64; N]` by value.
    pub fn is_given(&self) -> bool {
        self.held() == Some(Held::Given)
    }

    /// Whether its floats are lent and written (`&mut [f64]`, `&mut f64`): the caller sees
    /// what the body leaves in them.
    pub fn is_lent_mut(&self) -> bool {
        self.held() == Some(Held::Lent { mutable: true })
    }

    /// Whether its floats are the caller's and only read (`&[f64]`, `&[f64; N]`, `&Vec<f64>`,
    /// `[f64; N]`, a struct's field).
    pub fn is_read_only(&self) -> bool {
        matches!(
            self.held(),
            Some(Held::Lent { mutable: false } | Held::Given)
        )
    }

    /// Whether its floats are the body's own: a local array or `Vec`.
    pub fn is_local(&self) -> bool {
        matches!(self.held(), Some(Held::Array | Held::Vec))
    }

    /// Whether it is a local `Vec`, whose length may be known at run time only.
    pub fn is_vec(&self) -> bool {
        self.held() == Some(Held::Vec)
    }

    /// Whether the body may store into its floats: its own, or lent and written.
    pub fn is_writable(&self) -> bool {
        self.is_local() || self.is_lent_mut()
    }

    /// The number of its floats where the type or the allocation fixes it.
    pub fn known_len(&self) -> Option<&L> {
        match self {
            Layout::Floats { len, .. } => len.as_ref(),
            _ => None,
        }
    }

    /// The length its type fixes: a local array's `N` or a `&[f64; N]` parameter's, not a
    /// `Vec`'s.
    pub fn fixed_len(&self) -> Option<&L> {
        self.known_len().filter(|_| !self.is_vec())
    }

    /// A local array's length (not a `Vec`'s): a constant, in scope anywhere in the function.
    pub fn array_len(&self) -> Option<&L> {
        self.known_len()
            .filter(|_| self.held() == Some(Held::Array))
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
