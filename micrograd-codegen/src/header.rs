//! The signature of every generated function, printed by one piece of code for the real
//! output and for the stubs beside an error (thiserror's `fallback.rs` reuses its `expand`), so
//! the two cannot drift and a new flavor cannot be missing from the stubs.

use crate::emit::Flavor;
use crate::names;
use crate::signature::{Kind, ParamSpec};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

impl Flavor {
    /// Every flavor, in the order they are emitted. [`Flavor::suffix`]'s exhaustive match makes
    /// a new flavor name itself; the test `stubs_match_the_real_signatures` finds one missing here.
    pub const ALL: [Flavor; 3] = [Flavor::Grad, Flavor::Pullback, Flavor::Graph];

    /// What follows `f_` in the generated function's name.
    pub fn suffix(self) -> &'static str {
        match self {
            Flavor::Grad => "grad",
            Flavor::Pullback => "pullback",
            Flavor::Graph => "graph",
        }
    }

    /// Whether this flavor differentiates parameter `spec`; `chosen` is `wrt(..)`'s verdict.
    pub fn differentiates(self, spec: &ParamSpec, chosen: bool) -> bool {
        let differentiable = spec.kind.is_differentiable();
        match self {
            Flavor::Grad => differentiable && chosen,
            Flavor::Pullback => differentiable,
            Flavor::Graph => false,
        }
    }
}

/// `f_grad`, `f_pullback`, ...: the user's name and span, so errors and IDEs point at `f`.
pub fn name(item: &syn::ItemFn, flavor: Flavor) -> Ident {
    let f = &item.sig.ident;
    format_ident!("{}_{}", f, flavor.suffix(), span = f.span())
}

/// `vis fn f_flavor(params..) -> output`; `chosen[k]` says whether `wrt(..)` selects parameter
/// `k`, and `seed` is the pullback's seed parameter.
pub fn signature(
    item: &syn::ItemFn,
    specs: &[ParamSpec],
    chosen: &[bool],
    flavor: Flavor,
    seed: Option<&Ident>,
    runtime: &syn::Path,
) -> TokenStream {
    let scalar = crate::signature::scalar(&item.sig);
    let float = scalar.ty();
    let signature: Vec<(&Ident, bool)> = specs
        .iter()
        .map(|spec| (&spec.ident, spec.kind.is_sequence()))
        .collect();
    let shadows = names::shadows(&signature);
    let mut params = Vec::new();
    // The type of each partial `f_grad` and `f_pullback` return, in parameter order.
    let mut partials = Vec::new();
    for ((spec, shadow), &chosen) in specs.iter().zip(&shadows).zip(chosen) {
        let ident = names::param(&spec.ident);
        let ty = match &spec.kind {
            Kind::Scalar => float.clone(),
            Kind::Slice(None) => quote!(&[#float]),
            Kind::Slice(Some(len)) => quote!(&[#float; #len]),
            Kind::Vec => quote!(&::std::vec::Vec<#float>),
            Kind::SliceMut => quote!(&mut [#float]),
            Kind::Array(len) => quote!([#float; #len]),
            Kind::Int(ty) => quote!(#ty),
            Kind::Bool => quote!(::core::primitive::bool),
        };
        params.push(quote!(#ident: #ty));
        if !flavor.differentiates(spec, chosen) {
            continue;
        }
        match (&spec.kind, shadow) {
            // The pullback's shadows are slices: a caller may pass `&mut []` or a part of its own.
            (Kind::Slice(Some(len)), Some(shadow)) if flavor == Flavor::Grad => {
                params.push(quote!(#shadow: &mut [#float; #len]));
            }
            (Kind::Slice(_) | Kind::Vec | Kind::SliceMut, Some(shadow)) => {
                params.push(quote!(#shadow: &mut [#float]));
            }
            (Kind::Array(_), _) => partials.push(ty),
            _ => partials.push(float.clone()),
        }
    }
    let seed = seed.map(|seed| quote!(#seed: #float));
    let output = output(flavor, &float, partials, runtime);
    let (vis, name) = (&item.vis, name(item, flavor));
    // Only `<const N: usize>` gets here (the signature check refuses other generics).
    let generics = &item.sig.generics;
    quote!(#vis fn #name #generics(#(#params,)* #seed) -> #output)
}

/// `(f, ∂f/∂x₁, ..)` for `f_grad`, `(∂f/∂x₁, ..)` for `f_pullback`, a `Graph` for `f_graph`;
/// `partials` are the types of the `∂f/∂xᵢ`.
fn output(
    flavor: Flavor,
    float: &TokenStream,
    mut partials: Vec<TokenStream>,
    runtime: &syn::Path,
) -> TokenStream {
    let tuple = |types: Vec<TokenStream>| match types.as_slice() {
        [single] => single.clone(),
        types => quote!((#(#types),*)),
    };
    match flavor {
        Flavor::Grad => {
            partials.insert(0, float.clone());
            tuple(partials)
        }
        Flavor::Pullback => tuple(partials),
        Flavor::Graph => quote!(#runtime::Graph),
    }
}

#[cfg(test)]
mod tests {
    use quote::{ToTokens, quote};

    /// The signatures of the generated functions in `expand`'s output (all but `f` itself).
    fn generated(attr: proc_macro2::TokenStream, item: proc_macro2::TokenStream) -> Vec<String> {
        let file: syn::File = syn::parse2(crate::expand(attr, item)).expect("the output parses");
        file.items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Fn(function) if function.sig.ident != "f" => {
                    Some(function.sig.to_token_stream().to_string())
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn stubs_match_the_real_signatures() {
        let signature = quote!(pub fn f<const N: usize>(a: f64, w: &[f64], d_w: f64, n: usize, on: bool, v: &[f64; 2], u: &Vec<f64>, p: [f64; N]) -> f64);
        // `f_graph` is generated on request (`graph`), and its stub with it.
        let all = super::Flavor::ALL.len();
        for (attr, flavors) in [
            (quote!(graph), all),
            (quote!(wrt(w, a), graph), all),
            (quote!(wrt(v), graph), all),
            (quote!(wrt(p, u)), all - 1),
            (quote!(), all - 1),
        ] {
            let real = generated(
                attr.clone(),
                quote!(#signature { a * w[n] * d_w + v[1] + u[0] * p[0] }),
            );
            let stubs = generated(attr, quote!(#signature { unsafe { a } }));
            assert_eq!(real.len(), flavors, "{real:#?}");
            assert_eq!(stubs, real);
        }
    }
}
