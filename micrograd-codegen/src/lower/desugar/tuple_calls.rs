//! A call bound by `let` without a type whose name the rest of its block reads only as a
//! tuple's fields, `let r = pair(x); r.0 + r.1`: the caller's macro cannot see that `pair`
//! returns a tuple, nor how wide, but the fields say which outputs are read. The pass marks
//! the `let` with the fields read, and the lowering binds `r` to those outputs,
//! each the call's output `k` (`pair(x).k`, its pullback seeded through
//! `calls::tuple_unit(k, seed, 0.0)`, whose width rustc infers), the arguments lowered once.
//!
//! Before: `let r = pair(x); r.0 * r.1`
//! After: `#[__micrograd_tuple_fields(0, 1)] let r = pair(x); r.0 * r.1`
//!
//! A name used otherwise after its `let` (passed on, assigned, returned whole, destructured)
//! is left alone, as is a `let` of anything but a call of a path.

use proc_macro2::{TokenStream, TokenTree};
use std::collections::{BTreeSet, HashSet};
use syn::visit::Visit;
use syn::{Expr, Pat, parse_quote_spanned};

/// Marks each `let name = g(..);` of `stmts` whose name the statements after it read as
/// `name.k` only, with those fields.
pub(super) fn mark(stmts: &mut [syn::Stmt]) {
    let mut fielded = Fielded::default();
    for stmt in stmts.iter() {
        fielded.visit_stmt(stmt);
    }
    if fielded.names.is_empty() {
        return;
    }
    for at in 0..stmts.len() {
        let Some(ident) = bound_call(&stmts[at]) else {
            continue;
        };
        if !fielded.names.contains(&ident.to_string()) {
            continue;
        }
        let mut uses = Uses::new(ident.to_string());
        uses.stmts(&stmts[at + 1..]);
        if uses.fields.is_empty() || uses.other {
            continue;
        }
        let span = ident.span();
        let fields = uses
            .fields
            .iter()
            .map(|k| syn::LitInt::new(&k.to_string(), span));
        let name = syn::Ident::new(crate::names::lowered::TUPLE_FIELDS, span);
        if let syn::Stmt::Local(local) = &mut stmts[at] {
            local
                .attrs
                .push(parse_quote_spanned!(span=> #[#name(#(#fields),*)]));
        }
    }
}

/// The fields `local` was marked with, in increasing order.
pub(crate) fn fields(local: &syn::Local) -> Option<Vec<usize>> {
    let attr = local
        .attrs
        .iter()
        .find(|a| a.path().is_ident(crate::names::lowered::TUPLE_FIELDS))?;
    let list = attr
        .parse_args_with(
            syn::punctuated::Punctuated::<syn::LitInt, syn::Token![,]>::parse_terminated,
        )
        .ok()?;
    list.iter().map(|k| k.base10_parse().ok()).collect()
}

/// The name of `let name = g(..);` (`mut` or not, without a type) of a call of a path.
fn bound_call(stmt: &syn::Stmt) -> Option<&syn::Ident> {
    let syn::Stmt::Local(local) = stmt else {
        return None;
    };
    let Pat::Ident(pat) = &local.pat else {
        return None;
    };
    let init = local.init.as_ref()?;
    if pat.subpat.is_some() || pat.by_ref.is_some() || init.diverge.is_some() {
        return None;
    }
    match &*init.expr {
        Expr::Call(call) if matches!(&*call.func, Expr::Path(path) if path.qself.is_none()) => {
            Some(&pat.ident)
        }
        _ => None,
    }
}

/// The names read as `name.k` anywhere in a block.
#[derive(Default)]
struct Fielded {
    names: HashSet<String>,
}

impl<'ast> Visit<'ast> for Fielded {
    /// `let (a, b) = name;` reads fields too.
    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let Some(init) = &local.init
            && let Some(name) = ident_of(&init.expr)
            && leading(&local.pat).is_some()
        {
            self.names.insert(name.to_string());
        }
        syn::visit::visit_local(self, local);
    }

    fn visit_expr_field(&mut self, field: &'ast syn::ExprField) {
        if let (Some(name), syn::Member::Unnamed(_)) = (ident_of(&field.base), &field.member) {
            self.names.insert(name.to_string());
        }
        syn::visit::visit_expr_field(self, field);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        tokens(mac.tokens.clone(), &mut |name, field| {
            if field.is_some() {
                self.names.insert(name.to_string());
            }
        });
    }

    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// How the statements after a `let` use its name, up to a `let` binding it again: the fields
/// read, and whether it is used otherwise.
struct Uses {
    name: String,
    fields: BTreeSet<u32>,
    other: bool,
}

impl Uses {
    fn new(name: String) -> Uses {
        Uses {
            name,
            fields: BTreeSet::new(),
            other: false,
        }
    }

    /// The statements of a block, up to one binding the name again (whose value may use it).
    fn stmts(&mut self, stmts: &[syn::Stmt]) {
        for stmt in stmts {
            // `let (a, b) = r;` (or `(a, ..)`) reads the fields its pattern names.
            if let Some(width) = self.taken_apart(stmt) {
                (0..width).for_each(|k| self.field(k as u32));
                if let syn::Stmt::Local(local) = stmt
                    && self.binds(&local.pat)
                {
                    return;
                }
                continue;
            }
            if let syn::Stmt::Local(local) = stmt
                && self.binds(&local.pat)
            {
                if let Some(init) = &local.init {
                    self.visit_local_init(init);
                }
                return;
            }
            self.visit_stmt(stmt);
        }
    }

    /// How many leading fields `let (a, b) = name;` or `let (a, b, ..) = name;` binds.
    fn taken_apart(&self, stmt: &syn::Stmt) -> Option<usize> {
        let syn::Stmt::Local(local) = stmt else {
            return None;
        };
        let init = local.init.as_ref()?;
        if init.diverge.is_some() || ident_of(&init.expr).is_none_or(|name| *name != self.name) {
            return None;
        }
        leading(&local.pat)
    }

    fn binds(&self, pat: &Pat) -> bool {
        let mut binds = Binds {
            name: &self.name,
            found: false,
        };
        binds.visit_pat(pat);
        binds.found
    }

    fn field(&mut self, k: u32) {
        self.fields.insert(k);
    }
}

impl<'ast> Visit<'ast> for Uses {
    fn visit_block(&mut self, block: &'ast syn::Block) {
        self.stmts(&block.stmts);
    }

    fn visit_expr_field(&mut self, field: &'ast syn::ExprField) {
        if let (Some(name), syn::Member::Unnamed(index)) = (ident_of(&field.base), &field.member)
            && *name == self.name
        {
            return self.field(index.index);
        }
        syn::visit::visit_expr_field(self, field);
    }

    fn visit_expr_path(&mut self, path: &'ast syn::ExprPath) {
        self.other |= path.qself.is_none() && path.path.is_ident(&self.name);
    }

    /// A closure whose parameters bind the name reads its own.
    fn visit_expr_closure(&mut self, closure: &'ast syn::ExprClosure) {
        if !closure.inputs.iter().any(|pat| self.binds(pat)) {
            syn::visit::visit_expr_closure(self, closure);
        }
    }

    fn visit_expr_for_loop(&mut self, for_loop: &'ast syn::ExprForLoop) {
        self.visit_expr(&for_loop.expr);
        if !self.binds(&for_loop.pat) {
            self.visit_block(&for_loop.body);
        }
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        if !self.binds(&arm.pat) {
            syn::visit::visit_arm(self, arm);
        }
    }

    fn visit_expr_let(&mut self, expr: &'ast syn::ExprLet) {
        // `if let pat = e`: the pattern's scope is the branch, read as a use all the same
        // when it binds the name (the branch is left unmarked, never misread).
        self.other |= self.binds(&expr.pat);
        self.visit_expr(&expr.expr);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let name = self.name.clone();
        let mut fields = Vec::new();
        let mut other = false;
        tokens(mac.tokens.clone(), &mut |ident, field| {
            if *ident == name {
                match field {
                    Some(k) => fields.push(k),
                    None => other = true,
                }
            }
        });
        fields.into_iter().for_each(|k| self.field(k));
        self.other |= other;
    }

    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// Whether a pattern binds a name.
struct Binds<'a> {
    name: &'a str,
    found: bool,
}

impl<'ast> Visit<'ast> for Binds<'_> {
    fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
        self.found |= pat.ident == self.name;
        syn::visit::visit_pat_ident(self, pat);
    }
}

