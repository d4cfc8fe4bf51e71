//! Random `#[differentiable]` functions in the whole language of SPEC.md, for
//! tests/random_programs.rs.
//!
//! A [`Program`] is one to three functions, each calling the earlier ones; the last is the entry
//! the checker calls. Every program is printed three ways ([`Mode`]):
//! - `Plain`: the macro's input, `f64` code under `#[differentiable]`;
//! - `Trace`: the same code over the dual number `T` of tests/random/harness.rs, which gives the
//!   forward-mode derivative (an oracle independent of the macro) and records every branch
//!   decision and kink, so that the checker can keep its points away from them;
//! - `Value`: the same code over micrograd's run-time engine `micrograd_runtime::Value`, for the
//!   programs that use only the operations it has (a second oracle).
//!
//! Generation keeps every program valid by construction: indices in bounds, logarithms and roots
//! of positive expressions, `return` only outside loops, arrays never changed after they are
//! passed to a call, integers never below zero. Whatever the generator cannot rule out (overflow,
//! a pole of `tan` or of a division) the checker rejects at run time from the trace.

use std::collections::HashSet;
use std::fmt::Write;

/// A small, fast, seeded PRNG (SplitMix64): the same seed gives the same programs everywhere.
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64) / ((1u64 << 53) as f64) < p
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }

    /// One element of `xs`.
    pub fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }

    /// An index into `weights`, drawn in proportion to them (all zero: 0).
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        if total == 0 {
            return 0;
        }
        let mut r = self.below(total as usize) as u32;
        for (i, &w) in weights.iter().enumerate() {
            if r < w {
                return i;
            }
            r -= w;
        }
        weights.len() - 1
    }
}

/// SplitMix64's finalizer.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of program `id` of a run seeded with `seed`: any program can be generated alone.
pub fn program_seed(seed: u64, id: usize) -> u64 {
    mix(seed ^ mix(id as u64 ^ 0xA076_1D64_78BD_642F))
}

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
    /// `n: usize` in `0..=max`.
    Usize(usize),
    /// `e: i32` in `lo..=hi`.
    I32(i32, i32),
    /// `flag: bool`
    Bool,
}

