//! Stubs emitted beside the errors, so a caller of `f_grad` sees the real error only.

use crate::emit::Flavor;
use crate::signature::ParamSpec;
use crate::{header, names};
use proc_macro2::{Span, TokenStream};
use quote::quote;

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

/// Every generated function the attribute's `options` ask for (`f_grad`, `f_pullback`,
/// `f_graph` with `graph`, ...) with the signature the real output has and an `unreachable!()`
/// body; `wrt` lists the parameters `wrt(..)` selects.
pub fn stubs(
    item: &syn::ItemFn,
    specs: &[ParamSpec],
    wrt: &[String],
    options: &crate::attr::Options,
) -> TokenStream {
    let runtime = &options.runtime();
    let output = crate::signature::output(item).unwrap_or(crate::signature::Output::Scalar);
    let chosen: Vec<bool> = specs
        .iter()
        .map(|spec| wrt.contains(&spec.ident.to_string()))
        .collect();
    let seed = names::ident("seed", Span::mixed_site());
    Flavor::ALL
        .into_iter()
        .filter(|flavor| flavor.emitted(options, output))
        .map(|flavor| {
            let seed = flavor.seeded(output.is_vector()).then_some(&seed);
            let signature = header::signature(item, specs, &chosen, flavor, seed, runtime);
            let hidden = (flavor != Flavor::Grad).then(|| quote!(#[doc(hidden)]));
            quote! {
                #hidden
                #[allow(unused_variables, dead_code)]
                #signature {
                    ::core::unreachable!()
                }
            }
        })
        .collect()
}
