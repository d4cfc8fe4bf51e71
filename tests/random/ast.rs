//! The programs the generator writes, as data: parameters, expressions, conditions,
//! statements, functions.

use super::*;
use std::rc::Rc;

/// How a program is printed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// `f64` code under `#[differentiable]`.
    Plain,
    /// Over the recording dual number `T`.
    Trace,
    /// Over `micrograd_runtime::Value`.
    Value,
}

/// The kind of a parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum PKind {
    /// `a: f64`
    Scalar,
    /// `w: &[f64]` of at least this length.
    Slice(usize),
    /// `w: &[f64; N]`
    Array(usize),
    /// `w: &Vec<f64>` of at least this length (the entry only).
    Vec(usize),
    /// `w: [f64; N]` by value (the entry only).
    ArrayByValue(usize),
    /// `w: &mut [f64]` of at least this length, read and written (callees only; lend.rs).
    MutSlice(usize),
    /// `n: usize` in `0..=max`.
    Usize(usize),
    /// `e: i32` in `lo..=hi`.
    I32(i32, i32),
    /// `flag: bool`
    Bool,
    /// `labels: &[usize]` of this many entries, each in `0..=3`: data, never differentiated
    /// (entries only).
    Labels(usize),
    /// `m: &[[f64; C]]` of `R` rows, `&[[f64; C]; R]` or `[[f64; C]; R]` by value: differentiated
    /// only where `wrt(..)` lists it (the entry only; matrix_params.rs).
    Matrix(usize, usize, MatrixForm),
}

/// How a matrix parameter is taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MatrixForm {
    /// `&[[f64; C]]`.
    Rows,
    /// `&[[f64; C]; R]`.
    Fixed,
    /// `[[f64; C]; R]` by value: its partials come back in the tuple.
    Value,
    /// `&[(f64, f64)]` of `R` pairs (`C` = 2), data only (pairs.rs).
    Pairs,
}

impl PKind {
    pub fn differentiable(&self) -> bool {
        matches!(
            self,
            PKind::Scalar
                | PKind::Slice(_)
                | PKind::Array(_)
                | PKind::Vec(_)
                | PKind::ArrayByValue(_)
                | PKind::MutSlice(_)
        )
    }
}

/// A parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: PKind,
}

