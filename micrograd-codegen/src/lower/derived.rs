//! Methods of `f64` that std defines through others the IR has: lowered as std writes them,
//! so the value, or the decision, is the one `f` computes, bit for bit.
//!
//! Before: `let (s, c) = t.sin_cos(); if x.is_finite() { .. }`
//! After: `let s = t.sin(); let c = t.cos(); let a = x.abs(); if a < INFINITY { .. }`

use super::Lowerer;
use super::expr::Value;
use crate::ir::{CmpOp, Cond, Func, Func2, Op, Operand};

/// The methods this module lowers, all without arguments.
pub(super) const DERIVED: [&str; 6] = [
    "sin_cos",
    "is_nan",
    "is_finite",
    "is_infinite",
    "is_sign_negative",
    "is_sign_positive",
];

impl Lowerer<'_> {
    /// `x.name()` for a method of [`DERIVED`], or `None` for any other name.
    pub(super) fn derived(
        &mut self,
        name: &str,
        span: proc_macro2::Span,
        x: Operand,
    ) -> Option<Value> {
        let cmp = |op, a: Operand, b: Operand| Value::Bool(Cond::F64(op, a, b));
        let infinity = Operand::Const(f64::INFINITY);
        Some(match name {
            // std: `(self.sin(), self.cos())`
            "sin_cos" => Value::Tuple(vec![
                Value::F64(self.temp(Op::Call1(Func::Sin, x.clone()), span)),
                Value::F64(self.temp(Op::Call1(Func::Cos, x), span)),
            ]),
            // std: `self != self`
            "is_nan" => cmp(CmpOp::Ne, x.clone(), x),
            // std: `self.abs() < INFINITY`
            "is_finite" => cmp(
                CmpOp::Lt,
                self.temp(Op::Call1(Func::Abs, x), span),
                infinity,
            ),
            // std: `self == INFINITY | self == NEG_INFINITY`, which is `|self| == INFINITY`
            "is_infinite" => cmp(
                CmpOp::Eq,
                self.temp(Op::Call1(Func::Abs, x), span),
                infinity,
            ),
            // The sign bit, NaN's and zero's included: the sign `1.0.copysign(self)` takes.
            "is_sign_negative" | "is_sign_positive" => {
                let sign = self.temp(Op::Call2(Func2::Copysign, Operand::Const(1.0), x), span);
                let op = if name == "is_sign_negative" {
                    CmpOp::Lt
                } else {
                    CmpOp::Gt
                };
                cmp(op, sign, Operand::Const(0.0))
            }
            _ => return None,
        })
    }
}
