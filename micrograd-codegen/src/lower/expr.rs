//! Expressions: each `f64` operation becomes one statement; integers and conditions stay trees.

use super::matching::ArmUse;
use super::paths::Named;
use super::{Lowerer, View};
use crate::ir::{CmpOp, Cond, Extern, Func2, IntExpr, IntOp, Op, Operand, Ty};
use syn::spanned::Spanned;
use syn::{BinOp, Expr, Lit, UnOp};

/// The lowered form of an expression, by type.
#[derive(Clone, Debug)]
pub enum Value {
    /// A differentiable scalar.
    F64(Operand),
    /// An integer.
    Int(IntExpr),
    /// A boolean.
    Bool(Cond),
    /// A slice parameter, a local array, or a window of one.
    Seq(View),
    /// A tuple `(a, b)`.
    Tuple(Vec<Value>),
    /// Data that is neither a float nor an integer (`pts[i]` of `pts: &[[f64; 2]]`), and its
    /// structural type.
    Data(crate::ir::Place, crate::types::Type),
    /// A path the macro does not know (a `const`): typed by its context.
    Unknown(Extern),
    /// An error was already reported.
    Error,
}

impl Lowerer<'_> {
    /// Lowers any expression to a typed value.
    pub(super) fn expr(&mut self, expr: &Expr) -> Value {
        match expr {
            Expr::Lit(lit) => self.literal(&lit.lit),
            Expr::Path(path) => self.path(path),
            Expr::Paren(inner) => self.expr(&inner.expr),
            Expr::Group(inner) => self.expr(&inner.expr),
            Expr::Binary(binary) => self.binary(binary),
            Expr::Unary(unary) => self.unary(unary),
            Expr::MethodCall(call) => self.method(call),
            Expr::Call(call) => self.call(call),
            Expr::Cast(cast) => self.cast(cast),
            Expr::Index(index) => self.index(index),
            Expr::If(branch) => self.if_expr(branch),
            Expr::Match(_) if self.tuple_arms(expr) => Value::Error,
            Expr::Match(expr) => match self.match_expr(expr, ArmUse::Value) {
                Some(operand) => Value::F64(operand),
                None => Value::Error,
            },
            Expr::Block(block) if block.label.is_none() => self.block_expr(&block.block),
            Expr::Reference(reference) => self.reference(reference),
            Expr::Tuple(tuple) if !tuple.elems.is_empty() => self.tuple(tuple),
            Expr::Field(field) => self.field(field),
            Expr::Array(array) => self.array_literal(array, None),
            Expr::Loop(the_loop) => match self.forever(the_loop, true) {
                Some(value) => Value::F64(value),
                None => Value::Error,
            },
            other => {
                self.unsupported(other);
                Value::Error
            }
        }
    }

    /// Lowers an expression that must be an `f64`.
    pub(super) fn f64_operand(&mut self, expr: &Expr) -> Option<Operand> {
        match self.in_context(true, expr) {
            Value::F64(operand) => Some(operand),
            Value::Unknown(path) => Some(Operand::Extern(path)),
            Value::Error => None,
            Value::Tuple(_) => {
                self.errors.at(
                    expr.span(),
                    format!("expected an `{float}` here, not a tuple; take its elements with `t.0` or `let (a, b) = t;`", float = self.scalar.name()),
                );
                None
            }
            _ => {
                let float = self.scalar.name();
                self.errors.at(
                    expr.span(),
                    format!("expected an `{float}` expression here"),
                );
                None
            }
        }
    }

    /// Lowers an expression that must be an integer.
    pub(super) fn int_operand(&mut self, expr: &Expr) -> Option<IntExpr> {
        match self.in_context(false, expr) {
            Value::Int(int) => Some(int),
            Value::Unknown(path) => Some(IntExpr::Extern(path)),
            Value::Error => None,
            _ => {
                self.errors
                    .at(expr.span(), "expected an integer expression here");
                None
            }
        }
    }

    /// Lowers `expr` where it must be a float (`float`) or where it need not: names the
    /// function does not define are floats in the first, as Rust converts nothing implicitly
    /// (`let k: f64 = K * K;` makes `K` an `f64`).
    pub(super) fn in_context(&mut self, float: bool, expr: &Expr) -> Value {
        let outer = std::mem::replace(&mut self.float_context, float);
        let value = self.expr(expr);
        self.float_context = outer;
        value
    }

    /// An integer expression outside the body (an array length in the signature).
    pub(super) fn int_expr(&mut self, expr: &Expr) -> IntExpr {
        self.int_operand(expr).unwrap_or(IntExpr::Lit {
            value: 0,
            suffix: String::new(),
        })
    }

    /// A name defined outside the function (a `const` or `static` array), indexed, iterated or
    /// measured: refused, saying how to hand it in.
    pub(super) fn outside_sequence(&mut self, outside: &Extern, span: proc_macro2::Span) -> Value {
        let name = outside.path.join("::");
        let float = self.scalar.name();
        self.error(
            span,
            format!("`{name}` is defined outside the function, and `#[differentiable]` reads arrays from its parameters and locals only: pass it in as a parameter (`w: &[{float}; N]`, called with `&{name}`), which is data, never differentiated, when `wrt(..)` leaves it out"),
        )
    }

    pub(super) fn error(
        &mut self,
        span: proc_macro2::Span,
        message: impl std::fmt::Display,
    ) -> Value {
        self.errors.at(span, message);
        Value::Error
    }

    fn path(&mut self, path: &syn::ExprPath) -> Value {
        if let Some(ident) = path.path.get_ident()
            && let Some(binding) = self.lookup(&ident.to_string())
        {
            if let Some(value) = self.aliases.get(&binding.var) {
                return value.clone();
            }
            return match self.ty(binding.var) {
                Ty::F64 => Value::F64(Operand::Var(binding.var)),
                Ty::Int => Value::Int(IntExpr::Var(binding.var)),
                Ty::Bool => Value::Bool(Cond::Var(binding.var)),
                Ty::Floats { .. } => Value::Seq(self.whole(binding.var)),
                Ty::Data(ty) => {
                    let place = crate::ir::Place {
                        root: binding.var,
                        steps: Vec::new(),
                    };
                    let ty = ty.clone();
                    self.data(place, &ty, path.span())
                }
            };
        }
        match super::paths::classify(path, self.scalar) {
            Named::F64(constant) => Value::F64(Operand::Extern(constant)),
            Named::Int(constant) => Value::Int(IntExpr::Extern(constant)),
            Named::Method(name) => self.error(
                path.span(),
                format!(
                    "`{float}::{name}` is a function: call it, `{float}::{name}(x)`",
                    float = self.scalar.name()
                ),
            ),
            // Typed by the whole function's uses where they say (`typing.rs`).
            Named::Other(external) => match self.outside.of(&external.path) {
                Some(true) => Value::F64(Operand::Extern(external)),
                Some(false) => Value::Int(IntExpr::Extern(external)),
                None => Value::Unknown(external),
            },
            Named::Mixed(found) => {
                self.errors.mixed(path.span(), self.scalar, found);
                Value::Error
            }
        }
    }

    fn binary(&mut self, binary: &syn::ExprBinary) -> Value {
        let span = binary.op.span();
        if let Some(cmp) = cmp_op(&binary.op) {
            return self.compare(cmp, &binary.left, &binary.right);
        }
        if matches!(binary.op, BinOp::And(_) | BinOp::Or(_)) {
            return Value::Bool(self.short_circuit(binary));
        }
        if let Some(op) = super::ints::bit_op(&binary.op) {
            return self.bitwise(op, binary);
        }
        if arith_op(&binary.op).is_none() {
            return self.error(
                span,
                "this operator is not supported here; use `+ - * /`, comparisons, `&&`, `||`, and `=`, `+=`, `-=`, `*=`, `/=` as statements",
            );
        }
        // `a + b + c + ..` nests to the left as deep as it is long: walk that spine in a loop,
        // not by recursion, so a sum of 10^5 terms needs no more stack than one of two.
        let mut spine = vec![binary];
        while let Expr::Binary(inner) = &*spine[spine.len() - 1].left
            && arith_op(&inner.op).is_some()
        {
            spine.push(inner);
        }
        let mut left = self.expr(&spine[spine.len() - 1].left);
        for node in spine.into_iter().rev() {
            left = self.arith(node, left);
        }
        left
    }

    /// `left op right` of one arithmetic node, its left side already lowered.
    fn arith(&mut self, binary: &syn::ExprBinary, left: Value) -> Value {
        let span = binary.op.span();
        let Some(op) = arith_op(&binary.op) else {
            return Value::Error;
        };
        let right = self.expr(&binary.right);
        match unify(left, right, self.float_context) {
            Some((Value::F64(a), Value::F64(b))) => match op {
                IntOp::Add => Value::F64(self.temp(Op::Add(a, b), span)),
                IntOp::Sub => Value::F64(self.temp(Op::Sub(a, b), span)),
                IntOp::Mul => Value::F64(self.temp(Op::Mul(a, b), span)),
                IntOp::Div => Value::F64(self.temp(Op::Div(a, b), span)),
                IntOp::Rem => Value::F64(self.temp(Op::Call2(Func2::Rem, a, b), span)),
            },
            Some((Value::Int(a), Value::Int(b))) => {
                Value::Int(IntExpr::Binary(op, Box::new(a), Box::new(b)))
            }
            Some((Value::Error, _) | (_, Value::Error)) => Value::Error,
            _ => self.mixed(&binary.left, &binary.right, span),
        }
    }

    /// `x * 2`: points at an integer literal if there is one, else at the operator.
    fn mixed(&mut self, left: &Expr, right: &Expr, operator: proc_macro2::Span) -> Value {
        let literal = [left, right].into_iter().find_map(|side| match side {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Int(int), ..
            }) => Some(int.clone()),
            _ => None,
        });
        match literal {
            Some(int) => {
                let digits = int.base10_digits();
                self.error(
                    int.span(),
                    format!(
                        "the integer `{digits}` is used in `{float}` arithmetic; write `{digits}.0`", float = self.scalar.name()
                    ),
                )
            }
            None => self.error(
                operator,
                format!("cannot mix `{float}` and integers in arithmetic; convert the integer with `as {float}`", float = self.scalar.name()),
            ),
        }
    }

    fn compare(&mut self, cmp: CmpOp, left: &Expr, right: &Expr) -> Value {
        let span = left.span();
        let left = self.expr(left);
        let right = self.expr(right);
        match unify(left, right, false) {
            Some((Value::F64(a), Value::F64(b))) => Value::Bool(Cond::F64(cmp, a, b)),
            Some((Value::Int(a), Value::Int(b))) => Value::Bool(Cond::Int(cmp, a, b)),
            Some((Value::Error, _) | (_, Value::Error)) => Value::Error,
            _ => self.error(
                span,
                format!(
                    "comparisons take two `{float}`s or two integers",
                    float = self.scalar.name()
                ),
            ),
        }
    }

    /// Lowers an expression that must be a boolean.
    pub(super) fn cond(&mut self, expr: &Expr) -> Cond {
        match self.in_context(false, expr) {
            Value::Bool(cond) => cond,
            Value::Error => Cond::Lit(true),
            _ => {
                self.errors
                    .at(expr.span(), "expected a condition such as `x > 0.0`");
                Cond::Lit(true)
            }
        }
    }

    fn unary(&mut self, unary: &syn::ExprUnary) -> Value {
        match (&unary.op, self.expr(&unary.expr)) {
            (UnOp::Neg(_), Value::F64(Operand::Const(c))) => Value::F64(Operand::Const(-c)),
            (UnOp::Neg(token), Value::F64(a)) => Value::F64(self.temp(Op::Neg(a), token.span)),
            (UnOp::Neg(token), Value::Unknown(path)) => {
                Value::F64(self.temp(Op::Neg(Operand::Extern(path)), token.span))
            }
            (UnOp::Neg(_), Value::Int(a)) => Value::Int(IntExpr::Neg(Box::new(a))),
            (UnOp::Not(_), Value::Bool(c)) => Value::Bool(Cond::Not(Box::new(c))),
            (UnOp::Deref(star), value) => self.deref(value, star.span),
            (_, Value::Error) => Value::Error,
            (op, _) => self.error(
                op.span(),
                "this unary operator is not supported here; use `-x` or `!c`",
            ),
        }
    }

    fn index(&mut self, index: &syn::ExprIndex) -> Value {
        let base = self.expr(&index.expr);
        self.index_value(base, index)
    }

    /// `index` of its base, lowered to `base`.
    pub(super) fn index_value(&mut self, base: Value, index: &syn::ExprIndex) -> Value {
        let view = match base {
            Value::Seq(view) => view,
            Value::Data(place, ty) => return self.data_index(place, &ty, index),
            Value::Error => return Value::Error,
            Value::Unknown(outside) => return self.outside_sequence(&outside, index.expr.span()),
            Value::Tuple(entries) if !matches!(&*index.index, Expr::Range(_)) => {
                return self.int_entry(entries, index);
            }
            // The caller cannot see how many values a call returns: `let` says so.
            Value::F64(_) => {
                // Reported once: the name's other uses say nothing more.
                if let Expr::Path(path) = &*index.expr
                    && let Some(name) = path.path.get_ident()
                {
                    let var = self.alias_var(&name.to_string(), Value::Error, name.span());
                    self.rebind(&name.to_string(), var);
                }
                return self.error(
                    index.expr.span(),
                    "this holds one `f64`, so it cannot be indexed; if it is what a function returning `[f64; M]` returned, say so where it is bound: `let r: [f64; M] = g(..);` or `let [a, b] = g(..);`",
                );
            }
            _ => {
                return self.error(
                    index.expr.span(),
                    "only slice parameters and local arrays can be indexed",
                );
            }
        };
        if let Expr::Range(range) = &*index.index {
            return self.error(range.span(), "a sub-slice is borrowed: write `&w[a..b]`");
        }
        if view.row.is_some() {
            // `l[i]` of a sequence of rows: the row, a view of its entries.
            return match self.int_operand(&index.index) {
                Some(i) => match self.tuples.get(&view.base) {
                    Some(&width) => self.tuple_at(&view.row_at(i), width, index),
                    None => Value::Seq(view.row_at(i)),
                },
                None => Value::Error,
            };
        }
        match self.int_operand(&index.index) {
            // A view's entries are read from its base: check the index against the view.
            Some(i) => {
                let at = self.entry(&view, i);
                Value::F64(self.temp(Op::Load(view.base, at), index.span()))
            }
            None => Value::Error,
        }
    }
}

