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
//! A `#[differentiable]` caller reads such a call as it reads one of a literal length, through
//! `f`'s own flavours (`lower/desugar/array_calls.rs`): `__f_into` is `f`'s alone.

mod twin;
mod wrappers;

use crate::attr::Options;
use crate::error::Errors;
use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote};
use syn::visit::Visit;
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
    let mut errors = Errors::default();
    let options = crate::attr::parse(attr.clone(), &mut errors);
    refused(&function, (&elem, &len), &options, &mut errors);
    // The twin is built only from a body the checks above accepted.
    let twin = errors
        .is_empty()
        .then(|| crate::Parsed(twin::twin(&function, &len, &mut errors)));
    let (Some(twin), true) = (twin, errors.is_empty()) else {
        let errors = errors.to_compile_errors();
        let stubless = crate::fallback::without_body(&function);
        return Some(quote!(#stubless #errors));
    };
    let twin_tokens = twin.to_token_stream();
    let with_out = with_out(attr);
    let expanded = crate::expand_as(with_out.clone(), twin_tokens.clone(), &twin_tokens);
    // `__f_into`'s signature as the pipeline read it (its errors are the expansion's).
    let options = crate::attr::parse(with_out, &mut Errors::default());
    let wrappers = match crate::read_signature(&twin, &options, &mut Errors::default()) {
        (Some(into), Some(wrt)) => {
            let chosen: Vec<bool> = (into.params.iter())
                .map(|spec| wrt.contains(&spec.ident.to_string()))
                .collect();
            wrappers::wrappers(&function.sig.ident, &len, (&into, &chosen), &options)
        }
        _ => TokenStream::new(),
    };
    let expanded = hide(expanded);
    let expanded = quote! {
        #[allow(clippy::needless_range_loop, dead_code)]
        #item
        #expanded
        #wrappers
    };
    // Free or associated (without `Self`, which a copy cannot name), the attribute cannot
    // tell: `f`'s flavours call `__f_into`'s through copies in their bodies (`siblings.rs`).
    let taken = crate::methods::idents(item);
    Some(match taken.contains("Self") {
        true => expanded,
        false => crate::siblings::nest(expanded, &crate::names::text(&function.sig.ident), &taken),
    })
}

/// Reports what a function returning `[elem; len]` of a length that is not a literal does not
/// take yet: the options of a single output's flavours, and a chain of binary operators longer
/// than its copy can be parsed with.
fn refused(function: &ItemFn, (elem, len): (&Type, &Expr), options: &Options, errors: &mut Errors) {
    let f = &function.sig.ident;
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
}

/// `__f_into` and its flavours, each `#[doc(hidden)]`: `f`'s are what users call. Read on the
/// expansion's tokens, not parsed again: an item ends at a brace group (a body, a macro's) or a
/// `;` at the top level, and each that is a function has its `#[doc ..]` attributes left out
/// and `#[doc(hidden)]` first.
fn hide(expanded: TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    let mut item: Vec<TokenTree> = Vec::new();
    for token in expanded {
        let ends = match &token {
            TokenTree::Group(group) => group.delimiter() == Delimiter::Brace,
            TokenTree::Punct(punct) => punct.as_char() == ';',
            _ => false,
        };
        item.push(token);
        if ends {
            out.extend(hidden(std::mem::take(&mut item)));
        }
    }
    out.extend(item);
    out
}

/// `item` (one item's tokens) with `#[doc(hidden)]` first and no other `#[doc ..]`, if it is a
/// function; else as it is.
fn hidden(item: Vec<TokenTree>) -> Vec<TokenTree> {
    let function = item
        .iter()
        .any(|token| matches!(token, TokenTree::Ident(ident) if ident == "fn"));
    if !function {
        return item;
    }
    let doc = |token: Option<&TokenTree>| match token {
        Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Bracket => {
            let first = group.stream().into_iter().next();
            matches!(first, Some(TokenTree::Ident(ident)) if ident == "doc")
        }
        _ => false,
    };
    let mut out: Vec<TokenTree> = quote!(#[doc(hidden)]).into_iter().collect();
    let mut tokens = item.into_iter().peekable();
    while let Some(token) = tokens.next() {
        if matches!(&token, TokenTree::Punct(p) if p.as_char() == '#') && doc(tokens.peek()) {
            tokens.next();
            continue;
        }
        out.push(token);
    }
    out
}

/// `item`, a function, with its body left out (`{}`): its attributes and signature, read
/// without building the body's syntax tree; `None` for an item that is not a function.
pub(crate) fn signature_only(item: &TokenStream) -> Option<ItemFn> {
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
