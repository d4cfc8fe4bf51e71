//! Operators (`expr.rs`): arithmetic, comparisons and unary operators, each `f64` operation one
//! statement, integers trees; a name the function cannot see takes the type of the other side.
//!
//! Before: `x * K + 1.0` (`K` undecided)
//! After: `let t0 = x * K; let t1 = t0 + 1.0;`

use crate::ir::{CmpOp, Cond, Func2, IntExpr, IntOp, Op, Operand};
use crate::lower::Lowerer;
use crate::lower::expr::Value;
use syn::spanned::Spanned;
use syn::{BinOp, Expr, Lit, UnOp};

impl Lowerer<'_> {
    pub(super) fn binary(&mut self, binary: &syn::ExprBinary) -> Value {
        let span = binary.op.span();
        if let Some(cmp) = cmp_op(&binary.op) {
            return self.compare(cmp, &binary.left, &binary.right);
        }
        if matches!(binary.op, BinOp::And(_) | BinOp::Or(_)) {
            return Value::Bool(self.short_circuit(binary));
        }
        if let Some(op) = crate::lower::ints::bit_op(&binary.op) {
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
        // `i < half(N)`: a call beside an integer is an integer call (a `const fn`).
        let call = |side: &Expr| matches!(crate::lower::call::strip(side), Expr::Call(_));
        // Lowering `right` first tells an integer call beside it, but runs its writes before
        // the call's: where `right` writes, the sides are lowered in order, as Rust runs them.
        let (left, right) = match (call(left), call(right)) {
            (true, false) if !crate::lower::scan::writes(right) => {
                let right = self.expr(right);
                (self.beside(left, &right), right)
            }
            (false, true) => {
                let left = self.expr(left);
                let right = self.beside(right, &left);
                (left, right)
            }
            _ => (self.expr(left), self.expr(right)),
        };
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

    /// `call` compared with `other`: an integer call where `other` is an integer.
    pub(in crate::lower) fn beside(&mut self, call: &Expr, other: &Value) -> Value {
        if matches!(other, Value::Int(_))
            && let Some(int) = self.int_call(call)
        {
            return int.map_or(Value::Error, Value::Int);
        }
        self.expr(call)
    }

    pub(super) fn unary(&mut self, unary: &syn::ExprUnary) -> Value {
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
pub(in crate::lower) fn arith_op(op: &BinOp) -> Option<IntOp> {
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
