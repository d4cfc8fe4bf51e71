//! The typed intermediate form of a `#[differentiable]` function.
//!
//! Lowering flattens every `f64` expression into one [`Op`] per [`Stmt::Assign`] and gives
//! every reassignment a fresh [`VarId`] (SSA within a block). Blocks meet at [`Stmt::If`]
//! joins and [`Stmt::Loop`] slots, the only places where a name holds more than one value.
//! Branches and loops carry ids ([`BranchId`], [`LoopId`]) that index the side tables later
//! passes keep about them. Nothing here depends on `syn`: the differentiation pass reads this
//! form only.

use proc_macro2::Span;

pub use crate::scalar;
mod call;
mod function;
mod ids;
mod int;
mod signature;
mod visit;
pub use crate::math::{Func, Func2, Func3};
pub use crate::scalar::{GenericFloat, Scalar};
pub use call::{Arg, Custom, Entry, Extern, Pair, Rule};
pub use function::{Field, FieldKind, Function, Param, Shape};
pub use ids::{BranchId, Id, LoopId, Table, VarId};
pub use int::{BitOp, CmpOp, Cond, IntExpr, IntMethod, IntOp, Scoped};
pub use signature::{Output, ParamSpec, Signature};
pub use visit::{Access, MutVisitor, Nest, Reads, Visitor, forward_only, walk};

/// What a variable holds: the type model's [`Layout`](crate::types::Layout) with its lengths
/// as integers of the body and data with its structure. A float (`Ty::F64`), an integer
/// (`Ty::Int`), a `bool` (`Ty::Bool`), floats in a sequence (`Ty::Floats`, lent by the caller
/// or the body's own array or `Vec`: [`Held`]) or data (`Ty::Data`); a parameter's is its
/// kind's layout (`types::Kind::layout`) with its lengths lowered, and the passes ask its facts
/// ([`Ty::is_lent`], [`Ty::is_local`], [`Ty::known_len`], ..), not which parameter or local it
/// came from.
pub type Ty = crate::types::Layout<IntExpr, crate::types::Type>;

pub use crate::types::Held;

/// A value read from data: a `Ty::Data` parameter, then the steps that reach it
/// (`pts[i][0]`, `data[i].1`, `rows[i].len()`). A float read so is a constant to
/// differentiation, as `n as f64` is.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    /// The parameter.
    pub root: VarId,
    /// From the parameter to the value, in order.
    pub steps: Vec<Step>,
}

/// One step of a [`Place`].
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// `[i]`.
    Index(IntExpr),
    /// `.k` of a tuple.
    Field(u32),
    /// `.len()`: the last step, of an integer place.
    Len,
    /// `*`: a float, an integer or a `bool` behind a reference (`n: &usize`), read.
    Deref,
}

/// How a variable came to be; decides its printed name.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// A function parameter: printed with the user's own identifier.
    Param,
    /// The `version`-th binding of a source name (`c`, `c_1`, `c_2`, ...).
    Named {
        /// The source name.
        name: String,
        /// 0 for the first binding.
        version: u32,
    },
    /// An intermediate result of a nested expression.
    Temp,
    /// A `const` or `static` array the function cannot see (`const W: [f64; 3]`), read as data
    /// (`for w in W`, `W[i]`, `W.len()`): printed as its name, which resolves to the item
    /// where the user wrote it; nothing binds it.
    Outside(String),
}

/// One entry of the variable table.
#[derive(Clone, Debug)]
pub struct VarInfo {
    /// How it came to be.
    pub origin: Origin,
    /// Its type.
    pub ty: Ty,
    /// Where the user wrote it (or the expression it stands for).
    pub span: Span,
}

impl Op {
    /// The tangent a call returning its value and its tangent binds ([`Extern::pair`]): a
    /// second variable the statement defines.
    pub fn tangent_out(&self) -> Option<VarId> {
        match self {
            Op::Call(callee, _) => callee.pair.and_then(|pair| pair.tangent),
            _ => None,
        }
    }
}

/// A scalar operand of an [`Op`].
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A variable of type `Ty::F64`.
    Var(VarId),
    /// A float literal.
    Const(f64),
    /// A named constant such as `std::f64::consts::PI` or a user `const`.
    Extern(Extern),
}

/// A scalar operation: the right side of one [`Stmt::Assign`].
#[derive(Clone, Debug)]
pub enum Op {
    /// `a` (a copy; also how literals are bound)
    Copy(Operand),
    /// `a + b`
    Add(Operand, Operand),
    /// `a - b`
    Sub(Operand, Operand),
    /// `a * b`
    Mul(Operand, Operand),
    /// `a / b`
    Div(Operand, Operand),
    /// `-a`
    Neg(Operand),
    /// `a.powi(n)`
    Powi(Operand, IntExpr),
    /// `a.f()`
    Call1(Func, Operand),
    /// `a.f(b)`
    Call2(Func2, Operand, Operand),
    /// `a.f(b, c)`
    Call3(Func3, Operand, Operand, Operand),
    /// `n as f64`: a constant as far as derivatives go.
    FromInt(IntExpr),
    /// `pts[i][0]`, a float read from data: a constant as far as derivatives go.
    Data(Place),
    /// `w[i]`
    Load(VarId, IntExpr),
    /// `g(args)` where `g` is another `#[differentiable]` function.
    Call(Extern, Vec<Arg>),
    /// The body of a function with `derivative(..)` rules, run as written.
    Custom(Box<Custom>),
}

