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
    let mut item = header::signature_only(item);
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
    let seed = seed_name(item);
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

/// `__f_tangent` and `__f_tangent_pullback` where `options` leave them out: stubs that no call
/// satisfies (micrograd_runtime::calls), so a caller with `jvp`, `hvp` or `hessian` gets one
/// error at its call of `f`, saying which option `f` needs, rather than rustc's "cannot find
/// function". Without `jvp` only `__f_tangent` refuses: a caller's Hessian calls both, and one
/// missing option is one error.
pub fn missing_callee_flavors(
    item: &syn::ItemFn,
    specs: &[ParamSpec],
    options: &crate::attr::Options,
) -> TokenStream {
    let runtime = &options.runtime();
    let output = crate::signature::output(item).unwrap_or(crate::signature::Output::Scalar);
    let all = vec![true; specs.len()];
    let seed = seed_name(item);
    let forward = Flavor::Tangent.emitted(options, output);
    [
        (Flavor::Tangent, "BuiltWithJvp"),
        (Flavor::TangentPullback, "BuiltWithHvp"),
    ]
    .into_iter()
    .filter(|(flavor, _)| !flavor.emitted(options, output))
    .map(|(flavor, bound)| {
        let seed = flavor.seeded(output.is_vector()).then_some(&seed);
        let signature = header::signature(item, specs, &all, flavor, seed, runtime);
        let refuses = flavor == Flavor::Tangent || forward;
        let bound = refuses.then(|| {
            let bound = proc_macro2::Ident::new(bound, Span::mixed_site());
            quote!(where for<'micrograd> #runtime::calls::Missing<'micrograd>: #runtime::calls::#bound)
        });
        let option = if flavor == Flavor::Tangent { "jvp" } else { "hvp" };
        let message = format!(
            "`{}` is built without `{option}`; add it to its `#[differentiable(..)]`",
            item.sig.ident
        );
        quote! {
            #[doc(hidden)]
            #[allow(unused_variables, dead_code, clippy::all)]
            #signature #bound {
                ::core::panic!(#message)
            }
        }
    })
    .collect()
}

/// The seed parameter of a stub: `seed`, or `seed_` and so on while the user's function names
/// it (a parameter `seed`, as the real flavours' [`names::Names::fresh`] also avoids).
fn seed_name(item: &syn::ItemFn) -> proc_macro2::Ident {
    names::free(&mut names::user_names(item), "seed")
}
