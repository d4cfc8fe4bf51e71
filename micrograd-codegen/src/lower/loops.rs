//! `for` loops: each `f64` the body updates lives in a slot across iterations.

use super::{Lowerer, scan};
use crate::ir::{Carried, IntExpr, Loop, LoopKind, Operand, Stmt, Ty, VarId};
use syn::spanned::Spanned;
use syn::{Expr, Pat};

/// What `for index in start..end` says.
struct Header {
    start: IntExpr,
    end: IntExpr,
    inclusive: bool,
    index: Option<(String, proc_macro2::Span)>,
}

impl Lowerer<'_> {
    /// Lowers `for i in a..b { .. }`; the body sees each updated `f64` through its slot.
    pub(super) fn for_loop(&mut self, for_loop: &syn::ExprForLoop) {
        let Some(header) = self.loop_header(for_loop) else {
            return;
        };
        let carried = self.open_slots(&for_loop.body.stmts);
        self.depth += 1;
        self.loops += 1;
        let (body, index) = self.capture(|this| {
            this.in_scope(|this| {
                let index = header.index.map(|(name, span)| {
                    let var = this.named(&name, Ty::Int, span);
                    this.bind(&name, var);
                    var
                });
                for_loop.body.stmts.iter().for_each(|stmt| this.stmt(stmt));
                index
            })
        });
        self.depth -= 1;
        self.loops -= 1;
        let carried = self.close_slots(carried);
        let span = for_loop.for_token.span;
        let kind = LoopKind::Range {
            index,
            start: header.start,
            end: header.end,
            inclusive: header.inclusive,
        };
        let id = self.loop_id();
        self.emit(Stmt::Loop(Box::new(Loop {
            id,
            span,
            kind,
            body,
            carried,
        })));
    }

    /// The range and loop variable of a `for`, or `None` after reporting what is unsupported.
    fn loop_header(&mut self, for_loop: &syn::ExprForLoop) -> Option<Header> {
        if let Some(label) = &for_loop.label {
            self.errors.at(
                label.name.span(),
                "loop labels are not supported in `#[differentiable]` functions",
            );
        }
        let Expr::Range(range) = &*for_loop.expr else {
            self.errors.at(
                for_loop.expr.span(),
                "`for` loops run over integer ranges: `for i in a..b` or `a..=b`",
            );
            return None;
        };
        let (Some(start), Some(end)) = (&range.start, &range.end) else {
            self.errors.at(
                range.span(),
                "give the range both bounds: `a..b` or `a..=b`",
            );
            return None;
        };
        let (start, end) = (self.int_operand(start)?, self.int_operand(end)?);
        let inclusive = matches!(range.limits, syn::RangeLimits::Closed(_));
        let index = match &*for_loop.pat {
            Pat::Ident(ident) => Some((ident.ident.to_string(), ident.ident.span())),
            Pat::Wild(_) => None,
            other => {
                self.errors
                    .at(other.span(), "the loop variable is a name or `_`");
                return None;
            }
        };
        Some(Header {
            start,
            end,
            inclusive,
            index,
        })
    }

    /// Gives each `f64` the loop body updates a slot: the body reads the slot.
    fn open_slots(&mut self, stmts: &[syn::Stmt]) -> Vec<(String, VarId, Operand)> {
        let mut slots = Vec::new();
        for name in scan::assigned_outer(stmts) {
            let Some(binding) = self.lookup(&name) else {
                continue;
            };
            if self.ty(binding.var) != &Ty::F64 {
                continue;
            }
            let span = self.vars[binding.var.0 as usize].span;
            let slot = self.named(&name, Ty::F64, span);
            self.rebind(&name, slot);
            slots.push((name, slot, Operand::Var(binding.var)));
        }
        slots
    }

    /// Records each slot's value at the end of the body; after the loop the name is the slot.
    fn close_slots(&mut self, slots: Vec<(String, VarId, Operand)>) -> Vec<Carried> {
        slots
            .into_iter()
            .map(|(name, slot, init)| {
                let exit = self
                    .lookup(&name)
                    .map_or(Operand::Var(slot), |b| Operand::Var(b.var));
                self.rebind(&name, slot);
                Carried { slot, init, exit }
            })
            .collect()
    }
}
