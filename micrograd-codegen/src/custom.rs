//! Custom derivatives: `#[differentiable(derivative(x = rule, ..))]` on a function whose body
//! the macro does not read (a foreign `erf`, an iterative solver, a numerically better formula).
//!
//! Each rule is a `#[differentiable]` function of the same parameters that returns one partial
//! derivative. The body is called, never differentiated; `f_grad` and `f_pullback` are written
//! from the rules, so callers compose through the usual pullback. Rules are functions rather than
//! a hand-written pullback so that every flavour can be derived from them: a tangent (JVP) is
//! `Σ ∂_i f · ẋ_i`, and the rules' own gradients give the second order.
//!
//! Before: `#[differentiable(derivative(x = erf_dx))] fn erf(x: f64) -> f64 { series(x) }`
//! After: `fn erf_grad(x: f64) -> (f64, f64) { ((|x: f64| -> f64 { series(x) })(x), erf_dx(x)) }`
//! (the body, not a call of `erf`, see [`value`]),
//! `fn erf_pullback(x: f64, seed: f64) -> f64 { seed * erf_dx(x) }`, and a check that
//! `erf_dx` takes `(f64,)`, returns `f64` and is `#[differentiable]`.

use crate::attr::Options;
use crate::error::Errors;
use crate::flavor::Flavor;
use crate::ir::{ParamSpec, Signature};
use crate::types::Kind;
use crate::{header, names};
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

mod forward;

/// The rule of each parameter, in parameter order (`None` for integers and booleans).
type Rules<'a> = Vec<Option<&'a syn::Path>>;

/// The user's function with `f_grad`, `f_pullback` and the rules' checks, or `None` after
/// recording what is wrong with `rules` in `errors`; `wrt` lists what `wrt(..)` selects.
pub fn generate(
    (item, sig): (&syn::ItemFn, &Signature),
    wrt: &[String],
    options: &Options,
    errors: &mut Errors,
) -> Option<TokenStream> {
    let specs = &sig.params;
    let rules = check(item, specs, options, errors)?;
    let runtime = options.runtime();
    let chosen: Vec<bool> = specs
        .iter()
        .map(|spec| wrt.contains(&spec.ident.to_string()))
        .collect();
    let args: Vec<Ident> = specs.iter().map(|spec| names::param(&spec.ident)).collect();
    let f = &item.sig.ident;
    let partials = partials(specs, &rules, sig.scalar.ty());
    let grad_partials = partials
        .iter()
        .zip(&chosen)
        .filter_map(|(partial, chosen)| partial.as_ref().filter(|_| *chosen));
    let grad_body = body(Some(value(item)), grad_partials, &args, None);
    let seed = names::ident("seed", Span::mixed_site());
    let pullback_body = body(None, partials.iter().flatten(), &args, Some(&seed));
    let pullback_body = {
        let value = seed_value(&runtime, &seed);
        quote!(#value #pullback_body)
    };
    let grad = header::signature(sig, &chosen, Flavor::Grad, None, &runtime);
    let all = vec![true; specs.len()];
    let pullback = header::signature(sig, &all, Flavor::Pullback, Some(&seed), &runtime);
    let (grad_doc, pullback_doc) = docs(f, &rules, &chosen);
    // With `hvp`, the flavours call each rule's pullback, and that call is the check.
    let checks = (!Flavor::Hvp.requested(options)).then(|| rule_checks(f, &rules));
    let forward = forward::flavours((item, sig), (&rules, &partials), &chosen, options);
    let missing = crate::fallback::missing_callee_flavors(sig, options);
    // The flavours run `f`'s body rather than call `f` ([`value`]), so `f` may go unused.
    Some(quote! {
        #[allow(dead_code)]
        #item
        #checks
        #[doc = #grad_doc]
        #[allow(dead_code, unused_parens, clippy::all)]
        #grad {
            #grad_body
        }
        #[doc = #pullback_doc]
        #[allow(dead_code, unused_parens, clippy::all)]
        #pullback {
            #pullback_body
        }
        #forward
        #missing
    })
}