impl PKind {
    fn differentiable(&self) -> bool {
        matches!(self, PKind::Scalar | PKind::Slice(_) | PKind::Array(_))
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
    Bin(&'static str, Box<IExpr>, Box<IExpr>),
    Cast(Box<IExpr>, &'static str),
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
        /// 0: `let mut h = [0.0; N]`, 1: `let mut h: [f64; N] = ..`, 2: `[0.0_f64; N]`.
        style: u8,
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
}

impl Func {
    /// Whether parameter `p` is differentiated.
    pub fn is_wrt(&self, p: &Param) -> bool {
        p.kind.differentiable() && self.wrt.as_ref().is_none_or(|w| w.contains(&p.name))
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
}

impl Program {
    /// The entry point.
    pub fn entry(&self) -> &Func {
        self.funcs.last().expect("a program has a function")
    }
}

// ---------------------------------------------------------------------------------------------
// Generation

/// An exclusive upper bound known for an integer variable.
#[derive(Clone, Debug, PartialEq)]
enum Bound {
    Const(usize),
    Len(String),
}

#[derive(Clone)]
struct FVar {
    name: String,
    mutable: bool,
    typed: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum ITy {
    Usize,
    I32,
}

#[derive(Clone)]
struct IVar {
    name: String,
    ty: ITy,
    bound: Option<Bound>,
    mutable: bool,
    depth: usize,
}

#[derive(Clone)]
struct SVar {
    name: String,
    /// The known minimum length (exact for arrays).
    len: usize,
    exact: bool,
    local: bool,
    loop_depth: usize,
    typed: bool,
}

#[derive(Clone, Default)]
struct Scope {
    f: Vec<FVar>,
    i: Vec<IVar>,
    s: Vec<SVar>,
    b: Vec<String>,
}

/// Names that collide with what the macro generates (`t0`, `d_x`, `seed`, versions `x_1`..):
/// the generated code must keep them apart.
const TRICKY: [&str; 12] = [
    "t0", "t1", "c0", "d_a0", "d_x0", "seed", "graph", "s_1", "x0_1", "d_t0", "tape", "d_w0",
];

/// The signature of an earlier function, for calls.
#[derive(Clone)]
struct Callee {
    name: String,
    params: Vec<Param>,
}

struct Gen<'r> {
    rng: &'r mut Rng,
    value_only: bool,
    scopes: Vec<Scope>,
    loop_depth: usize,
    if_depth: usize,
    /// Whether a `return` may stand here (top level or statement `if`s outside loops).
    ret_ok: bool,
    returns_left: usize,
    loops_left: usize,
    calls_left: usize,
    arrays_left: usize,
    frozen: HashSet<String>,
    /// Arrays that cannot be passed to a call here (a store to them is being generated).
    no_pass: Vec<String>,
    callees: Vec<Callee>,
    counter: usize,
}

impl Gen<'_> {
    fn fresh(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}", self.counter)
    }

    fn push(&mut self) {
        self.scopes.push(Scope::default());
    }

    fn pop(&mut self) {
        self.scopes.pop();
    }

    fn scope(&mut self) -> &mut Scope {
        self.scopes.last_mut().expect("a scope")
    }

    /// Every name visible, innermost first (and so shadowing), of one kind.
    fn visible<T: Clone>(
        &self,
        get: impl Fn(&Scope) -> &Vec<T>,
        name: impl Fn(&T) -> &str,
    ) -> Vec<T> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for scope in self.scopes.iter().rev() {
            for v in get(scope).iter().rev() {
                if seen.insert(name(v).to_string()) {
                    out.push(v.clone());
                }
            }
        }
        out
    }

    /// The `f64` variables (names are never reused across kinds, so none is hidden by an
    /// integer or an array).
    fn fvars(&self) -> Vec<FVar> {
        self.visible(|s| &s.f, |v| &v.name)
    }

    fn ivars(&self, ty: ITy) -> Vec<IVar> {
        self.visible(|s| &s.i, |v| &v.name)
            .into_iter()
            .filter(|v| v.ty == ty)
            .collect()
    }

    fn svars(&self) -> Vec<SVar> {
        self.visible(|s| &s.s, |v| &v.name)
    }

    fn bvars(&self) -> Vec<String> {
        self.visible(|s| &s.b, |v| v)
    }

    fn depth(&self) -> usize {
        self.scopes.len()
    }

    // ----- literals and integers

    fn literal(&mut self) -> f64 {
        if self.rng.chance(0.6) {
            self.rng.pick(&[
                0.5, 1.0, 1.5, 2.0, 0.25, 3.0, 0.1, 0.75, -0.5, -1.0, -2.0, 1.25, 0.3,
            ])
        } else {
            self.rng.range(-48, 48) as f64 / 16.0
        }
    }

    fn positive_literal(&mut self) -> f64 {
        self.rng.pick(&[0.1, 0.5, 1.0, 2.0, 0.25, 1.5])
    }

    /// A `usize` expression, small and never negative.
    fn usize_expr(&mut self, depth: usize) -> IExpr {
        let vars = self.ivars(ITy::Usize);
        let seqs = self.svars();
        let choice = self.rng.weighted(&[
            3,
            if vars.is_empty() { 0 } else { 6 },
            if seqs.is_empty() { 0 } else { 2 },
            if depth > 0 { 3 } else { 0 },
        ]);
        match choice {
            0 => IExpr::Lit(self.rng.range(0, 4)),
            1 => IExpr::Var(self.rng.pick(&vars).name),
            2 => IExpr::Len(self.rng.pick(&seqs).name),
            _ => {
                let op = self.rng.pick(&["+", "*", "%", "+"]);
                let a = self.usize_expr(depth - 1);
                let b = if op == "%" {
                    if !seqs.is_empty() && self.rng.chance(0.5) {
                        IExpr::Len(self.rng.pick(&seqs).name)
                    } else {
                        IExpr::Lit(self.rng.range(1, 4))
                    }
                } else if op == "*" {
                    IExpr::Lit(self.rng.range(0, 2))
                } else {
                    self.usize_expr(depth - 1)
                };
                IExpr::Bin(op, Box::new(a), Box::new(b))
            }
        }
    }

    /// An `i32` exponent for `powi`, in `-2..=4`.
    fn i32_expr(&mut self) -> IExpr {
        let vars = self.ivars(ITy::I32);
        let bounded: Vec<IVar> = self
            .ivars(ITy::Usize)
            .into_iter()
            .filter(|v| matches!(v.bound, Some(Bound::Const(c)) if c <= 5))
            .collect();
        match self.rng.weighted(&[
            6,
            if vars.is_empty() { 0 } else { 3 },
            if bounded.is_empty() { 0 } else { 2 },
        ]) {
            0 => IExpr::Lit(self.rng.pick(&[2, 3, 2, -1, -2, 0, 1, 4])),
            1 => IExpr::Var(self.rng.pick(&vars).name),
            _ => IExpr::Cast(Box::new(IExpr::Var(self.rng.pick(&bounded).name)), "i32"),
        }
    }

    /// An index valid for `seq`.
    fn index(&mut self, seq: &SVar) -> IExpr {
        let direct: Vec<IVar> = self
            .ivars(ITy::Usize)
            .into_iter()
            .filter(|v| match &v.bound {
                Some(Bound::Const(c)) => *c <= seq.len,
                Some(Bound::Len(s)) => *s == seq.name,
                None => false,
            })
            .collect();
        match self.rng.weighted(&[
            3,
            if direct.is_empty() { 0 } else { 8 },
            3,
            if direct.is_empty() { 0 } else { 1 },
        ]) {
            0 => IExpr::Lit(self.rng.range(0, seq.len as i64 - 1)),
            1 => IExpr::Var(self.rng.pick(&direct).name),
            2 => {
                let e = self.usize_expr(1);
                IExpr::Bin("%", Box::new(e), Box::new(IExpr::Len(seq.name.clone())))
            }
            _ => {
                // w.len() - 1 - i, with i < w.len()
                let i = self.rng.pick(&direct).name;
                IExpr::Bin(
                    "-",
                    Box::new(IExpr::Bin(
                        "-",
                        Box::new(IExpr::Len(seq.name.clone())),
                        Box::new(IExpr::Lit(1)),
                    )),
                    Box::new(IExpr::Var(i)),
                )
            }
        }
    }

    // ----- expressions

    fn positive(&mut self, e: Expr) -> Expr {
        let c = self.positive_literal();
        let b = Box::new(e);
        let n = if self.value_only { 4 } else { 7 };
        // `e * e` runs `e` twice: not if `e` has statements (a store before a call that passed
        // the array, again after it).
        let k = match self.rng.below(n) {
            0 if has_stmts(&b) => 3,
            k => k,
        };
        match k {
            0 => Expr::Bin(
                "+",
                Box::new(Expr::Bin("*", b.clone(), b)),
                Box::new(Expr::Lit(c)),
            ),
            1 => Expr::M1("exp", Box::new(Expr::M1("tanh", b))),
            2 => Expr::Bin(
                "+",
                Box::new(Expr::M1("sigmoid", b)),
                Box::new(Expr::Lit(c)),
            ),
            3 => Expr::Bin(
                "+",
                Box::new(Expr::Powi(b, IExpr::Lit(2))),
                Box::new(Expr::Lit(c)),
            ),
            4 => Expr::Bin("+", Box::new(Expr::M1("abs", b)), Box::new(Expr::Lit(c))),
            5 => Expr::M1("cosh", b),
            _ => Expr::M2("hypot", b, Box::new(Expr::Lit(c))),
        }
    }

    fn unit(&mut self, e: Expr) -> Expr {
        let b = Box::new(e);
        match self.rng.below(3) {
            0 => Expr::Bin("*", Box::new(Expr::M1("tanh", b)), Box::new(Expr::Lit(0.9))),
            1 => Expr::Bin("*", Box::new(Expr::M1("sin", b)), Box::new(Expr::Lit(0.9))),
            _ => Expr::Bin(
                "*",
                Box::new(Expr::Bin(
                    "-",
                    Box::new(Expr::M1("sigmoid", b)),
                    Box::new(Expr::Lit(0.5)),
                )),
                Box::new(Expr::Lit(1.5)),
            ),
        }
    }

    fn leaf(&mut self) -> Expr {
        let vars = self.fvars();
        let seqs = self.svars();
        let ints = self.ivars(ITy::Usize);
        let i32s = self.ivars(ITy::I32);
        match self.rng.weighted(&[
            if vars.is_empty() { 0 } else { 12 },
            3,
            1,
            if seqs.is_empty() { 0 } else { 6 },
            if ints.is_empty() && i32s.is_empty() {
                0
            } else {
                2
            },
        ]) {
            0 => {
                let v = self.rng.pick(&vars);
                Expr::Var(v.name, v.typed)
            }
            1 => Expr::Lit(self.literal()),
            2 => Expr::Const(self.rng.pick(&[
                "PI",
                "E",
                "LN_2",
                "FRAC_1_SQRT_2",
                "SQRT_2",
                "FRAC_PI_4",
            ])),
            3 => {
                let s = self.rng.pick(&seqs);
                let i = self.index(&s);
                Expr::Index(s.name.clone(), i, s.typed)
            }
            _ => {
                if !i32s.is_empty() && (ints.is_empty() || self.rng.chance(0.3)) {
                    Expr::Cast(IExpr::Var(self.rng.pick(&i32s).name))
                } else {
                    let e = self.usize_expr(1);
                    Expr::Cast(e)
                }
            }
        }
    }

    fn expr(&mut self, depth: usize) -> Expr {
        if depth == 0 {
            return self.leaf();
        }
        let can_call = self.calls_left > 0 && !self.callees.is_empty();
        let full = !self.value_only;
        let choice = self.rng.weighted(&[
            4,                            // leaf
            14,                           // + - *
            3,                            // /
            2,                            // neg
            9,                            // method
            if full { 4 } else { 0 },     // two-argument method
            3,                            // powi
            1,                            // if expression
            1,                            // block expression
            if can_call { 3 } else { 0 }, // call
            if full { 1 } else { 0 },     // f64::max(a, b)
        ]);
        let d = depth - 1;
        match choice {
            0 => self.leaf(),
            1 => {
                let op = self.rng.pick(&["+", "-", "*"]);
                Expr::Bin(op, Box::new(self.expr(d)), Box::new(self.expr(d)))
            }
            2 => {
                let num = self.expr(d);
                let den = self.expr(d);
                let den = if self.rng.chance(0.85) {
                    self.positive(den)
                } else {
                    den
                };
                Expr::Bin("/", Box::new(num), Box::new(den))
            }
            3 => Expr::Neg(Box::new(self.expr(d))),
            4 => self.method(d),
            5 => {
                let a = self.expr(d);
                let b = self.expr(d);
                match self.rng.below(5) {
                    0 => Expr::M2("max", Box::new(a), Box::new(b)),
                    1 => Expr::M2("min", Box::new(a), Box::new(b)),
                    // Singular at (0, 0), which `relu` makes common: mostly away from it.
                    2 | 3 => {
                        let b = if self.rng.chance(0.85) {
                            self.positive(b)
                        } else {
                            b
                        };
                        let m = if self.rng.chance(0.5) {
                            "hypot"
                        } else {
                            "atan2"
                        };
                        Expr::M2(m, Box::new(a), Box::new(b))
                    }
                    _ => {
                        let base = self.positive(a);
                        Expr::M2("powf", Box::new(base), Box::new(b))
                    }
                }
            }
            6 => {
                let base = self.expr(d);
                let n = self.i32_expr();
                // A negative power is singular at 0: mostly of a positive base.
                let negative = match &n {
                    IExpr::Lit(k) => *k < 0,
                    IExpr::Var(_) => true,
                    _ => false,
                };
                let base = if negative && self.rng.chance(0.95) {
                    self.positive(base)
                } else {
                    base
                };
                Expr::Powi(Box::new(base), n)
            }
            7 => self.if_expr(d),
            8 => {
                self.push();
                let saved = self.enter_nested();
                let n = self.rng.range(1, 2) as usize;
                let stmts = self.stmts(n, 1);
                let tail = self.expr(d);
                self.leave_nested(saved);
                self.pop();
                Expr::Block(stmts, Box::new(tail))
            }
            9 => self.call(d),
            _ => {
                let a = self.expr(d);
                let b = self.expr(d);
                let m = self.rng.pick(&["max", "min"]);
                Expr::Path2(m, Box::new(a), Box::new(b))
            }
        }
    }

    fn method(&mut self, d: usize) -> Expr {
        let e = self.expr(d);
        if self.value_only {
            return match self.rng.below(5) {
                0 => Expr::M1("tanh", Box::new(e)),
                1 => Expr::M1("relu", Box::new(e)),
                2 => Expr::M1("exp", Box::new(e)),
                3 => Expr::M1("sigmoid", Box::new(e)),
                _ => {
                    let p = self.positive(e);
                    Expr::M1("ln", Box::new(p))
                }
            };
        }
        let raw = [
            "tanh", "sigmoid", "sin", "cos", "atan", "relu", "abs", "signum",
        ];
        // Overflow quickly: their argument is usually squashed into [-3, 3].
        let growing = ["exp", "exp2", "exp_m1", "sinh", "cosh"];
        // Singular at 0 (or at poles): rarely on a raw argument (the checker rejects points
        // too close to a singularity, but an argument that is exactly 0 everywhere, such as
        // `(x - x).cbrt()`, would leave no usable point).
        let singular = ["cbrt", "recip", "tan"];
        let positive = ["ln", "log2", "log10", "sqrt", "ln_1p", "recip", "cbrt"];
        let unit = ["asin", "acos", "tan"];
        match self.rng.weighted(&[10, 4, 1, 5, 2]) {
            0 => Expr::M1(self.rng.pick(&raw), Box::new(e)),
            1 => {
                let e = if self.rng.chance(0.8) {
                    Expr::Bin(
                        "*",
                        Box::new(Expr::M1("tanh", Box::new(e))),
                        Box::new(Expr::Lit(3.0)),
                    )
                } else {
                    e
                };
                Expr::M1(self.rng.pick(&growing), Box::new(e))
            }
            2 => {
                // Exact zeros are common (`relu`, `[0.0; N]`, `i as f64`): mostly shifted.
                let e = if self.rng.chance(0.6) {
                    let c = self.positive_literal();
                    Expr::Bin("+", Box::new(e), Box::new(Expr::Lit(c)))
                } else {
                    e
                };
                Expr::M1(self.rng.pick(&singular), Box::new(e))
            }
            3 => {
                let m = self.rng.pick(&positive);
                let p = self.positive(e);
                let p = if m == "ln_1p" && self.rng.chance(0.5) {
                    Expr::Bin("-", Box::new(p), Box::new(Expr::Lit(0.5)))
                } else {
                    p
                };
                Expr::M1(m, Box::new(p))
            }
            _ => {
                let m = self.rng.pick(&unit);
                let u = self.unit(e);
                Expr::M1(m, Box::new(u))
            }
        }
    }

    /// Saves the flags a nested block (an `if` value, a `{ .. }`) changes: no `return` there.
    fn enter_nested(&mut self) -> bool {
        std::mem::replace(&mut self.ret_ok, false)
    }

    fn leave_nested(&mut self, saved: bool) {
        self.ret_ok = saved;
    }

    fn if_expr(&mut self, d: usize) -> Expr {
        let saved = self.enter_nested();
        let arms_n = self.rng.range(1, 2) as usize;
        let mut arms = Vec::new();
        for _ in 0..arms_n {
            let cond = self.cond(1);
            self.push();
            let n = self.rng.below(2);
            let stmts = self.stmts(n, 1);
            let tail = self.expr(d);
            self.pop();
            arms.push((cond, stmts, tail));
        }
        self.push();
        let n = self.rng.below(2);
        let stmts = self.stmts(n, 1);
        let tail = self.expr(d);
        self.pop();
        self.leave_nested(saved);
        Expr::If(arms, stmts, Box::new(tail))
    }

    fn call(&mut self, d: usize) -> Expr {
        // Only callees whose slices can be given something long enough from here.
        let loop_depth = self.loop_depth;
        let seqs = self.svars();
        let no_pass = &self.no_pass;
        let fits = |min: usize| {
            seqs.iter().any(|s| {
                s.len >= min
                    && (!s.local || s.loop_depth == loop_depth)
                    && !no_pass.contains(&s.name)
            })
        };
        let callees: Vec<Callee> = self
            .callees
            .iter()
            .filter(|c| {
                c.params.iter().all(|p| match p.kind {
                    PKind::Slice(min) | PKind::Array(min) => fits(min),
                    _ => true,
                })
            })
            .cloned()
            .collect();
        if callees.is_empty() {
            return self.leaf();
        }
        self.calls_left -= 1;
        let callee = self.rng.pick(&callees);
        let mut args = Vec::new();
        for p in &callee.params {
            let arg = match p.kind {
                PKind::Scalar => Arg::Scalar(self.expr(d)),
                PKind::Slice(min) | PKind::Array(min) => self.slice_arg(min),
                PKind::Usize(max) => {
                    if self.rng.chance(0.5) {
                        Arg::Int(IExpr::Lit(self.rng.range(0, max as i64)))
                    } else {
                        let e = self.usize_expr(1);
                        Arg::Int(IExpr::Bin(
                            "%",
                            Box::new(e),
                            Box::new(IExpr::Lit(max as i64 + 1)),
                        ))
                    }
                }
                PKind::I32(lo, hi) => Arg::Int(IExpr::Lit(self.rng.range(lo as i64, hi as i64))),
                PKind::Bool => Arg::Bool(self.cond(1)),
            };
            args.push(arg);
        }
        Expr::Call(callee.name.clone(), args)
    }

    /// A slice of at least `min` entries: a parameter, a local array (then frozen: the
    /// macro rejects arrays changed after a call reads them) or a part of one. A local array
    /// is passed only in the loop body that declares it (or outside loops, if declared there):
    /// one declared before a loop could change in a later iteration, after the call.
    fn slice_arg(&mut self, min: usize) -> Arg {
        let loop_depth = self.loop_depth;
        let candidates: Vec<SVar> = self
            .svars()
            .into_iter()
            .filter(|s| s.len >= min && (!s.local || s.loop_depth == loop_depth))
            .filter(|s| !self.no_pass.contains(&s.name))
            .collect();
        let s = self.rng.pick(&candidates);
        if s.local {
            self.frozen.insert(s.name.clone());
        }
        let m = s.len;
        let form = match self.rng.below(6) {
            0 if !s.local => SliceForm::Whole,
            // `&w` of an array parameter `w: &[f64; N]` is a `&&[f64; N]`, which Rust does not
            // coerce to `&[f64]`.
            1 if s.local || !s.exact => SliceForm::Ref,
            2 => SliceForm::Full,
            3 => SliceForm::From(IExpr::Lit(self.rng.range(0, (m - min) as i64))),
            4 => SliceForm::To(IExpr::Lit(self.rng.range(min as i64, m as i64))),
            _ => {
                let a = self.rng.range(0, (m - min) as i64);
                if !s.exact && self.rng.chance(0.4) {
                    SliceForm::Range(IExpr::Lit(a), IExpr::Len(s.name.clone()))
                } else {
                    let b = self.rng.range(a + min as i64, m as i64);
                    SliceForm::Range(IExpr::Lit(a), IExpr::Lit(b))
                }
            }
        };
        Arg::Slice(s.name, form)
    }

    // ----- conditions

    fn cond(&mut self, depth: usize) -> Cond {
        let ints = self.ivars(ITy::Usize);
        let i32s = self.ivars(ITy::I32);
        let bools = self.bvars();
        match self.rng.weighted(&[
            12,
            if ints.is_empty() && i32s.is_empty() {
                0
            } else {
                2
            },
            if depth > 0 { 3 } else { 0 },
            if depth > 0 { 1 } else { 0 },
            if bools.is_empty() { 0 } else { 2 },
            1,
        ]) {
            0 => {
                let op = if self.rng.chance(0.05) {
                    self.rng.pick(&["==", "!="])
                } else {
                    self.rng.pick(&["<", ">", "<=", ">="])
                };
                let dl = self.rng.range(0, 2) as usize;
                let a = self.expr(dl);
                let b = if self.rng.chance(0.5) {
                    Expr::Lit(self.literal())
                } else {
                    self.expr(1)
                };
                Cond::Cmp(op, Box::new(a), Box::new(b))
            }
            1 => {
                let op = self.rng.pick(&["<", ">", "<=", ">=", "==", "!="]);
                if !i32s.is_empty() && (ints.is_empty() || self.rng.chance(0.3)) {
                    let v = self.rng.pick(&i32s).name;
                    Cond::ICmp(op, IExpr::Var(v), IExpr::Lit(self.rng.range(-1, 3)))
                } else {
                    let a = self.usize_expr(1);
                    let b = self.usize_expr(0);
                    Cond::ICmp(op, a, b)
                }
            }
            2 => {
                let a = self.cond(depth - 1);
                let b = self.cond(depth - 1);
                if self.rng.chance(0.5) {
                    Cond::And(Box::new(a), Box::new(b))
                } else {
                    Cond::Or(Box::new(a), Box::new(b))
                }
            }
            3 => Cond::Not(Box::new(self.cond(depth - 1))),
            4 => Cond::Var(self.rng.pick(&bools)),
            _ => Cond::Lit(self.rng.chance(0.5)),
        }
    }

    // ----- statements

    fn stmts(&mut self, n: usize, level: usize) -> Vec<Stmt> {
        let mut out = Vec::new();
        for _ in 0..n {
            let s = self.stmt(level);
            let is_return = matches!(s, Stmt::Return(_));
            out.push(s);
            if is_return {
                break;
            }
        }
        out
    }

    fn name_for_let(&mut self) -> (String, bool) {
        let vars = self.fvars();
        if !vars.is_empty() && self.rng.chance(0.2) {
            return (self.rng.pick(&vars).name, true);
        }
        if self.rng.chance(0.06) {
            let n = self.rng.pick(&TRICKY).to_string();
            let taken = self.fvars().iter().any(|v| v.name == n)
                || self.svars().iter().any(|v| v.name == n)
                || self.ivars(ITy::Usize).iter().any(|v| v.name == n)
                || self.ivars(ITy::I32).iter().any(|v| v.name == n)
                || self.bvars().contains(&n);
            if !taken {
                return (n, false);
            }
        }
        (self.fresh("x"), false)
    }

    fn stmt(&mut self, level: usize) -> Stmt {
        let mutable: Vec<FVar> = self.fvars().into_iter().filter(|v| v.mutable).collect();
        let arrays: Vec<SVar> = self
            .svars()
            .into_iter()
            .filter(|s| {
                s.local && !self.frozen.contains(&s.name) && !self.no_pass.contains(&s.name)
            })
            .collect();
        let same_depth_ints: Vec<IVar> = self
            .ivars(ITy::Usize)
            .into_iter()
            .filter(|v| v.mutable && v.depth == self.depth())
            .collect();
        let nest = level < 3;
        let choice = self.rng.weighted(&[
            30,                                             // let
            if mutable.is_empty() { 0 } else { 24 },        // assign
            4,                                              // let int
            if same_depth_ints.is_empty() { 0 } else { 2 }, // assign int
            2,                                              // let bool
            if self.arrays_left > 0 { 4 } else { 0 },       // let array
            if arrays.is_empty() { 0 } else { 12 },         // store
            if nest && self.if_depth < 3 { 8 } else { 0 },  // if
            if nest && self.loops_left > 0 && self.loop_depth < 2 {
                9
            } else {
                0
            }, // for
            if self.ret_ok && self.returns_left > 0 && self.if_depth > 0 {
                3
            } else {
                0
            }, // return
            if nest { 1 } else { 0 },                       // block
        ]);
        match choice {
            0 => self.let_stmt(),
            1 => self.assign(&mutable),
            2 => {
                let name = self.fresh("k");
                let expr = self.usize_expr(2);
                let mutable = self.rng.chance(0.3);
                let depth = self.depth();
                self.scope().i.push(IVar {
                    name: name.clone(),
                    ty: ITy::Usize,
                    bound: None,
                    mutable,
                    depth,
                });
                Stmt::LetInt {
                    name,
                    mutable,
                    expr,
                }
            }
            3 => {
                let v = self.rng.pick(&same_depth_ints);
                let op = self.rng.pick(&["=", "+="]);
                let expr = self.usize_expr(1);
                Stmt::AssignInt {
                    name: v.name,
                    op,
                    expr: IExpr::Bin("%", Box::new(expr), Box::new(IExpr::Lit(5))),
                }
            }
            4 => {
                let name = self.fresh("b");
                let cond = self.cond(1);
                self.scope().b.push(name.clone());
                Stmt::LetBool { name, cond }
            }
            5 => self.let_array(),
            6 => {
                let arr = self.rng.pick(&arrays);
                let idx = self.index(&arr);
                let op = self
                    .rng
                    .pick(&["=", "=", "+=", "+=", "+=", "-=", "*=", "/="]);
                let d = self.rng.range(1, 3) as usize;
                // A call in the value would read the array before this store changes it.
                self.no_pass.push(arr.name.clone());
                let mut expr = self.expr(d);
                self.no_pass.pop();
                if op == "/=" {
                    expr = self.positive(expr);
                    expr = Expr::Bin("+", Box::new(expr), Box::new(Expr::Lit(1.0)));
                } else if op == "*=" && self.loop_depth > 0 {
                    expr = Expr::M1("tanh", Box::new(expr));
                }
                Stmt::Store {
                    arr: arr.name,
                    idx,
                    op,
                    expr,
                }
            }
            7 => self.if_stmt(level),
            8 => self.for_stmt(level),
            9 => {
                self.returns_left -= 1;
                let d = self.rng.range(1, 3) as usize;
                Stmt::Return(self.expr(d))
            }
            _ => {
                let saved = self.enter_nested();
                self.push();
                let n = self.rng.range(1, 3) as usize;
                let body = self.stmts(n, level + 1);
                self.pop();
                self.leave_nested(saved);
                Stmt::Block(body)
            }
        }
    }

    fn let_stmt(&mut self) -> Stmt {
        let d = self.rng.range(1, 3) as usize;
        let expr = self.expr(d);
        let (name, _shadow) = self.name_for_let();
        let mutable = self.rng.chance(0.6);
        let anchored = anchored(&expr);
        let annot = if anchored {
            self.rng.chance(0.2)
        } else {
            self.value_only || self.rng.chance(0.6)
        };
        // Rust knows the type of an annotated variable, or of one bound to an `f64` value; the
        // others may be `{float}`, so their methods are called as `f64::sqrt(c)`.
        let typed = anchored || annot;
        self.scope().f.push(FVar {
            name: name.clone(),
            mutable,
            typed,
        });
        Stmt::Let {
            name,
            mutable,
            annot,
            expr,
        }
    }

    fn let_array(&mut self) -> Stmt {
        self.arrays_left -= 1;
        let name = self.fresh("h");
        let len = self.rng.range(1, 5) as usize;
        let fill = if self.rng.chance(0.7) {
            0.0
        } else {
            self.positive_literal()
        };
        let style = self.rng.below(3) as u8;
        let loop_depth = self.loop_depth;
        self.scope().s.push(SVar {
            name: name.clone(),
            len,
            exact: true,
            local: true,
            loop_depth,
            typed: style != 0,
        });
        Stmt::LetArr {
            name,
            len,
            fill,
            style,
        }
    }

    fn assign(&mut self, mutable: &[FVar]) -> Stmt {
        let v = self.rng.pick(mutable);
        let op = self.rng.pick(&["=", "=", "+=", "+=", "-=", "*=", "/="]);
        let d = self.rng.range(1, 3) as usize;
        let mut expr = self.expr(d);
        let in_loop = self.loop_depth > 0;
        match op {
            "/=" => {
                expr = self.positive(expr);
                if in_loop {
                    expr = Expr::Bin("+", Box::new(expr), Box::new(Expr::Lit(1.0)));
                }
            }
            "*=" if in_loop => expr = Expr::M1("tanh", Box::new(expr)),
            "=" if in_loop && self.rng.chance(0.5) => {
                // x = (x * c + e).tanh(), or x = x * 0.5 + e: bounded across iterations.
                let me = Expr::Var(v.name.clone(), v.typed);
                let scaled = Expr::Bin("*", Box::new(me), Box::new(Expr::Lit(0.5)));
                let sum = Expr::Bin("+", Box::new(scaled), Box::new(expr));
                expr = if self.rng.chance(0.5) && !self.value_only {
                    Expr::M1("sin", Box::new(sum))
                } else if self.rng.chance(0.5) {
                    Expr::M1("tanh", Box::new(sum))
                } else {
                    sum
                };
            }
            _ => {}
        }
        Stmt::Assign {
            name: v.name,
            op,
            expr,
        }
    }

    fn if_stmt(&mut self, level: usize) -> Stmt {
        self.if_depth += 1;
        let arms_n = self.rng.weighted(&[0, 6, 3, 1]);
        let mut arms = Vec::new();
        for _ in 0..arms_n {
            let cond = self.cond(2);
            self.push();
            let n = self.rng.range(1, 3) as usize;
            let body = self.stmts(n, level + 1);
            self.pop();
            arms.push((cond, body));
        }
        let els = if self.rng.chance(0.5) {
            self.push();
            let n = self.rng.range(1, 3) as usize;
            let body = self.stmts(n, level + 1);
            self.pop();
            Some(body)
        } else {
            None
        };
        self.if_depth -= 1;
        Stmt::If { arms, els }
    }

    fn for_stmt(&mut self, level: usize) -> Stmt {
        self.loops_left -= 1;
        let seqs = self.svars();
        let ints = self.ivars(ITy::Usize);
        let params: Vec<IVar> = ints.iter().filter(|v| v.bound.is_some()).cloned().collect();
        let usize_params: Vec<IVar> = ints
            .iter()
            .filter(|v| v.name.starts_with('n'))
            .cloned()
            .collect();
        let (lo, hi, inclusive, bound) = match self.rng.weighted(&[
            if seqs.is_empty() { 0 } else { 8 },
            4,
            2,
            if usize_params.is_empty() { 0 } else { 3 },
            2,
            if params.is_empty() { 0 } else { 3 },
        ]) {
            0 => {
                let s = self.rng.pick(&seqs);
                let bound = if s.exact {
                    Bound::Const(s.len)
                } else {
                    Bound::Len(s.name.clone())
                };
                if !s.exact && self.rng.chance(0.2) {
                    // for i in 1..w.len(): still below w.len()
                    (IExpr::Lit(1), IExpr::Len(s.name.clone()), false, bound)
                } else {
                    (IExpr::Lit(0), IExpr::Len(s.name.clone()), false, bound)
                }
            }
            1 => {
                let n = self.rng.range(1, 4);
                (
                    IExpr::Lit(0),
                    IExpr::Lit(n),
                    false,
                    Bound::Const(n as usize),
                )
            }
            2 => {
                let n = self.rng.range(0, 3);
                (
                    IExpr::Lit(0),
                    IExpr::Lit(n),
                    true,
                    Bound::Const(n as usize + 1),
                )
            }
            3 => {
                // n has its own maximum; i < n <= max
                let v = self.rng.pick(&usize_params);
                let max = match v.bound {
                    Some(Bound::Const(c)) => c,
                    _ => 4,
                };
                (IExpr::Lit(0), IExpr::Var(v.name), false, Bound::Const(max))
            }
            4 => {
                let a = self.rng.range(1, 2);
                let b = self.rng.range(2, 5);
                (
                    IExpr::Lit(a),
                    IExpr::Lit(b),
                    false,
                    Bound::Const(b as usize),
                )
            }
            _ => {
                // nested: for j in 0..i, 0..=i, i..w.len()
                let v = self.rng.pick(&params);
                let b = v.bound.clone().expect("bounded");
                match self.rng.below(2) {
                    0 => (IExpr::Lit(0), IExpr::Var(v.name), false, b),
                    _ => (IExpr::Lit(0), IExpr::Var(v.name), true, b),
                }
            }
        };
        let var = if self.rng.chance(0.1) {
            None
        } else {
            Some(self.fresh("i"))
        };
        self.loop_depth += 1;
        self.push();
        if let Some(name) = &var {
            let depth = self.depth();
            self.scope().i.push(IVar {
                name: name.clone(),
                ty: ITy::Usize,
                bound: Some(bound),
                mutable: false,
                depth,
            });
        }
        let saved_ret = self.enter_nested();
        let n = self.rng.range(1, 4) as usize;
        let body = self.stmts(n, level + 1);
        self.leave_nested(saved_ret);
        self.pop();
        self.loop_depth -= 1;
        Stmt::For {
            var,
            lo,
            hi,
            inclusive,
            body,
        }
    }
}

/// Whether `e` holds statements (an `if` value, a block).
fn has_stmts(e: &Expr) -> bool {
    match e {
        Expr::If(..) | Expr::Block(..) => true,
        Expr::Lit(_) | Expr::Const(_) | Expr::Var(..) | Expr::Index(..) | Expr::Cast(_) => false,
        Expr::Neg(a) | Expr::M1(_, a) | Expr::Powi(a, _) => has_stmts(a),
        Expr::Bin(_, a, b) | Expr::M2(_, a, b) | Expr::Path2(_, a, b) => {
            has_stmts(a) || has_stmts(b)
        }
        Expr::Call(_, args) => args.iter().any(|a| match a {
            Arg::Scalar(e) => has_stmts(e),
            Arg::Bool(_) => true,
            Arg::Slice(..) | Arg::Int(_) => false,
        }),
    }
}

/// Whether Rust knows `e` is an `f64` (otherwise it may be an unsuffixed `{float}`).
fn anchored(e: &Expr) -> bool {
    match e {
        Expr::Lit(_) => false,
        Expr::Var(_, typed) | Expr::Index(_, _, typed) => *typed,
        Expr::Neg(a) => anchored(a),
        Expr::Bin(_, a, b) => anchored(a) || anchored(b),
        Expr::If(arms, _, tail) => anchored(tail) || arms.iter().any(|(_, _, t)| anchored(t)),
        Expr::Block(_, tail) => anchored(tail),
        _ => true,
    }
}

/// The parameters of a new function.
fn params(rng: &mut Rng, entry: bool) -> Vec<Param> {
    let n = rng.range(1, 4) as usize;
    let mut out: Vec<Param> = Vec::new();
    for k in 0..n {
        let kind = match rng.weighted(&[50, 20, if entry { 6 } else { 0 }, 10, 5, 4]) {
            0 => PKind::Scalar,
            1 => PKind::Slice(rng.range(1, 4) as usize),
            2 => PKind::Array(rng.range(1, 4) as usize),
            3 => PKind::Usize(rng.range(1, 4) as usize),
            4 => {
                let lo = rng.range(-2, 1) as i32;
                PKind::I32(lo, lo + rng.range(1, 3) as i32)
            }
            _ => PKind::Bool,
        };
        let prefix = match kind {
            PKind::Scalar => "a",
            PKind::Slice(_) | PKind::Array(_) => "w",
            PKind::Usize(_) => "n",
            PKind::I32(..) => "e",
            PKind::Bool => "flag",
        };
        let mut name = format!("{prefix}{k}");
        if kind == PKind::Scalar && rng.chance(0.05) {
            let tricky = rng.pick(&["seed", "graph", "t0", "d_a0", "c0", "tape"]);
            if !out.iter().any(|p| p.name == tricky) {
                name = tricky.to_string();
            }
        }
        out.push(Param { name, kind });
    }
    if !out.iter().any(|p| p.kind.differentiable()) {
        let k = out.len();
        out.push(Param {
            name: format!("a{k}"),
            kind: PKind::Scalar,
        });
    }
    out
}

/// Generates program `id` of the run seeded with `seed`.
pub fn program(seed: u64, id: usize) -> Program {
    let mut rng = Rng::new(program_seed(seed, id));
    let value_only = rng.chance(0.3);
    let nfuncs = rng.weighted(&[0, 50, 35, 15]);
    let mut funcs: Vec<Func> = Vec::new();
    for k in 0..nfuncs {
        let entry = k + 1 == nfuncs;
        let params = params(&mut rng, entry);
        let callees: Vec<Callee> = funcs
            .iter()
            .map(|f| Callee {
                name: f.name.clone(),
                params: f.params.clone(),
            })
            .collect();
        let mut g = Gen {
            rng: &mut rng,
            value_only,
            scopes: vec![Scope::default()],
            loop_depth: 0,
            if_depth: 0,
            ret_ok: true,
            returns_left: 2,
            loops_left: 4,
            calls_left: if callees.is_empty() { 0 } else { 3 },
            arrays_left: 3,
            frozen: HashSet::new(),
            no_pass: Vec::new(),
            callees,
            counter: 0,
        };
        for p in &params {
            match p.kind {
                PKind::Scalar => g.scope().f.push(FVar {
                    name: p.name.clone(),
                    mutable: false,
                    typed: true,
                }),
                PKind::Slice(len) | PKind::Array(len) => g.scope().s.push(SVar {
                    name: p.name.clone(),
                    len,
                    exact: matches!(p.kind, PKind::Array(_)),
                    local: false,
                    loop_depth: 0,
                    typed: true,
                }),
                PKind::Usize(max) => g.scope().i.push(IVar {
                    name: p.name.clone(),
                    ty: ITy::Usize,
                    // n <= max: a loop `0..n` stays below max, n itself below max + 1
                    bound: Some(Bound::Const(max + 1)),
                    mutable: false,
                    depth: 1,
                }),
                PKind::I32(..) => g.scope().i.push(IVar {
                    name: p.name.clone(),
                    ty: ITy::I32,
                    bound: None,
                    mutable: false,
                    depth: 1,
                }),
                PKind::Bool => g.scope().b.push(p.name.clone()),
            }
        }
        // Every callee slice gets something long enough to pass: a local array of length 4
        // whenever the function calls a function taking slices and has no slice of its own.
        let mut body = Vec::new();
        let needs_array = g
            .callees
            .iter()
            .any(|c| c.params.iter().any(|p| matches!(p.kind, PKind::Slice(_))));
        if needs_array && !g.svars().iter().any(|s| s.len >= 4) {
            let name = g.fresh("h");
            g.scope().s.push(SVar {
                name: name.clone(),
                len: 4,
                exact: true,
                local: true,
                loop_depth: 0,
                typed: true,
            });
            body.push(Stmt::LetArr {
                name: name.clone(),
                len: 4,
                fill: 0.0,
                style: 1,
            });
            g.no_pass.push(name.clone());
            let src = g.expr(1);
            g.no_pass.pop();
            body.push(Stmt::Store {
                arr: name.clone(),
                idx: IExpr::Lit(g.rng.range(0, 3)),
                op: "=",
                expr: src,
            });
        }
        let n = g.rng.range(2, 8) as usize;
        body.extend(g.stmts(n, 0));
        let ends_with_return = matches!(body.last(), Some(Stmt::Return(_)));
        let tail = if ends_with_return {
            None
        } else {
            let d = g.rng.range(1, 3) as usize;
            let mut tail = g.expr(d);
            // Tie a few live variables and array entries into the result.
            let vars = g.fvars();
            for _ in 0..g.rng.range(0, 3) {
                if vars.is_empty() {
                    break;
                }
                let v = g.rng.pick(&vars);
                let op = g.rng.pick(&["+", "-", "+"]);
                tail = Expr::Bin(op, Box::new(tail), Box::new(Expr::Var(v.name, v.typed)));
            }
            if g.rng.chance(0.3) {
                body.push(Stmt::Return(tail));
                None
            } else {
                Some(tail)
            }
        };
        drop(g);
        let wrt = if rng.chance(0.3) {
            let diff: Vec<String> = params
                .iter()
                .filter(|p| p.kind.differentiable())
                .map(|p| p.name.clone())
                .collect();
            let mut chosen: Vec<String> =
                diff.iter().filter(|_| rng.chance(0.5)).cloned().collect();
            if chosen.is_empty() {
                chosen.push(rng.pick(&diff));
            }
            if rng.chance(0.3) {
                chosen.reverse();
            }
            Some(chosen)
        } else {
            None
        };
        funcs.push(Func {
            name: format!("f{k}"),
            params,
            wrt,
            body,
            tail,
        });
    }
    Program {
        id,
        funcs,
        value_only,
    }
}

// ---------------------------------------------------------------------------------------------
// Printing

struct Printer {
    mode: Mode,
    out: String,
    indent: usize,
}

impl Printer {
    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn float(&self, v: f64, typed: bool) -> String {
        match self.mode {
            Mode::Plain => {
                let s = if typed {
                    format!("{v:?}_f64")
                } else {
                    format!("{v:?}")
                };
                if v < 0.0 || (v == 0.0 && v.is_sign_negative()) {
                    format!("({s})")
                } else {
                    s
                }
            }
            Mode::Trace => format!("T::c({v:?})"),
            Mode::Value => format!("Value::new({v:?})"),
        }
    }

