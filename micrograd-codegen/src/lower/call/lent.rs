//! Arguments lent as `&mut` (`call.rs`): a local array or a `&mut [f64]` parameter, whose
//! entries the callee may write, and a local `f64` lent as `&mut e`, held in a one-entry array
//! for the call and read back into `e` after it.
//!
//! Before: `g(x, &mut e)`
//! After: `let t0 = [0.0; 1]; t0[0] = e; g(x, &mut t0[0]); let e_1 = t0[0];`

use super::{ROWS_TO_CALLS, lent_span};
use crate::ir::{Arg, IntExpr, Op, Operand, Origin, Stmt, Ty};
use crate::lower::Lowerer;
use crate::lower::expr::Value;
use syn::Expr;
use syn::spanned::Spanned;

impl Lowerer<'_> {
    /// `e` after a call lent it as `&mut e`: what the callee left in its one-entry array.
    pub(super) fn write_back(&mut self) {
        for (name, array, span) in std::mem::take(&mut self.written_back) {
            let zero = IntExpr::Lit {
                value: 0,
                suffix: String::new(),
            };
            let value = self.temp(Op::Load(array, zero), span);
            let var = self.define(&name, value, span);
            self.rebind(&name, var);
        }
    }

    /// `&mut h` or `&mut h[a..b]` of a local array or a `&mut [f64]` parameter: entries the
    /// callee may write.
    pub(super) fn mut_arg(&mut self, reference: &syn::ExprReference) -> Option<Arg> {
        let value = match &*reference.expr {
            Expr::Index(index) if matches!(&*index.index, Expr::Range(_)) => self.sub_slice(index),
            inner => self.expr(inner),
        };
        // A local `f64` lent by its name (`&mut e`), not itself a `&mut f64` parameter.
        let local = if let Expr::Path(path) = &*reference.expr
            && let Some(name) = path.path.get_ident()
            && self
                .lookup(&name.to_string())
                .is_some_and(|b| !self.scalar_refs.contains(&b.var))
        {
            Some(name)
        } else {
            None
        };
        match (value, local) {
            (Value::Seq(view), _) if self.scalar_muts.contains(&view.base) => {
                self.refuse_scalar_mut(reference.expr.span());
                None
            }
            (Value::Seq(view), _) if view.row.is_some() => {
                self.errors.at(lent_span(&reference.expr), ROWS_TO_CALLS);
                None
            }
            (Value::Seq(view), _) if self.ty(view.base).is_writable() => {
                Some(view.arg(false, true))
            }
            (Value::Error, _) => None,
            // `g(x, &mut e)` of a local `f64`, to a callee writing its output into
            // `err: &mut f64`: lent as a one-entry array holding `e`, read back after.
            (Value::F64(operand), Some(name)) => {
                let span = reference.expr.span();
                let one = IntExpr::Lit {
                    value: 1,
                    suffix: String::new(),
                };
                let array = self.new_var(Origin::Temp, Ty::local(one, false), span);
                // Zeros, then `e` stored: a store carries `e`'s adjoint back, a fill does not.
                self.emit(Stmt::Array {
                    dst: array,
                    fill: Operand::Const(0.0),
                });
                let index = IntExpr::Lit {
                    value: 0,
                    suffix: String::new(),
                };
                self.emit(Stmt::Store {
                    array,
                    index,
                    value: operand,
                });
                self.written_back.push((name.to_string(), array, span));
                Some(Arg::Slice {
                    array,
                    lo: None,
                    hi: None,
                    by_value: false,
                    mutable: true,
                    rows: None,
                    entry: true,
                })
            }
            (Value::F64(_), None) => {
                let float = self.scalar.name();
                self.errors.at(lent_span(&reference.expr), format!("an `{float}` is lent as `&mut` to a `#[differentiable]` function by the name of a local variable, which the callee writes: `let mut e = ..; g(.., &mut e);`"));
                None
            }
            _ => {
                self.errors.at(
                    lent_span(&reference.expr),
                    "`&mut` passes a local array (`&mut h`, `&mut h[a..b]`) or a `&mut [f64]` parameter to a `#[differentiable]` function; an `f64` is passed by value and its new value returned",
                );
                None
            }
        }
    }

    /// A `y: &mut f64` parameter passed on to a call, which the generated code holds as a
    /// one-entry slice.
    pub(super) fn refuse_scalar_mut(&mut self, span: proc_macro2::Span) {
        let float = self.scalar.name();
        self.errors.at(span, format!("a `&mut {float}` parameter cannot be passed on to a `#[differentiable]` function yet; pass its value `*y` and write back what the call returns, `*y = g(*y, ..);`"));
    }

    /// Reports each call lent an array in code only the forward sweep runs (a `while` head,
    /// the right operand of `&&` / `||`): the reverse sweep would never undo what it writes.
    pub(in crate::lower) fn lent_in_conditions(&mut self, body: &[Stmt]) {
        let mut calls: Vec<(crate::ir::VarId, proc_macro2::Span)> = Vec::new();
        crate::ir::forward_only(body, &mut |block| {
            crate::ir::walk(block, &mut |stmt| {
                if let Stmt::Assign {
                    dst,
                    op: Op::Call(callee, args),
                } = stmt
                    && args.iter().any(Arg::is_mut)
                    && !calls.iter().any(|(call, _)| call == dst)
                {
                    calls.push((*dst, callee.span));
                }
            })
        });
        for (_, span) in calls {
            self.errors.at(span, "a call lent an array as `&mut` cannot be part of a `while` condition or of the right side of `&&` / `||`, which the reverse sweep does not run; call it in a statement before (`let r = g(&mut h);`, or in a `loop` that `break`s on it)");
        }
    }
}
