//! Stubs emitted beside the errors, so a caller of `f_grad` sees the real error only.

use crate::flavor::{Flavor, Missing};
use crate::ir::{Output, Signature};
use crate::{header, names};
use proc_macro2::{Span, TokenStream};
use quote::quote;

/// The user's function with its body replaced by `unreachable!()`.
///
/// The body holds the construct the macro rejected; compiled as is, it would add rustc's own
/// errors (`f64 * {integer}`) and warnings (`unused_unsafe`) to the macro's, one problem
/// reported twice. Its signature stays, so callers still type-check.
pub fn without_body(item: &syn::ItemFn) -> syn::ItemFn {
    let mut item = signature_only(item);
    item.block = Box::new(syn::parse_quote!({ ::core::unreachable!() }));
    item.attrs
        .push(syn::parse_quote!(#[allow(unused_variables, unreachable_code)]));
    item
}

/// `item` with an empty body: a copy of the body would cost a recursion as deep as its deepest
/// expression (a sum of 10^4 terms is 10^4 deep), for nothing a signature needs.
pub fn signature_only(item: &syn::ItemFn) -> syn::ItemFn {
    syn::ItemFn {
        attrs: item.attrs.clone(),
        vis: item.vis.clone(),
        modifiers: item.modifiers.clone(),
        sig: item.sig.clone(),
        block: Box::new(syn::Block {
            brace_token: item.block.brace_token,
            stmts: Vec::new(),
        }),
    }
}

/// Every generated function the attribute's `options` ask for (`f_grad`, `f_pullback`,
/// `f_graph` with `graph`, ...) with the signature the real output has and an `unreachable!()`
/// body; `wrt` lists the parameters `wrt(..)` selects.
pub fn stubs(sig: &Signature, wrt: &[String], options: &crate::attr::Options) -> TokenStream {
    let runtime = &options.runtime();
    let output = sig.output.unwrap_or(Output::Scalar);
    let chosen: Vec<bool> = sig
        .params
        .iter()
        .map(|spec| wrt.contains(&spec.ident.to_string()))
        .collect();
    let seed = seed_name(sig);
    Flavor::ALL
        .into_iter()
        .filter(|flavor| flavor.emitted_for(options, sig))
        .map(|flavor| {
            let seed = flavor.seeded(output.is_vector()).then_some(&seed);
            let signature = header::signature(sig, &chosen, flavor, seed, runtime);
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

/// The rows of `f` with a refusing stub ([`Missing::Refuses`]: `__f_tangent` and
/// `__f_tangent_pullback`) where `options` leave them out: stubs that no call satisfies
/// (micrograd_runtime::calls), so a caller with `jvp`, `hvp` or `hessian` gets one error at its
/// call of `f`, saying which option `f` needs, rather than rustc's "cannot find function".
/// Without `jvp` only `__f_tangent` refuses: a caller's Hessian calls both, and one missing
/// option is one error ([`Flavor::after`]).
pub fn missing_callee_flavors(sig: &Signature, options: &crate::attr::Options) -> TokenStream {
    let runtime = &options.runtime();
    let output = sig.output.unwrap_or(Output::Scalar);
    let all = vec![true; sig.params.len()];
    let seed = seed_name(sig);
    let missing = Flavor::ALL
        .into_iter()
        .filter_map(|flavor| match flavor.spec().missing {
            Missing::Refuses(bound) if !flavor.emitted_for(options, sig) => Some((flavor, bound)),
            _ => None,
        });
    missing
        .map(|(flavor, bound)| {
            // A function returning `()` has no second order yet, whatever its options say.
            let unit = flavor == Flavor::TangentPullback && output.is_unit();
            let bound = if unit {
                "WrittenOutputsSecondOrder"
            } else {
                bound
            };
            let seed = flavor.seeded(output.is_vector()).then_some(&seed);
            let signature = header::signature(sig, &all, flavor, seed, runtime);
            let refuses = flavor
                .after()
                .is_none_or(|after| after.emitted_for(options, sig));
            let bound = refuses.then(|| refusal(sig, bound, runtime));
            let option = flavor.spec().request.option();
            let message = match unit {
                true => format!(
                    "`{}` returns `()`, and its second order is not generated yet",
                    sig.ident
                ),
                false => format!(
                    "`{}` is built without `{option}`; add it to its `#[differentiable(..)]`",
                    sig.ident
                ),
            };
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

/// The bound `micrograd_runtime::calls::Missing: bound` no call satisfies, after the `where`
/// clause of `sig`'s flavours (or as one): a refusing stub's.
pub fn refusal(sig: &Signature, bound: &str, runtime: &syn::Path) -> TokenStream {
    let bound = proc_macro2::Ident::new(bound, Span::mixed_site());
    // After the signature's own `where` clause, if it has one.
    let start = sig.bounds.is_empty().then(|| quote!(where));
    quote!(#start for<'micrograd> #runtime::calls::Missing<'micrograd>: #runtime::calls::#bound)
}

/// The seed parameter of a stub: `seed`, or `seed_` and so on while the user's function names
/// it (a parameter `seed`, as the real flavours' [`names::Names::fresh`] also avoids).
fn seed_name(sig: &Signature) -> proc_macro2::Ident {
    names::free(&mut sig.user_names.clone(), "seed")
}