    fn ty(&self) -> &'static str {
        match self.mode {
            Mode::Plain => "f64",
            Mode::Trace => "T",
            Mode::Value => "Value",
        }
    }

    fn iexpr(&self, e: &IExpr) -> String {
        match e {
            IExpr::Lit(v) => format!("{v}"),
            IExpr::Var(n) => n.clone(),
            IExpr::Len(s) => format!("{s}.len()"),
            IExpr::Bin(op, a, b) => format!("({} {op} {})", self.iexpr(a), self.iexpr(b)),
            IExpr::Cast(a, ty) => format!("({} as {ty})", self.iexpr(a)),
        }
    }

    /// Prints `e`; `typed` asks for suffixed literals (a literal-only method receiver).
    fn expr(&mut self, e: &Expr, typed: bool) -> String {
        match e {
            Expr::Lit(v) => self.float(*v, typed),
            Expr::Const(c) => match self.mode {
                Mode::Plain => format!("std::f64::consts::{c}"),
                Mode::Trace => format!("T::c(std::f64::consts::{c})"),
                Mode::Value => format!("Value::new(std::f64::consts::{c})"),
            },
            Expr::Var(n, _) => match self.mode {
                Mode::Value => format!("{n}.clone()"),
                _ => n.clone(),
            },
            Expr::Index(s, i, _) => {
                let i = self.iexpr(i);
                match self.mode {
                    Mode::Value => format!("{s}[{i}].clone()"),
                    _ => format!("{s}[{i}]"),
                }
            }
            Expr::Neg(a) => format!("(-{})", self.expr(a, typed)),
            Expr::Bin(op, a, b) => {
                format!("({} {op} {})", self.expr(a, typed), self.expr(b, typed))
            }
            Expr::M1(m, a) => self.method(m, a, &[]),
            Expr::M2(m, a, b) => self.method(m, a, &[b]),
            Expr::Powi(a, n) => {
                let n = self.iexpr(n);
                let recv_typed = anchored(a);
                let a = self.expr(a, !recv_typed);
                match self.mode {
                    Mode::Plain if !recv_typed => format!("f64::powi({a}, {n})"),
                    _ => format!("{}.powi({n})", paren(&a)),
                }
            }
            Expr::Path2(m, a, b) => {
                let a = self.expr(a, false);
                let b = self.expr(b, false);
                format!("{}::{m}({a}, {b})", self.ty())
            }
            Expr::Cast(i) => {
                let i = self.iexpr(i);
                match self.mode {
                    Mode::Plain => format!("({i} as f64)"),
                    Mode::Trace => format!("T::c({i} as f64)"),
                    Mode::Value => format!("Value::new({i} as f64)"),
                }
            }
            Expr::If(arms, els, tail) => {
                let mut s = String::new();
                for (k, (c, stmts, t)) in arms.iter().enumerate() {
                    if k > 0 {
                        s.push_str(" else ");
                    }
                    let c = self.cond(c);
                    let _ = write!(s, "if {c} {}", self.block_expr(stmts, t, typed));
                }
                let _ = write!(s, " else {}", self.block_expr(els, tail, typed));
                format!("({s})")
            }
            Expr::Block(stmts, tail) => self.block_expr(stmts, tail, typed),
            Expr::Call(f, args) => {
                let args: Vec<String> = args.iter().map(|a| self.arg(a)).collect();
                let name = match self.mode {
                    Mode::Plain => f.clone(),
                    Mode::Trace => format!("{f}_t"),
                    Mode::Value => format!("{f}_v"),
                };
                format!("{name}({})", args.join(", "))
            }
        }
    }

