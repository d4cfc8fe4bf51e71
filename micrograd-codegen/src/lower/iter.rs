//! Iterator reductions with closures: `xs.iter().zip(ys).map(|(x, y)| x * y).sum::<f64>()`.
//!
//! A chain lowers to one counted loop over the index of its elements, which are read from
//! their slices where the loop body needs them, and a slot for the accumulator: the same IR
//! as the index loop a user would write, so it costs the same.
//!
//! Before: `w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>()`
//! After: `let mut s = -0.0; for i in 0..min(w.len(), x.len()) { let a = w[i]; let b = x[i];`
//! `let t = a * b; s = s + t; }`

mod elements;

use super::expr::Value;
use super::{Lowerer, View};
use crate::ir::{Carried, IntExpr, IntOp, Loop, LoopKind, Op, Operand, Stmt, Ty, VarId};
use syn::spanned::Spanned;
use syn::{Expr, ExprClosure, ExprMethodCall};

/// Where the elements come from, and what each adaptor does to them.
pub(super) enum Chain<'a> {
    /// The entries of a slice or array.
    Slice(View),
    /// The entries of data (`pts.iter()` of `pts: &[[f64; 2]]`), and its type.
    Data(crate::ir::Place, crate::types::Type),
    /// `a..b` of integers.
    Range(IntExpr, IntExpr),
    /// The entries of an array of integers (`[4, 7, 3]`).
    Ints(Vec<IntExpr>),
    /// `chunks(k)` (`exact`: `chunks_exact(k)`) of a slice.
    Chunks {
        of: View,
        size: IntExpr,
        exact: bool,
    },
    /// `windows(k)` of a slice.
    Windows { of: View, size: IntExpr },
    /// The rows of rows of their own lengths (`w.iter()` of `w: &[Vec<f64>]`), each a view.
    Rows(View),
    /// `(index, element)` pairs.
    Enumerate(Box<Chain<'a>>),
    /// Pairs of two chains, as long as the shorter.
    Zip(Box<Chain<'a>>, Box<Chain<'a>>),
    /// The elements last to first.
    Rev(Box<Chain<'a>>),
    /// The step's value of each element.
    Map(Box<Chain<'a>>, &'a ExprClosure),
    /// The elements after the first `k` (`skip(k)`).
    Skip(Box<Chain<'a>>, IntExpr),
    /// The first `k` elements, or all of them if fewer (`take(k)`).
    Take(Box<Chain<'a>>, IntExpr),
    /// Every `k`-th element from the first (`step_by(k)`).
    StepBy(Box<Chain<'a>>, IntExpr),
}

/// How the elements are combined.
enum Reduce<'a> {
    Sum,
    Product,
    Fold(&'a Expr, &'a ExprClosure),
}

const ADAPTORS: &str = "`.iter()`, `.map(|x| ..)`, `.zip(..)`, `.enumerate()`, `.rev()`, `.skip(k)`, `.take(k)`, `.step_by(k)`, `.copied()`, `.chunks(k)`, `.windows(k)`";
const REDUCERS: &str = "`.sum::<f64>()`, `.product::<f64>()` or `.fold(init, |acc, x| ..)`";

fn int(value: u128) -> IntExpr {
    IntExpr::Lit {
        value,
        suffix: String::new(),
    }
}

fn bin(op: IntOp, a: IntExpr, b: IntExpr) -> IntExpr {
    IntExpr::Binary(op, Box::new(a), Box::new(b))
}

fn min(a: IntExpr, b: IntExpr) -> IntExpr {
    IntExpr::Min(Box::new(a), Box::new(b))
}

/// Whether `name` is an iterator method this module lowers.
pub fn is_iterator_method(name: &str) -> bool {
    matches!(
        name,
        "iter"
            | "into_iter"
            | "map"
            | "zip"
            | "enumerate"
            | "rev"
            | "skip"
            | "take"
            | "step_by"
            | "copied"
            | "cloned"
            | "chunks"
            | "chunks_exact"
            | "windows"
            | "sum"
            | "product"
            | "fold"
    )
}

impl Lowerer<'_> {
    /// A method call that belongs to an iterator chain: lowered when it is the reduction
    /// that ends one, an error naming iterators otherwise.
    pub(super) fn iterator(&mut self, call: &ExprMethodCall) -> Value {
        let name = call.method.to_string();
        let reduce = match (name.as_str(), call.args.len()) {
            ("sum", 0) => Reduce::Sum,
            ("product", 0) => Reduce::Product,
            ("fold", 2) => match self.step_of(&call.args[1], "fold") {
                Some(step) => Reduce::Fold(&call.args[0], step),
                None => return Value::Error,
            },
            _ => {
                return self.error(
                    call.method.span(),
                    format!("an iterator must end in {REDUCERS} here, or be collected by a `let` outside loops (`let v: Vec<{float}> = w.iter().map(|x| ..).collect();`); it cannot be stored, returned or looped over from a variable: loop over the slice where the loop is, `for v in w.iter() {{ .. }}`", float = self.scalar.name()),
                );
            }
        };
        if let Some(turbofish) = &call.turbofish
            && !turbofish
                .args
                .iter()
                .any(|arg| matches!(arg, syn::GenericArgument::Type(ty) if self.mixes(ty)))
            && !turbofish
                .args
                .iter()
                .all(|arg| matches!(arg, syn::GenericArgument::Type(ty) if self.is_scalar(ty)))
        {
            return self.error(
                turbofish.span(),
                format!(
                    "iterators here sum `{float}`s: write `.sum::<{float}>()`",
                    float = self.scalar.name()
                ),
            );
        }
        let Some(chain) = self.chain(&call.receiver) else {
            return Value::Error;
        };
        self.reduce(chain, reduce, call.method.span())
    }

    /// Reads the adaptors of `expr` from the source outwards.
    pub(super) fn chain<'a>(&mut self, expr: &'a Expr) -> Option<Chain<'a>> {
        let Expr::MethodCall(call) = expr else {
            return self.source(expr);
        };
        let name = call.method.to_string();
        let args: Vec<&Expr> = call.args.iter().collect();
        let inner = |this: &mut Self| this.chain(&call.receiver);
        Some(match (name.as_str(), args.as_slice()) {
            ("iter" | "into_iter" | "copied" | "cloned", []) => inner(self)?,
            ("enumerate", []) => Chain::Enumerate(Box::new(inner(self)?)),
            ("rev", []) => Chain::Rev(Box::new(inner(self)?)),
            ("skip" | "take" | "step_by", [k]) => {
                let inner = Box::new(inner(self)?);
                let k = self.int_operand(k)?;
                match name.as_str() {
                    "skip" => Chain::Skip(inner, k),
                    "take" => Chain::Take(inner, k),
                    _ => Chain::StepBy(inner, k),
                }
            }
            ("zip", [other]) => {
                let first = inner(self)?;
                Chain::Zip(Box::new(first), Box::new(self.chain(other)?))
            }
            ("map", [step]) => {
                let inner = inner(self)?;
                Chain::Map(Box::new(inner), self.step_of(step, "map")?)
            }
            ("chunks" | "chunks_exact" | "windows", [size]) => {
                let of = self.slice_source(&call.receiver)?;
                let size = self.int_operand(size)?;
                match name.as_str() {
                    "windows" => Chain::Windows { of, size },
                    exact => Chain::Chunks {
                        of,
                        size,
                        exact: exact == "chunks_exact",
                    },
                }
            }
            _ => {
                self.errors.at(
                    call.method.span(),
                    format!("`{name}` is not supported in an iterator chain here; the supported adaptors are {ADAPTORS}, ending in {REDUCERS}"),
                );
                return None;
            }
        })
    }

    /// The start of a chain: a slice, an array, a view, or an integer range.
    fn source<'a>(&mut self, expr: &'a Expr) -> Option<Chain<'a>> {
        match expr {
            Expr::Range(range) => {
                let (Some(lo), Some(hi)) = (&range.start, &range.end) else {
                    self.errors.at(
                        range.span(),
                        "give the range both bounds: `a..b` or `a..=b`",
                    );
                    return None;
                };
                let (lo, hi) = (self.int_operand(lo)?, self.int_operand(hi)?);
                let hi = match range.limits {
                    syn::RangeLimits::Closed(_) => bin(IntOp::Add, hi, int(1)),
                    syn::RangeLimits::HalfOpen(_) => hi,
                };
                Some(Chain::Range(lo, hi))
            }
            Expr::Paren(inner) => self.source(&inner.expr),
            // `w[a..b].iter()`: the sub-slice, as `&w[a..b]` is.
            Expr::Index(index) if matches!(&*index.index, Expr::Range(_)) => {
                match self.sub_slice(index) {
                    Value::Seq(view) => Some(Chain::of(view)),
                    _ => None,
                }
            }
            other => match self.expr(other) {
                Value::Data(place, ty) if ty.elem().is_some() => Some(Chain::Data(place, ty)),
                Value::Unknown(outside) => match self.outside_sequence(&outside, other.span()) {
                    Value::Data(place, ty) => Some(Chain::Data(place, ty)),
                    _ => None,
                },
                Value::Tuple(entries) => match super::pattern::int_entries(&entries) {
                    Some(ints) => Some(Chain::Ints(ints)),
                    None => self.slice_of(other, Value::Tuple(entries)).map(Chain::of),
                },
                value => self.slice_of(other, value).map(Chain::of),
            },
        }
    }

    fn slice_source(&mut self, expr: &Expr) -> Option<View> {
        let value = self.expr(expr);
        self.slice_of(expr, value)
    }

    fn slice_of(&mut self, expr: &Expr, value: Value) -> Option<View> {
        match value {
            Value::Seq(view) => Some(view),
            Value::Error => None,
            _ => {
                self.errors.at(
                    expr.span(),
                    "iterators here run over slices, arrays and integer ranges",
                );
                None
            }
        }
    }
}