impl Lowerer<'_> {
    /// `pts[i]` of an array of tuples of `width` elements: a tuple of the row's entries, each
    /// read from the base.
    fn tuple_at(&mut self, row: &View, width: u128, index: &syn::ExprIndex) -> Value {
        let entries = (0..width)
            .map(|k| {
                let k = IntExpr::Lit {
                    value: k,
                    suffix: String::new(),
                };
                let at = self.entry(row, k);
                Value::F64(self.temp(Op::Load(row.base, at), index.span()))
            })
            .collect();
        Value::Tuple(entries)
    }
}

fn cmp_op(op: &BinOp) -> Option<CmpOp> {
    Some(match op {
        BinOp::Lt(_) => CmpOp::Lt,
        BinOp::Le(_) => CmpOp::Le,
        BinOp::Gt(_) => CmpOp::Gt,
        BinOp::Ge(_) => CmpOp::Ge,
        BinOp::Eq(_) => CmpOp::Eq,
        BinOp::Ne(_) => CmpOp::Ne,
        _ => return None,
    })
}

/// The arithmetic of `op`, also for the compound assignments `+=` and friends.
pub(super) fn arith_op(op: &BinOp) -> Option<IntOp> {
    Some(match op {
        BinOp::Add(_) | BinOp::AddAssign(_) => IntOp::Add,
        BinOp::Sub(_) | BinOp::SubAssign(_) => IntOp::Sub,
        BinOp::Mul(_) | BinOp::MulAssign(_) => IntOp::Mul,
        BinOp::Div(_) | BinOp::DivAssign(_) => IntOp::Div,
        BinOp::Rem(_) | BinOp::RemAssign(_) => IntOp::Rem,
        _ => return None,
    })
}

/// Gives a path of unknown type the type of the other side; two of them are floats where the
/// expression must be one (`float`).
fn unify(left: Value, right: Value, float: bool) -> Option<(Value, Value)> {
    Some(match (left, right) {
        (Value::Unknown(a), Value::F64(b)) => (Value::F64(Operand::Extern(a)), Value::F64(b)),
        (Value::F64(a), Value::Unknown(b)) => (Value::F64(a), Value::F64(Operand::Extern(b))),
        (Value::Unknown(a), Value::Int(b)) => (Value::Int(IntExpr::Extern(a)), Value::Int(b)),
        (Value::Int(a), Value::Unknown(b)) => (Value::Int(a), Value::Int(IntExpr::Extern(b))),
        (Value::Unknown(a), Value::Unknown(b)) if float => (
            Value::F64(Operand::Extern(a)),
            Value::F64(Operand::Extern(b)),
        ),
        // Two unknown names are most often integer constants such as `ROWS * COLS`.
        (Value::Unknown(a), Value::Unknown(b)) => (
            Value::Int(IntExpr::Extern(a)),
            Value::Int(IntExpr::Extern(b)),
        ),
        pair => pair,
    })
}
