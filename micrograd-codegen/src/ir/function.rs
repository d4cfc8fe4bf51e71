//! A whole lowered function: its parameters, the fields of its parameter structs, its body
//! and results, and its table of variables.

use super::{Block, Operand, Scalar, VarId, VarInfo};

/// A parameter of the differentiated function.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its variable.
    pub var: VarId,
    /// Whether `wrt(..)` selects it (always false for integers and booleans).
    pub wrt: bool,
}

/// How a function returns its [`Function::results`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `-> f64`: exactly one result.
    Scalar,
    /// `-> [f64; M]`.
    Array,
    /// `-> (f64, .., f64)`.
    Tuple,
}

/// What a field of a parameter struct holds, as the body reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// An `f64`.
    Scalar,
    /// A slice: `[f64; N]` or `Vec<f64>`.
    Slice,
    /// An integer, passed through.
    Int,
    /// A `bool`, passed through.
    Bool,
    /// Handed on whole to a `#[differentiable]` call (`g(&p.layer)`): a nested struct or a
    /// slice, whose shadow the callee adds into.
    Whole,
    /// A sequence of structs (`Vec<Layer>`, `[Layer; N]`) whose elements are handed to
    /// `#[differentiable]` methods (`self.layers[i].forward(x)`), each with its part of the
    /// shadow; otherwise only its length is read.
    Elements,
}

impl FieldKind {
    /// Whether it is handed to calls whole, with its shadow (a nested struct, or a sequence of
    /// them), rather than read as floats.
    pub fn is_whole(self) -> bool {
        matches!(self, FieldKind::Whole | FieldKind::Elements)
    }

    /// How error messages name it.
    pub fn describe(self) -> &'static str {
        match self {
            FieldKind::Scalar => "an `f64`",
            FieldKind::Slice => "a slice",
            FieldKind::Int => "an integer",
            FieldKind::Bool => "a `bool`",
            FieldKind::Whole => "a value passed whole to a call",
            FieldKind::Elements => "a sequence of structs whose methods are called",
        }
    }
}

/// A field of a parameter struct `p: &S` that the body reads (`p.w`, `p.layer.b`), lowered as
/// a parameter of its own; the generated code binds it from the struct and adds its adjoint
/// into the matching field of the shadow.
#[derive(Clone, Debug)]
pub struct Field {
    /// The variable that holds it (also in [`Function::params`]).
    pub var: VarId,
    /// The struct parameter it belongs to.
    pub root: VarId,
    /// The field names from the root: `["layer", "b"]`.
    pub path: Vec<String>,
    /// What it holds.
    pub kind: FieldKind,
    /// A slice whose shadow cannot borrow the struct's shadow for the whole sweep, because
    /// a call is also handed an enclosing struct: its gradient is gathered in a zeroed buffer
    /// and added to the shadow at the end.
    pub buffered: bool,
}

/// A whole lowered function.
#[derive(Clone, Debug)]
pub struct Function {
    /// The function's name.
    pub name: String,
    /// The float type it is written in: its parameters, locals, constants and result.
    pub scalar: Scalar,
    /// Its parameters in order, then the fields of its parameter structs ([`Function::fields`]).
    pub params: Vec<Param>,
    /// The fields of parameter structs the body reads.
    pub fields: Vec<Field>,
    /// The parameter structs (`p: &S`): variables of lent floats (`Ty::slice`) that only calls read.
    pub structs: Vec<VarId>,
    /// The body.
    pub body: Block,
    /// The returned values, one per output in order: a function returning `f64` has one, a
    /// function returning `[f64; M]` or a tuple of `M` `f64`s has `M`. Each output gets its own
    /// seed in the reverse sweep (the differentiation pass's `Expr::Seed(k)`), so passes that read the
    /// result (activity, the sweep, forward mode) treat every output alike.
    pub results: Vec<Operand>,
    /// How `results` are returned: one `f64`, an array or a tuple.
    pub shape: Shape,
    /// The variable table.
    pub vars: Vec<VarInfo>,
    /// How many `if`s the body holds (ids `0..branches`).
    pub branches: usize,
    /// How many loops the body holds (ids `0..loops`).
    pub loops: usize,
}

impl Function {
    /// The function with its output `k` alone, as one `f64`: what a Jacobian row, or any
    /// per-output pass, differentiates.
    pub fn output(&self, k: usize) -> Function {
        Function {
            results: vec![self.results[k].clone()],
            shape: Shape::Scalar,
            ..self.clone()
        }
    }

    /// The entry of `var` in the variable table.
    pub fn var(&self, var: VarId) -> &VarInfo {
        &self.vars[var.0 as usize]
    }
}
