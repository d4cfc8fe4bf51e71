//! Nested derivatives: the flavours a caller differentiates a call of `g_grad` or `g_jvp`
//! through, printed beside `g` from its signature alone.
//!
//! A `#[differentiable]` caller lowers `let (v, d_a, d_b) = g_grad(a, b);` as it lowers any call
//! of a function returning several values, so it goes through `g_grad_pullback`,
//! `__g_grad_tangent` and `__g_grad_tangent_pullback`, as it would for a user's `g_grad`.
//! `g` prints them here, each `__g_tangent_pullback(a, v_a, b, v_b, 1.0)`'s body inlined (called
//! by name it would need `Self::` inside an `impl` and nothing outside one), which gives
//! `(H v)_a, ∂g/∂a, (H v)_b, ∂g/∂b`: the derivative of a gradient is a Hessian-vector
//! product, over every differentiable parameter of `g` (a caller may differentiate with respect
//! to one `wrt(..)` leaves out of `g_grad`).
//!
//! - `g_grad_pullback(a, b, seed)` with `seed = (s, s_b)` (one per output of `g_grad`, `wrt`'s
//!   only): `s ∇g + H (0, s_b)`, the Hessian along the seeds of the partials.
//! - `__g_grad_tangent(a, v_a, b, v_b)`: `(∇g · v, (H v)_b)`.
//! - `g_jvp_pullback(a, v_a, b, v_b, seed)` with `seed = (s, t)`: `s ∇g + t H v` for `a` and `b`,
//!   `t ∇g` for `v_a` and `v_b`.
//! - `__g_jvp_tangent(a, ȧ, v_a, v̇_a, ..)`: `(∇g · ȧ, ȧ · H v + ∇g · v̇)`.
//! - `__g_grad_tangent_pullback` and `__g_jvp_tangent_pullback` would be third derivatives: stubs
//!   whose unmet bound is one error at the caller's call (`calls::SecondOrderOnly`), as are the
//!   others where `g` is built without `hvp` (`calls::NestedBuiltWithHvp`).
//!
//! `g` takes `f64`s, integers, `bool`s and data here, and returns one `f64`; other signatures
//! get none of these, so a caller's call fails to find `g_grad_pullback`.

mod tangent;

use crate::flavor::{Flavor, Missing, Needs};
use crate::header;
use crate::ir::{Output, ParamSpec, Signature};
use crate::names;
use crate::types::Kind;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, quote};

/// The nested flavours of `item` (see the module), given `wrt(..)`'s verdict `chosen`.
pub fn flavors(
    sig: &Signature,
    chosen: &[bool],
    options: &crate::attr::Options,
    code: Option<&TokenStream>,
) -> TokenStream {
    let supported = sig.params.iter().all(|spec| {
        matches!(
            spec.kind(),
            Kind::Scalar | Kind::Int | Kind::Bool | Kind::Data
        )
    });
    let scalars = sig
        .params
        .iter()
        .filter(|s| matches!(s.kind(), Kind::Scalar))
        .count();
    if sig.output != Some(Output::Scalar) || !supported || scalars == 0 {
        return TokenStream::new();
    }
    // Beside an error there is no body: stubs that refuse nothing (the error is the message).
    let second = match code {
        Some(code) => find_fn(
            code,
            &header::name(sig, Flavor::TangentPullback).to_string(),
        ),
        None => None,
    };
    let refuses = code.is_some();
    // The functions the nested rows are of, each once, where `options` build it.
    let mut of: Vec<Flavor> = Flavor::NESTED.iter().filter_map(|f| f.spec().of).collect();
    of.dedup();
    of.into_iter()
        .filter(|of| of.requested(options))
        .map(|of| Nested::new(sig, chosen, options, of, second.clone()).print(refuses))
        .collect()
}

/// The seed parameter and the body of the function `name` among the items of `code`, read
/// from its tokens (not parsed: a body is as deep as the user's deepest expression).
fn find_fn(code: &TokenStream, name: &str) -> Option<(Ident, proc_macro2::Group)> {
    use proc_macro2::{Delimiter, TokenTree};
    let tokens: Vec<TokenTree> = code.clone().into_iter().collect();
    let start = tokens.windows(2).position(|pair| {
        matches!(&pair[0], TokenTree::Ident(f) if f == "fn")
            && matches!(&pair[1], TokenTree::Ident(n) if n == name)
    })?;
    let params = tokens[start..].iter().find_map(|tree| match tree {
        TokenTree::Group(group) if group.delimiter() == Delimiter::Parenthesis => Some(group),
        _ => None,
    })?;
    let body = tokens[start..].iter().find_map(|tree| match tree {
        TokenTree::Group(group) if group.delimiter() == Delimiter::Brace => Some(group.clone()),
        _ => None,
    })?;
    // The seed is the last parameter, `seed: impl Seed<f64>`: the name before `: impl`.
    let params: Vec<TokenTree> = params.stream().into_iter().collect();
    let at = params
        .iter()
        .rposition(|tree| matches!(tree, TokenTree::Ident(i) if i == "impl"))?;
    match params.get(at.checked_sub(2)?)? {
        TokenTree::Ident(seed) => Some((seed.clone(), body)),
        _ => None,
    }
}

