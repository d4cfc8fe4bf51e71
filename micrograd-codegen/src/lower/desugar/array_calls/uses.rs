//! What [`array_calls`](super) reads of the syntax before it rewrites: the names a function
//! binds, its local arrays of a length that is not a literal, and the names a statement uses as
//! arrays.

use crate::names;
use std::collections::HashSet;
use syn::visit::Visit;
use syn::{Expr, Type};

/// The names a function binds (its parameters, `let`s, closures' parameters).
pub(super) struct Locals(pub HashSet<String>);

impl<'ast> Visit<'ast> for Locals {
    fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
        self.0.insert(names::text(&pat.ident));
        syn::visit::visit_pat_ident(self, pat);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}

    /// A sum of 10^5 terms without a frame per term.
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }
}

/// The names of local arrays whose length is not a literal: `let mut h = [0.0; M];` or
/// `let h: [f64; M] = ..;`.
pub(super) struct Sized(pub HashSet<String>);

impl<'ast> Visit<'ast> for Sized {
    fn visit_local(&mut self, local: &'ast syn::Local) {
        syn::visit::visit_local(self, local);
        let (pat, annotated) = match &local.pat {
            syn::Pat::Type(typed) => (
                &*typed.pat,
                matches!(&*typed.ty, Type::Array(array) if !super::literal(&array.len)),
            ),
            pat => (pat, false),
        };
        let filled = local.init.as_ref().is_some_and(
            |init| matches!(&*init.expr, Expr::Repeat(repeat) if !super::literal(&repeat.len)),
        );
        if let (syn::Pat::Ident(name), true) = (pat, annotated || filled) {
            self.0.insert(names::text(&name.ident));
        }
    }

    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}

    fn visit_item(&mut self, _: &'ast syn::Item) {}

    /// A sum of 10^5 terms without a frame per term.
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }
}

/// The names an expression or statement uses as arrays (`oc[i]`, `&oc`, `oc.iter()`,
/// `oc.len()`, `for v in oc`, `let [a, b, c] = oc;`).
pub(super) struct Uses {
    pub arrays: HashSet<String>,
}

impl Uses {
    pub fn new() -> Uses {
        Uses {
            arrays: HashSet::new(),
        }
    }
}

/// The name `expr` is, alone.
fn bare(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Path(path) if path.qself.is_none() => path.path.get_ident().map(names::text),
        _ => None,
    }
}

/// The longest chain of binary operators (`a + b + ..`) the rewrite prints again.
pub(super) const MAX_TERMS: usize = 1000;

/// The longest chain of binary operators an expression holds.
pub(super) struct Chains(pub usize);

impl<'ast> Visit<'ast> for Chains {
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        self.0 = self.0.max(crate::spine::spine(binary).len() + 1);
        crate::spine::visit(self, binary, |_, _| {});
    }
}

/// The first segments of the standard library's paths a body calls: no `#[differentiable]`
/// function is reached through them.
pub(super) const STANDARD: &[&str] = &[
    "std",
    "core",
    "alloc",
    "Vec",
    "Box",
    "String",
    "Option",
    "Result",
    "Default",
    "array",
    "iter",
    "mem",
    "f32",
    "f64",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "Float",
    "FromPrimitive",
    "NumCast",
];

/// The methods of an array that say a name holds one.
const ARRAY_METHODS: &[&str] = &["iter", "len", "into_iter", "map", "as_slice", "to_vec"];

impl<'ast> Visit<'ast> for Uses {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        let array = match expr {
            Expr::Index(index) => bare(&index.expr),
            Expr::Reference(reference) => bare(&reference.expr),
            Expr::MethodCall(call)
                if ARRAY_METHODS.contains(&names::text(&call.method).as_str()) =>
            {
                bare(&call.receiver)
            }
            Expr::ForLoop(for_loop) => bare(&for_loop.expr),
            _ => None,
        };
        self.arrays.extend(array);
        syn::visit::visit_expr(self, expr);
    }

    /// `let [a, b, c] = oc;` takes an array apart.
    fn visit_local(&mut self, local: &'ast syn::Local) {
        let pat = match &local.pat {
            syn::Pat::Type(typed) => &*typed.pat,
            pat => pat,
        };
        if let (syn::Pat::Slice(_), Some(init)) = (pat, &local.init) {
            self.arrays.extend(bare(&init.expr));
        }
        syn::visit::visit_local(self, local);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}

    /// A sum of 10^5 terms without a frame per term.
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }
}
