//! The hidden count beside a function returning `[F; M]`, whatever its length is written as:
//! `const __sub3_outputs: usize = 3;` (an associated const for a method), which a caller
//! binding the call's value without a type reads (`lower/desugar/array_calls.rs`): the caller's
//! macro cannot see `sub3`'s signature, so it reads the outputs in a loop over it.
//!
//! Before: `fn sub3(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] { .. }`
//! After: `sub3`, its flavours, and `#[doc(hidden)] const __sub3_outputs: usize = 3;`

use crate::names;
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::HashSet;
use syn::visit::Visit;
use syn::{ReturnType, Type};

/// The hidden constant holding the output count of `item`, a function returning `[F; M]`:
/// `#[doc(hidden)] const __f_outputs: usize = M;`, with `f`'s visibility, printed beside it
/// (as an associated const in an `impl`). `None` for every other item, and for a length that
/// names the function's own generics (`fn f<const N: usize>() -> [f64; N]`), which no item
/// outside it can read.
pub fn constant(item: &TokenStream) -> Option<TokenStream> {
    if crate::nesting::too_deep(item).is_some() {
        return None;
    }
    let header = crate::returned::signature_only(item)?;
    let ReturnType::Type(_, ty) = &header.sig.output else {
        return None;
    };
    let Type::Array(array) = &**ty else {
        return None;
    };
    let generics: HashSet<String> = header
        .sig
        .generics
        .params
        .iter()
        .filter_map(|param| match param {
            syn::GenericParam::Const(c) => Some(names::text(&c.ident)),
            syn::GenericParam::Type(t) => Some(names::text(&t.ident)),
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect();
    let mut named = Named {
        names: &generics,
        found: false,
    };
    named.visit_expr(&array.len);
    if named.found {
        return None;
    }
    let f = &header.sig.ident;
    let name = names::ident(&names::outputs(&names::text(f)), f.span());
    let (vis, len) = (&header.vis, &array.len);
    Some(quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, dead_code)]
        #vis const #name: usize = #len;
    })
}

/// Whether an expression names one of `names`.
struct Named<'a> {
    names: &'a HashSet<String>,
    found: bool,
}

impl<'ast> Visit<'ast> for Named<'_> {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.found |= path
            .segments
            .iter()
            .any(|segment| self.names.contains(&names::text(&segment.ident)));
        syn::visit::visit_path(self, path);
    }
}
