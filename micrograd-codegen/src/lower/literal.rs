//! Literals and casts: where the function's float type meets the text of the source.
//!
//! Before: `2.0 * x + 1e-1f32 + n as f32` (in an `f32` function)
//! After: the constants `2.0` and `0.1` parsed as `f32`s, and `n as f32` an [`Op::FromInt`].

use super::Lowerer;
use super::expr::Value;
use crate::ir::{Cond, IntExpr, Op, Operand, Scalar};
use syn::Lit;
use syn::spanned::Spanned;

impl Lowerer<'_> {
    /// A literal: a float (parsed in the function's float type), an integer or a `bool`.
    pub(super) fn literal(&mut self, lit: &Lit) -> Value {
        match lit {
            Lit::Float(float) => {
                self.float_literal(float.suffix(), float.base10_digits(), float.span())
            }
            // `2f64` is an integer literal with a float suffix.
            Lit::Int(int) if Scalar::from_name(int.suffix()).is_some() => {
                self.float_literal(int.suffix(), int.base10_digits(), int.span())
            }
            Lit::Int(int) if int.base10_digits().starts_with('-') => {
                match int.base10_digits()[1..].parse::<u128>() {
                    Ok(value) => Value::Int(IntExpr::Neg(Box::new(IntExpr::Lit {
                        value,
                        suffix: int.suffix().to_string(),
                    }))),
                    Err(error) => self.error(int.span(), error),
                }
            }
            Lit::Int(int) => match int.base10_parse::<u128>() {
                Ok(value) => Value::Int(IntExpr::Lit {
                    value,
                    suffix: int.suffix().to_string(),
                }),
                Err(error) => self.error(error.span(), error),
            },
            Lit::Bool(boolean) => Value::Bool(Cond::Lit(boolean.value)),
            other => self.error(
                other.span(),
                "only numeric and boolean literals are supported",
            ),
        }
    }

    /// A float literal with its `suffix` (if any), parsed in the function's float type.
    fn float_literal(&mut self, suffix: &str, digits: &str, span: proc_macro2::Span) -> Value {
        match Scalar::from_name(suffix) {
            Some(found) if found != self.scalar => {
                self.errors.mixed(span, self.scalar, found);
                return Value::Error;
            }
            None if !suffix.is_empty() => {
                let scalar = self.scalar.name();
                return self.error(
                    span,
                    format!("float literals here are `{scalar}`s: write `2.0` or `2.0{scalar}`"),
                );
            }
            _ => {}
        }
        match self.scalar.parse(digits) {
            Some(value) => Value::F64(Operand::Const(value)),
            None => self.error(span, "this literal is not a valid float"),
        }
    }

    /// `expr as T`: integers to the function's float type, between integer types, and floats
    /// to integers (an index or a count, with no derivative).
    pub(super) fn cast(&mut self, cast: &syn::ExprCast) -> Value {
        let target = match &*cast.ty {
            syn::Type::Path(path) => path.path.get_ident().map(|ident| ident.to_string()),
            _ => None,
        };
        let Some(target) = target else {
            return self.error(
                cast.ty.span(),
                format!(
                    "casts are supported to `{float}` and integer types",
                    float = self.scalar.name()
                ),
            );
        };
        let float = self.scalar.name();
        match (self.expr(&cast.expr), target.as_str()) {
            (Value::Int(int), ty) if ty == float => {
                Value::F64(self.temp(Op::FromInt(int), cast.as_token.span))
            }
            (Value::Unknown(path), ty) if ty == float => {
                Value::F64(self.temp(Op::FromInt(IntExpr::Extern(path)), cast.as_token.span))
            }
            (Value::F64(operand), ty) if ty == float => Value::F64(operand),
            (Value::Int(int), ty) if crate::signature::is_int_name(ty) => {
                Value::Int(IntExpr::Cast(Box::new(int), target))
            }
            (Value::Unknown(path), ty) if crate::signature::is_int_name(ty) => {
                Value::Int(IntExpr::Cast(Box::new(IntExpr::Extern(path)), target))
            }
            // An index or a count: bound once, so the reverse sweep reads the integer.
            (Value::F64(operand), ty) if crate::signature::is_int_name(ty) => {
                let dst = self.new_var(crate::ir::Origin::Temp, crate::ir::Ty::Int, cast.span());
                let expr = IntExpr::FromFloat(Box::new(operand), target);
                self.emit(crate::ir::Stmt::IntLet { dst, expr });
                Value::Int(IntExpr::Var(dst))
            }
            (Value::Error, _) => Value::Error,
            (_, ty) => match self.scalar.named(ty) {
                Some(found) => {
                    self.errors.mixed(cast.ty.span(), self.scalar, found);
                    Value::Error
                }
                None => self.error(
                    cast.ty.span(),
                    format!(
                        "casts are supported from integers to `{float}` and between integer types",
                        float = self.scalar.name()
                    ),
                ),
            },
        }
    }
}
