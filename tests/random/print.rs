//! Printing a program in each [`Mode`]: expressions and conditions.

use super::*;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;
use std::rc::Rc;

/// Writes a program as source text in one mode.
pub struct Printer {
    pub mode: Mode,
    pub out: String,
    pub indent: usize,
    /// The program's renaming ([`Program::names`]).
    pub names: HashMap<String, String>,
    /// Every name printed so far, as generated (before renaming).
    pub seen: Rc<RefCell<BTreeSet<String>>>,
    /// The arrays the entry takes by value: passed on as `&w` where a slice is expected.
    pub by_value: Vec<String>,
    /// The local arrays declared as `vec![..]` so far (as generated).
    pub vecs: Rc<RefCell<BTreeSet<String>>>,
    /// Printing the body of a function generic over its float `T` (generic_fns.rs), in
    /// `Plain`: literals are `T::from(c).unwrap()`.
    pub generic: bool,
    /// The program's functions are methods ([`Program::methods`]): in `Plain`, a call is
    /// `self.f0(..)`.
    pub methods: bool,
}

impl Printer {
    /// A printer of `p` in `mode`.
    pub fn new(p: &Program, mode: Mode) -> Printer {
        Printer {
            mode,
            out: String::new(),
            indent: 0,
            names: p.names.clone(),
            seen: Rc::default(),
            by_value: p
                .funcs
                .last()
                .into_iter()
                .flat_map(|f| &f.params)
                .filter(|q| matches!(q.kind, PKind::ArrayByValue(_)) && mode == Mode::Plain)
                .map(|q| q.name.clone())
                .collect(),
            vecs: Rc::default(),
            generic: false,
            methods: p.methods,
        }
    }

    /// How the variable generated as `name` is printed: every variable name goes through here
    /// (constructs of ext.rs too), so that hygiene.rs can rename them.
    pub fn name(&self, name: &str) -> String {
        self.seen.borrow_mut().insert(name.to_string());
        self.names
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }

    pub fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    pub fn float(&self, v: f64, typed: bool) -> String {
        match self.mode {
            Mode::Plain if self.generic && v < 0.0 => format!("(-T::from({:?}).unwrap())", -v),
            Mode::Plain if self.generic => format!("T::from({v:?}).unwrap()"),
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

    pub fn ty(&self) -> &'static str {
        match self.mode {
            Mode::Plain if self.generic => "T",
            Mode::Plain => "f64",
            Mode::Trace => "T",
            Mode::Value => "Value",
        }
    }

    pub fn iexpr(&self, e: &IExpr) -> String {
        match e {
            IExpr::Lit(v) => format!("{v}"),
            IExpr::Var(n) => self.name(n),
            IExpr::Len(s) => format!("{}.len()", self.name(s)),
            IExpr::Label(s, k) => format!("{}[{k}]", self.name(s)),
            IExpr::Bin(op, a, b) => format!("({} {op} {})", self.iexpr(a), self.iexpr(b)),
            IExpr::Cast(a, ty) => format!("({} as {ty})", self.iexpr(a)),
            IExpr::Pick(entries, i) => {
                let entries: Vec<String> = entries.iter().map(i64::to_string).collect();
                let i = self.iexpr(i);
                format!("[{}][{i} % {}]", entries.join(", "), entries.len())
            }
        }
    }

    /// How a call of the program's function `f` names it: `f0`, `self.f0` (a method), `f0_t`
    /// or `f0_v`.
    pub fn callee(&self, f: &str) -> String {
        match self.mode {
            Mode::Plain if self.methods && f != generic_fns::NAME => format!("self.{f}"),
            Mode::Plain => f.to_string(),
            Mode::Trace => format!("{f}_t"),
            Mode::Value => format!("{f}_v"),
        }
    }

    /// Prints `e`; `typed` asks for suffixed literals (a literal-only method receiver).
    pub fn expr(&mut self, e: &Expr, typed: bool) -> String {
        match e {
            Expr::Lit(v) => self.float(*v, typed),
            Expr::Const(c) => match self.mode {
                Mode::Plain => format!("std::f64::consts::{c}"),
                Mode::Trace => format!("T::c(std::f64::consts::{c})"),
                Mode::Value => format!("Value::new(std::f64::consts::{c})"),
            },
            Expr::Var(n, _) => match (self.mode, self.name(n)) {
                (Mode::Value, n) => format!("{n}.clone()"),
                (_, n) => n,
            },
            Expr::Index(s, i, _) => {
                let (s, i) = (self.name(s), self.iexpr(i));
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
                format!("{}({})", self.callee(f), args.join(", "))
            }
            Expr::Ext(node) => node.print(self, typed),
        }
    }

    /// `{ stmts; tail }` on one line per statement, as an expression.
    pub fn block_expr(&mut self, stmts: &[Stmt], tail: &Expr, typed: bool) -> String {
        let mut inner = Printer {
            mode: self.mode,
            out: String::new(),
            indent: self.indent + 1,
            names: self.names.clone(),
            seen: self.seen.clone(),
            by_value: self.by_value.clone(),
            vecs: self.vecs.clone(),
            generic: self.generic,
            methods: self.methods,
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

    pub fn method(&mut self, m: &str, recv: &Expr, args: &[&Expr]) -> String {
        let recv_typed = anchored(recv);
        let r = self.expr(recv, !recv_typed);
        let args: Vec<String> = args.iter().map(|a| self.expr(a, false)).collect();
        match self.mode {
            Mode::Plain if !recv_typed && !self.generic => {
                let mut all = vec![r];
                all.extend(args);
                format!("f64::{m}({})", all.join(", "))
            }
            _ => format!("{}.{m}({})", paren(&r), args.join(", ")),
        }
    }

    pub fn arg(&mut self, a: &Arg) -> String {
        match a {
            Arg::Scalar(e) => self.expr(e, false),
            Arg::Int(i) => self.iexpr(i),
            Arg::Bool(c) => self.cond(c),
            Arg::Slice(s, form) => match (form, self.name(s)) {
                (SliceForm::Whole, name) if self.by_value.contains(s) => format!("&{name}"),
                (SliceForm::Whole, s) => s,
                (SliceForm::Ref, s) => format!("&{s}"),
                (SliceForm::Full, s) => format!("&{s}[..]"),
                (SliceForm::From(a), s) => format!("&{s}[{}..]", self.iexpr(a)),
                (SliceForm::To(b), s) => format!("&{s}[..{}]", self.iexpr(b)),
                (SliceForm::Range(a, b), s) => {
                    format!("&{s}[{}..{}]", self.iexpr(a), self.iexpr(b))
                }
            },
        }
    }

    pub fn cond(&mut self, c: &Cond) -> String {
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
            Cond::Var(n) => self.name(n),
            Cond::Lit(b) => format!("{b}"),
        }
    }
}

pub fn printer_ty(m: Mode) -> &'static str {
    match m {
        Mode::Plain => "f64",
        Mode::Trace => "T",
        Mode::Value => "Value",
    }
}

/// Wraps `s` in parentheses unless it is a plain name, call or already parenthesized.
pub fn paren(s: &str) -> String {
    let simple = s.chars().all(|c| c.is_alphanumeric() || c == '_')
        || (s.starts_with('(') && balanced_outer(s));
    if simple {
        s.to_string()
    } else {
        format!("({s})")
    }
}

/// Whether the first `(` of `s` closes at its very end.
pub fn balanced_outer(s: &str) -> bool {
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
