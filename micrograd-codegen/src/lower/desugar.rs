//! The desugaring pass: before SSA construction, every `for` over items, chunks, windows,
//! zips, `.rev()` and steps is rewritten into a counted loop over an integer range
//! ([`for_items::rewrite`](super::for_items::rewrite)), so that
//! [`Lowerer::for_loop`](super::Lowerer) lowers ranges only; and what the lowering asks of
//! the syntax of each loop and branch (which exits leave it, which names a loop carries) is
//! read once, here, into a table by node.
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
//! Every loop, `if`, `match`, closure and block expression but an `else` branch gets an id
//! (`#[__micrograd_node(N)]`, a counter of this pass, never an address or printed), under
//! which [`Nodes`] keeps its [`Facts`]. Syntax the lowering builds itself (`whole.rs`'s entry
//! loops, `values.rs`'s blocks) and `else` branches have none, and are scanned where they are
//! lowered ([`Lowerer::leaving`](super::Lowerer::leaving)).
//!
//! A path given to `map` or `fold` (`f64::max`) becomes the closure calling it
//! ([`steps::rewrite`](super::steps::rewrite)), so the lowering applies closures only; `*y = v`
//! and `*y += v` become stores into entry 0 (`deref_store`), as the lowering holds a
//! `y: &mut f64` as a one-entry slice.
//!
//! Two outcomes of a `for`'s rewrite are left to the lowering, under the loop's id:
//! - the array literals and sub-slices a loop runs over (`for x in [a, b]`,
//!   `for x in &w[1..n]`) are evaluated once before the loop under minted names
//!   (`__mg_items0_0`) that live for the loop only. Binding them is lowering, not syntax: an
//!   array literal becomes a local array or a view of one (`Lowerer::items`, which refuses
//!   integers with its own message), a sub-slice a view, a row of data its place; written as
//!   `let`s before the loop they would outlive it and be lowered as locals named by the user.
//!   The rewritten loop reads the names, and the lowering binds them around it.
//! - a pattern that does not fit the items (`for (a, b) in w.iter().enumerate()` is fine,
//!   `for p in w.iter().enumerate()` is not) is refused where the lowering meets the loop, so
//!   errors keep their order.

mod array_calls;
mod facts;
mod tuple_calls;
mod tuple_fills;

pub(crate) use array_calls::bound_by;
pub(crate) use facts::{Facts, Loop, Nodes};
pub(crate) use tuple_calls::{fields as tuple_fields, leading as tuple_leading};

use super::{for_items, steps};
use crate::ir::Scalar;
use facts::{attrs, attrs_mut, facts};
use std::collections::HashSet;
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, parse_quote_spanned};

/// `*y = v` and `*y += v` (of a `y: &mut f64`, a one-entry slice to the lowering) as a store
/// into its one entry, the `[0]` at the `*`.
///
/// Before: `*y += x * x;` After: `y[0] += x * x;`
fn deref_store(expr: &mut Expr) {
    let left = match expr {
        Expr::Assign(assign) => &mut assign.left,
        Expr::Binary(binary) if super::stmt::is_compound(&binary.op) => &mut binary.left,
        _ => return,
    };
    let Expr::Unary(syn::ExprUnary {
        op: syn::UnOp::Deref(star),
        expr: inner,
        ..
    }) = &mut **left
    else {
        return;
    };
    let span = star.span;
    let zero = syn::ExprLit {
        attrs: Vec::new(),
        lit: syn::Lit::Int(syn::LitInt::new("0", span)),
    };
    **left = Expr::Index(syn::ExprIndex {
        attrs: Vec::new(),
        expr: std::mem::replace(inner, Box::new(Expr::PLACEHOLDER)),
        bracket_token: syn::token::Bracket(span),
        index: Box::new(Expr::Lit(zero)),
    });
}

/// A desugared body, copied and dropped without a recursion as deep as its expressions
/// (`spine::clone_block`, `spine::drop_block`): a sum of 10^5 terms nests as deep.
pub(crate) struct Body(pub syn::Block);

impl std::ops::Deref for Body {
    type Target = syn::Block;

    fn deref(&self) -> &syn::Block {
        &self.0
    }
}

impl Drop for Body {
    fn drop(&mut self) {
        crate::spine::drop_block(&mut self.0);
    }
}

/// `block`, of a function written in `scalar` whose signature binds `bound` ([`bound_by`]),
/// desugared, and the facts of its nodes; the names the pass mints are made free of `used`
/// (every name of the function) and added to it.
pub(crate) fn desugar(
    block: &syn::Block,
    (scalar, bound): (Scalar, HashSet<String>),
    used: &mut HashSet<String>,
) -> (Body, Nodes) {
    let mut pass = Pass {
        scalar,
        depth: 0,
        nodes: Nodes::default(),
        used,
        calls: array_calls::Context::of(bound, block),
    };
    let mut block = Body(crate::spine::clone_block(block));
    pass.visit_block_mut(&mut block.0);
    (block, pass.nodes)
}

struct Pass<'u> {
    /// The float type the function is written in: what `f64::max` names.
    scalar: Scalar,
    /// The loops around the node visited.
    depth: usize,
    nodes: Nodes,
    /// Every identifier of the function, and those minted for it.
    used: &'u mut HashSet<String>,
    /// What `array_calls` knows of the function.
    calls: array_calls::Context,
}

impl Pass<'_> {
    fn nested(&mut self, visit: impl FnOnce(&mut Self)) {
        self.depth += 1;
        visit(self);
        self.depth -= 1;
    }
}

