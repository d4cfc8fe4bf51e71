//! The desugaring pass: before SSA construction, every `for` over items, chunks, windows,
//! zips, `.rev()` and steps is rewritten into a counted loop over an integer range
//! ([`for_items::rewrite`](super::for_items::rewrite)), so that
//! [`Lowerer::for_loop`](super::Lowerer) lowers ranges only.
//!
//! Before: `for (a, b) in w.iter().zip(x) { s += a * b; }`
//! After: `for __mg_k0 in 0..w.len().min(x.len()) { let a = &w[__mg_k0]; let b = &x[__mg_k0]; s += a * b; }`
//!
//! The loop depth in the index's name (`__mg_k0`, `__mg_k1`, ...) is counted here, on the
//! syntax: the `for`, `while` and `loop` bodies and the closures of iterator chains (a
//! reduction or a collect lowers into a loop) around the `for`. A `for` inside a closure bound
//! by `let` gets the depth where the closure is written, where the lowering, which inlines the
//! closure at each call, would have given it its call's depth: the index is a fresh name
//! either way, so only its text can differ.
//!
//! Two outcomes of a rewrite need the lowering, and the loop carries an id for them
//! (`#[__micrograd_loop(N)]`, a counter of this pass, read back by [`Loops::of`]):
//! - the array literals and sub-slices a loop runs over (`for x in [a, b]`,
//!   `for x in &w[1..n]`) are evaluated once before the loop under minted names
//!   (`__mg_items0_0`) that live for the loop only. Binding them is lowering, not syntax: an
//!   array literal becomes a local array or a view of one (`Lowerer::items`, which refuses
//!   integers with its own message), a sub-slice a view, a row of data its place; written as
//!   `let`s before the loop they would outlive it and be lowered as locals named by the user.
//!   The rewritten loop reads the names, and the lowering binds them around it.
//! - a pattern that does not fit the items (`for (a, b) in w`) is refused where the lowering
//!   meets the loop, so errors keep their order.

use super::for_items;
use proc_macro2::Span;
use syn::visit_mut::VisitMut;
use syn::{Expr, ExprForLoop, parse_quote};

/// What the lowering must do for a loop the pass rewrote, beyond lowering its range.
#[derive(Clone)]
pub(crate) enum Loop {
    /// The sequences to bind to their names before the loop, for the loop only.
    Hoisted(Vec<(syn::Ident, Expr)>),
    /// The loop is refused: the span and the message.
    Refused(Span, &'static str),
}

/// The loops of a desugared body that carry an id, by id.
#[derive(Default)]
pub(crate) struct Loops(Vec<Loop>);

impl Loops {
    /// What the pass recorded for `for_loop`, if it gave the loop an id.
    pub(crate) fn of(&self, for_loop: &ExprForLoop) -> Option<&Loop> {
        let attr = for_loop
            .attrs
            .iter()
            .find(|a| a.path().is_ident(crate::names::lowered::LOOP_ID))?;
        let id: syn::LitInt = attr.parse_args().ok()?;
        self.0.get(id.base10_parse::<usize>().ok()?)
    }
}

/// `block` desugared, and what its rewritten loops ask of the lowering.
pub(crate) fn desugar(block: &syn::Block) -> (syn::Block, Loops) {
    let mut pass = Pass {
        depth: 0,
        loops: Loops::default(),
    };
    let mut block = block.clone();
    pass.visit_block_mut(&mut block);
    (block, pass.loops)
}

struct Pass {
    /// The loops around the node visited.
    depth: usize,
    loops: Loops,
}

impl Pass {
    /// Records `what` for `for_loop` under a fresh id.
    fn tag(&mut self, for_loop: &mut ExprForLoop, what: Loop) {
        let id = syn::LitInt::new(&self.loops.0.len().to_string(), Span::call_site());
        let name = syn::Ident::new(crate::names::lowered::LOOP_ID, Span::call_site());
        self.loops.0.push(what);
        for_loop.attrs.push(parse_quote!(#[#name(#id)]));
    }

    fn nested(&mut self, visit: impl FnOnce(&mut Self)) {
        self.depth += 1;
        visit(self);
        self.depth -= 1;
    }
}

impl VisitMut for Pass {
    /// Outer loops first, as the lowering meets them: the inner loops are rewritten inside
    /// the outer one's rewritten body.
    fn visit_expr_for_loop_mut(&mut self, for_loop: &mut ExprForLoop) {
        match for_items::rewrite(for_loop, self.depth) {
            Some(Ok(rewrite)) => {
                *for_loop = rewrite.for_loop;
                if !rewrite.hoisted.is_empty() {
                    self.tag(for_loop, Loop::Hoisted(rewrite.hoisted));
                }
            }
            // Refused: nothing inside it is lowered.
            Some(Err((span, message))) => return self.tag(for_loop, Loop::Refused(span, message)),
            None => {}
        }
        self.visit_expr_mut(&mut for_loop.expr);
        self.nested(|this| this.visit_block_mut(&mut for_loop.body));
    }

    fn visit_expr_while_mut(&mut self, the_loop: &mut syn::ExprWhile) {
        self.nested(|this| syn::visit_mut::visit_expr_while_mut(this, the_loop));
    }

    fn visit_expr_loop_mut(&mut self, the_loop: &mut syn::ExprLoop) {
        self.nested(|this| syn::visit_mut::visit_expr_loop_mut(this, the_loop));
    }

    /// The closures an iterator chain is given run inside the loop the chain lowers into.
    fn visit_expr_method_call_mut(&mut self, call: &mut syn::ExprMethodCall) {
        self.visit_expr_mut(&mut call.receiver);
        for arg in &mut call.args {
            match arg {
                Expr::Closure(_) => self.nested(|this| this.visit_expr_mut(arg)),
                _ => self.visit_expr_mut(arg),
            }
        }
    }
}
