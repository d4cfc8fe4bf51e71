//! How a value is held ([`Layout`], [`Held`]): one model for a parameter's kind and a
//! variable of the IR.

/// How a value is held, one model for a parameter's kind and a variable of the IR, generic over
/// how its lengths are written (`L`) and what describes its data (`D`): [`Kind::layout`] says
/// how the lowered body holds a parameter as a `Layout<&Len, ()>` (lengths as the type writes
/// them), and the IR's type of a variable, `ir::Ty`, is a `Layout<ir::IntExpr, Type>` (lengths
/// as integers of the body, data with its structure), into which the lowering maps a kind's
/// layout ([`Layout::map`]) without a match on the kind.
///
/// [`Kind::layout`]: super::Kind::layout
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
        ///
        /// [`Kind::row`]: super::Kind::row
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