/// A statement of the lowered body.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `let dst = op;` (scalar)
    Assign {
        /// The new variable.
        dst: VarId,
        /// What computes it.
        op: Op,
    },
    /// `let dst = expr;` (integer)
    IntLet {
        /// The new variable.
        dst: VarId,
        /// Its value.
        expr: IntExpr,
    },
    /// `let dst = cond;` (boolean)
    BoolLet {
        /// The new variable.
        dst: VarId,
        /// Its value.
        cond: Cond,
    },
    /// `let mut dst = [fill; len];`
    Array {
        /// The array variable.
        dst: VarId,
        /// The initial value of every entry.
        fill: Operand,
    },
    /// `array[index] = value;`
    Store {
        /// A local array.
        array: VarId,
        /// Which entry.
        index: IntExpr,
        /// The new value.
        value: Operand,
    },
    /// `array[index] += value;` (or `-=` with `negate`)
    StoreAdd {
        /// A local array.
        array: VarId,
        /// Which entry.
        index: IntExpr,
        /// What is added.
        value: Operand,
        /// `-=` rather than `+=`.
        negate: bool,
    },
    /// `if cond { then } else { otherwise }`, after which each join takes its branch's value.
    If(Box<If>),
    /// A loop: `for var in start..end { body }` (or `..=`).
    Loop(Box<Loop>),
    /// `assert!(c)`, `assert_eq!(a, b, "{}", m)` and their `debug_` twins: run where `f` runs
    /// them, in the forward sweep, and never differentiated.
    Assert(Box<Assert>),
}

/// An assertion, printed as the user wrote it with each operand lowered.
#[derive(Clone, Debug)]
pub struct Assert {
    /// The macro: `assert`, `assert_eq`, `assert_ne`, `debug_assert`, ...
    pub name: String,
    /// The condition, or the two sides compared, then the message's arguments.
    pub args: Vec<Arg>,
    /// The message's format string (as written, quotes included), after the operands.
    pub format: Option<String>,
    /// How many of `args` come before the format string.
    pub operands: usize,
    /// Where the user wrote the macro's name.
    pub span: proc_macro2::Span,
}

/// A two-way branch.
#[derive(Clone, Debug)]
pub struct If {
    /// Its id, unique in the function.
    pub id: BranchId,
    /// The decision, evaluated once.
    pub cond: Cond,
    /// Where `if` was written.
    pub span: Span,
    /// Taken when `cond` holds.
    pub then: Block,
    /// Taken otherwise (possibly empty).
    pub otherwise: Block,
    /// Variables that each branch defines differently: `(joined, from then, from otherwise)`.
    pub joins: Vec<Join>,
}

/// A value that an `if` produces: one operand per branch. An `f64`, or the boolean result of
/// a `&&` / `||` whose right operand became a branch: then both operands are boolean
/// variables, and the join has no adjoint.
#[derive(Clone, Debug)]
pub struct Join {
    /// The variable after the `if`.
    pub dst: VarId,
    /// Its value when the condition held.
    pub then: Operand,
    /// Its value otherwise.
    pub otherwise: Operand,
}

/// A loop: every loop form of the source lowers into this one construct.
#[derive(Clone, Debug)]
pub struct Loop {
    /// Its id, unique in the function.
    pub id: LoopId,
    /// Where the loop was written.
    pub span: Span,
    /// How many times it runs.
    pub kind: LoopKind,
    /// The loop body.
    pub body: Block,
    /// Scalars the body updates: each lives in a mutable slot across iterations. The flags
    /// and values that exits carry out of the loop are slots too.
    pub carried: Vec<Carried>,
    /// A boolean the body defines: when it holds at the end of an iteration (after the slots
    /// are written back) the loop ends. Set by `break`, and by exits to enclosing loops.
    pub exit: Option<VarId>,
    /// The trip count (an integer the loop defines), when only a run of the loop knows it:
    /// the reversed loop runs that many iterations.
    pub count: Option<VarId>,
}

/// How many times a loop runs.
#[derive(Clone, Debug)]
pub enum LoopKind {
    /// Once per integer of a range: `for index in start..end` (or `..=`).
    Range {
        /// The loop index (an integer variable), if named.
        index: Option<VarId>,
        /// The first index.
        start: IntExpr,
        /// The bound.
        end: IntExpr,
        /// `..=` rather than `..`.
        inclusive: bool,
    },
    /// While `cond` holds, tested before each iteration (`loop` is `while true`).
    While {
        /// Forward-only statements that compute the operands of `cond`, each iteration.
        head: Block,
        /// The condition.
        cond: Cond,
    },
}

/// A scalar updated by a loop body: `slot` holds it between iterations.
#[derive(Clone, Debug)]
pub struct Carried {
    /// The mutable variable: its value entering each iteration, and after the loop.
    pub slot: VarId,
    /// Its value before the loop.
    pub init: Operand,
    /// Its value at the end of the body, written back to `slot`.
    pub exit: Operand,
}

/// A sequence of statements.
pub type Block = Vec<Stmt>;

impl Loop {
    /// Its integer loop variable, if it has one.
    pub fn index(&self) -> Option<VarId> {
        match &self.kind {
            LoopKind::Range { index, .. } => *index,
            LoopKind::While { .. } => None,
        }
    }

    /// The integers its header evaluates before the loop runs.
    pub fn bounds(&self) -> Vec<&IntExpr> {
        match &self.kind {
            LoopKind::Range { start, end, .. } => vec![start, end],
            LoopKind::While { .. } => Vec::new(),
        }
    }
}
