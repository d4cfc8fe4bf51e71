//! A function returning `[f64; M]` whose length is not a literal (`const M: usize = 3;` beside
//! it, or `fn f<const M: usize>`): the macro cannot count its outputs, which every flavour of a
//! returned array is printed from (a seed per output, a row per output). It is the function
//! writing the same array into an output parameter, whose outputs are counted when it runs
//! (issue 24's outputs written through references): that function, `__f_into`, is what the
//! pipeline differentiates, and `f`'s flavours are calls of its flavours, the array made before
//! and returned after them. `f` itself is printed as written.
//!
//! Before: `fn sub(a: &[f64; M], b: &[f64; M]) -> [f64; M] { let mut r = [0.0; M]; ..; r }`
//! After: `fn __sub_into(a: &[f64; M], b: &[f64; M], __micrograd_out: &mut [f64]) { let mut r =
//! [0.0; M]; ..; for __mg_k in 0..M { __micrograd_out[__mg_k] = r[__mg_k]; } }`, its flavours,
//! and `fn sub_pullback(a, d_a, b, d_b, seed) -> ..` calling `__sub_into_pullback(a, d_a, b,
//! d_b, &mut value, &mut seed)` (`f_jvp` and `f_jacobian` alike).
//!
//! A `#[differentiable]` caller reads such a call where a `let` says its type,
//! `let r: [f64; M] = sub(&a, &b);`, as the statement lending a local array to `__sub_into`
//! ([`calls`]), which every caller's flavour goes through as it goes through any call writing a
//! lent array.

use crate::error::Errors;
use crate::names;
use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote};
use std::collections::HashSet;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, FnArg, ItemFn, ReturnType, Type};

/// The output parameter of `__f_into`, last among its parameters, so that its companions
/// (shadow, tangent) are the last parameters of each of its flavours.
const OUT: &str = "__micrograd_out";

