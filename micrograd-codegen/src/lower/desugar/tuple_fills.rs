//! A local array of tuples filled with one tuple, `let pts = [(x, y); N];` (or
//! `vec![(x, y); N]`), as the core declares it: an array of tuples of zeros, then a counted
//! loop storing the tuple into every entry, so each entry carries its adjoint back to what the
//! tuple reads, as any store does. The lowering declares the zeros (`Lowerer::tuple_array`)
//! and lowers the loop as any loop.
//!
//! Before: `let mut pts = [(a, 0.0); 3];`
//! After: `let mut pts = [(0.0, 0.0); 3]; for k in 0..3 { pts[k] = (a, 0.0); }`
//!
//! The tuple is evaluated once per entry, as the lowering did before the pass did this (the
//! loop reads it in its body). A `vec!` is rewritten alike: inside a loop the lowering holds
//! one of a constant length as a local array of tuples, and outside loops it refuses a `vec!`
//! of tuples at the fill, which the zeros carry the span of.

use super::super::stmt::strip_parens;
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, Pat, parse_quote_spanned};

/// A `let` the rewrite applies to: the array's name and span, its fill and its length.
struct Filled<'l> {
    name: &'l syn::Ident,
    fill: &'l Expr,
    len: &'l Expr,
}

/// Whether `local` is `let name = [(..); len];` (or `vec![(..); len]`) of a name, a tuple of
/// one element or more: the `let`s `Lowerer::array` reads as arrays of tuples.
pub(super) fn applies(local: &syn::Local) -> bool {
    with_filled(local, |_| ()).is_some()
}

/// Rewrites `let name = [fill; len];` into the `let` of zeros and returns the loop storing
/// `fill` into each entry, indexed by `k`; `None` (and `local` untouched) if it does not apply.
pub(super) fn rewrite(local: &mut syn::Local, k: &syn::Ident) -> Option<syn::Stmt> {
    let (store, zeros) = with_filled(local, |filled| {
        let span = filled.name.span();
        let array = crate::names::ident(&filled.name.to_string(), span);
        let (fill, len) = (filled.fill, filled.len);
        let store: syn::Stmt = parse_quote_spanned!(span=>
            for #k in 0..#len {
                #array[#k] = #fill;
            }
        );
        (store, zeros(filled.fill))
    })?;
    let init = local.init.as_mut()?;
    match &mut *init.expr {
        Expr::Repeat(repeat) => *repeat.expr = zeros,
        Expr::Macro(mac) => {
            let Ok(super::super::vecs::Body::Repeat(parts)) =
                mac.mac.parse_body_with(super::super::vecs::body)
            else {
                return None;
            };
            let len = parts.1;
            mac.mac.tokens = quote::quote!(#zeros; #len);
        }
        _ => return None,
    }
    Some(store)
}

/// `f` of the parts of `local` when the rewrite applies to it.
fn with_filled<T>(local: &syn::Local, f: impl FnOnce(Filled) -> T) -> Option<T> {
    let init = local.init.as_ref().filter(|init| init.diverge.is_none())?;
    let pat = match &local.pat {
        Pat::Type(typed) => &*typed.pat,
        other => other,
    };
    let Pat::Ident(ident) = pat else {
        return None;
    };
    let parts;
    let (fill, len) = match &*init.expr {
        Expr::Repeat(repeat) => (&*repeat.expr, &*repeat.len),
        Expr::Macro(mac) if super::super::vecs::is_vec(&mac.mac) => {
            let Ok(super::super::vecs::Body::Repeat(body)) =
                mac.mac.parse_body_with(super::super::vecs::body)
            else {
                return None;
            };
            parts = body;
            (&parts.0, &parts.1)
        }
        _ => return None,
    };
    let Expr::Tuple(tuple) = strip_parens(fill) else {
        return None;
    };
    if tuple.elems.is_empty() {
        return None;
    }
    Some(f(Filled {
        name: &ident.ident,
        fill,
        len,
    }))
}

/// A tuple of as many `0.0`s as `fill` has elements, at `fill`'s span.
fn zeros(fill: &Expr) -> Expr {
    let span: Span = fill.span();
    let Expr::Tuple(tuple) = strip_parens(fill) else {
        return fill.clone();
    };
    let zero: Expr = parse_quote_spanned!(span=> 0.0);
    let mut elems: syn::punctuated::Punctuated<Expr, syn::Token![,]> =
        tuple.elems.iter().map(|_| zero.clone()).collect();
    // `(0.0,)`: a tuple of one keeps its comma.
    if elems.len() == 1 {
        elems.push_punct(syn::Token![,](span));
    }
    Expr::Tuple(syn::ExprTuple {
        attrs: Vec::new(),
        paren_token: syn::token::Paren(span),
        elems,
    })
}
