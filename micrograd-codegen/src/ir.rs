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
mod signature;
mod visit;
pub use crate::math::{Func, Func2, Func3};
pub use crate::scalar::{GenericFloat, Scalar};
pub use signature::{Output, ParamSpec, Signature};
pub use visit::{Access, MutVisitor, Nest, Reads, Visitor, forward_only, walk};

/// An index into [`Function::vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Which `if` of a function: an index below [`Function::branches`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BranchId(pub u32);

/// Which loop of a function: an index below [`Function::loops`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LoopId(pub u32);

/// A side table with one entry per branch or loop of a function, indexed by its id.
#[derive(Clone, Debug)]
pub struct Table<K, V> {
    entries: Vec<V>,
    key: std::marker::PhantomData<K>,
}

/// An id that indexes a [`Table`].
pub trait Id: Copy {
    /// Its position in the table.
    fn index(self) -> usize;
}

impl Id for BranchId {
    fn index(self) -> usize {
        self.0 as usize
    }
}

impl Id for LoopId {
    fn index(self) -> usize {
        self.0 as usize
    }
}

impl<K: Id, V: Default> Table<K, V> {
    /// `len` default entries.
    pub fn new(len: usize) -> Self {
        Table {
            entries: (0..len).map(|_| V::default()).collect(),
            key: std::marker::PhantomData,
        }
    }
}

impl<K: Id, V> std::ops::Index<K> for Table<K, V> {
    type Output = V;
    fn index(&self, key: K) -> &V {
        &self.entries[key.index()]
    }
}

impl<K: Id, V> std::ops::IndexMut<K> for Table<K, V> {
    fn index_mut(&mut self, key: K) -> &mut V {
        &mut self.entries[key.index()]
    }
}

impl<K, V> Table<K, V> {
    /// Every entry, in id order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter()
    }
}

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

/// A name the user wrote that the macro does not define: a `const`, a function, a path.
#[derive(Clone, Debug)]
pub struct Extern {
    /// Path segments as written (`["std", "f64", "consts", "PI"]`); a leading `::` is kept as "".
    pub path: Vec<String>,
    /// Where the user wrote it; the printed path resolves there.
    pub span: Span,
    /// For a call of a function with several outputs, the one this call reads.
    pub entry: Option<Entry>,
    /// In a tangent program, a call lent an array as `&mut`: `g_tangent` writes the array and
    /// its tangent as `g` writes the array, so it runs once, for the value and the tangent
    /// together (`let (y, v_y) = g_tangent(..)`).
    pub pair: Option<Pair>,
    /// A name the function does not define (`K`, `PI` from a `use`), read as a float because
    /// of how it is used: printed pinned to the float type (`identity::<f64>(K)`), so a wrong
    /// guess is rustc's error at the name, never a silent conversion.
    pub guessed: bool,
    /// A call made only for what it writes, its value dropped (`g(x, &mut out);`): the callee
    /// may return `()`, whose pullback takes no seed, so the caller goes through
    /// `micrograd_runtime::calls::Dropped`, which passes a zero seed only to a pullback that
    /// takes one.
    pub dropped: bool,
    /// A rule of `derivative(..)` called for its value.
    pub rule: Option<Box<Rule>>,
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

/// The tangent a call lent an array returns beside its value ([`Extern::pair`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    /// The variable that receives it; `None` where nothing reads it.
    pub tangent: Option<VarId>,
}

/// Output `k` of a called function returning `m` values (`g(x)[k]` or `g(x).k`): its pullback
/// is seeded with `seed` at `k` and zeros elsewhere.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// Which output.
    pub k: usize,
    /// How many outputs the callee returns.
    pub m: usize,
    /// A tuple (`.k`) rather than an array (`[k]`).
    pub tuple: bool,
}

impl PartialEq for Extern {
    fn eq(&self, other: &Extern) -> bool {
        let arguments = |e: &Extern| {
            e.rule.as_ref().map(|rule| {
                let each = rule.arguments.iter().map(ToString::to_string);
                each.collect::<Vec<_>>()
            })
        };
        self.path == other.path && self.entry == other.entry && arguments(self) == arguments(other)
    }
}

