//! The reverse sweep: adjoints declared at their first contribution, loops run backwards
//! with what their iterations recorded popped first.

mod pullback;

use super::Emitter;
use crate::diff::needs::BlockId;
use crate::diff::{Expr, Rev, Shadow};
use crate::ir::{BranchId, IntExpr, VarId};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

impl Emitter<'_> {
    /// The reverse statements `revs`, after recomputing the integers block `block` needs.
    pub(super) fn reverse_block(&self, revs: &[Rev], block: Option<BlockId>) -> TokenStream {
        let mut tokens = block.map(|block| self.recompute(block)).unwrap_or_default();
        for rev in revs {
            tokens.extend(self.reverse_stmt(rev));
        }
        tokens
    }

    fn recompute(&self, block: BlockId) -> TokenStream {
        let vars = self
            .adjoint
            .plan
            .recompute
            .get(&block)
            .cloned()
            .unwrap_or_default();
        vars.iter()
            .filter_map(|var| {
                let name = self.names.var(*var);
                let value = match self.facts.int_lets.get(var) {
                    Some(expr) => self.int(expr),
                    None => self.op(self.facts.cheap.get(var)?),
                };
                let value = super::tokens::located_ops(value, self.function.var(*var).span);
                Some(quote!(let #name = #value;))
            })
            .collect()
    }

    fn reverse_stmt(&self, rev: &Rev) -> TokenStream {
        match rev {
            Rev::Let { var, expr, mutable } => {
                let (name, value) = (self.names.adjoint(*var), self.expr(expr));
                // At the user's expression the adjoint belongs to, as the forward sweep's.
                let value = super::tokens::located_ops(value, self.function.var(*var).span);
                let mutable = mutable.then(|| quote!(mut));
                quote!(let #mutable #name = #value;)
            }
            Rev::Zero(var) => {
                let name = self.names.adjoint(*var);
                {
                    let zero = self.function.scalar.zero();
                    quote!(let mut #name = #zero;)
                }
            }
            Rev::Set(var, expr) => {
                let (name, value) = (self.names.adjoint(*var), self.expr(expr));
                let value = super::tokens::located_ops(value, self.function.var(*var).span);
                quote!(#name = #value;)
            }
            Rev::Add(var, expr) => {
                let name = self.names.adjoint(*var).to_token_stream();
                match expr {
                    Expr::Neg(inner) => self.accumulate(name, inner, true),
                    _ => self.accumulate(name, expr, false),
                }
            }
            Rev::AddElem(array, index, expr) => self.add_elem(*array, index, expr),
            Rev::ZeroElem(array, index) => {
                let (name, index) = (self.names.adjoint(*array), self.subscript(index));
                {
                    let zero = self.function.scalar.zero();
                    quote!(#name #index = #zero;)
                }
            }
            Rev::ZeroArray(array) => {
                let name = self.names.adjoint(*array);
                let zeros = self.filled(
                    self.function.scalar.zero(),
                    &self.adjoint.vars[array.0 as usize].ty,
                );
                quote!(let mut #name = #zeros;)
            }
            Rev::If {
                branch,
                cond,
                then,
                otherwise,
            } => self.reverse_if(*branch, *cond, then, otherwise),
            Rev::Loop { the_loop, body } => self.reverse_loop(*the_loop, body),
            Rev::Guard { incoming, body } => {
                let incoming = incoming.iter().map(|v| self.names.adjoint(*v));
                let body = self.reverse_block(body, None);
                {
                    let zero = self.function.scalar.zero();
                    quote!(if #(#incoming != #zero)||* { #body })
                }
            }
            Rev::Gate { test, when, body } => {
                let (test, body) = (self.test(test), self.reverse_block(body, None));
                if *when {
                    quote!(if #test { #body })
                } else {
                    quote!(if !(#test) { #body })
                }
            }
            Rev::Pullback {
                callee,
                args,
                seed,
                outs,
                ..
            } => self.pullback(callee, args, seed, outs),
        }
    }

    fn reverse_if(
        &self,
        branch: BranchId,
        cond: VarId,
        then: &[Rev],
        otherwise: &[Rev],
    ) -> TokenStream {
        let cond = self.names.var(cond);
        let then = self.reverse_block(then, Some(BlockId::Branch(branch, true)));
        let otherwise = self.reverse_block(otherwise, Some(BlockId::Branch(branch, false)));
        match (then.is_empty(), otherwise.is_empty()) {
            (_, true) => quote!(if #cond { #then }),
            (true, false) => quote!(if !#cond { #otherwise }),
            (false, false) => quote!(if #cond { #then } else { #otherwise }),
        }
    }

    fn add_elem(&self, array: VarId, index: &IntExpr, expr: &Expr) -> TokenStream {
        if let Some(viewed) = self.viewed(array, index, true) {
            return self.accumulate(viewed, expr, false);
        }
        let (name, index) = (self.names.adjoint(array), self.subscript(index));
        let add = self.accumulate(quote!(#name #index), expr, false);
        if self.may_be_empty(array) {
            quote!(if !#name.is_empty() { #add })
        } else {
            add
        }
    }

    /// Whether the shadow of `array` is a pullback's parameter, which the caller may pass empty
    /// (an array taken by value has a local shadow instead).
    pub(super) fn may_be_empty(&self, array: VarId) -> bool {
        let ty = &self.function.var(array).ty;
        ty.is_read_only() && !ty.is_given() && self.shadow == Shadow::MaybeEmpty
    }
}
