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
        let differentiable = matches!(spec.kind, Kind::Scalar | Kind::Slice(_));
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
        .map(|spec| (&spec.ident, matches!(spec.kind, Kind::Slice(_))))
        .collect();
    let shadows = names::shadows(&signature);
    let mut params = Vec::new();
    let mut scalars = 0;
    for ((spec, shadow), &chosen) in specs.iter().zip(&shadows).zip(chosen) {
        let ident = names::param(&spec.ident);
        let ty = match &spec.kind {
            Kind::Scalar => float.clone(),
            Kind::Slice(None) => quote!(&[#float]),
            Kind::Slice(Some(len)) => quote!(&[#float; #len]),
            Kind::Int(ty) => quote!(#ty),
            Kind::Bool => quote!(::core::primitive::bool),
        };
        params.push(quote!(#ident: #ty));
        if !flavor.differentiates(spec, chosen) {
            continue;
        }
        match (&spec.kind, shadow) {
            (Kind::Slice(None), Some(shadow)) => params.push(quote!(#shadow: &mut [#float])),
            (Kind::Slice(Some(len)), Some(shadow)) => {
                params.push(quote!(#shadow: &mut [#float; #len]));
            }
            _ => scalars += 1,
        }
    }
    let seed = seed.map(|seed| quote!(#seed: #float));
    let output = output(flavor, &float, scalars, runtime);
    let (vis, name) = (&item.vis, name(item, flavor));
    quote!(#vis fn #name(#(#params,)* #seed) -> #output)
}

/// `(f, ∂f/∂x₁, ..)` for `f_grad`, `(∂f/∂x₁, ..)` for `f_pullback`, a `Graph` for `f_graph`.
fn output(flavor: Flavor, float: &TokenStream, scalars: usize, runtime: &syn::Path) -> TokenStream {
    let tuple = |n: usize| match n {
        1 => float.clone(),
        n => {
            let types = std::iter::repeat_n(float, n);
            quote!((#(#types),*))
        }
    };
    match flavor {
        Flavor::Grad => tuple(scalars + 1),
        Flavor::Pullback => tuple(scalars),
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
        let signature =
            quote!(pub fn f(a: f64, w: &[f64], d_w: f64, n: usize, on: bool, v: &[f64; 2]) -> f64);
        // `f_graph` is generated on request (`graph`), and its stub with it.
        let all = super::Flavor::ALL.len();
        for (attr, flavors) in [
            (quote!(graph), all),
            (quote!(wrt(w, a), graph), all),
            (quote!(wrt(v), graph), all),
            (quote!(), all - 1),
        ] {
            let real = generated(attr.clone(), quote!(#signature { a * w[n] * d_w + v[1] }));
            let stubs = generated(attr, quote!(#signature { unsafe { a } }));
            assert_eq!(real.len(), flavors, "{real:#?}");
            assert_eq!(stubs, real);
        }
    }
}
