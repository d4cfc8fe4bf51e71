//! Walks written with the visitors: every statement ([`walk`]), the blocks only the forward
//! sweep runs ([`forward_only`]), and the variables a node reads ([`Reads`], and the
//! `visit_vars` of conditions, integers and places).

use super::{Access, Nest, Visitor};
use crate::ir::{Block, Cond, IntExpr, Place, Stmt, VarId};

/// Calls `f` on every statement of `block` and of the blocks nested in it, outermost first,
/// also those that compute the right operands of `&&` / `||` in conditions.
pub fn walk<'a>(block: &'a [Stmt], f: &mut dyn FnMut(&'a Stmt)) {
    struct Each<'f, 'a>(&'f mut dyn FnMut(&'a Stmt));
    impl<'a> Visitor<'a> for Each<'_, 'a> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            (self.0)(stmt);
            self.super_stmt(stmt);
        }
    }
    let mut each = Each(f);
    for stmt in block {
        each.visit_stmt(stmt);
    }
}

/// Calls `f` on each block nested in `block` that only the forward sweep runs: the head of a
/// `while`, and the right operands of `&&` / `||` (a condition has no derivative). The blocks
/// of a statement come before those nested in them.
pub fn forward_only<'a>(block: &'a [Stmt], f: &mut dyn FnMut(&'a [Stmt])) {
    /// The forward-only blocks of one statement, not those nested in its blocks.
    struct Shallow<'f, 'a>(&'f mut dyn FnMut(&'a [Stmt]));
    impl<'a> Visitor<'a> for Shallow<'_, 'a> {
        fn visit_block(&mut self, block: &'a Block, nest: Nest) {
            if nest.is_forward_only() {
                (self.0)(block);
            }
        }
    }
    walk(block, &mut |stmt| Shallow(f).super_stmt(stmt));
}

/// Calls `f` on every variable `node` reads, in order (`visit` is one of the visitor's
/// methods, `Reads::visit_int` and so on): statements of the right operand of `&&` / `||` are
/// left out, the condition counting by its final test only.
pub struct Reads<'f>(pub &'f mut dyn FnMut(VarId));

impl Visitor<'_> for Reads<'_> {
    fn visit_block(&mut self, _: &Block, _: Nest) {}

    fn visit_var(&mut self, var: &VarId, access: Access) {
        if access == Access::Read {
            (self.0)(*var);
        }
    }
}

impl Cond {
    /// Whether evaluating the condition runs statements (of a right operand of `&&` / `||`).
    pub fn has_stmts(&self) -> bool {
        struct Any(bool);
        impl Visitor<'_> for Any {
            fn visit_block(&mut self, block: &Block, _: Nest) {
                self.0 |= !block.is_empty();
            }
        }
        let mut any = Any(false);
        any.visit_cond(self);
        any.0
    }
}

impl Cond {
    /// Calls `f` on every variable the condition reads.
    ///
    /// The right operand of `&&` / `||` counts by its final condition only: the reverse sweep
    /// re-reads boolean arguments, and lowering computes one whose right operand runs
    /// statements into a boolean first (`lower/call.rs`), so none reaches it here.
    pub fn visit_vars(&self, f: &mut dyn FnMut(VarId)) {
        Reads(f).visit_cond(self)
    }
}

impl IntExpr {
    /// Calls `f` on every variable the expression reads (integers, and arrays whose `len()` it
    /// takes).
    pub fn visit_vars(&self, f: &mut dyn FnMut(VarId)) {
        Reads(f).visit_int(self)
    }
}

impl Place {
    /// Calls `f` on the data parameter and on every variable its indices read.
    pub fn visit_vars(&self, f: &mut dyn FnMut(VarId)) {
        Reads(f).visit_place(self)
    }
}
