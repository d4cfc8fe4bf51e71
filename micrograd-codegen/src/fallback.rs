//! Stubs emitted beside the errors, so a caller of `f_grad` sees the real error only.

use crate::signature::{Kind, ParamSpec};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The user's function with its body replaced by `unreachable!()`.
///
/// The body holds the construct the macro rejected; compiled as is, it would add rustc's own
/// errors (`f64 * {integer}`) and warnings (`unused_unsafe`) to the macro's, one problem
/// reported twice. Its signature stays, so callers still type-check.
pub fn without_body(item: &syn::ItemFn) -> syn::ItemFn {
    let mut item = item.clone();
    item.block = Box::new(syn::parse_quote!({ ::core::unreachable!() }));
    item.attrs
        .push(syn::parse_quote!(#[allow(unused_variables, unreachable_code)]));
    item
}

/// `f_grad` and `f_pullback` with the right signatures and `unreachable!()` bodies.
pub fn stubs(item: &syn::ItemFn, specs: &[ParamSpec], wrt: &[String]) -> TokenStream {
    let vis = &item.vis;
    let f64_ty = quote!(::core::primitive::f64);
    let grad = format_ident!("{}_grad", item.sig.ident, span = item.sig.ident.span());
    let pullback = format_ident!("{}_pullback", item.sig.ident, span = item.sig.ident.span());
    let selected = |spec: &ParamSpec| wrt.contains(&spec.ident.to_string());
    let grad_params = params(specs, &selected);
    let pullback_params = params(specs, &|spec| matches!(spec.kind, Kind::Slice(_)));
    let grad_scalars = specs
        .iter()
        .filter(|s| matches!(s.kind, Kind::Scalar) && selected(s))
        .count();
    let all_scalars = specs
        .iter()
        .filter(|s| matches!(s.kind, Kind::Scalar))
        .count();
    let grad_output = tuple(&f64_ty, grad_scalars + 1);
    let pullback_output = tuple(&f64_ty, all_scalars);
    quote! {
        #[allow(unused_variables, dead_code)]
        #vis fn #grad(#(#grad_params),*) -> #grad_output {
            ::core::unreachable!()
        }
        #[doc(hidden)]
        #[allow(unused_variables, dead_code)]
        #vis fn #pullback(#(#pullback_params,)* seed: #f64_ty) -> #pullback_output {
            ::core::unreachable!()
        }
    }
}

fn params(specs: &[ParamSpec], shadowed: &dyn Fn(&ParamSpec) -> bool) -> Vec<TokenStream> {
    let f64_ty = quote!(::core::primitive::f64);
    let mut params = Vec::new();
    for spec in specs {
        let (ident, ty) = (&spec.ident, &spec.ty);
        params.push(quote!(#ident: #ty));
        if let Kind::Slice(len) = &spec.kind
            && shadowed(spec)
        {
            let shadow = format_ident!("d_{}", ident);
            params.push(match len {
                None => quote!(#shadow: &mut [#f64_ty]),
                Some(len) => quote!(#shadow: &mut [#f64_ty; #len]),
            });
        }
    }
    params
}

fn tuple(ty: &TokenStream, n: usize) -> TokenStream {
    match n {
        1 => ty.clone(),
        n => {
            let types = std::iter::repeat_n(ty, n);
            quote!((#(#types),*))
        }
    }
}
