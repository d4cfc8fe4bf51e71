//! The generated functions' signatures (`header.rs`): the stubs beside an error have the real
//! output's, flavour by flavour.

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
    // `f_jacobian` only for several outputs, and then no `f_grad`. The callee flavours
    // `__f_tangent` and `__f_tangent_pullback` are always there, real or refusing stubs.
    let all = crate::flavor::Flavor::ALL.len() - 1;
    for (attr, flavors) in [
        (quote!(graph, hessian), all),
        (quote!(wrt(w, a), graph, hessian), all),
        (quote!(jvp), 5),
        (quote!(hvp), all - 2),
        (quote!(wrt(v), graph, hessian), all),
        (quote!(), 4),
    ] {
        let real = generated(
            attr.clone(),
            quote!(#signature { a * w[n] * d_w + v[1] + u[0] * p[0] }),
        );
        let stubs = generated(attr, quote!(#signature { unsafe { a } }));
        assert_eq!(real.len(), flavors, "{real:#?}");
        assert_eq!(stubs, real);
    }
    for (attr, output, value, flavors) in [
        (
            quote!(jacobian, wrt(a)),
            quote!([f64; 2]),
            quote!([t, a]),
            4,
        ),
        (
            quote!(jacobian, wrt(a)),
            quote!((f64, f64)),
            quote!((t, a)),
            4,
        ),
        (quote!(), quote!([f64; 2]), quote!([t, a]), 3),
        (quote!(jvp, jacobian), quote!((f64, f64)), quote!((t, a)), 5),
        // A slice's Jacobian block follows it.
        (quote!(jacobian), quote!([f64; 2]), quote!([t, a]), 4),
        // `f_hvp` of several outputs takes a seed, as the pullbacks do.
        (quote!(hvp), quote!([f64; 2]), quote!([t, a]), 5),
        (quote!(hvp, jacobian), quote!((f64, f64)), quote!((t, a)), 6),
    ] {
        let signature = quote!(pub fn f(a: f64, w: &[f64], n: usize) -> #output);
        let real = generated(
            attr.clone(),
            quote!(#signature { let t = a * w[n]; #value }),
        );
        let stubs = generated(attr, quote!(#signature { unsafe { a } }));
        assert_eq!(real.len(), flavors, "{real:#?}");
        assert_eq!(stubs, real);
    }
}
