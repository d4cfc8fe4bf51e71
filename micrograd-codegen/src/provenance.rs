//! The methods `#[differentiable]` knows by name but `f64` lacks: each call must reach
//! micrograd_runtime's own method, or the build fails.
//!
//! `x.tanh()` is `f64`'s inherent method wherever it is written (inherent methods win), but
//! `x.relu()`, `x.sigmoid()` and `x.detach()` are trait methods: a user's own trait (a leaky
//! ReLU, a hard sigmoid) can provide them instead, and `f` would then compute one function while the reverse
//! sweep differentiates another. So for each such method the function calls, the output holds a
//! check that the name, resolved where the user wrote it, is the same function item as
//! `<f64 as micrograd_runtime::ops::Nonlinear>::relu`: distinct functions have distinct types,
//! and the runtime's `same_function` bound (with `#[diagnostic::on_unimplemented]`) turns a
//! mismatch into a message at the user's call.
//!
//! Before: `fn f(x: f64) -> f64 { x.relu() }`
//! After: `f`, its gradients, and
//! `fn __micrograd_provenance_f() { let _ = || { same_function((<f64>::relu, <f64 as Nonlinear>::relu)); }; }`

use proc_macro2::{Ident, TokenStream};
use quote::{quote, quote_spanned};
use syn::visit::Visit;

/// The methods of `micrograd_runtime::ops` traits, which `f64` does not have, with their trait.
const RUNTIME_METHODS: [(&str, &str); 3] = [
    ("relu", "Nonlinear"),
    ("sigmoid", "Nonlinear"),
    ("detach", "Detach"),
];

/// The check, empty when the function calls none of [`RUNTIME_METHODS`].
pub fn checks(item: &syn::ItemFn, runtime: &syn::Path) -> TokenStream {
    let scalar = crate::signature::scalar(&item.sig, runtime);
    let mut calls = Calls(Vec::new(), scalar);
    calls.visit_block(&item.block);
    if calls.0.is_empty() {
        return TokenStream::new();
    }
    let float = scalar.ty();
    let each = calls.0.iter().map(|method| {
        let name = Ident::new(&method.to_string(), proc_macro2::Span::mixed_site());
        let owner = RUNTIME_METHODS
            .iter()
            .find(|(m, _)| name == m)
            .map(|(_, owner)| owner)
            .expect("internal error: only runtime methods are collected");
        let owner = Ident::new(owner, proc_macro2::Span::mixed_site());
        // The runtime's path at the user's call too, so the whole check points there.
        let mut runtime = runtime.clone();
        if let Some(colons) = &mut runtime.leading_colon {
            colons.spans = [method.span(); 2];
        }
        for segment in &mut runtime.segments {
            segment.ident.set_span(method.span());
        }
        // `<f64>::relu` spelled with the user's `relu`, so it resolves where they wrote it, and
        // the check spanned there, so the error points at their call.
        let pair = quote_spanned!(method.span()=> (<#float>::#method, <#float as #runtime::ops::#owner>::#name));
        quote_spanned!(method.span()=> #runtime::ops::same_function(#pair);)
    });
    // A hidden function rather than a `const _`, so the output is also valid inside an `impl`.
    let name = crate::names::provenance(&item.sig.ident);
    // Generic as `f` is, so a generic float `T` names the type of `<T>::relu`.
    let (generics, clause) = (&item.sig.generics, &item.sig.generics.where_clause);
    quote! {
        #[doc(hidden)]
        #[allow(dead_code, non_snake_case)]
        fn #name #generics() #clause {
            let _ = || {
                #(#each)*
            };
        }
    }
}

/// The first call of each runtime method, as the user spelled its name; the function's float.
struct Calls(Vec<Ident>, crate::ir::Scalar);

impl Calls {
    fn note(&mut self, ident: &Ident) {
        let name = ident.to_string();
        let known = RUNTIME_METHODS.iter().any(|(method, _)| *method == name);
        if known && !self.0.iter().any(|seen| *seen == name) {
            self.0.push(ident.clone());
        }
    }
}

impl<'ast> Visit<'ast> for Calls {
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        self.note(&call.method);
        syn::visit::visit_expr_method_call(self, call);
    }

    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        // `f64::relu(x)`
        if let syn::Expr::Path(path) = &*call.func
            && let [ty, method] = path.path.segments.iter().collect::<Vec<_>>().as_slice()
            && self.1.named(&ty.ident.to_string()).is_some()
        {
            self.note(&method.ident);
        }
        syn::visit::visit_expr_call(self, call);
    }
}