/// One rule per `f64` parameter and none for anything else; `None` after an error.
fn check<'o>(
    item: &syn::ItemFn,
    specs: &[ParamSpec],
    options: &'o Options,
    errors: &mut Errors,
) -> Option<Rules<'o>> {
    let before = errors.len();
    let given = options.derivative.as_deref().unwrap_or_default();
    let at = options.derivative_span.unwrap_or_else(Span::call_site);
    if options.graph {
        errors.at(at, "`graph` draws the operations of the body, which `derivative(..)` does not differentiate; remove `graph` (or `derivative(..)`)");
    }
    for (k, (name, _)) in given.iter().enumerate() {
        if given[..k].iter().any(|(other, _)| other == name) {
            errors.at(
                name.span(),
                format!("`{name}` has two rules in `derivative(..)`; give one"),
            );
        }
        match specs.iter().find(|spec| spec.ident == *name) {
            None => errors.at(name.span(), format!("`{name}` is not a parameter of this function; `derivative(..)` gives a rule for each `f64` parameter")),
            Some(spec) if !matches!(spec.kind(), Kind::Scalar) => errors.at(name.span(), format!("`{name}` is not an `f64` parameter, so it has no derivative; rules are for `f64` parameters")),
            Some(_) => {}
        }
    }
    let mut rules = Vec::new();
    for spec in specs {
        let rule = given.iter().find(|(name, _)| *name == spec.ident);
        let (x, f) = (&spec.ident, &item.sig.ident);
        match &spec.kind() {
            Kind::Scalar if rule.is_none() => errors.at(x.span(), format!("`{x}` has no rule in `derivative(..)`; add `{x} = rule`, a `#[differentiable]` function of the same parameters returning ∂{f}/∂{x}")),
            kind if kind.is_differentiable() && !matches!(kind, Kind::Scalar) => errors.spanned(&spec.written, "`derivative(..)` does not support slice or array parameters: each rule returns one `f64` partial; pass the entries as `f64` parameters, or let `#[differentiable]` differentiate the body"),
            _ => {}
        }
        rules.push(rule.map(|(_, path)| path));
    }
    if !specs.iter().any(|spec| matches!(spec.kind(), Kind::Scalar)) && errors.len() == before {
        errors.at(at, "this function has no `f64` parameter, so `derivative(..)` has nothing to give; remove it");
    }
    (errors.len() == before).then_some(rules)
}

/// A rule bound to a local of its checked type.
struct Partial {
    /// `partial_x`.
    name: Ident,
    /// `let partial_x: fn(f64, usize) -> f64 = rule;`
    binding: TokenStream,
}

