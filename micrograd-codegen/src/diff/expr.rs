//! Expression trees of the reverse sweep (adjoint formulas), built with ordinary operators.

use crate::ir::{CmpOp, Extern, Func, Func2, Func3, IntExpr, Operand, VarId};
use std::ops;

/// An `f64` expression of the generated code.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A forward value.
    Var(VarId),
    /// The adjoint `d_v` of a forward value.
    Adj(VarId),
    /// A literal.
    Const(f64),
    /// The adjoint of output `k`: `1.0` in `f_grad`, the caller's `seed` in `f_pullback`.
    Seed(usize),
    /// A named constant.
    Extern(Extern),
    /// A constant of `core::f64::consts` (or `f32`'s, in an `f32` function): `LN_2`.
    Consts(&'static str),
    /// `n as f64`.
    Int(IntExpr),
    /// `w[i]`, read again in the reverse sweep.
    Load(VarId, IntExpr),
    /// `d_h[i]`, the adjoint of an array entry.
    AdjLoad(VarId, IntExpr),
    /// `a + b`
    Add(Box<Expr>, Box<Expr>),
    /// `a - b`
    Sub(Box<Expr>, Box<Expr>),
    /// `a * b`
    Mul(Box<Expr>, Box<Expr>),
    /// `a / b`
    Div(Box<Expr>, Box<Expr>),
    /// `-a`
    Neg(Box<Expr>),
    /// `a.f()`
    Call1(Func, Box<Expr>),
    /// `a.f(b)`
    Call2(Func2, Box<Expr>, Box<Expr>),
    /// `a.f(b, c)`
    Call3(Func3, Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a.powi(n)`
    Powi(Box<Expr>, IntExpr),
    /// `if test { a } else { b }`
    Select(Box<Test>, Box<Expr>, Box<Expr>),
    /// `(a, b)`: the seeds of a call that returns its value and its tangent
    /// ([`crate::ir::Extern::pair`]), the adjoints of both.
    Pair(Box<Expr>, Box<Expr>),
}

/// A condition inside an adjoint formula.
#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    /// `a cmp b`
    Cmp(CmpOp, Expr, Expr),
    /// `n == m`
    IntEq(IntExpr, IntExpr),
    /// `a && b`
    And(Box<Test>, Box<Test>),
    /// `a || b`
    Or(Box<Test>, Box<Test>),
    /// `a.is_nan()`
    IsNan(Expr),
}

impl Expr {
    /// `if test { then } else { otherwise }`
    pub fn select(test: Test, then: Expr, otherwise: Expr) -> Expr {
        Expr::Select(Box::new(test), Box::new(then), Box::new(otherwise))
    }

    /// `::core::f64::consts::NAME` (in the function's float type)
    pub fn consts(name: &'static str) -> Expr {
        Expr::Consts(name)
    }

    /// `self.f()`
    pub fn call(self, f: Func) -> Expr {
        Expr::Call1(f, Box::new(self))
    }

    /// `self.f(other)`
    pub fn call2(self, f: Func2, other: Expr) -> Expr {
        Expr::Call2(f, Box::new(self), Box::new(other))
    }

    /// `self.f(b, c)`
    pub fn call3(self, f: Func3, b: Expr, c: Expr) -> Expr {
        Expr::Call3(f, Box::new(self), Box::new(b), Box::new(c))
    }

    /// `self.powi(n)`
    pub fn powi(self, n: IntExpr) -> Expr {
        Expr::Powi(Box::new(self), n)
    }

    /// Replaces each forward variable `v` for which `f` gives an expression.
    pub fn map_vars(self, f: &dyn Fn(VarId) -> Option<Expr>) -> Expr {
        self.rewrite(&|e| match e {
            Expr::Var(v) => f(*v),
            _ => None,
        })
    }

    /// Replaces the seed by `with`: a pullback rule is linear in its adjoint, so the rule with
    /// `with` as the adjoint is also the operand's part of the tangent (forward mode).
    pub fn replace_seed(self, with: &Expr) -> Expr {
        self.rewrite(&|e| matches!(e, Expr::Seed(_)).then(|| with.clone()))
    }

    /// Replaces, outermost first, each subexpression for which `f` gives a replacement (tests
    /// of selects included).
    ///
    /// A test reads forward values only (the rules build it from operands and results), so a
    /// rewrite of adjoints or of the seed finds nothing there; one of forward values must
    /// reach it.
    pub fn rewrite(self, f: &dyn Fn(&Expr) -> Option<Expr>) -> Expr {
        if let Some(replacement) = f(&self) {
            return replacement;
        }
        let map = |e: Box<Expr>| Box::new(e.rewrite(f));
        match self {
            Expr::Add(a, b) => Expr::Add(map(a), map(b)),
            Expr::Sub(a, b) => Expr::Sub(map(a), map(b)),
            Expr::Mul(a, b) => Expr::Mul(map(a), map(b)),
            Expr::Div(a, b) => Expr::Div(map(a), map(b)),
            Expr::Neg(a) => Expr::Neg(map(a)),
            Expr::Call1(func, a) => Expr::Call1(func, map(a)),
            Expr::Call2(func, a, b) => Expr::Call2(func, map(a), map(b)),
            Expr::Call3(func, a, b, c) => Expr::Call3(func, map(a), map(b), map(c)),
            Expr::Powi(a, n) => Expr::Powi(map(a), n),
            Expr::Select(test, a, b) => Expr::Select(Box::new(test.rewrite(f)), map(a), map(b)),
            Expr::Pair(a, b) => Expr::Pair(map(a), map(b)),
            leaf => leaf,
        }
    }

    /// Renames every scalar adjoint `d_v` the expression reads to `d_f(v)`.
    pub fn map_adjoints(self, f: &dyn Fn(VarId) -> VarId) -> Expr {
        self.rewrite(&|e| match e {
            Expr::Adj(v) => Some(Expr::Adj(f(*v))),
            _ => None,
        })
    }

    /// The direct subexpressions (a `Select`'s two values, not its test).
    fn children(&self) -> impl Iterator<Item = &Expr> {
        let (a, b, c): (Option<&Expr>, Option<&Expr>, Option<&Expr>) = match self {
            Expr::Add(a, b)
            | Expr::Sub(a, b)
            | Expr::Mul(a, b)
            | Expr::Div(a, b)
            | Expr::Call2(_, a, b)
            | Expr::Select(_, a, b)
            | Expr::Pair(a, b) => (Some(a), Some(b), None),
            Expr::Call3(_, a, b, c) => (Some(a), Some(b), Some(c)),
            Expr::Neg(a) | Expr::Call1(_, a) | Expr::Powi(a, _) => (Some(a), None, None),
            _ => (None, None, None),
        };
        a.into_iter().chain(b).chain(c)
    }

    /// Whether the expression reads an adjoint, an adjoint entry or the seed: the values an
    /// adjoint formula is linear in (the rest are forward values).
    pub fn reads_adjoints(&self) -> bool {
        matches!(self, Expr::Adj(_) | Expr::AdjLoad(..) | Expr::Seed(_))
            || self.children().any(Expr::reads_adjoints)
    }

    /// Calls `f` on every scalar adjoint `d_v` the expression reads.
    pub fn visit_adjoints(&self, f: &mut dyn FnMut(VarId)) {
        if let Expr::Adj(v) = self {
            f(*v);
        }
        self.children().for_each(|child| child.visit_adjoints(f));
    }

    /// Calls `f` on every array whose adjoint entries (`d_h[i]`) the expression reads.
    pub fn visit_adjoint_arrays(&self, f: &mut dyn FnMut(VarId)) {
        if let Expr::AdjLoad(a, _) = self {
            f(*a);
        }
        self.children()
            .for_each(|child| child.visit_adjoint_arrays(f));
    }

    /// Calls `f` on every forward variable the expression reads.
    pub fn visit_vars(&self, f: &mut dyn FnMut(VarId)) {
        match self {
            Expr::Var(v) => f(*v),
            Expr::Adj(_) | Expr::Const(_) | Expr::Seed(_) | Expr::Extern(_) | Expr::Consts(_) => {}
            Expr::Int(n) => n.visit_vars(f),
            Expr::Load(w, i) => {
                f(*w);
                i.visit_vars(f);
            }
            Expr::AdjLoad(_, i) => i.visit_vars(f),
            Expr::Add(a, b)
            | Expr::Sub(a, b)
            | Expr::Mul(a, b)
            | Expr::Div(a, b)
            | Expr::Call2(_, a, b)
            | Expr::Pair(a, b) => {
                a.visit_vars(f);
                b.visit_vars(f);
            }
            Expr::Call3(_, a, b, c) => {
                a.visit_vars(f);
                b.visit_vars(f);
                c.visit_vars(f);
            }
            Expr::Neg(a) | Expr::Call1(_, a) => a.visit_vars(f),
            Expr::Powi(a, n) => {
                a.visit_vars(f);
                n.visit_vars(f);
            }
            Expr::Select(test, a, b) => {
                test.visit_vars(f);
                a.visit_vars(f);
                b.visit_vars(f);
            }
        }
    }
}

impl Test {
    fn rewrite(self, f: &dyn Fn(&Expr) -> Option<Expr>) -> Test {
        match self {
            Test::Cmp(op, a, b) => Test::Cmp(op, a.rewrite(f), b.rewrite(f)),
            Test::And(a, b) => Test::And(Box::new(a.rewrite(f)), Box::new(b.rewrite(f))),
            Test::Or(a, b) => Test::Or(Box::new(a.rewrite(f)), Box::new(b.rewrite(f))),
            Test::IsNan(a) => Test::IsNan(a.rewrite(f)),
            int @ Test::IntEq(..) => int,
        }
    }

    /// Whether the test reads an adjoint, an adjoint entry or the seed.
    pub fn reads_adjoints(&self) -> bool {
        match self {
            Test::Cmp(_, a, b) => a.reads_adjoints() || b.reads_adjoints(),
            Test::IntEq(..) => false,
            Test::And(a, b) | Test::Or(a, b) => a.reads_adjoints() || b.reads_adjoints(),
            Test::IsNan(a) => a.reads_adjoints(),
        }
    }

    /// Calls `f` on every forward variable the test reads.
    pub fn visit_vars(&self, f: &mut dyn FnMut(VarId)) {
        match self {
            Test::Cmp(_, a, b) => {
                a.visit_vars(f);
                b.visit_vars(f);
            }
            Test::IntEq(a, b) => {
                a.visit_vars(f);
                b.visit_vars(f);
            }
            Test::And(a, b) | Test::Or(a, b) => {
                a.visit_vars(f);
                b.visit_vars(f);
            }
            Test::IsNan(a) => a.visit_vars(f),
        }
    }
}

impl From<&Operand> for Expr {
    fn from(operand: &Operand) -> Expr {
        match operand {
            Operand::Var(v) => Expr::Var(*v),
            Operand::Const(c) => Expr::Const(*c),
            Operand::Extern(path) => Expr::Extern(path.clone()),
        }
    }
}

macro_rules! binary_operator {
    ($trait:ident, $method:ident, $variant:ident) => {
        impl ops::$trait for Expr {
            type Output = Expr;
            fn $method(self, other: Expr) -> Expr {
                Expr::$variant(Box::new(self), Box::new(other))
            }
        }
    };
}

binary_operator!(Add, add, Add);
binary_operator!(Sub, sub, Sub);
binary_operator!(Div, div, Div);

/// `1 · x` is `x`: local partials (`f_graph` seeds with 1) print without the factor.
impl ops::Mul for Expr {
    type Output = Expr;
    fn mul(self, other: Expr) -> Expr {
        match (self, other) {
            (Expr::Const(one), e) | (e, Expr::Const(one)) if one == 1.0 => e,
            (a, b) => Expr::Mul(Box::new(a), Box::new(b)),
        }
    }
}

impl ops::Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::Neg(Box::new(self))
    }
}