    /// `{ stmts; tail }` on one line per statement, as an expression.
    fn block_expr(&mut self, stmts: &[Stmt], tail: &Expr, typed: bool) -> String {
        let mut inner = Printer {
            mode: self.mode,
            out: String::new(),
            indent: self.indent + 1,
        };
        inner.out.push_str("{\n");
        for s in stmts {
            inner.stmt(s);
        }
        let t = inner.expr(tail, typed);
        inner.line(&t);
        for _ in 0..self.indent {
            inner.out.push_str("    ");
        }
        inner.out.push('}');
        inner.out
    }

    fn method(&mut self, m: &str, recv: &Expr, args: &[&Expr]) -> String {
        let recv_typed = anchored(recv);
        let r = self.expr(recv, !recv_typed);
        let args: Vec<String> = args.iter().map(|a| self.expr(a, false)).collect();
        match self.mode {
            Mode::Plain if !recv_typed => {
                let mut all = vec![r];
                all.extend(args);
                format!("f64::{m}({})", all.join(", "))
            }
            _ => format!("{}.{m}({})", paren(&r), args.join(", ")),
        }
    }

    fn arg(&mut self, a: &Arg) -> String {
        match a {
            Arg::Scalar(e) => self.expr(e, false),
            Arg::Int(i) => self.iexpr(i),
            Arg::Bool(c) => self.cond(c),
            Arg::Slice(s, form) => match form {
                SliceForm::Whole => s.clone(),
                SliceForm::Ref => format!("&{s}"),
                SliceForm::Full => format!("&{s}[..]"),
                SliceForm::From(a) => format!("&{s}[{}..]", self.iexpr(a)),
                SliceForm::To(b) => format!("&{s}[..{}]", self.iexpr(b)),
                SliceForm::Range(a, b) => format!("&{s}[{}..{}]", self.iexpr(a), self.iexpr(b)),
            },
        }
    }