impl Lowerer<'_> {
    /// Folds the elements of `chain` into one `f64` with a counted loop.
    fn reduce(&mut self, chain: Chain, reduce: Reduce, span: proc_macro2::Span) -> Value {
        // `Sum for f64` starts from -0.0, so that an empty sum or one of -0.0 is -0.0.
        let (init, name) = match &reduce {
            Reduce::Sum => (Some(Operand::Const(-0.0)), "sum"),
            Reduce::Product => (Some(Operand::Const(1.0)), "product"),
            Reduce::Fold(init, _) => (self.f64_operand(init), "fold"),
        };
        let count = self.count_var(chain.count(), span);
        let slot = self.named(name, Ty::F64, span);
        self.loops += 1;
        let (body, (index, exit)) = self.capture(|this| {
            this.in_scope(|this| {
                let index = this.named("i", Ty::Int, span);
                let element = this.element(&chain, IntExpr::Var(index), span);
                (index, this.step(&reduce, slot, element, span))
            })
        });
        self.loops -= 1;
        let (Some(init), Some(exit)) = (init, exit) else {
            return Value::Error;
        };
        let kind = LoopKind::Range {
            index: Some(index),
            start: int(0),
            end: count,
            inclusive: false,
        };
        let id = self.loop_id();
        self.emit(Stmt::Loop(Box::new(Loop {
            id,
            span,
            kind,
            body,
            carried: vec![Carried { slot, init, exit }],
            exit: None,
            count: None,
        })));
        Value::F64(Operand::Var(slot))
    }

    /// A trip count worth naming is computed once, before the loop.
    fn count_var(&mut self, count: IntExpr, span: proc_macro2::Span) -> IntExpr {
        if matches!(
            count,
            IntExpr::Var(_) | IntExpr::Lit { .. } | IntExpr::Len(_)
        ) {
            return count;
        }
        let dst = self.named("n", Ty::Int, span);
        self.emit(Stmt::IntLet { dst, expr: count });
        IntExpr::Var(dst)
    }

    /// The accumulator after one more element.
    fn step(
        &mut self,
        reduce: &Reduce,
        slot: VarId,
        element: Value,
        span: proc_macro2::Span,
    ) -> Option<Operand> {
        let acc = Operand::Var(slot);
        let value = match reduce {
            Reduce::Fold(_, step) => self.inline(step, vec![Value::F64(acc.clone()), element]),
            _ => element,
        };
        let value = match value {
            Value::F64(operand) => operand,
            Value::Unknown(path) => Operand::Extern(path),
            Value::Error => return None,
            _ => {
                self.errors.at(
                    span,
                    format!("the elements reduced here must be `{float}`s; `.map(|x| ..)` them to `{float}` first", float = self.scalar.name()),
                );
                return None;
            }
        };
        Some(match reduce {
            Reduce::Sum => self.temp(Op::Add(acc, value), span),
            Reduce::Product => self.temp(Op::Mul(acc, value), span),
            Reduce::Fold(..) => value,
        })
    }
}
