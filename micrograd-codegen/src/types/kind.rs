//! How differentiation treats a parameter of a type ([`Kind`]): whether it is
//! differentiated, its shadow, its partial and its tangent, each a query on its kind.

use super::{Layout, Len, Tokens, Type};
use crate::scalar::Scalar;

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
    /// `w: &[Vec<f64>]`: rows of their own lengths, which the body reads in place (`w[i][j]`
    /// the entry `(i, j)`, `micrograd_runtime::ragged`); its shadow `d_w: &mut [Vec<f64>]` (of
    /// the same shape) follows it, and its tangent has its type.
    Ragged,
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
                | Kind::Ragged
                | Kind::SliceMut
                | Kind::ScalarMut
                | Kind::Struct(_)
        )
    }

    /// Whether it holds rows of floats, of one length or their own: data unless `wrt(..)`
    /// lists it.
    pub fn is_rows(self) -> bool {
        matches!(self, Kind::Rows { .. } | Kind::Ragged)
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
                | Kind::Ragged
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
                | Kind::Ragged
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
            Kind::Ragged => Type::Slice(Box::new(Type::Vec(float))),
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
                | Kind::Ragged
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
            // Read in place by row and column (`emit` binds `Ragged::new(w)`), its length
            // counted in rows.
            Kind::Ragged => Layout::slice(None, false),
            // Read only by calls, which pass it and its shadow on as they pass a slice's.
            Kind::Struct(_) => Layout::slice(None, false),
            Kind::Data => Layout::Data(()),
        }
    }
}