    fn cond(&mut self, c: &Cond) -> String {
        match c {
            Cond::Cmp(op, a, b) => {
                let a = self.expr(a, false);
                let b = self.expr(b, false);
                match self.mode {
                    Mode::Value => format!("({}.data() {op} {}.data())", paren(&a), paren(&b)),
                    // `<` on `T` borrows its left operand; `f64` copies it before the right
                    // one runs (which may assign it).
                    Mode::Trace => format!("(T::id({a}) {op} {b})"),
                    Mode::Plain => format!("({a} {op} {b})"),
                }
            }
            Cond::ICmp(op, a, b) => format!("({} {op} {})", self.iexpr(a), self.iexpr(b)),
            Cond::And(a, b) => format!("({} && {})", self.cond(a), self.cond(b)),
            Cond::Or(a, b) => format!("({} || {})", self.cond(a), self.cond(b)),
            Cond::Not(a) => format!("!{}", self.cond(a)),
            Cond::Var(n) => n.clone(),
            Cond::Lit(b) => format!("{b}"),
        }
    }

    fn body(&mut self, stmts: &[Stmt]) {
        self.indent += 1;
        for s in stmts {
            self.stmt(s);
        }
        self.indent -= 1;
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Let {
                name,
                mutable,
                annot,
                expr,
            } => {
                let m = if *mutable { "mut " } else { "" };
                let a = if *annot {
                    format!(": {}", self.ty())
                } else {
                    String::new()
                };
                let e = self.expr(expr, false);
                self.line(&format!("let {m}{name}{a} = {e};"));
            }
            Stmt::LetInt {
                name,
                mutable,
                expr,
            } => {
                let m = if *mutable { "mut " } else { "" };
                let e = self.iexpr(expr);
                self.line(&format!("let {m}{name}: usize = {e};"));
            }
            Stmt::LetBool { name, cond } => {
                let c = self.cond(cond);
                self.line(&format!("let {name} = {c};"));
            }
            Stmt::LetArr {
                name,
                len,
                fill,
                style,
            } => {
                let text = match (self.mode, style) {
                    (Mode::Plain, 0) => format!("let mut {name} = [{fill:?}; {len}];"),
                    (Mode::Plain, 1) => {
                        format!("let mut {name}: [f64; {len}] = [{fill:?}; {len}];")
                    }
                    (Mode::Plain, _) => format!("let mut {name} = [{fill:?}_f64; {len}];"),
                    (Mode::Trace, _) => {
                        format!("let mut {name}: [T; {len}] = [T::c({fill:?}); {len}];")
                    }
                    (Mode::Value, _) => {
                        format!("let mut {name}: Vec<Value> = vec![Value::new({fill:?}); {len}];")
                    }
                };
                self.line(&text);
            }
            Stmt::Assign { name, op, expr } => {
                let e = self.expr(expr, false);
                // `T` and `Value` overload `+=`, which borrows the target before `e` runs
                // (and `e` may read or even change it); the primitive `f64` evaluates `e`
                // first. A temporary keeps that order.
                match (self.mode, *op) {
                    (Mode::Plain, _) => self.line(&format!("{name} {op} {e};")),
                    (Mode::Trace, _) | (Mode::Value, "=") => {
                        self.line(&format!("{{ let rhs__ = {e}; {name} {op} rhs__; }}"))
                    }
                    (Mode::Value, _) => {
                        let op = &op[..1];
                        self.line(&format!(
                            "{{ let rhs__ = {e}; {name} = {name}.clone() {op} rhs__; }}"
                        ))
                    }
                }
            }
            Stmt::AssignInt { name, op, expr } => {
                let e = self.iexpr(expr);
                self.line(&format!("{name} {op} {e};"));
            }
            Stmt::Store { arr, idx, op, expr } => {
                let i = self.iexpr(idx);
                let e = self.expr(expr, false);
                // (`Vec`'s `IndexMut` also borrows the vector before the index runs.)
                match (self.mode, *op) {
                    (Mode::Plain, _) => self.line(&format!("{arr}[{i}] {op} {e};")),
                    (Mode::Trace, _) | (Mode::Value, "=") => self.line(&format!(
                        "{{ let rhs__ = {e}; let i__ = {i}; {arr}[i__] {op} rhs__; }}"
                    )),
                    (Mode::Value, _) => {
                        let op = &op[..1];
                        self.line(&format!(
                            "{{ let rhs__ = {e}; let i__ = {i}; {arr}[i__] = {arr}[i__].clone() {op} rhs__; }}"
                        ))
                    }
                }
            }
            Stmt::If { arms, els } => {
                for (k, (c, body)) in arms.iter().enumerate() {
                    let c = self.cond(c);
                    if k == 0 {
                        self.line(&format!("if {c} {{"));
                    } else {
                        self.line(&format!("}} else if {c} {{"));
                    }
                    self.body(body);
                }
                if let Some(body) = els {
                    self.line("} else {");
                    self.body(body);
                }
                self.line("}");
            }
            Stmt::For {
                var,
                lo,
                hi,
                inclusive,
                body,
            } => {
                let v = var.as_deref().unwrap_or("_");
                let r = if *inclusive { "..=" } else { ".." };
                let (lo, hi) = (self.iexpr(lo), self.iexpr(hi));
                self.line(&format!("for {v} in {lo}{r}{hi} {{"));
                self.body(body);
                self.line("}");
            }
            Stmt::Return(e) => {
                let e = self.expr(e, false);
                self.line(&format!("return {e};"));
            }
            Stmt::Block(body) => {
                self.line("{");
                self.body(body);
                self.line("}");
            }
        }
    }

    fn func(&mut self, f: &Func) {
        if self.mode == Mode::Plain {
            match &f.wrt {
                None => self.line("#[differentiable]"),
                Some(w) => self.line(&format!("#[differentiable(wrt({}))]", w.join(", "))),
            }
        }
        let params: Vec<String> = f
            .params
            .iter()
            .map(|p| {
                let ty = match (&p.kind, self.mode) {
                    (PKind::Scalar, m) => printer_ty(m).to_string(),
                    (PKind::Slice(_), m) => format!("&[{}]", printer_ty(m)),
                    (PKind::Array(n), Mode::Plain) => format!("&[f64; {n}]"),
                    (PKind::Array(_), m) => format!("&[{}]", printer_ty(m)),
                    (PKind::Usize(_), _) => "usize".to_string(),
                    (PKind::I32(..), _) => "i32".to_string(),
                    (PKind::Bool, _) => "bool".to_string(),
                };
                format!("{}: {ty}", p.name)
            })
            .collect();
        let name = match self.mode {
            Mode::Plain => f.name.clone(),
            Mode::Trace => format!("{}_t", f.name),
            Mode::Value => format!("{}_v", f.name),
        };
        let ty = self.ty();
        self.line(&format!("pub fn {name}({}) -> {ty} {{", params.join(", ")));
        self.body(&f.body);
        if let Some(t) = &f.tail {
            self.indent += 1;
            let t = self.expr(t, false);
            self.line(&t);
            self.indent -= 1;
        }
        self.line("}");
    }
}