/// An integer expression (`usize` or `i32`, never below zero where it is a `usize`).
#[derive(Clone, Debug)]
pub enum IExpr {
    Lit(i64),
    Var(String),
    Len(String),
    /// `labels[k]` of a `&[usize]` parameter of data.
    Label(String, usize),
    Bin(&'static str, Box<IExpr>, Box<IExpr>),
    Cast(Box<IExpr>, &'static str),
    /// `[a, b, c][i % 3]`: an entry of an array of integers, picked at run time.
    Pick(Vec<i64>, Box<IExpr>),
}

/// An `f64` expression.
#[derive(Clone, Debug)]
pub enum Expr {
    Lit(f64),
    Const(&'static str),
    /// A variable, and whether Rust knows it is an `f64` (`let s = 0.0;` leaves it `{float}`).
    Var(String, bool),
    /// `w[i]`, and whether the array's element type is known.
    Index(String, IExpr, bool),
    Neg(Box<Expr>),
    Bin(&'static str, Box<Expr>, Box<Expr>),
    M1(&'static str, Box<Expr>),
    M2(&'static str, Box<Expr>, Box<Expr>),
    /// `f64::max(a, b)`
    Path2(&'static str, Box<Expr>, Box<Expr>),
    Powi(Box<Expr>, IExpr),
    Cast(IExpr),
    /// `if c { .. } else if c { .. } else { .. }` as a value.
    If(Vec<(Cond, Vec<Stmt>, Expr)>, Vec<Stmt>, Box<Expr>),
    Block(Vec<Stmt>, Box<Expr>),
    Call(String, Vec<Arg>),
    /// A registered construct's own expression (ext.rs).
    Ext(Rc<dyn ExprNode>),
}

/// A condition.
#[derive(Clone, Debug)]
pub enum Cond {
    Cmp(&'static str, Box<Expr>, Box<Expr>),
    ICmp(&'static str, IExpr, IExpr),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Not(Box<Cond>),
    Var(String),
    Lit(bool),
}

/// How a slice is passed.
#[derive(Clone, Debug)]
pub enum SliceForm {
    /// `w`
    Whole,
    /// `&w`
    Ref,
    /// `&w[..]`
    Full,
    /// `&w[a..]`
    From(IExpr),
    /// `&w[..b]`
    To(IExpr),
    /// `&w[a..b]`
    Range(IExpr, IExpr),
}

/// An argument of a call.
#[derive(Clone, Debug)]
pub enum Arg {
    Scalar(Expr),
    Slice(String, SliceForm),
    Int(IExpr),
    Bool(Cond),
}

/// A statement.
#[derive(Clone, Debug)]
pub enum Stmt {
    Let {
        name: String,
        mutable: bool,
        annot: bool,
        expr: Expr,
    },
    LetInt {
        name: String,
        mutable: bool,
        expr: IExpr,
    },
    LetBool {
        name: String,
        cond: Cond,
    },
    LetArr {
        name: String,
        len: usize,
        fill: f64,
        /// A float variable filling it in place of `fill`, `[x; N]`.
        fill_var: Option<String>,
        /// 0: `let mut h = [0.0; N]`, 1: `let mut h: [f64; N] = ..`, 2: `[0.0_f64; N]`,
        /// 3: `vec![0.0; N]` (outside loops), its length at run time where `seq` names a slice.
        style: u8,
        /// A slice whose length the `vec!`'s length adds and takes away again.
        seq: Option<String>,
    },
    Assign {
        name: String,
        op: &'static str,
        expr: Expr,
    },
    AssignInt {
        name: String,
        op: &'static str,
        expr: IExpr,
    },
    Store {
        arr: String,
        idx: IExpr,
        op: &'static str,
        expr: Expr,
    },
    If {
        arms: Vec<(Cond, Vec<Stmt>)>,
        els: Option<Vec<Stmt>>,
    },
    For {
        var: Option<String>,
        lo: IExpr,
        hi: IExpr,
        inclusive: bool,
        body: Vec<Stmt>,
    },
    Return(Expr),
    Block(Vec<Stmt>),
    /// A registered construct's own statement (ext.rs).
    Ext(Rc<dyn StmtNode>),
}

/// The several values a function returns (tests/random/vec_calls.rs): `[f64; m]`, or a tuple of
/// `m` `f64`s.
#[derive(Clone, Debug, PartialEq)]
pub struct Out {
    pub m: usize,
    pub tuple: bool,
}

/// One function.
#[derive(Clone, Debug)]
pub struct Func {
    /// Its name.
    pub name: String,
    /// Its parameters.
    pub params: Vec<Param>,
    /// `wrt(..)`, in the order written.
    pub wrt: Option<Vec<String>>,
    /// The statements.
    pub body: Vec<Stmt>,
    /// The tail expression (`None` when the body ends with `return`).
    pub tail: Option<Expr>,
    /// Several values returned, or one `f64` (`None`).
    pub out: Option<Out>,
    /// Whether it asks for `jacobian` (the entry, when it returns several values and
    /// differentiates no array by value).
    pub jacobian: bool,
    /// Whether it asks for `hvp`: not an entry taking `&mut [f64]` (lend.rs), whose tangents
    /// the checker's adapters do not pass.
    pub hvp: bool,
    /// Whether it is generic over its float, `<T: Float>` (generic_fns.rs; never the entry).
    pub generic: bool,
    /// Whether it returns `()`, its output what it writes into its `&mut [f64]` parameter: the
    /// tail is stored into that parameter's entry 0 (a callee only; lend.rs).
    pub unit: Option<String>,
    /// Whether its returned array's length is printed as a `const` beside it, `const
    /// FSTEP_LEN: usize = 2;` and `-> [f64; FSTEP_LEN]` (issue 24, session 14; steps.rs), in
    /// the plain program: a length the macro cannot count.
    pub named_len: bool,
}

impl Func {
    /// Whether parameter `p` is differentiated.
    pub fn is_wrt(&self, p: &Param) -> bool {
        match p.kind {
            PKind::Matrix(..) => self.wrt.as_ref().is_some_and(|w| w.contains(&p.name)),
            _ => p.kind.differentiable() && self.wrt.as_ref().is_none_or(|w| w.contains(&p.name)),
        }
    }
}

/// A generated program: its functions, the last being the entry point.
#[derive(Clone, Debug)]
pub struct Program {
    /// Its number in the run.
    pub id: usize,
    /// The functions, each calling only earlier ones.
    pub funcs: Vec<Func>,
    /// Whether it uses only what `Value` supports (so the `Value` oracle applies).
    pub value_only: bool,
    /// How each variable is printed, where not as generated (hygiene.rs).
    pub names: std::collections::HashMap<String, String>,
    /// Whether its functions (all but a generic one) are `&self` methods of
    /// `#[derive(Differentiable)] struct Prog` calling each other as `self.f0(..)`, the entry
    /// called on `PROG` (methods.rs); each lists its `wrt(..)`, which leaves `self` constant.
    pub methods: bool,
    /// Whether its `f32` twin is checked too (single.rs); the test sets it, not the draw.
    pub single: bool,
    /// The weights of the entry's outputs when it returns several (one nonzero per output):
    /// the checker's scalar is `seed · f`, through `f_pullback` and the seeded `f_hvp`.
    pub seed: Vec<f64>,
}

impl Program {
    /// The entry point.
    pub fn entry(&self) -> &Func {
        self.funcs.last().expect("a program has a function")
    }
}

/// Whether nothing after `s` runs: a `return`, or a `{ .. }` that ends in one.
pub fn diverges(s: &Stmt) -> bool {
    match s {
        Stmt::Return(_) => true,
        Stmt::Block(body) => body.last().is_some_and(diverges),
        _ => false,
    }
}
