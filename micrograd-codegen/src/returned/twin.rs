//! `__f_into`, the function the pipeline differentiates in place of `f`: `f` returning `()`,
//! the array written into an output parameter last among its parameters.

use super::OUT;
use crate::error::Errors;
use crate::names;
use proc_macro2::{Ident, Span};
use quote::ToTokens;
use syn::visit::Visit;
use syn::{Expr, ItemFn, ReturnType, Type};

/// `__f_into`: `function` returning `()`, with the output parameter `__micrograd_out: &mut
/// [F]` last, and its tail (a local array or an array literal) copied into it.
pub(super) fn twin(function: &ItemFn, len: &Expr, errors: &mut Errors) -> ItemFn {
    // Cloned with a loop over the body's binary chains, as it is dropped (`Parsed`).
    let mut twin = ItemFn {
        attrs: function.attrs.clone(),
        vis: function.vis.clone(),
        modifiers: function.modifiers.clone(),
        sig: function.sig.clone(),
        block: Box::new(crate::spine::clone_block(&function.block)),
    };
    let f = &function.sig.ident;
    twin.sig.ident = Ident::new(&names::hidden(&names::text(f), "_into"), f.span());
    twin.sig.output = ReturnType::Default;
    let ReturnType::Type(_, ty) = &function.sig.output else {
        unreachable!("internal error: a returned array was checked first")
    };
    let Type::Array(array) = &**ty else {
        unreachable!("internal error: a returned array was checked first")
    };
    let elem = &array.elem;
    let out = Ident::new(OUT, Span::mixed_site());
    twin.sig.inputs.push(syn::parse_quote!(#out: &mut [#elem]));
    let mut early = Returns(None);
    early.visit_block(&function.block);
    if let Some(span) = early.0 {
        errors.at(span, format!("a function returning `[{}; {}]` of a length that is not a literal returns its array at its end, not with `return` (its outputs are counted when it runs); store into a local array and return it last", elem.to_token_stream(), len.to_token_stream()));
        return twin;
    }
    let stmts = &mut twin.block.stmts;
    let tail = match stmts.pop() {
        Some(syn::Stmt::Expr(tail, None)) => tail,
        other => {
            let span = other.as_ref().map_or_else(
                || function.block.brace_token.span.close(),
                syn::spanned::Spanned::span,
            );
            errors.at(span, "the function must end with the array it returns");
            return twin;
        }
    };
    let mut used = names::user_names(function);
    let index = names::free(&mut used, names::lowered::INDEX);
    match tail {
        Expr::Array(literal) => {
            for (k, entry) in literal.elems.iter().enumerate() {
                stmts.push(syn::parse_quote!(#out[#k] = #entry;));
            }
        }
        Expr::Path(path) if path.path.get_ident().is_some() => {
            stmts.push(syn::parse_quote!(for #index in 0..#len { #out[#index] = #path[#index]; }));
        }
        tail => errors.spanned(&tail, format!("a function returning `[{}; {}]` of a length that is not a literal ends with a local array (`r`) or an array literal (`[a, b, ..]`) (its outputs are counted when it runs); bind this to `let r: [{0}; {1}] = ..;` and end with `r`", elem.to_token_stream(), len.to_token_stream())),
    }
    twin
}

/// Finds a `return` in the body, outside closures and nested items.
struct Returns(Option<Span>);

impl<'ast> Visit<'ast> for Returns {
    fn visit_expr_return(&mut self, ret: &'ast syn::ExprReturn) {
        self.0.get_or_insert(ret.return_token.span);
    }

    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}

    fn visit_item(&mut self, _: &'ast syn::Item) {}

    /// A sum of 10^5 terms without a frame per term.
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }
}