/// One of `g_grad` and `g_jvp`, as a function a caller differentiates through.
struct Nested<'a> {
    sig: &'a Signature,
    specs: &'a [ParamSpec],
    chosen: &'a [bool],
    options: &'a crate::attr::Options,
    /// `g_grad` or `g_jvp` as a function: its name, parameters and output.
    called: Signature,
    /// Its parameters.
    called_specs: Vec<ParamSpec>,
    /// How many values it returns.
    outputs: usize,
    /// `Flavor::Grad` or `Flavor::Jvp`: the rows of [`Flavor::NESTED`] of it are printed.
    of: Flavor,
    runtime: syn::Path,
    float: TokenStream,
    one: TokenStream,
    /// Names the generated locals may not take.
    used: std::collections::HashSet<String>,
    /// The seed parameter and the body of `__g_tangent_pullback`, inlined into each function
    /// here: called by name, it would need `Self::` inside an `impl` and nothing outside one.
    second: Option<(Ident, proc_macro2::Group)>,
}

impl<'a> Nested<'a> {
    fn new(
        sig: &'a Signature,
        chosen: &'a [bool],
        options: &'a crate::attr::Options,
        of: Flavor,
        second: Option<(Ident, proc_macro2::Group)>,
    ) -> Nested<'a> {
        let float = sig.scalar.ty();
        // A generic float's `T::one()`, where `1.0f64` was a literal of the float.
        let one = match sig.scalar.name() {
            "f32" => Literal::f32_suffixed(1.0).into_token_stream(),
            "f64" => Literal::f64_suffixed(1.0).into_token_stream(),
            _ => sig.scalar.one(),
        };
        let specs = &sig.params;
        let called = header::of_signature(sig, chosen, of);
        let called_specs = called.params.clone();
        let outputs = called.output.map_or(1, Output::count);
        let mut used = sig.user_names.clone();
        let everything = vec![true; called_specs.len()];
        for spec in header::tangent_specs(&called_specs, &everything, Flavor::Tangent) {
            used.insert(names::text(&spec.ident));
        }
        Nested {
            sig,
            specs,
            chosen,
            options,
            called,
            called_specs,
            outputs,
            of,
            runtime: options.runtime(),
            float,
            one,
            used,
            second,
        }
    }

    /// The rows of [`Flavor::NESTED`] of `self.of`, each real where its row is built (it asks
    /// for `hvp`, and `__g_tangent_pullback`'s body was found), else a stub whose bound names
    /// the option at a caller's call, or refuses nothing beside an error (`refuses` false).
    fn print(mut self, refuses: bool) -> TokenStream {
        let seed = names::free(&mut self.used, "seed");
        let (options, found) = (self.options, self.second.is_some());
        let built = |flavor: Flavor| {
            flavor.spec().needs == Needs::Composed && flavor.requested(options) && found
        };
        let rows = Flavor::NESTED.into_iter();
        let rows: Vec<Flavor> = rows.filter(|f| f.spec().of == Some(self.of)).collect();
        // Each body names its locals afresh.
        let names = self.used.clone();
        let mut tokens = TokenStream::new();
        for flavor in rows {
            let seeded = flavor.seeded(false).then_some(&seed);
            let runtime = self.options.runtime();
            let signature = header::signature(self.sig, self.chosen, flavor, seeded, &runtime);
            if !built(flavor) {
                // A stub after one that refuses refuses nothing: one missing option, one error.
                let refuses = refuses && flavor.after().is_none_or(built);
                tokens.extend(self.refuse(flavor, signature, refuses));
                continue;
            }
            self.used = names.clone();
            let body = match flavor.spec().like {
                Flavor::Pullback => self.pullback_body(&seed),
                Flavor::Tangent => self.tangent_body(),
                like => unreachable!("internal error: no nested body like {like:?}"),
            };
            tokens.extend(quote! {
                #[doc(hidden)]
                #[allow(dead_code, clippy::all, unused_parens)]
                #[inline]
                #signature {
                    #body
                }
            });
        }
        tokens
    }

    /// A stub of `flavor` with its `signature`, whose unmet bound (its row's [`Missing`]) is
    /// one error at a caller's call where it `refuses`.
    fn refuse(&self, flavor: Flavor, signature: TokenStream, refuses: bool) -> TokenStream {
        let runtime = &self.runtime;
        let Missing::Refuses(bound) = flavor.spec().missing else {
            unreachable!("internal error: every nested row has a stub")
        };
        let bound = Ident::new(bound, Span::mixed_site());
        // A generic float's signature has a `where` clause already (`T: Record,`).
        let has_where = signature
            .clone()
            .into_iter()
            .any(|t| matches!(t, proc_macro2::TokenTree::Ident(i) if i == "where"));
        let clause = (!has_where).then(|| quote!(where));
        let bound = refuses.then(|| {
            quote!(#clause for<'micrograd> #runtime::calls::Missing<'micrograd>: #runtime::calls::#bound)
        });
        let message = format!(
            "`{}` is differentiated through too high an order",
            self.called.ident
        );
        quote! {
            #[doc(hidden)]
            #[allow(unused_variables, dead_code, clippy::all)]
            #signature #bound {
                ::core::panic!(#message)
            }
        }
    }

    /// The tangents `g`'s parameters have in the call of `__g_tangent_pullback`, by parameter
    /// (`None` for one without), and the call, binding `(H v)` and `∇g` entry by entry.
    fn second_order(
        &mut self,
        tangents: &[Option<TokenStream>],
    ) -> (TokenStream, Vec<(Ident, Ident)>) {
        let mut params = Vec::new();
        let mut args = Vec::new();
        let mut bound = Vec::new();
        let mut pairs = Vec::new();
        let all = vec![true; self.specs.len()];
        let inner = header::tangent_specs(self.specs, &all, Flavor::TangentPullback);
        let mut inner = inner.iter();
        for (k, spec) in self.specs.iter().enumerate() {
            params.push(names::param(&inner.next().expect("the parameter").ident));
            args.push(names::param(&spec.ident).into_token_stream());
            if matches!(spec.kind(), Kind::Scalar) {
                params.push(names::param(&inner.next().expect("its tangent").ident));
                let zero = match self.called.scalar {
                    crate::ir::Scalar::Generic(_) => self.called.scalar.zero(),
                    _ => Literal::f64_unsuffixed(0.0).into_token_stream(),
                };
                args.push(tangents[k].clone().unwrap_or(zero));
                let h = names::free(&mut self.used, &format!("h{k}"));
                let g = names::free(&mut self.used, &format!("g{k}"));
                bound.push(h.clone());
                bound.push(g.clone());
                pairs.push((h, g));
            }
        }
        let one = &self.one;
        let (seed, body) = self.second.as_ref().expect("a body to inline");
        // `__g_tangent_pullback`'s body under its parameters' names, bound at once (an
        // argument may be named as another parameter), in a closure for its `return`s.
        let call = quote! {
            let (#(#bound),*) = {
                let (#(#params,)* #seed) = (#(#args,)* #one);
                (|| #body)()
            };
        };
        (call, pairs)
    }

    /// `g_grad_pullback` or `g_jvp_pullback`.
    fn pullback_body(&mut self, seed: &Ident) -> TokenStream {
        let seeds: Vec<Ident> = (0..self.outputs)
            .map(|k| names::free(&mut self.used, &format!("s{k}")))
            .collect();
        let runtime = &self.runtime;
        let take = match seeds.as_slice() {
            [single] => quote!(let #single = #runtime::calls::Seed::value(#seed);),
            seeds => quote!(let (#(#seeds),*) = #runtime::calls::Seed::value(#seed);),
        };
        let s = &seeds[0];
        let mut partials = Vec::new();
        let call = match self.of {
            Flavor::Grad => {
                // The seed of each partial `g_grad` returns is the tangent of its parameter.
                let mut next = seeds.iter().skip(1);
                let tangents: Vec<Option<TokenStream>> = self
                    .specs
                    .iter()
                    .zip(self.chosen)
                    .map(|(spec, chosen)| {
                        (*chosen && matches!(spec.kind(), Kind::Scalar))
                            .then(|| next.next().map(|s| quote!(#s)))
                            .flatten()
                    })
                    .collect();
                let (call, pairs) = self.second_order(&tangents);
                for (h, g) in pairs {
                    partials.push(quote!(#s * #g + #h));
                }
                call
            }
            _ => {
                let t = &seeds[1];
                let tangents = self.jvp_tangents();
                let (call, pairs) = self.second_order(&tangents);
                let mut pairs = pairs.into_iter();
                for (spec, tangent) in self.specs.iter().zip(&tangents) {
                    if !matches!(spec.kind(), Kind::Scalar) {
                        continue;
                    }
                    let (h, g) = pairs.next().expect("one pair per `f64`");
                    partials.push(quote!(#s * #g + #t * #h));
                    if tangent.is_some() {
                        partials.push(quote!(#t * #g));
                    }
                }
                call
            }
        };
        quote! {
            #take
            #call
            (#(#partials),*)
        }
    }

    /// `g_jvp`'s tangent parameter of each of `g`'s, where it has one.
    fn jvp_tangents(&self) -> Vec<Option<TokenStream>> {
        let mut called = self.called_specs.iter();
        self.specs
            .iter()
            .zip(self.chosen)
            .map(|(spec, &chosen)| {
                called.next();
                Flavor::Jvp.has_tangent(spec, chosen).then(|| {
                    let v = names::param(&called.next().expect("its tangent").ident);
                    quote!(#v)
                })
            })
            .collect()
    }
}
