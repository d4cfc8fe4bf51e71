//! Branches whose arms never meet again: after an `if` or `match` that exits, each arm runs
//! on to the end of the function (when something in it returns) or of the loop body (when
//! something in it breaks, continues or returns from a loop), the statements after the
//! branch included. `if` and `match` build their arms here; only the place the arms run on
//! to differs.

use super::Lowerer;
use super::branch::Cont;
use crate::ir::{Cond, If, Join, Operand, Origin, Stmt, Ty};
use proc_macro2::Span;

/// Where the arms of a branch that exits run on to, and the statements on the way there.
#[derive(Clone, Copy)]
pub(super) enum Rest<'c, 's> {
    /// The end of the function: each arm ends with the function's value.
    Function(&'c Cont<'s>),
    /// The end of the innermost loop body: each arm ends the iteration.
    Body(&'c Cont<'s>),
}

impl Lowerer<'_> {
    /// Lowers `stmts` in a scope of their own, then what `rest` holds; the function's value
    /// when `rest` runs to its end.
    pub(super) fn run_on<'s>(
        &mut self,
        stmts: &'s [syn::Stmt],
        rest: Rest<'_, 's>,
    ) -> Option<Operand> {
        match rest {
            Rest::Function(cont) => {
                self.scopes.push(Default::default());
                let depth = self.scopes.len();
                self.sequence(stmts, cont, depth)
            }
            Rest::Body(cont) => {
                let depth = self.scopes.len();
                self.scopes.push(Default::default());
                self.exit_sequence(stmts, cont);
                self.scopes.truncate(depth);
                None
            }
        }
    }

    /// `if cond { then } else { otherwise }` where both arms run on to where `rest` ends; at
    /// the end of the function, the function's value joined from the two.
    pub(super) fn fork(
        &mut self,
        rest: Rest<'_, '_>,
        cond: Cond,
        span: Span,
        then: &mut dyn FnMut(&mut Self) -> Option<Operand>,
        otherwise: &mut dyn FnMut(&mut Self) -> Option<Operand>,
    ) -> Option<Operand> {
        if let Rest::Body(_) = rest {
            self.split(cond, span, &mut |this| drop(then(this)), &mut |this| {
                drop(otherwise(this))
            });
            return None;
        }
        // The arms never meet, so no variable needs a join: integers and booleans declared
        // before may still be reassigned in them. Only the function's value does.
        let saved = self.scopes.clone();
        let (then, then_value) = self.capture(|this| then(this));
        self.scopes = saved.clone();
        let (otherwise, else_value) = self.capture(|this| otherwise(this));
        self.scopes = saved;
        let (then_value, else_value) = (then_value?, else_value?);
        // A vector output's paths stored their entries (`outputs.rs`): nothing to join.
        let dst = (!self.vector_output()).then(|| self.new_var(Origin::Temp, Ty::F64, span));
        let joins = dst.map(|dst| Join {
            dst,
            then: then_value,
            otherwise: else_value,
        });
        let id = self.branch_id();
        self.emit(Stmt::If(Box::new(If {
            id,
            cond,
            span,
            then,
            otherwise,
            joins: joins.into_iter().collect(),
        })));
        Some(dst.map_or(Operand::Const(0.0), Operand::Var))
    }
}
