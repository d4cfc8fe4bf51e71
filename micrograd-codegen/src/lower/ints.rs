//! Integer operators and methods that only integers have: bitwise `& | ^`, shifts `<< >>`, and
//! `pow`, `max`, `abs`, `unsigned_abs`, `rem_euclid`, `saturating_sub`, `is_multiple_of` (`min` is
//! [`IntExpr::Min`]). Integers are never differentiated, so each prints as written.
//!
//! Before: `if removed & (1 << j) == 0 { .. det(a, removed | (1 << j)) .. }`
//! After: `Cond::Int(Eq, Bits(And, removed, Bits(Shl, 1, j)), 0)`, the argument
//! `Bits(Or, removed, Bits(Shl, 1, j))`.

use super::Lowerer;
use super::expr::Value;
use crate::ir::{BitOp, Cond, IntExpr, IntMethod};
use syn::spanned::Spanned;
use syn::{BinOp, Expr};

/// The bitwise operator or shift of `op`, if it is one.
pub(super) fn bit_op(op: &BinOp) -> Option<BitOp> {
    bit_op_and_assign(op)
        .filter(|&(_, assign)| !assign)
        .map(|(op, _)| op)
}

/// The bitwise operator or shift of `op`, and whether `op` is its compound assignment
/// (`&=` of `&`): the one table of both.
fn bit_op_and_assign(op: &BinOp) -> Option<(BitOp, bool)> {
    Some(match op {
        BinOp::BitAnd(_) => (BitOp::And, false),
        BinOp::BitOr(_) => (BitOp::Or, false),
        BinOp::BitXor(_) => (BitOp::Xor, false),
        BinOp::Shl(_) => (BitOp::Shl, false),
        BinOp::Shr(_) => (BitOp::Shr, false),
        BinOp::BitAndAssign(_) => (BitOp::And, true),
        BinOp::BitOrAssign(_) => (BitOp::Or, true),
        BinOp::BitXorAssign(_) => (BitOp::Xor, true),
        BinOp::ShlAssign(_) => (BitOp::Shl, true),
        BinOp::ShrAssign(_) => (BitOp::Shr, true),
        _ => return None,
    })
}

impl Lowerer<'_> {
    /// `a op b` of a bitwise operator or shift: integers only.
    pub(super) fn bitwise(&mut self, op: BitOp, binary: &syn::ExprBinary) -> Value {
        let left = self.in_context(false, &binary.left);
        let right = self.in_context(false, &binary.right);
        match (int(left), int(right)) {
            (Some(Value::Int(a)), Some(Value::Int(b))) => {
                Value::Int(IntExpr::Bits(op, Box::new(a), Box::new(b)))
            }
            (Some(Value::Error), _) | (_, Some(Value::Error)) => Value::Error,
            _ => self.error(
                binary.op.span(),
                format!(
                    "`{}` takes two integers in `#[differentiable]` functions (masks, shifts of indices); for `bool`s use `&&` and `||`",
                    op.symbol()
                ),
            ),
        }
    }

    /// `m |= e` and its kind, of an integer variable `m`: `m = m | e`, reading `m` after `e`
    /// as Rust does for primitives.
    pub(super) fn bit_assign(&mut self, binary: &syn::ExprBinary) {
        let (Some(op), Expr::Path(path)) = (bit_op_of_assign(&binary.op), &*binary.left) else {
            return self.bit_assign_refused(binary, "an integer variable");
        };
        let Some(name) = path.path.get_ident().map(ToString::to_string) else {
            return self.bit_assign_refused(binary, "an integer variable");
        };
        match self.lookup(&name) {
            Some(binding) if *self.ty(binding.var) == crate::ir::Ty::Int => {}
            Some(_) => return self.bit_assign_refused(binary, "an integer"),
            None => {
                let message = format!("`{name}` is not a variable of this function");
                self.errors.at(binary.left.span(), message);
                return;
            }
        }
        let Some(right) = self.int_operand(&binary.right) else {
            return;
        };
        let Some(binding) = self.lookup(&name) else {
            return;
        };
        let value = IntExpr::Bits(op, Box::new(IntExpr::Var(binding.var)), Box::new(right));
        if let Some(var) = self.value_var(&name, binary.left.span(), Value::Int(value)) {
            self.rebind(&name, var);
        }
    }

    /// `m |= e` of something that is not `what`: refused, saying what to write.
    fn bit_assign_refused(&mut self, binary: &syn::ExprBinary, what: &str) {
        let op = quote::ToTokens::to_token_stream(&binary.op).to_string();
        let m = quote::ToTokens::to_token_stream(&binary.left).to_string();
        let logical = match op.as_str() {
            "&=" => format!("; for a `bool` write `{m} = {m} && ..`"),
            "|=" => format!("; for a `bool` write `{m} = {m} || ..`"),
            _ => String::new(),
        };
        self.errors.at(
            binary.op.span(),
            format!("`{op}` assigns to {what} in `#[differentiable]` functions (masks, shifts of indices){logical}"),
        );
    }

    /// `a.name(args)` of an integer `a`, `name` an [`is_int_method`].
    pub(super) fn int_method(
        &mut self,
        name: &str,
        span: proc_macro2::Span,
        a: IntExpr,
        args: &[&Expr],
    ) -> Value {
        let arity = usize::from(!matches!(name, "abs" | "unsigned_abs"));
        if args.len() != arity {
            let how = match arity {
                0 => format!("no arguments: `n.{name}()`"),
                _ => format!("one integer argument: `n.{name}(m)`"),
            };
            return self.error(span, format!("`{name}` takes {how}"));
        }
        let b = match args.first() {
            Some(b) => match self.int_operand(b) {
                Some(b) => Some(b),
                None => return Value::Error,
            },
            None => None,
        };
        match (IntMethod::from_name(name), b) {
            (Some(method), b) => Value::Int(IntExpr::Method(method, Box::new(a), b.map(Box::new))),
            (None, Some(b)) => Value::Bool(Cond::Multiple(a, b)),
            (None, None) => Value::Error,
        }
    }
}

/// Whether `name` is a method of integers [`Lowerer::int_method`] lowers.
pub(super) fn is_int_method(name: &str) -> bool {
    name == "is_multiple_of" || IntMethod::from_name(name).is_some()
}

/// Whether `op` is `&=`, `|=`, `^=`, `<<=` or `>>=`.
pub(super) fn is_bit_assign(op: &BinOp) -> bool {
    bit_op_of_assign(op).is_some()
}

/// The operator of `&=`, `|=`, `^=`, `<<=` or `>>=`.
fn bit_op_of_assign(op: &BinOp) -> Option<BitOp> {
    bit_op_and_assign(op)
        .filter(|&(_, assign)| assign)
        .map(|(op, _)| op)
}

/// `value` as an integer operand: a name the function does not define is one.
fn int(value: Value) -> Option<Value> {
    match value {
        Value::Unknown(path) => Some(Value::Int(IntExpr::Extern(path))),
        Value::Int(_) | Value::Error => Some(value),
        _ => None,
    }
}