fn printer_ty(m: Mode) -> &'static str {
    match m {
        Mode::Plain => "f64",
        Mode::Trace => "T",
        Mode::Value => "Value",
    }
}

/// Wraps `s` in parentheses unless it is a plain name, call or already parenthesized.
fn paren(s: &str) -> String {
    let simple = s.chars().all(|c| c.is_alphanumeric() || c == '_')
        || (s.starts_with('(') && balanced_outer(s));
    if simple {
        s.to_string()
    } else {
        format!("({s})")
    }
}

/// Whether the first `(` of `s` closes at its very end.
fn balanced_outer(s: &str) -> bool {
    let mut depth = 0i32;
    for (k, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return k + 1 == s.len();
                }
            }
            _ => {}
        }
    }
    false
}

/// The program's functions as the macro sees them: a file a user could compile.
pub fn plain_source(p: &Program) -> String {
    let mut pr = Printer {
        mode: Mode::Plain,
        out: String::new(),
        indent: 0,
    };
    pr.line("use micrograd_runtime::prelude::*;");
    pr.line("");
    for f in &p.funcs {
        pr.func(f);
        pr.line("");
    }
    pr.out
}

fn functions(p: &Program, mode: Mode) -> String {
    let mut pr = Printer {
        mode,
        out: String::new(),
        indent: 0,
    };
    for f in &p.funcs {
        pr.func(f);
        pr.line("");
    }
    pr.out
}