impl VisitMut for Pass<'_> {
    /// A node gets its id before its insides (outer loops are rewritten first, as the
    /// lowering meets them) and its facts after them, on its desugared syntax.
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        deref_store(expr);
        if attrs(expr).is_none() {
            return syn::visit_mut::visit_expr_mut(self, expr);
        }
        let id = self.nodes.0.len();
        self.nodes.0.push(Facts::default());
        let mut rewrite = None;
        if let Expr::ForLoop(for_loop) = expr {
            match for_items::rewrite(for_loop, self.depth) {
                Some(Ok(done)) => {
                    *for_loop = done.for_loop;
                    rewrite = (!done.hoisted.is_empty()).then_some(Loop::Hoisted(done.hoisted));
                }
                Some(Err((span, message))) => rewrite = Some(Loop::Refused(span, message)),
                None => {}
            }
        }
        // A refused loop is not lowered, nor anything inside it.
        if !matches!(rewrite, Some(Loop::Refused(..))) {
            syn::visit_mut::visit_expr_mut(self, expr);
        }
        self.nodes.0[id] = Facts {
            rewrite,
            ..facts(expr)
        };
        // At the node's own span: an error at the node (`expr.span()`) still points at it.
        let span = expr.span();
        let id = syn::LitInt::new(&id.to_string(), span);
        let name = syn::Ident::new(crate::names::lowered::NODE_ID, span);
        if let Some(attrs) = attrs_mut(expr) {
            attrs.push(parse_quote_spanned!(span=> #[#name(#id)]));
        }
    }

    /// A statement the pass splits in two (`tuple_fills`) mints its index before its insides
    /// are desugared, in the order the statements are written, as the lowering minted it; a
    /// call bound by `let` whose name is read as a tuple's fields is marked with their width
    /// (`tuple_calls`).
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        let mut stmts = Vec::with_capacity(block.stmts.len());
        for mut stmt in std::mem::take(&mut block.stmts) {
            let index = match &stmt {
                syn::Stmt::Local(local) if tuple_fills::applies(local) => {
                    Some(crate::names::free(self.used, crate::names::lowered::ENTRY))
                }
                _ => None,
            };
            self.visit_stmt_mut(&mut stmt);
            let stored = match (&mut stmt, index) {
                (syn::Stmt::Local(local), Some(k)) => tuple_fills::rewrite(local, &k),
                _ => None,
            };
            stmts.push(stmt);
            stmts.extend(stored);
        }
        tuple_calls::mark(&mut stmts);
        block.stmts = stmts;
        // After its nested blocks: a call taken whole into a local array.
        array_calls::rewrite(block, &self.calls, self.used);
    }

    fn visit_expr_for_loop_mut(&mut self, for_loop: &mut syn::ExprForLoop) {
        self.visit_expr_mut(&mut for_loop.expr);
        self.nested(|this| this.visit_block_mut(&mut for_loop.body));
    }

    fn visit_expr_while_mut(&mut self, the_loop: &mut syn::ExprWhile) {
        self.nested(|this| syn::visit_mut::visit_expr_while_mut(this, the_loop));
    }

    fn visit_expr_loop_mut(&mut self, the_loop: &mut syn::ExprLoop) {
        self.nested(|this| syn::visit_mut::visit_expr_loop_mut(this, the_loop));
    }

    /// An `else` takes a block or an `if`, never an attribute (the lowering prints and parses
    /// again some of the syntax it rewrites, `values.rs`): an `else` branch gets no id, and its
    /// facts are read from its syntax where they are asked.
    fn visit_expr_if_mut(&mut self, branch: &mut syn::ExprIf) {
        self.visit_expr_mut(&mut branch.cond);
        self.visit_block_mut(&mut branch.then_branch);
        if let Some((_, other)) = &mut branch.else_branch {
            syn::visit_mut::visit_expr_mut(self, other);
        }
    }

    /// Down the left spine in a loop, right sides first: a sum of 10^5 terms needs no deeper
    /// stack.
    fn visit_expr_binary_mut(&mut self, binary: &mut syn::ExprBinary) {
        crate::spine::visit_mut(self, binary);
    }

    /// A `vec!`'s items are expressions the lowering parses from the macro's tokens
    /// ([`vecs::body`](super::vecs::body)): they are desugared too, and written back as tokens.
    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        if !super::vecs::is_vec(mac) {
            return;
        }
        let Ok(body) = mac.parse_body_with(super::vecs::body) else {
            return;
        };
        mac.tokens = match body {
            super::vecs::Body::Repeat(parts) => {
                let (mut fill, mut len) = *parts;
                self.visit_expr_mut(&mut fill);
                self.visit_expr_mut(&mut len);
                quote::quote!(#fill; #len)
            }
            super::vecs::Body::List(mut items) => {
                items.iter_mut().for_each(|item| self.visit_expr_mut(item));
                quote::quote!(#(#items),*)
            }
        };
    }

    /// The closures an iterator chain is given run inside the loop the chain lowers into.
    fn visit_expr_method_call_mut(&mut self, call: &mut syn::ExprMethodCall) {
        steps::rewrite(call, self.scalar);
        self.visit_expr_mut(&mut call.receiver);
        for arg in &mut call.args {
            match arg {
                Expr::Closure(_) => self.nested(|this| this.visit_expr_mut(arg)),
                _ => self.visit_expr_mut(arg),
            }
        }
    }
}
