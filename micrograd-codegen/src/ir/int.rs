//! Integer expressions and conditions: printed as written, never differentiated.

use super::{Extern, Operand, Place, Stmt, VarId};

/// Integer expressions: printed as written, never differentiated.
#[derive(Clone, Debug, PartialEq)]
pub enum IntExpr {
    /// A literal with its suffix (`3`, `3usize`).
    Lit {
        /// The value.
        value: u128,
        /// `usize`, `i32`, ... or empty.
        suffix: String,
    },
    /// An integer variable.
    Var(VarId),
    /// A named constant.
    Extern(Extern),
    /// `w.len()` of a slice or array.
    Len(VarId),
    /// Entry `j` of row `i` (`Entry(i, j)`) of rows of their own lengths (`&[Vec<f64>]`, read
    /// in place by `micrograd_runtime::ragged`): the index of a load, a store or an adjoint's
    /// entry, printed `w[i][j]` (`Emitter::subscript`), and the ends of a row's range, printed
    /// `w[i][a..b]` (`Emitter::sub_slice`); `(i, j)` anywhere else. Adding an integer to it adds to
    /// its column.
    Entry(Box<IntExpr>, Box<IntExpr>),
    /// `w[i].len()`: the length of row `i` of rows of their own lengths.
    RowLen(VarId, Box<IntExpr>),
    /// An integer read from data (`labels[i]`, `rows[i].len()`).
    Data(Box<Place>),
    /// `a op b`.
    Binary(IntOp, Box<IntExpr>, Box<IntExpr>),
    /// `a op b` of a bitwise operator or shift: integers only.
    Bits(BitOp, Box<IntExpr>, Box<IntExpr>),
    /// `a.name()` or `a.name(b)` of an integer method (`n.pow(2)`, `i.saturating_sub(1)`).
    Method(IntMethod, Box<IntExpr>, Option<Box<IntExpr>>),
    /// `-a`.
    Neg(Box<IntExpr>),
    /// `a as T`.
    Cast(Box<IntExpr>, String),
    /// `x as T` of a float: an index or a count, through which no derivative flows (as
    /// through `floor`).
    FromFloat(Box<Operand>, String),
    /// `g(a, ..)` of integers where an integer must be (`i < half(N)`, `0..half(N)`), a call of
    /// a function the macro cannot see (a `const fn`), printed as written: no derivative
    /// flows through integers.
    Call(Box<Extern>, Vec<IntExpr>),
    /// `min(a, b)`: the length of a `zip`, the end of a last `chunk`.
    Min(Box<IntExpr>, Box<IntExpr>),
    /// `index`, which panics unless it is below `len`: an index into a view (`x[i]` of
    /// `let x = &w[a..b];`), checked against the view's own length as `f` checks it, since
    /// the generated code reads the entry from the view's base.
    Checked(Box<IntExpr>, Box<IntExpr>),
    /// `[a, b, c][i]`: an entry, chosen at run time, of an array of integers (`let idx =
    /// [4, 7, 3];`), which is printed where it is read: integers are never differentiated.
    Pick(Vec<IntExpr>, Box<IntExpr>),
    /// The length of the sub-slice `lo..hi` (a missing bound is open) of a sequence of `len`
    /// entries, which panics where `&w[lo..hi]` does: the check of a view's range, taken where
    /// `f` takes it, since the generated code reads the entries from the view's base.
    ViewLen {
        /// The first entry, in the sliced sequence's indices.
        lo: Option<Box<IntExpr>>,
        /// One past the last entry.
        hi: Option<Box<IntExpr>>,
        /// The sliced sequence's length.
        len: Box<IntExpr>,
    },
}

/// Integer binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
}

/// Bitwise operators and shifts of integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitOp {
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
}

impl BitOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BitOp::And => "&",
            BitOp::Or => "|",
            BitOp::Xor => "^",
            BitOp::Shl => "<<",
            BitOp::Shr => ">>",
        }
    }
}

/// Methods of integers, printed as written (`min` is [`IntExpr::Min`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntMethod {
    /// `a.pow(b)`
    Pow,
    /// `a.max(b)`
    Max,
    /// `a.abs()`
    Abs,
    /// `a.unsigned_abs()`
    UnsignedAbs,
    /// `a.rem_euclid(b)`
    RemEuclid,
    /// `a.saturating_sub(b)`
    SaturatingSub,
}

impl IntMethod {
    /// Every method, with its name.
    const ALL: [(IntMethod, &'static str); 6] = [
        (IntMethod::Pow, "pow"),
        (IntMethod::Max, "max"),
        (IntMethod::Abs, "abs"),
        (IntMethod::UnsignedAbs, "unsigned_abs"),
        (IntMethod::RemEuclid, "rem_euclid"),
        (IntMethod::SaturatingSub, "saturating_sub"),
    ];

    /// The method called `name`, if any.
    pub fn from_name(name: &str) -> Option<IntMethod> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(m, _)| *m)
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(m, _)| *m == self)
            .map_or("", |(_, n)| n)
    }
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

/// A boolean condition. Conditions are evaluated in the forward sweep only.
#[derive(Clone, Debug)]
pub enum Cond {
    /// A comparison of two scalars.
    F64(CmpOp, Operand, Operand),
    /// A comparison of two integers.
    Int(CmpOp, IntExpr, IntExpr),
    /// `a.is_multiple_of(b)` of integers.
    Multiple(IntExpr, IntExpr),
    /// A boolean variable.
    Var(VarId),
    /// A `bool` read from data (`mask[i]`).
    Data(Box<Place>),
    /// `true` / `false`.
    Lit(bool),
    /// `!c`.
    Not(Box<Cond>),
    /// `a && b`; `b` is evaluated only when `a` holds, after its own statements.
    And(Box<Cond>, Box<Scoped>),
    /// `a || b`; `b` is evaluated only when `a` fails, after its own statements.
    Or(Box<Cond>, Box<Scoped>),
}

/// The right side of `&&` / `||` with the statements that compute its operands.
#[derive(Clone, Debug)]
pub struct Scoped {
    /// Forward-only statements (loads, arithmetic) the condition needs.
    pub stmts: Vec<Stmt>,
    /// The condition.
    pub cond: Cond,
}