/// A rule of `derivative(..)` as a call reads it ([`Extern::rule`]).
#[derive(Clone, Debug)]
pub struct Rule {
    /// The function pointer type it is checked against where it is called
    /// (`fn(f64, usize) -> f64`, spanned at the rule), so a rule of other parameters is one
    /// "mismatched types" error at the rule.
    pub pointer: proc_macro2::TokenStream,
    /// The generic arguments written on each segment of [`Extern::path`] (`power_dx::<3>`:
    /// `["power_dx"]` with `[::<3>]`, a leading `::` an empty entry), printed after it and after
    /// the names suffixed to it (`power_dx_pullback::<3>`), so each call means the function the
    /// user named.
    pub arguments: Vec<proc_macro2::TokenStream>,
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

/// One argument of a call to another `#[differentiable]` function.
#[derive(Clone, Debug)]
pub enum Arg {
    /// An `f64`, passed as `&y` to a `&f64` parameter where the flag is set.
    Scalar(Operand, bool),
    /// An integer.
    Int(IntExpr),
    /// A boolean.
    Bool(Cond),
    /// Data, passed on as written: `pts`, or `&rows[i]` with `reference`.
    Data {
        /// What is passed.
        place: Place,
        /// Borrowed at the call (`&rows[i]`).
        reference: bool,
        /// Passed by value but maybe not `Copy` (`cfg: Config`): the generated code calls the
        /// callee more than once (its forward sweep and its pullback), so it passes clones.
        clone: bool,
    },
    /// A slice parameter or local array, whole or `&a[lo..hi]`.
    Slice {
        /// The slice or array.
        array: VarId,
        /// `lo` of `&a[lo..hi]`.
        lo: Option<IntExpr>,
        /// `hi` of `&a[lo..hi]`.
        hi: Option<IntExpr>,
        /// A whole array passed by value (`g(a)`, `g(*r)`) to a `[f64; N]` parameter, whose
        /// partials the pullback returns rather than adds into a shadow.
        by_value: bool,
        /// Passed as `&mut` (`g(&mut h)`, or a `&mut [f64]` parameter `g(w)`): the call may
        /// write it, so the forward sweep records the entries it passes, which the callee's
        /// pullback reads in the reverse sweep, and the call is a store into the array.
        mutable: bool,
        /// A sequence of rows of this many floats passed whole (`g(a)` of `a: &[[f64; N]]`,
        /// `g(&l)` of `let l = [[0.0; N]; M];`), which the IR holds row-major and flat: printed
        /// as rows again (`a.as_chunks::<N>().0`), its shadow and tangent too.
        rows: Option<IntExpr>,
        /// A local `f64` lent as `&mut e` to a `y: &mut f64` parameter, which the body holds
        /// as a one-entry array for the call: passed as `&mut a[0]`, and so are its recorded
        /// entries, its shadow and its tangent.
        entry: bool,
    },
}

impl Arg {
    /// Whether it is an array passed as `&mut`.
    pub fn is_mut(&self) -> bool {
        matches!(self, Arg::Slice { mutable: true, .. })
    }
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

/// The body of `#[differentiable(derivative(x = rule, ..))] fn f`, which the macro does not
/// read: a closure of `f`'s parameters called with them. Its derivative is the rules' values,
/// which the forward sweep computed before it (ordinary calls of the rules, [`Op::Call`]), so
/// its pullback (`x ← d · ∂f/∂x`) and tangent (`Σ ∂f/∂x · ẋ`) read them as operands, and
/// reverse over forward differentiates those calls through the rules' own pullbacks.
#[derive(Clone, Debug)]
pub struct Custom {
    /// `(|x: f64, n: usize| -> f64 { .. })`: `f`'s body as written, with its parameters.
    pub body: proc_macro2::TokenStream,
    /// `f`'s parameters, passed to it in order.
    pub args: Vec<Arg>,
    /// Each `f64` parameter with the variable holding its rule's value, `∂f/∂x`.
    pub partials: Vec<(Operand, VarId)>,
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
