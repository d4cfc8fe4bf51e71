//! The assignments of a call to a counted array after its `let` (`oc = g(y, x);`), and the
//! renaming of an array its call's arguments read to the copy made before it is written.

use super::{Calls, Count};
use crate::names;
use syn::Stmt;
use syn::visit_mut::VisitMut;

/// Whether `stmt` is a `let` binding `name` again.
fn binds(stmt: &Stmt, name: &str) -> bool {
    let Stmt::Local(local) = stmt else {
        return false;
    };
    let mut bound = Vec::new();
    crate::lower::scan::pattern_names(&local.pat, &mut bound);
    bound.iter().any(|bound| bound == name)
}

/// Rewrites `name = g(args);` of a counted `name` (up to a `let` binding it again, in its block
/// or a nested one) into the loop storing `g`'s outputs.
pub(super) struct Assigned<'a, 'c> {
    pub name: String,
    pub calls: &'a mut Calls<'c>,
}

impl VisitMut for Assigned<'_, '_> {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        let mut stmts = Vec::with_capacity(block.stmts.len());
        let mut bound = false;
        for mut stmt in block.stmts.drain(..) {
            bound |= binds(&stmt, &self.name);
            if bound {
                stmts.push(stmt);
                continue;
            }
            match self.calls.assignment(&stmt, &self.name, Count::Callee) {
                Some(rewritten) => stmts.extend(rewritten),
                None => {
                    self.visit_stmt_mut(&mut stmt);
                    stmts.push(stmt);
                }
            }
        }
        block.stmts = stmts;
    }

    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}

    /// A sum of 10^5 terms without a frame per term.
    fn visit_expr_binary_mut(&mut self, binary: &mut syn::ExprBinary) {
        crate::spine::visit_mut(self, binary);
    }
}

/// Renames `name` to `copy` in the arguments of a call assigned to `name`, closures' bodies
/// included, recording whether they read `name` and whether they bind it again.
pub(super) struct Renamed<'a> {
    pub name: &'a str,
    pub copy: &'a syn::Ident,
    pub read: bool,
    pub bound: bool,
}

impl VisitMut for Renamed<'_> {
    fn visit_expr_path_mut(&mut self, path: &mut syn::ExprPath) {
        let named = path.path.get_ident().map(names::text);
        if path.qself.is_none() && named.as_deref() == Some(self.name) {
            self.read = true;
            path.path = self.copy.clone().into();
        }
    }

    fn visit_pat_ident_mut(&mut self, pat: &mut syn::PatIdent) {
        self.bound |= names::text(&pat.ident) == self.name;
        syn::visit_mut::visit_pat_ident_mut(self, pat);
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}

    /// A sum of 10^5 terms without a frame per term.
    fn visit_expr_binary_mut(&mut self, binary: &mut syn::ExprBinary) {
        crate::spine::visit_mut(self, binary);
    }
}
