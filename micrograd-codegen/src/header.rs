//! The signature of every generated function, printed by one piece of code for the real
//! output and for the stubs beside an error (thiserror's `fallback.rs` reuses its `expand`), so
//! the two cannot drift and a new flavor cannot be missing from the stubs.

mod print;

pub use print::{param_type, print};

use crate::flavor::{Flavor, Params, Returns, Seed};
use crate::ir::{Output, ParamSpec, Signature};
use crate::names;
use crate::types::{Kind, Tokens};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{ToTokens, quote};

/// The type of `f`'s value, printed: `f64`, `[f64; M]` or `(f64, .., f64)`. A pullback's seed
/// has this type too, one seed per output.
pub fn values(output: Output, float: &TokenStream, length: Option<&Tokens>) -> TokenStream {
    match output {
        Output::Scalar => float.clone(),
        Output::Array(_) | Output::Counted => {
            let m = outputs(output, length);
            quote!([#float; #m])
        }
        Output::Tuple(m) => {
            let types = std::iter::repeat_n(float, m);
            quote!((#(#types,)*))
        }
    }
}

/// How many outputs a vector output has, printed: a literal, or an [`Output::Counted`]'s
/// length as written ([`Signature::length`]).
fn outputs(output: Output, length: Option<&Tokens>) -> TokenStream {
    match (output, length) {
        (Output::Counted, Some(length)) => length.0.clone(),
        (Output::Counted, None) => {
            unreachable!(
                "internal error: a length that is not a literal is printed from the signature"
            )
        }
        (output, _) => Literal::usize_unsuffixed(output.count()).into_token_stream(),
    }
}

/// `f_grad`, `f_pullback`, ...: the user's name and span, so errors and IDEs point at `f`.
pub fn name(sig: &Signature, flavor: Flavor) -> Ident {
    let f = &sig.ident;
    names::flavor(f, flavor.suffix(), flavor.spec().callee)
}

/// `vis fn f_flavor(params..) -> output`; `chosen[k]` says whether `wrt(..)` selects parameter
/// `k`, and `seed` is the pullback's seed parameter.
///
/// The tangent flavors take a tangent right after each parameter that has one
/// ([`tangent_specs`]); `f_hvp` then the shadow of a slice, `f_tangent_pullback` is the
/// pullback of the tangent program, a shadow after each of its parameters.
pub fn signature(
    sig: &Signature,
    chosen: &[bool],
    flavor: Flavor,
    seed: Option<&Ident>,
    runtime: &syn::Path,
) -> TokenStream {
    let spec = flavor.spec();
    // A nested flavour: the row it is like, of the function it is of (`g_grad_pullback` is
    // `g_grad`'s `Pullback`).
    if let Some(of) = spec.of {
        let of = of_signature(sig, chosen, of);
        let everything = vec![true; of.params.len()];
        return signature(&of, &everything, spec.like, seed, runtime);
    }
    let float = sig.scalar.ty();
    if flavor == Flavor::TangentPullback {
        let sig = tangent_signature(sig, chosen, flavor);
        let chosen = vec![true; sig.params.len()];
        return signature(&sig, &chosen, Flavor::Pullback, seed, runtime);
    }
    let (params, partials) = params(sig, chosen, flavor);
    let params: Vec<TokenStream> = params.iter().map(Param::typed).collect();
    if flavor == Flavor::Hessian {
        return hessian_signature(sig, chosen, params, &float);
    }
    let shape = match sig.output {
        _ if flavor == Flavor::Tangent && returns_pair(sig) => Output::Tuple(2),
        shape => shape.unwrap_or(Output::Scalar),
    };
    // A function returning `()` has no seed: its outputs' adjoints are its shadows on entry.
    let seed = seed.filter(|_| !shape.is_unit()).map(|seed| {
        let values = values(shape, &float, sig.length.as_ref());
        // A `#[differentiable]` caller passes `ByCaller(seed)`, which a hand-written
        // `g_pullback` does not take (micrograd_runtime::calls).
        match flavor.spec().seed {
            Seed::Always => quote!(#seed: impl #runtime::calls::Seed<#values>),
            _ => quote!(#seed: #values),
        }
    });
    let output = output(
        flavor,
        (&float, sig.length.as_ref()),
        (shape, partials),
        runtime,
    );
    let (vis, name) = (&sig.vis, name(sig, flavor));
    // Only `<const N: usize>` and a float `T: Float` get here (the signature check refuses
    // other generics).
    let (generics, bounds) = (&sig.generics, &sig.bounds);
    // `f_graph` records its values as `f64`s: a generic float converts into one (`f32` and
    // `f64` do).
    let into = (flavor == Flavor::Graph && sig.scalar.is_generic()).then(|| {
        let ty = sig.scalar.ty();
        quote!(#ty: ::core::convert::Into<::core::primitive::f64>,)
    });
    // A function returning `()` returns nothing but partials: `()` is not written out.
    let unit = shape.is_unit() && output.to_string() == "()";
    let output = (!unit).then(|| quote!(-> #output));
    quote!(#vis fn #name #generics(#(#params,)* #seed) #output #bounds #into)
}

/// One parameter of a generated function, as its signature prints it.
pub struct Param {
    /// Its name.
    pub ident: Ident,
    /// Its type, printed.
    pub ty: TokenStream,
    /// The parameter of `f` it is or belongs to, by its index in [`Signature::params`].
    pub of: usize,
    /// What it is of that parameter.
    pub role: Role,
}

/// What a generated function's parameter is of `f`'s parameter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Role {
    /// The parameter itself.
    Value,
    /// Its tangent `v_x`.
    Tangent,
    /// Its shadow `d_x`: the adjoints added into it, or its Jacobian's block.
    Shadow,
}

impl Param {
    /// `ident: ty`.
    pub fn typed(&self) -> TokenStream {
        let (ident, ty) = (&self.ident, &self.ty);
        quote!(#ident: #ty)
    }
}

/// `flavor`'s parameters of `sig` as its signature prints them ([`signature`]), each of `f`'s
/// followed by its tangent and its shadow where it has them; `f_hessian`'s without its output
/// `hess`. What a call of the flavour passes, read from the signature it is printed from.
pub fn parameters(sig: &Signature, chosen: &[bool], flavor: Flavor) -> Vec<Param> {
    params(sig, chosen, flavor).0
}

/// `flavor`'s parameters of `sig`, each followed by its tangent and its shadow where it has
/// them, and the types of the partials it returns (`f_grad`'s and `f_pullback`'s, of the
/// parameters without a shadow), in parameter order.
fn params(sig: &Signature, chosen: &[bool], flavor: Flavor) -> (Vec<Param>, Vec<TokenStream>) {
    let specs = &sig.params;
    let all = tangent_specs(specs, chosen, flavor);
    let signature: Vec<(&Ident, bool)> = all
        .iter()
        .map(|spec| (&spec.ident, spec.kind().is_sequence()))
        .collect();
    let shadows = names::shadows(&signature);
    let mut params = Vec::new();
    // The type of each partial `f_grad` and `f_pullback` return, in parameter order.
    let mut partials = Vec::new();
    let mut next = 0;
    for (of, (spec, &chosen)) in specs.iter().zip(chosen).enumerate() {
        let param = |ident: Ident, ty, role| Param {
            ident,
            ty,
            of,
            role,
        };
        let ident = names::param(&spec.ident);
        params.push(param(ident, param_type(spec), Role::Value));
        let shadow = &shadows[next];
        next += 1;
        if flavor.has_tangent(spec, chosen) {
            let (tangent, ty) = (names::param(&all[next].ident), param_type(&all[next]));
            params.push(param(tangent, ty, Role::Tangent));
            next += 1;
        }
        if !flavor.differentiates(spec, chosen) || grad_output(sig, flavor, spec) {
            continue;
        }
        // The pullback's shadows are slices: a caller may pass `&mut []` or a part of its own.
        let sized = flavor.spec().whole_shadows;
        match (spec.kind().shadow(sig.scalar, sized), shadow) {
            (Some(ty), Some(shadow)) => {
                params.push(param(shadow.clone(), print(&ty), Role::Shadow))
            }
            _ => partials.extend(spec.kind().partial(sig.scalar).as_ref().map(print)),
        }
    }
    (params, partials)
}

/// The flavour `of` of `sig` (`g_grad` or `g_jvp`) as a function of its own, which a caller
/// differentiates a call of through the nested flavours: its name, its parameters (`g`'s, each
/// followed by its tangent where `of` takes one), and its output, a tuple of the value and the
/// `f64` partials `of` returns (`1 +` the partials for `g_grad`, 2 for `g_jvp`).
pub fn of_signature(sig: &Signature, chosen: &[bool], of: Flavor) -> Signature {
    let params = tangent_specs(&sig.params, chosen, of);
    let outputs = match of.spec().returns {
        Returns::ValueAndPartials => {
            let partials = sig.params.iter().zip(chosen);
            let partials = partials.filter(|(spec, chosen)| {
                of.differentiates(spec, **chosen) && matches!(spec.kind(), Kind::Scalar)
            });
            1 + partials.count()
        }
        Returns::ValueAndTangent => 2,
        returns => {
            unreachable!("internal error: no nested flavours of a function returning {returns:?}")
        }
    };
    Signature {
        ident: name(sig, of),
        params,
        output: Some(match outputs {
            1 => Output::Scalar,
            m => Output::Tuple(m),
        }),
        ..sig.clone()
    }
}

/// Whether `spec` is the one output `err: &mut f64` of a function returning `()`, in
/// `f_grad`: the output differentiated, its shadow is the seed `1.0`, a local, not a parameter.
pub fn grad_output(sig: &Signature, flavor: Flavor, spec: &ParamSpec) -> bool {
    let of_output = flavor.spec().differentiates == Params::ChosenWithOutput;
    of_output && sig.written_scalar() == Some(&spec.ident)
}

/// `f_hessian(params..) -> (f64, [[f64; n]; n])` with `f64` parameters only, else
/// `f_hessian(params.., hess: &mut [f64]) -> f64` (row-major `n × n`).
fn hessian_signature(
    sig: &Signature,
    chosen: &[bool],
    mut params: Vec<TokenStream>,
    float: &TokenStream,
) -> TokenStream {
    let specs = &sig.params;
    let differentiated = specs
        .iter()
        .zip(chosen)
        .filter(|(spec, chosen)| **chosen && spec.kind().is_differentiable());
    let sequences = differentiated
        .clone()
        .any(|(spec, _)| spec.kind().is_sequence());
    let output = if sequences {
        let hess = hessian_out(specs);
        params.push(quote!(#hess: &mut [#float]));
        float.clone()
    } else {
        let n = proc_macro2::Literal::usize_unsuffixed(differentiated.count());
        quote!((#float, [[#float; #n]; #n]))
    };
    let (vis, name) = (&sig.vis, name(sig, Flavor::Hessian));
    let (generics, bounds) = (&sig.generics, &sig.bounds);
    quote!(#vis fn #name #generics(#(#params,)*) -> #output #bounds)
}

/// The name of `f_hessian`'s output parameter: `hess`, `_` appended while it is a parameter's.
pub fn hessian_out(specs: &[ParamSpec]) -> Ident {
    let mut used: std::collections::HashSet<String> =
        specs.iter().map(|spec| names::text(&spec.ident)).collect();
    names::free(&mut used, "hess")
}

/// The parameters of `flavor`'s function without shadows: each of `specs`, followed by its
/// tangent `v_x` where it has one (`_` appended while that is another parameter's name).
pub fn tangent_specs(specs: &[ParamSpec], chosen: &[bool], flavor: Flavor) -> Vec<ParamSpec> {
    let mut used: std::collections::HashSet<String> =
        specs.iter().map(|spec| names::text(&spec.ident)).collect();
    let mut all = Vec::new();
    for (spec, &chosen) in specs.iter().zip(chosen) {
        all.push(spec.clone());
        if flavor.has_tangent(spec, chosen) {
            let mut text = format!("v_{}", names::text(&spec.ident));
            while !used.insert(text.clone()) {
                text.push('_');
            }
            // A `&f64`'s tangent is an `f64`; a slice's is a slice of the same type.
            let value = match spec.kind() {
                Kind::Scalar => spec.value.referent().clone(),
                _ => spec.value.clone(),
            };
            all.push(ParamSpec {
                ident: names::ident(&text, spec.ident.span()),
                value,
                written: spec.written.clone(),
                passive: false,
            });
        }
    }
    all
}

/// Whether `f_tangent` returns `(f, ∇f · v)` rather than `∇f · v`: where `f` takes a
/// `&mut [f64]`, which its callers lend it, and call its tangent instead of it, not after it
/// (a second call would write the array again).
pub fn returns_pair(sig: &Signature) -> bool {
    let lent = sig.params.iter().any(|spec| spec.kind().is_written());
    lent && sig.output == Some(Output::Scalar)
}

/// The tangent program as a function of its own, `f_tangent(x, v_x, ..)`: what its pullback
/// `f_tangent_pullback` is printed from, as any function's pullback is.
pub fn tangent_signature(sig: &Signature, chosen: &[bool], flavor: Flavor) -> Signature {
    let output = if returns_pair(sig) {
        Some(Output::Tuple(2))
    } else {
        sig.output
    };
    Signature {
        ident: name(sig, Flavor::Tangent),
        params: tangent_specs(&sig.params, chosen, flavor),
        output,
        ..sig.clone()
    }
}

/// `(f, ∂f/∂x₁, ..)` for `f_grad`, `(∂f/∂x₁, ..)` for `f_pullback`, a `Graph` for `f_graph`,
/// `(f, ∇f · v)` for `f_jvp` (`(f, J v)` shaped as `f` for several outputs), `(f, (H v)₁, ..)` for `f_hvp`, `(f, [[∂fᵢ/∂xⱼ; n]; M])` for
/// `f_jacobian`; `shape` is `f`'s output and `partials` are the types of the `∂f/∂xᵢ` (or of
/// the entries of `H v`).
fn output(
    flavor: Flavor,
    (float, length): (&TokenStream, Option<&Tokens>),
    (shape, mut partials): (Output, Vec<TokenStream>),
    runtime: &syn::Path,
) -> TokenStream {
    let tuple = |types: Vec<TokenStream>| match types.as_slice() {
        [single] => single.clone(),
        types => quote!((#(#types),*)),
    };
    let values = || values(shape, float, length);
    match flavor.spec().returns {
        // A function returning `()` writes its value: no value first.
        Returns::ValueAndPartials if shape.is_unit() => tuple(partials),
        Returns::ValueAndTangent if shape.is_unit() => quote!(()),
        Returns::ValueAndPartials => {
            partials.insert(0, values());
            tuple(partials)
        }
        Returns::Partials => tuple(partials),
        // The tangent has the value's shape: one entry per output.
        Returns::ValueAndTangent => tuple(vec![values(), values()]),
        Returns::Tangent => values(),
        Returns::Graph => quote!(#runtime::Graph),
        Returns::Hessian => unreachable!("internal error: `f_hessian` has a signature of its own"),
        Returns::Jacobian => {
            let (m, n) = (outputs(shape, length), partials.len());
            let n = Literal::usize_unsuffixed(n);
            let values = values();
            quote!((#values, [[#float; #n]; #m]))
        }
    }
}
