//! The function's signature as the IR holds it: what every generated function's signature is
//! printed from (`header.rs`), with no `syn` in it. Its parameters' types are structural
//! ([`crate::types::Type`]), and how differentiation treats each (whether it is differentiated,
//! its shadow, its partial, its tangent) is a query on that type ([`ParamSpec::kind`]); what
//! the macro does not interpret (the visibility, the generics, a type as written) travels as
//! the tokens the user wrote.
//!
//! Before: `pub fn f<const N: usize>(x: f64, w: &[f64; N]) -> f64`
//! After: `Signature { ident: f, vis: pub, generics: <const N: usize>, params: [x: Float,
//! w: Ref(Array(Float, N))], output: Some(Scalar), .. }`

use super::Scalar;
use crate::types::{self, Kind};
use proc_macro2::{Ident, TokenStream};
use std::collections::HashSet;

/// A `#[differentiable]` function's signature.
#[derive(Clone, Debug)]
pub struct Signature {
    /// `f`, with the user's span: the generated functions are named after it.
    pub ident: Ident,
    /// `pub`, `pub(crate)` or nothing, as written.
    pub vis: TokenStream,
    /// `<const N: usize>`, `<T: Float>` or nothing, as written (the signature check refuses
    /// other generics).
    pub generics: TokenStream,
    /// The `where` clause of every generated function, ending in a comma (a stub adds a bound
    /// after it), or nothing: the user's, and `T: Record` for a float `T`
    /// (`signature::bounds`).
    pub bounds: TokenStream,
    /// The float type it is written in.
    pub scalar: Scalar,
    /// Its parameters, in order.
    pub params: Vec<ParamSpec>,
    /// What it returns, if it is an output the macro supports.
    pub output: Option<Output>,
    /// Every identifier in the function (unraw): the names generated bindings must not print as.
    pub user_names: HashSet<String>,
    /// The length of an [`Output::Counted`] array as written (`M`), printed wherever its
    /// values' type is; `None` for every other output.
    pub length: Option<types::Tokens>,
}

/// One parameter of the signature.
#[derive(Clone, Debug)]
pub struct ParamSpec {
    /// Its name, with the user's span.
    pub ident: Ident,
    /// What its type is made of: how differentiation treats it is [`ParamSpec::kind`].
    pub value: types::Type,
    /// The type as the user wrote it, printed where the macro passes it through (integers,
    /// data) and in messages.
    pub written: types::Tokens,
    /// Data although its type could be differentiated: rows of floats (`pts: &[[f64; 2]]`)
    /// that `wrt(..)` leaves out, which the function reads as data, with no shadow anywhere.
    pub passive: bool,
}

impl Signature {
    /// The one output of a function returning `()` that writes one `err: &mut f64` and nothing
    /// else through references: `f_grad` is the gradient of the value it leaves there.
    pub fn written_scalar(&self) -> Option<&Ident> {
        let mut written = self.params.iter().filter(|spec| spec.kind().is_written());
        match (self.output, written.next(), written.next()) {
            (Some(Output::Tuple(0)), Some(spec), None) if spec.kind().is_one_entry() => {
                Some(&spec.ident)
            }
            _ => None,
        }
    }
}

impl ParamSpec {
    /// How differentiation treats it: a query on its type.
    pub fn kind(&self) -> Kind<'_> {
        match self.passive {
            true => Kind::Data,
            false => self.value.kind(),
        }
    }
}

/// What a function returns: one float, or several (a vector output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// `-> f64`.
    Scalar,
    /// `-> [f64; M]`, with `M` a literal.
    Array(usize),
    /// `-> (f64, .., f64)`, with this many elements.
    Tuple(usize),
    /// `-> [f64; M]` with `M` not a literal (a `const` or a const generic), of the length
    /// [`Signature::length`] prints: its outputs are counted when it runs, by the function
    /// writing them into an output parameter (`returned/`), so it is never lowered, only its
    /// flavours' signatures printed.
    Counted,
}

impl Output {
    /// How many `f64`s it holds.
    pub fn count(self) -> usize {
        match self {
            Output::Scalar => 1,
            Output::Array(m) | Output::Tuple(m) => m,
            Output::Counted => {
                unreachable!(
                    "internal error: a length that is not a literal is printed, never counted"
                )
            }
        }
    }

    /// Whether it returns nothing, `()`: its outputs are all written through references.
    pub fn is_unit(self) -> bool {
        self == Output::Tuple(0)
    }

    /// Whether it is a vector output (an array or a tuple).
    pub fn is_vector(self) -> bool {
        self != Output::Scalar
    }
}