/// The bindings of `partials`, then `(value, partial(args), ..)`, or with `seed` the tuple
/// `(seed * partial(args), ..)`.
fn body<'p>(
    value: Option<TokenStream>,
    partials: impl Iterator<Item = &'p Partial>,
    args: &[Ident],
    seed: Option<&Ident>,
) -> TokenStream {
    let (mut bindings, mut items) = (TokenStream::new(), Vec::new());
    items.extend(value);
    for Partial { name, binding } in partials {
        bindings.extend(binding.clone());
        items.push(match seed {
            Some(seed) => quote!(#seed * #name(#(#args),*)),
            None => quote!(#name(#(#args),*)),
        });
    }
    let result = tuple(items.into_iter());
    quote!(#bindings #result)
}

/// `(a, b)`, or `a` alone.
fn tuple(items: impl Iterator<Item = TokenStream>) -> TokenStream {
    let items: Vec<TokenStream> = items.collect();
    match items.as_slice() {
        [single] => single.clone(),
        _ => quote!((#(#items),*)),
    }
}

/// `let partial_x: fn(f64, usize) -> f64 = rule;` for each parameter that has a rule. The
/// typed binding is the signature check: a rule of other parameters or result is one
/// "mismatched types" error at the rule, and the calls through the binding add none of their own.
fn partials(specs: &[ParamSpec], rules: &Rules, float: TokenStream) -> Vec<Option<Partial>> {
    let types = specs.iter().map(|spec| match &spec.kind() {
        Kind::Scalar => float.clone(),
        Kind::Bool => quote!(::core::primitive::bool),
        _ => spec.written.0.clone(),
    });
    let pointer = quote!(fn(#(#types),*) -> #float);
    let partial = |spec: &ParamSpec, rule: &syn::Path| {
        let name = format!("partial_{}", names::text(&spec.ident));
        let name = names::ident(&name, Span::mixed_site());
        let pointer = quote_spanned!(rule.span()=> #pointer);
        let binding = quote!(let #name: #pointer = #rule;);
        Partial { name, binding }
    };
    specs
        .iter()
        .zip(rules)
        .map(|(spec, rule)| rule.map(|rule| partial(spec, rule)))
        .collect()
}

/// `f`'s value, from its body rather than a call of `f`: inside an `impl` block `f` alone
/// does not name the associated function (and could name a free function of that name), and
/// outside one `Self::f` does not resolve, so the body runs in a closure called at once,
/// whose parameters are `f`'s as written (the generated ones are hygienic).
pub(crate) fn value(item: &syn::ItemFn) -> TokenStream {
    let (inputs, block) = (&item.sig.inputs, &item.block);
    let args = item.sig.inputs.iter().filter_map(|input| match input {
        syn::FnArg::Typed(typed) => match &*typed.pat {
            syn::Pat::Ident(pat) => Some(names::param(&pat.ident)),
            _ => None,
        },
        syn::FnArg::Receiver(_) => None,
    });
    let float = crate::signature::scalar(&item.sig).ty();
    quote!((|#inputs| -> #float #block)(#(#args),*))
}

/// Each rule is `#[differentiable]` (its `rule_grad` exists), so that flavours of higher order
/// can differentiate it in turn. A hidden function rather than a `const _`, so the output is
/// also valid inside an `impl` (where the rules are `Self::rule`).
fn rule_checks(f: &Ident, rules: &Rules) -> TokenStream {
    // `rule_grad`, which every `#[differentiable]` function of one `f64` has: `rule_pullback`
    // is generic over its seed, so naming it alone would leave its type unknown.
    let each = rules.iter().flatten().map(|rule| {
        let grad = suffixed(rule, "_grad");
        quote_spanned!(rule.span()=> let _ = #grad;)
    });
    let name = names::rules(f);
    quote! {
        #[doc(hidden)]
        #[allow(dead_code, non_snake_case)]
        fn #name() {
            #(#each)*
        }
    }
}

/// `ByCaller(seed)`: the seed a caller passes to a generated pullback (micrograd_runtime::calls).
pub(crate) fn by_caller(runtime: &syn::Path, seed: TokenStream) -> TokenStream {
    quote!(#runtime::calls::ByCaller(#seed))
}

/// `let seed = Seed::value(seed);` at the top of a pullback, whose seed comes as itself or as
/// `ByCaller(seed)`.
pub(crate) fn seed_value(runtime: &syn::Path, seed: &Ident) -> TokenStream {
    quote!(let #seed = #runtime::calls::Seed::value(#seed);)
}

/// `path` with `suffix` after its last segment: `rule_pullback` of `rule`.
fn suffixed(path: &syn::Path, suffix: &str) -> syn::Path {
    let mut path = path.clone();
    if let Some(last) = path.segments.last_mut() {
        last.ident = names::suffixed(&last.ident, suffix);
    }
    path
}

/// The rustdoc of `f_grad` and `f_pullback`.
fn docs(f: &Ident, rules: &Rules, chosen: &[bool]) -> (String, String) {
    let mut grad = vec![format!("{f}(..)")];
    let mut pullback = Vec::new();
    for (rule, chosen) in rules.iter().zip(chosen) {
        let Some(rule) = rule else { continue };
        let rule = quote!(#rule).to_string().replace(' ', "");
        if *chosen {
            grad.push(format!("{rule}(..)"));
        }
        pullback.push(format!("seed · {rule}(..)"));
    }
    let tuple = |items: Vec<String>| match items.as_slice() {
        [single] => single.clone(),
        _ => format!("({})", items.join(", ")),
    };
    (
        format!(
            " The value of [`{f}`] and its gradient, from the derivative rules its attribute gives.\n\n Returns `{}`. Generated by `#[differentiable(derivative(..))]`: the body of `{f}` is called, not differentiated.",
            tuple(grad)
        ),
        format!(
            " The pullback (vector-Jacobian product) of [`{f}`], from its derivative rules.\n\n Given `seed` = ∂L/∂{f}, returns `{}`. Generated by `#[differentiable(derivative(..))]`; calls between `#[differentiable]` functions go through it.",
            tuple(pullback)
        ),
    )
}