/// The module `pN.rs` of the checking crate: the three versions and their adapters.
pub fn module_source(p: &Program) -> String {
    let plain = plain_source(p);
    let entry = p.entry();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//! Program {}: generated by tests/random/generator.rs.",
        p.id
    );
    out.push_str("#![allow(warnings, clippy::all)]\n");
    out.push_str("use crate::rt::*;\nuse micrograd_runtime::Value;\n");
    out.push_str(&plain);
    out.push_str(&functions(p, Mode::Trace));
    if p.value_only {
        out.push_str(&functions(p, Mode::Value));
    }
    // Parameter table.
    let specs: Vec<String> = entry
        .params
        .iter()
        .map(|q| match q.kind {
            PKind::Scalar => "PSpec::S".to_string(),
            PKind::Slice(n) => format!("PSpec::Sl({n})"),
            PKind::Array(n) => format!("PSpec::Arr({n})"),
            PKind::Usize(m) => format!("PSpec::U({m})"),
            PKind::I32(lo, hi) => format!("PSpec::I({lo}, {hi})"),
            PKind::Bool => "PSpec::B".to_string(),
        })
        .collect();
    let wrt: Vec<String> = entry
        .params
        .iter()
        .map(|q| entry.is_wrt(q).to_string())
        .collect();
    let _ = writeln!(out, "pub const PARAMS: &[PSpec] = &[{}];", specs.join(", "));
    let _ = writeln!(out, "pub const WRT: &[bool] = &[{}];", wrt.join(", "));
    let _ = writeln!(out, "pub const SRC: &str = r####\"{plain}\"####;");
    // Adapters: unpack the flat point.
    let unpack = |elem: &str| -> (String, Vec<String>) {
        let mut s = String::new();
        let mut names = Vec::new();
        for (k, q) in entry.params.iter().enumerate() {
            let v = format!("p{k}");
            let get = match (&q.kind, elem) {
                (PKind::Scalar, _) => "c.s()".to_string(),
                (PKind::Slice(_), _) => "c.sl()".to_string(),
                (PKind::Array(n), "f64") => format!("c.arr::<{n}>()"),
                (PKind::Array(_), _) => "c.sl()".to_string(),
                (PKind::Usize(_), _) => "c.u()".to_string(),
                (PKind::I32(..), _) => "c.i()".to_string(),
                (PKind::Bool, _) => "c.b()".to_string(),
            };
            let _ = writeln!(s, "    let {v} = {get};");
            names.push(v);
        }
        (s, names)
    };
    let name = &entry.name;
    // f
    let (s, names) = unpack("f64");
    let _ = writeln!(
        out,
        "pub fn f(a: &Args) -> f64 {{\n    let mut c = Cur::new(&a.x, a);\n{s}    {name}({})\n}}",
        names.join(", ")
    );
    // g
    let (s, names) = unpack("f64");
    let mut call = Vec::new();
    let mut collect = String::new();
    let mut scalar = 0;
    for (k, q) in entry.params.iter().enumerate() {
        call.push(names[k].clone());
        let wrt = entry.is_wrt(q);
        match (&q.kind, wrt) {
            (PKind::Scalar, true) => {
                scalar += 1;
                let _ = writeln!(collect, "    out.push(Some(r.{scalar}));");
            }
            (PKind::Scalar, false) => collect.push_str("    out.push(None);\n"),
            (PKind::Slice(_) | PKind::Array(_), true) => {
                call.push(format!("&mut d{k}"));
                let _ = writeln!(collect, "    out.extend(d{k}.iter().map(|&v| Some(v)));");
            }
            (PKind::Slice(_) | PKind::Array(_), false) => {
                let _ = writeln!(collect, "    out.extend(p{k}.iter().map(|_| None));");
            }
            _ => {}
        }
    }
    let mut shadows = String::new();
    for (k, q) in entry.params.iter().enumerate() {
        if entry.is_wrt(q) {
            match q.kind {
                PKind::Slice(_) => {
                    let _ = writeln!(shadows, "    let mut d{k} = vec![fill; p{k}.len()];");
                }
                PKind::Array(n) => {
                    let _ = writeln!(shadows, "    let mut d{k} = [fill; {n}];");
                }
                _ => {}
            }
        }
    }
    let value = if scalar == 0 { "r" } else { "r.0" };
    let _ = writeln!(
        out,
        "pub fn g(a: &Args, fill: f64) -> (f64, Vec<Option<f64>>) {{\n    let mut c = Cur::new(&a.x, a);\n{s}{shadows}    let r = {name}_grad({});\n    let mut out: Vec<Option<f64>> = Vec::new();\n{collect}    ({value}, out)\n}}",
        call.join(", ")
    );
    // t
    let (s, names) = unpack("T");
    let _ = writeln!(
        out,
        "pub fn t(a: &Args, dir: usize) -> T {{\n    let xs = duals(&a.x, dir);\n    let mut c = Cur::new(&xs, a);\n{s}    {name}_t({})\n}}",
        names.join(", ")
    );
    // v
    if p.value_only {
        let (s, names) = unpack("Value");
        let _ = writeln!(
            out,
            "pub fn v(a: &Args) -> (f64, Vec<f64>) {{\n    let xs: Vec<Value> = a.x.iter().map(|&x| Value::new(x)).collect();\n    let mut c = Cur::new(&xs, a);\n{s}    let r = {name}_v({});\n    r.backward();\n    (r.data(), xs.iter().map(|x| x.grad()).collect())\n}}",
            names.join(", ")
        );
    }
    out
}

/// The `Prog` table entry of program `p` for the crate's `main.rs`.
pub fn table_entry(p: &Program) -> String {
    let m = format!("p{}", p.id);
    let v = if p.value_only {
        format!("Some({m}::v)")
    } else {
        "None".to_string()
    };
    format!(
        "    Prog {{ id: {}, params: {m}::PARAMS, wrt: {m}::WRT, src: {m}::SRC, f: {m}::f, g: {m}::g, t: {m}::t, v: {v} }},\n",
        p.id
    )
}