/// The expansion of `#[differentiable(attr)] item` when `item` is a function returning an array
/// of its float whose length is not a literal; `None` for every other item.
pub fn expand(attr: &TokenStream, item: &TokenStream) -> Option<TokenStream> {
    if crate::nesting::too_deep(item).is_some() {
        return None;
    }
    // Decided on the signature alone: the body's syntax tree is built (and dropped, through
    // `Parsed`, without a recursion as deep as its expressions) only for the functions this
    // module expands.
    let header = signature_only(item)?;
    // A method's receiver is read by `methods`, which keeps the signature's error.
    if matches!(header.sig.inputs.first(), Some(FnArg::Receiver(_))) {
        return None;
    }
    let (elem, len) = counted_by_type(&header)?;
    let function = crate::Parsed(syn::parse2(item.clone()).ok()?);
    let f = &function.sig.ident;
    let mut errors = Errors::default();
    let options = crate::attr::parse(attr.clone(), &mut errors);
    for (asked, name) in [
        (options.hvp || options.hessian, "hvp` or `hessian"),
        (options.graph, "graph"),
        (options.derivative.is_some(), "derivative(..)"),
    ] {
        if asked {
            errors.at(
                f.span(),
                format!("`{name}` is not available yet on a function returning `[{}; {}]` of a length that is not a literal (its outputs are counted when it runs); write the length as a literal, or leave `{name}` out", elem.to_token_stream(), len.to_token_stream()),
            );
        }
    }
    let mut chains = LongestChain::default();
    chains.visit_block(&function.block);
    if let Some(span) = chains.span.filter(|_| chains.terms > MAX_TERMS) {
        errors.at(span, format!("a function returning `[{}; {}]` of a length that is not a literal is read through a copy of its syntax, which takes a chain of at most {MAX_TERMS} terms (this one has {}); bind parts of it to variables with `let`, or write the length as a literal", elem.to_token_stream(), len.to_token_stream(), chains.terms));
    }
    // The twin is built only from a body the checks above accepted.
    let twin = errors
        .is_empty()
        .then(|| crate::Parsed(twin(&function, &len, &mut errors)));
    let (Some(twin), true) = (twin, errors.is_empty()) else {
        let errors = errors.to_compile_errors();
        let stubless = crate::fallback::without_body(&function);
        return Some(quote!(#stubless #errors));
    };
    let twin_tokens = twin.to_token_stream();
    let expanded = crate::expand_as(with_out(attr), twin_tokens.clone(), &twin_tokens);
    // Parsed once: the wrappers read `__f_into`'s flavours' signatures, then they are hidden.
    let (wrappers, expanded) = match syn::parse2::<syn::File>(expanded.clone()) {
        Ok(mut file) => {
            let wrappers = wrappers(&function, (&elem, &len), &file, &options);
            hide(&mut file);
            (wrappers, file.to_token_stream())
        }
        Err(_) => (TokenStream::new(), expanded),
    };
    Some(quote! {
        #[allow(clippy::needless_range_loop, dead_code)]
        #item
        #expanded
        #wrappers
    })
}

/// `__f_into` and its flavours, each `#[doc(hidden)]`: `f`'s are what users call.
fn hide(file: &mut syn::File) {
    for item in &mut file.items {
        if let syn::Item::Fn(function) = item {
            function.attrs.retain(|attr| !attr.path().is_ident("doc"));
            function.attrs.insert(0, syn::parse_quote!(#[doc(hidden)]));
        }
    }
}

/// `item`, a function, with its body left out (`{}`): its attributes and signature, read
/// without building the body's syntax tree; `None` for an item that is not a function.
fn signature_only(item: &TokenStream) -> Option<ItemFn> {
    let mut tokens: Vec<TokenTree> = item.clone().into_iter().collect();
    match tokens.last() {
        Some(TokenTree::Group(body)) if body.delimiter() == Delimiter::Brace => tokens.pop(),
        _ => return None,
    };
    tokens.push(TokenTree::Group(Group::new(
        Delimiter::Brace,
        TokenStream::new(),
    )));
    syn::parse2(tokens.into_iter().collect()).ok()
}

/// The longest chain of binary operators (`a + b + ..`) this module's copy of the body takes:
/// the copy is printed and parsed again by syn's own recursions, a frame per term.
const MAX_TERMS: usize = 1000;

/// The longest chain of binary operators in a body, and where it is.
#[derive(Default)]
struct LongestChain {
    terms: usize,
    span: Option<Span>,
}

impl<'ast> Visit<'ast> for LongestChain {
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        let terms = crate::spine::spine(binary).len() + 1;
        if terms > self.terms {
            self.terms = terms;
            self.span = Some(syn::spanned::Spanned::span(&binary.op));
        }
        crate::spine::visit(self, binary, |_, _| {});
    }
}

/// The element type and the length of `function`'s returned array, when it is an array of a
/// float whose length is not an integer literal.
fn counted_by_type(function: &ItemFn) -> Option<(Type, Expr)> {
    let ReturnType::Type(_, ty) = &function.sig.output else {
        return None;
    };
    let Type::Array(array) = &**ty else {
        return None;
    };
    if matches!(
        &array.len,
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(_),
            ..
        })
    ) {
        return None;
    }
    let name = match &*array.elem {
        Type::Path(path) if path.qself.is_none() => path.path.get_ident()?.to_string(),
        _ => return None,
    };
    // A generic float `T` keeps the signature's error (its zero is not a literal).
    matches!(name.as_str(), "f64" | "f32").then(|| ((*array.elem).clone(), array.len.clone()))
}

/// `__f_into`: `function` returning `()`, with the output parameter `__micrograd_out: &mut
/// [F]` last, and its tail (a local array or an array literal) copied into it.
fn twin(function: &ItemFn, len: &Expr, errors: &mut Errors) -> ItemFn {
    // Cloned with a loop over the body's binary chains, as it is dropped (`Parsed`).
    let mut twin = ItemFn {
        attrs: function.attrs.clone(),
        vis: function.vis.clone(),
        modifiers: function.modifiers.clone(),
        sig: function.sig.clone(),
        block: Box::new(crate::spine::clone_block(&function.block)),
    };
    let f = &function.sig.ident;
    twin.sig.ident = Ident::new(&names::hidden(&names::text(f), "_into"), f.span());
    twin.sig.output = ReturnType::Default;
    let ReturnType::Type(_, ty) = &function.sig.output else {
        unreachable!("internal error: a returned array was checked first")
    };
    let Type::Array(array) = &**ty else {
        unreachable!("internal error: a returned array was checked first")
    };
    let elem = &array.elem;
    let out = Ident::new(OUT, Span::mixed_site());
    twin.sig.inputs.push(syn::parse_quote!(#out: &mut [#elem]));
    let mut early = Returns(None);
    early.visit_block(&function.block);
    if let Some(span) = early.0 {
        errors.at(span, format!("a function returning `[{}; {}]` of a length that is not a literal returns its array at its end, not with `return` (its outputs are counted when it runs); store into a local array and return it last", elem.to_token_stream(), len.to_token_stream()));
        return twin;
    }
    let stmts = &mut twin.block.stmts;
    let tail = match stmts.pop() {
        Some(syn::Stmt::Expr(tail, None)) => tail,
        other => {
            let span = other.as_ref().map_or_else(
                || function.block.brace_token.span.close(),
                syn::spanned::Spanned::span,
            );
            errors.at(span, "the function must end with the array it returns");
            return twin;
        }
    };
    let mut used = names::user_names(function);
    let index = names::free(&mut used, names::lowered::INDEX);
    match tail {
        Expr::Array(literal) => {
            for (k, entry) in literal.elems.iter().enumerate() {
                stmts.push(syn::parse_quote!(#out[#k] = #entry;));
            }
        }
        Expr::Path(path) if path.path.get_ident().is_some() => {
            stmts.push(syn::parse_quote!(for #index in 0..#len { #out[#index] = #path[#index]; }));
        }
        tail => errors.spanned(&tail, format!("a function returning `[{}; {}]` of a length that is not a literal ends with a local array (`r`) or an array literal (`[a, b, ..]`) (its outputs are counted when it runs); bind this to `let r: [{0}; {1}] = ..;` and end with `r`", elem.to_token_stream(), len.to_token_stream())),
    }
    twin
}

/// Finds a `return` in the body, outside closures and nested items.
struct Returns(Option<Span>);

impl<'ast> Visit<'ast> for Returns {
    fn visit_expr_return(&mut self, ret: &'ast syn::ExprReturn) {
        self.0.get_or_insert(ret.return_token.span);
    }

    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}

    fn visit_item(&mut self, _: &'ast syn::Item) {}

    /// A sum of 10^5 terms without a frame per term.
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }
}

/// The attribute with the output parameter in `wrt(..)`, when it lists parameters: the
/// output is differentiated in every flavour.
fn with_out(attr: &TokenStream) -> TokenStream {
    let mut tokens: Vec<TokenTree> = attr.clone().into_iter().collect();
    for at in 1..tokens.len() {
        let wrt = matches!(&tokens[at - 1], TokenTree::Ident(i) if i == "wrt");
        if let (true, TokenTree::Group(group)) = (wrt, &tokens[at])
            && group.delimiter() == Delimiter::Parenthesis
        {
            let out = Ident::new(OUT, Span::mixed_site());
            let inner = group.stream();
            let mut listed = Group::new(Delimiter::Parenthesis, quote!(#inner, #out));
            listed.set_span(group.span());
            tokens[at] = TokenTree::Group(listed);
        }
    }
    tokens.into_iter().collect()
}

/// `f_pullback`, `f_jvp` and `f_jacobian`, each a call of `__f_into`'s with the array made
/// before and returned after it, read from `__f_into`'s signatures in `file`: its
/// parameters before `__micrograd_out` are `f`'s flavour's own.
fn wrappers(
    function: &ItemFn,
    (elem, len): (&Type, &Expr),
    file: &syn::File,
    options: &crate::attr::Options,
) -> TokenStream {
    let f = &function.sig.ident;
    let into = names::hidden(&names::text(f), "_into");
    let runtime = options.runtime();
    let elem = &primitive(elem);
    let values = quote!([#elem; #len]);
    let zeros = quote!([0.0; #len]);
    let mut used = names::user_names(function);
    let mut out = TokenStream::new();
    for item in &file.items {
        let syn::Item::Fn(flavor) = item else {
            continue;
        };
        let name = flavor.sig.ident.to_string();
        // `__f_into_pullback`, or a hidden flavour `____f_into_tangent`.
        let Some(suffix) = name
            .strip_prefix(&into)
            .or_else(|| name.strip_prefix("__")?.strip_prefix(&into))
        else {
            continue;
        };
        let Some(own) = own_params(&flavor.sig) else {
            continue;
        };
        let args: Vec<&syn::Pat> = own.iter().map(|typed| &*typed.pat).collect();
        let callee = &flavor.sig.ident;
        let (vis, generics) = (&function.vis, &function.sig.generics);
        let bounds = &flavor.sig.generics.where_clause;
        let returned = &flavor.sig.output;
        let value = Ident::new(names::lowered::VALUE, Span::mixed_site());
        let companion = Ident::new(names::lowered::COMPANION, Span::mixed_site());
        let (signature, body) = match suffix {
            "_pullback" => {
                let seed = names::free(&mut used, "seed");
                let name = names::flavor(f, "pullback", false);
                let doc = format!(
                    " The pullback (vector-Jacobian product) of [`{f}`], for composing gradients by the chain rule.\n\n Given `seed` = ∂L/∂{f}, returns the partials of the `f64` parameters and adds those of the slices into their shadows. Generated by `#[differentiable]` as a call of `{into}_pullback`, the function writing the same array into an output parameter."
                );
                (
                    quote!(#[doc = #doc] #vis fn #name #generics(#(#own,)* #seed: impl #runtime::calls::Seed<#values>) #returned #bounds),
                    quote! {
                        let mut #value = #zeros;
                        let mut #companion: #values = #runtime::calls::Seed::value(#seed);
                        #callee(#(#args,)* &mut #value, &mut #companion)
                    },
                )
            }
            // What a caller's tangent program calls where it takes the array apart (`let [p,
            // q] = f(..);`): the tangent alone, an empty tangent slice standing for zeros.
            "_tangent" if name.starts_with("__") => {
                let name = names::flavor(f, "tangent", true);
                (
                    quote!(#[doc(hidden)] #vis fn #name #generics(#(#own,)*) -> #values #bounds),
                    quote! {
                        let mut #value = #zeros;
                        let mut #companion = #zeros;
                        #callee(#(#args,)* &mut #value, &mut #companion);
                        #companion
                    },
                )
            }
            "_jvp" => {
                let name = names::flavor(f, "jvp", false);
                let doc = format!(
                    " The value of [`{f}`] and its directional derivative, by forward-mode differentiation (a Jacobian-vector product).\n\n Each differentiated parameter is followed by its tangent `v_..`; returns `({f}(..), ∂{f}/∂x · v)`. Generated by `#[differentiable(jvp)]` as a call of `{into}_jvp`, the function writing the same array into an output parameter: the value is bit for bit `{f}`'s."
                );
                (
                    quote!(#[doc = #doc] #vis fn #name #generics(#(#own,)*) -> (#values, #values) #bounds),
                    quote! {
                        let mut #value = #zeros;
                        let mut #companion = #zeros;
                        #callee(#(#args,)* &mut #value, &mut #companion);
                        (#value, #companion)
                    },
                )
            }
            "_jacobian" => match jacobian(flavor, (&own, &values, &zeros), (elem, len)) {
                Some((params, body)) => {
                    let name = names::flavor(f, "jacobian", false);
                    let n = proc_macro2::Literal::usize_unsuffixed(params.1);
                    let params = params.0;
                    let doc = format!(
                        " The value of [`{f}`] and its Jacobian: returns `({f}(..), rows)`, where row `i` is the gradient of output `i` over the differentiated `f64` parameters, and writes each differentiated slice's block (row `i` at `i * x.len()`). Generated by `#[differentiable(jacobian)]` as a call of `{into}_jacobian`, the function writing the same array into an output parameter: the value is bit for bit `{f}`'s."
                    );
                    (
                        quote!(#[doc = #doc] #vis fn #name #generics(#(#params,)*) -> (#values, [[#elem; #n]; #len]) #bounds),
                        body,
                    )
                }
                None => continue,
            },
            _ => continue,
        };
        out.extend(quote! {
            #[allow(dead_code, unused_parens, clippy::all)]
            #signature {
                #body
            }
        });
    }
    out
}

/// `f64` or `f32` as generated signatures print it, `::core::primitive::f64`.
fn primitive(elem: &Type) -> TokenStream {
    quote!(::core::primitive::#elem)
}

/// The parameters of a flavour of `__f_into` before `__micrograd_out`: `f`'s flavour's.
fn own_params(sig: &syn::Signature) -> Option<Vec<syn::PatType>> {
    let mut own = Vec::new();
    for input in &sig.inputs {
        let FnArg::Typed(typed) = input else {
            return None;
        };
        if matches!(&*typed.pat, syn::Pat::Ident(p) if p.ident == OUT) {
            return Some(own);
        }
        own.push(typed.clone());
    }
    None
}

/// `f_jacobian`'s parameters (`__f_into_jacobian`'s own, without the column after each
/// differentiated `f64`), how many columns, and its body: the columns made, the call, and the
/// rows gathered from them.
#[allow(clippy::type_complexity)]
fn jacobian(
    flavor: &ItemFn,
    (own, values, zeros): (&[syn::PatType], &TokenStream, &TokenStream),
    (elem, len): (&TokenStream, &Expr),
) -> Option<((Vec<syn::PatType>, usize), TokenStream)> {
    // A column `d_a: &mut [F]` follows each differentiated `a: F`.
    let float = elem.to_string();
    let is_float = |typed: &syn::PatType| typed.ty.to_token_stream().to_string() == float;
    let mut params = Vec::new();
    let mut args = Vec::new();
    let mut columns = Vec::new();
    let mut previous_float = false;
    for typed in own {
        let pat = &typed.pat;
        if previous_float && matches!(&*typed.ty, Type::Reference(r) if r.mutability.is_some()) {
            columns.push(pat.clone());
            args.push(quote!(&mut #pat));
            previous_float = false;
            continue;
        }
        previous_float = is_float(typed);
        params.push(typed.clone());
        args.push(quote!(#pat));
    }
    let callee = &flavor.sig.ident;
    let value = Ident::new(names::lowered::VALUE, Span::mixed_site());
    let row = Ident::new(names::lowered::INDEX, Span::mixed_site());
    let rows = Ident::new(names::lowered::ROWS, Span::mixed_site());
    let n = columns.len();
    let entries = columns.iter().map(|column| quote!(#column[#row]));
    let width = proc_macro2::Literal::usize_unsuffixed(n);
    // Without a differentiated `f64`, every row is empty.
    let gather = (n > 0).then(|| {
        quote! {
            for #row in 0..#len {
                #rows[#row] = [#(#entries),*];
            }
        }
    });
    let binding = if n > 0 {
        quote!(let mut #rows)
    } else {
        quote!(let #rows)
    };
    let body = quote! {
        let mut #value: #values = #zeros;
        #(let mut #columns: #values = #zeros;)*
        #callee(#(#args,)* &mut #value);
        #binding: [[#elem; #width]; #len] = [[0.0; #width]; #len];
        #gather
        (#value, #rows)
    };
    Some(((params, n), body))
}

/// Reads a call of a function returning `[F; M]` of a length that is not a literal as the
/// statement lending a local array to `__g_into`: where a `let` says its type (`let r: [f64; M]
/// = g(..);` as `let mut r: [f64; M] = [0.0; M]; __g_into(.., &mut r);`), and assigned to a
/// local array of such a length (`h = g(&h, x);` of a `let mut h = [0.0; M];` as `let c = h;
/// __g_into(&c, x, &mut h);`, an argument reading `h` reading the copy). What the pipeline
/// reads, not what is printed as `f`.
pub fn calls(function: &mut ItemFn) {
    let mut sized = Sized(HashSet::new());
    sized.visit_block(&function.block);
    let mut calls = Calls {
        sized: sized.0,
        used: names::user_names(function),
    };
    calls.visit_block_mut(&mut function.block);
}

/// Whether `len` is an integer literal, a length the macro counts.
fn literal(len: &Expr) -> bool {
    matches!(
        len,
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(_),
            ..
        })
    )
}

/// The names of local arrays whose length is not a literal: `let mut h = [0.0; M];` or
/// `let h: [f64; M] = ..;`.
struct Sized(HashSet<String>);

impl<'ast> Visit<'ast> for Sized {
    fn visit_local(&mut self, local: &'ast syn::Local) {
        syn::visit::visit_local(self, local);
        let (pat, annotated) = match &local.pat {
            syn::Pat::Type(typed) => (
                &*typed.pat,
                matches!(&*typed.ty, Type::Array(array) if !literal(&array.len)),
            ),
            pat => (pat, false),
        };
        let filled = local.init.as_ref().is_some_and(
            |init| matches!(&*init.expr, Expr::Repeat(repeat) if !literal(&repeat.len)),
        );
        if let (syn::Pat::Ident(name), true) = (pat, annotated || filled) {
            self.0.insert(names::text(&name.ident));
        }
    }

    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}

    fn visit_item(&mut self, _: &'ast syn::Item) {}

    /// A sum of 10^5 terms without a frame per term.
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }
}

struct Calls {
    /// [`Sized`]'s names.
    sized: HashSet<String>,
    /// Every name of the function, and the copies bound so far.
    used: HashSet<String>,
}

impl VisitMut for Calls {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        syn::visit_mut::visit_block_mut(self, block);
        let mut stmts = Vec::with_capacity(block.stmts.len());
        for stmt in block.stmts.drain(..) {
            match self.lent(&stmt) {
                Some(lent) => stmts.extend(lent),
                None => stmts.push(stmt),
            }
        }
        block.stmts = stmts;
    }

    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}

    /// A sum of 10^5 terms without a frame per term.
    fn visit_expr_binary_mut(&mut self, binary: &mut syn::ExprBinary) {
        crate::spine::visit_mut(self, binary);
    }
}

impl Calls {
    /// `let r: [F; M] = g(args);` as `let mut r: [F; M] = [0.0; M];` and the call lending `r`;
    /// `h = g(args);` of a [`Sized`] `h` as the call lending `h`.
    fn lent(&mut self, stmt: &syn::Stmt) -> Option<Vec<syn::Stmt>> {
        match stmt {
            syn::Stmt::Local(local) => {
                let syn::Pat::Type(typed) = &local.pat else {
                    return None;
                };
                let (syn::Pat::Ident(name), Type::Array(array)) = (&*typed.pat, &*typed.ty) else {
                    return None;
                };
                if name.by_ref.is_some() || name.subpat.is_some() || literal(&array.len) {
                    return None;
                }
                let init = local.init.as_ref().filter(|init| init.diverge.is_none())?;
                let Expr::Call(call) = &*init.expr else {
                    return None;
                };
                let (ident, ty, len) = (&name.ident, &typed.ty, &array.len);
                // An argument may read an earlier `r` this `let` shadows.
                let mut stmts = self.lending_call(ident, call)?;
                stmts.insert(
                    stmts.len() - 1,
                    syn::parse_quote!(let mut #ident: #ty = [0.0; #len];),
                );
                Some(stmts)
            }
            syn::Stmt::Expr(Expr::Assign(assign), Some(_)) => {
                let (Expr::Path(target), Expr::Call(call)) = (&*assign.left, &*assign.right) else {
                    return None;
                };
                let ident = target.path.get_ident()?;
                if !self.sized.contains(&names::text(ident)) {
                    return None;
                }
                self.lending_call(ident, call)
            }
            _ => None,
        }
    }

    /// `__g_into(args, &mut target);` of `g(args)`, after `let c = target;` when an argument
    /// reads `target` (which it then reads as `c`).
    fn lending_call(&mut self, target: &Ident, call: &syn::ExprCall) -> Option<Vec<syn::Stmt>> {
        let Expr::Path(callee) = &*call.func else {
            return None;
        };
        let mut callee = callee.clone();
        let last = callee.path.segments.last_mut()?;
        last.ident = Ident::new(
            &names::hidden(&names::text(&last.ident), "_into"),
            last.ident.span(),
        );
        let copy = names::free(&mut self.used, names::lowered::COPIED);
        let mut reads = Reads {
            name: target,
            copy: &copy,
            read: false,
        };
        let mut args: Vec<Expr> = call.args.iter().cloned().collect();
        args.iter_mut().for_each(|arg| reads.visit_expr_mut(arg));
        let mut stmts: Vec<syn::Stmt> = Vec::new();
        if reads.read {
            stmts.push(syn::parse_quote!(let #copy = #target;));
        }
        stmts.push(syn::parse_quote!(#callee(#(#args,)* &mut #target);));
        Some(stmts)
    }
}

/// Renames `name` to `copy` in what it visits, recording whether it read `name`.
struct Reads<'a> {
    name: &'a Ident,
    copy: &'a Ident,
    read: bool,
}

impl VisitMut for Reads<'_> {
    fn visit_expr_path_mut(&mut self, path: &mut syn::ExprPath) {
        let named = path.path.get_ident();
        if named.is_some_and(|ident| names::text(ident) == names::text(self.name)) {
            self.read = true;
            path.path = self.copy.clone().into();
        }
    }

    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}
}
