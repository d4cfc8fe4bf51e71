//! A caller's call of a function returning `[F; M]` of a length that is not a literal, read as
//! the statement lending a local array to `__g_into`, which every caller's flavour goes through
//! as it goes through any call writing a lent array.
//!
//! Before: `let h: [f64; M] = g(a, &b);` and `h = g(&h, x);`
//! After: `let mut h: [f64; M] = [0.0; M]; __g_into(a, &b, &mut h);` and `let c = h;
//! __g_into(&c, x, &mut h);`

use crate::names;
use proc_macro2::Ident;
use std::collections::HashSet;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, ItemFn, Type};

/// Reads a call of a function returning `[F; M]` of a length that is not a literal as the
/// statement lending a local array to `__g_into`: where a `let` says its type (`let r: [f64; M]
/// = g(..);` as `let mut r: [f64; M] = [0.0; M]; __g_into(.., &mut r);`), and assigned to a
/// local array of such a length (`h = g(&h, x);` of a `let mut h = [0.0; M];` as `let c = h;
/// __g_into(&c, x, &mut h);`, an argument reading `h` reading the copy). What the pipeline
/// reads, not what is printed as `f`.
pub fn calls(function: &mut ItemFn) {
    let mut sized = Sized(HashSet::new());
    sized.visit_block(&function.block);
    let mut calls = Calls {
        sized: sized.0,
        used: names::user_names(function),
    };
    calls.visit_block_mut(&mut function.block);
}

/// Whether `len` is an integer literal, a length the macro counts.
fn literal(len: &Expr) -> bool {
    matches!(
        len,
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(_),
            ..
        })
    )
}

/// The names of local arrays whose length is not a literal: `let mut h = [0.0; M];` or
/// `let h: [f64; M] = ..;`.
struct Sized(HashSet<String>);

impl<'ast> Visit<'ast> for Sized {
    fn visit_local(&mut self, local: &'ast syn::Local) {
        syn::visit::visit_local(self, local);
        let (pat, annotated) = match &local.pat {
            syn::Pat::Type(typed) => (
                &*typed.pat,
                matches!(&*typed.ty, Type::Array(array) if !literal(&array.len)),
            ),
            pat => (pat, false),
        };
        let filled = local.init.as_ref().is_some_and(
            |init| matches!(&*init.expr, Expr::Repeat(repeat) if !literal(&repeat.len)),
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

struct Calls {
    /// [`Sized`]'s names.
    sized: HashSet<String>,
    /// Every name of the function, and the copies bound so far.
    used: HashSet<String>,
}

impl VisitMut for Calls {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        syn::visit_mut::visit_block_mut(self, block);
        let mut stmts = Vec::with_capacity(block.stmts.len());
        for stmt in block.stmts.drain(..) {
            match self.lent(&stmt) {
                Some(lent) => stmts.extend(lent),
                None => stmts.push(stmt),
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

impl Calls {
    /// `let r: [F; M] = g(args);` as `let mut r: [F; M] = [0.0; M];` and the call lending `r`;
    /// `h = g(args);` of a [`Sized`] `h` as the call lending `h`.
    fn lent(&mut self, stmt: &syn::Stmt) -> Option<Vec<syn::Stmt>> {
        match stmt {
            syn::Stmt::Local(local) => {
                let syn::Pat::Type(typed) = &local.pat else {
                    return None;
                };
                let (syn::Pat::Ident(name), Type::Array(array)) = (&*typed.pat, &*typed.ty) else {
                    return None;
                };
                if name.by_ref.is_some() || name.subpat.is_some() || literal(&array.len) {
                    return None;
                }
                let init = local.init.as_ref().filter(|init| init.diverge.is_none())?;
                let Expr::Call(call) = &*init.expr else {
                    return None;
                };
                let (ident, ty, len) = (&name.ident, &typed.ty, &array.len);
                // An argument may read an earlier `r` this `let` shadows.
                let mut stmts = self.lending_call(ident, call)?;
                stmts.insert(
                    stmts.len() - 1,
                    syn::parse_quote!(let mut #ident: #ty = [0.0; #len];),
                );
                Some(stmts)
            }
            syn::Stmt::Expr(Expr::Assign(assign), Some(_)) => {
                let (Expr::Path(target), Expr::Call(call)) = (&*assign.left, &*assign.right) else {
                    return None;
                };
                let ident = target.path.get_ident()?;
                if !self.sized.contains(&names::text(ident)) {
                    return None;
                }
                self.lending_call(ident, call)
            }
            _ => None,
        }
    }

    /// `__g_into(args, &mut target);` of `g(args)`, after `let c = target;` when an argument
    /// reads `target` (which it then reads as `c`).
    fn lending_call(&mut self, target: &Ident, call: &syn::ExprCall) -> Option<Vec<syn::Stmt>> {
        let Expr::Path(callee) = &*call.func else {
            return None;
        };
        let mut callee = callee.clone();
        let last = callee.path.segments.last_mut()?;
        last.ident = Ident::new(
            &names::hidden(&names::text(&last.ident), "_into"),
            last.ident.span(),
        );
        let copy = names::free(&mut self.used, names::lowered::COPIED);
        let mut reads = Reads {
            name: target,
            copy: &copy,
            read: false,
        };
        let mut args: Vec<Expr> = call.args.iter().cloned().collect();
        args.iter_mut().for_each(|arg| reads.visit_expr_mut(arg));
        let mut stmts: Vec<syn::Stmt> = Vec::new();
        if reads.read {
            stmts.push(syn::parse_quote!(let #copy = #target;));
        }
        stmts.push(syn::parse_quote!(#callee(#(#args,)* &mut #target);));
        Some(stmts)
    }
}

/// Renames `name` to `copy` in what it visits, recording whether it read `name`.
struct Reads<'a> {
    name: &'a Ident,
    copy: &'a Ident,
    read: bool,
}

impl VisitMut for Reads<'_> {
    fn visit_expr_path_mut(&mut self, path: &mut syn::ExprPath) {
        let named = path.path.get_ident();
        if named.is_some_and(|ident| names::text(ident) == names::text(self.name)) {
            self.read = true;
            path.path = self.copy.clone().into();
        }
    }

    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}
}