/// How many elements a tuple pattern names before a trailing `..`, or in all where it has
/// none: `(a, b)` and `(a, b, ..)` are 2; `None` for any other pattern.
pub(crate) fn leading(pat: &Pat) -> Option<usize> {
    let Pat::Tuple(tuple) = pat else {
        return None;
    };
    let rest = |p: &Pat| matches!(p, Pat::Rest(_));
    let n = tuple.elems.len();
    match tuple.elems.iter().position(rest) {
        None => Some(n),
        Some(at) if at + 1 == n && at > 0 => Some(at),
        Some(_) => None,
    }
}

/// The name `expr` is, a path of one identifier.
fn ident_of(expr: &Expr) -> Option<&syn::Ident> {
    match expr {
        Expr::Path(path) if path.qself.is_none() => path.path.get_ident(),
        Expr::Paren(paren) => ident_of(&paren.expr),
        _ => None,
    }
}

/// Each identifier of a macro's tokens (`assert!(r.0 > 0.0)`), and the field read of it where
/// `.k` follows.
fn tokens(stream: TokenStream, each: &mut dyn FnMut(&syn::Ident, Option<u32>)) {
    let trees: Vec<TokenTree> = stream.into_iter().collect();
    for (at, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Group(group) => tokens(group.stream(), each),
            TokenTree::Ident(ident) => {
                let field = match (trees.get(at + 1), trees.get(at + 2)) {
                    (Some(TokenTree::Punct(dot)), Some(TokenTree::Literal(k)))
                        if dot.as_char() == '.' =>
                    {
                        k.to_string().parse().ok()
                    }
                    _ => None,
                };
                each(ident, field);
            }
            _ => {}
        }
    }
}
