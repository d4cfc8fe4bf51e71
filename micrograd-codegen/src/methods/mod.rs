//! `#[differentiable]` on a `&self` method: `self` is a parameter struct.
//!
//! The method is read as the associated function it stands for, its receiver a parameter
//! struct `__micrograd_self: &Self` (the `p: &S` of `#[derive(Differentiable)]`), and every
//! `self.g(..)` in its body the call `Self::g(__micrograd_self, ..)`; the rest of the pipeline
//! runs unchanged. Its output is then turned back into methods: the parameter
//! `__micrograd_self: &Self` into the receiver `&self`, the name into `self` (so the shadow
//! `d___micrograd_self` is `d_self`, right after the receiver, and a call
//! `Self::g_pullback(self, d_self, ..)`). `f` itself is printed from the user's tokens.
//! Everything here works on token trees, with a loop per level: the nesting was bounded
//! before (`nesting`).
//!
//! Before: `fn loss(&self, x: &[f64]) -> f64 { self.forward(x) * self.b }`
//! Read as: `fn loss(__micrograd_self: &Self, x: &[f64]) -> f64 { Self::forward(__micrograd_self, x) * __micrograd_self.b }`
//! After: `fn loss_grad(&self, d_self: &mut Self, x: &[f64], d_x: &mut [f64]) -> f64 { .. }`

mod read;
mod restore;

use proc_macro2::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};
pub(crate) use read::read_body;
use read::{declare, outer_float};
use restore::Restorer;
#[cfg(test)]
pub(crate) use restore::restored_in;
use std::collections::HashSet;

/// The name `self` goes by while the pipeline reads the method.
const MARKER: &str = crate::names::method::RECEIVER;

/// The path a method of a field's struct is called through while the pipeline reads it.
const METHOD: &str = crate::names::method::PATH;

/// The path a method of an element of a field (`self.layers[i]`) is called through.
const ELEMENT: &str = crate::names::method::ELEMENT;
const ELEMENT_LEN: &str = crate::names::method::ELEMENT_LEN;

/// The path of the `Float` bound a float declared by the `impl` is read with.
const OUTER_FLOAT: &str = crate::names::method::OUTER_FLOAT;

/// The receiver as written, when `#[differentiable]` is on a method.
enum Receiver {
    /// `&self`, `&'a self` or `self: &Self`: a parameter struct.
    Shared,
    /// `&mut self`, `&'a mut self` or `self: &mut Self`, with the position of its `mut` among
    /// the parameters' tokens: read and printed as `&self`, since the body never writes
    /// `self`'s fields (each write is one error, `lower::stmt`).
    Mut(usize),
    /// `self`, `mut self`, `self: Box<Self>`, ...
    Owned,
}

/// The expansion of `#[differentiable(attr)] item` when `item` is a method with a receiver;
/// `None` for every other item, which `crate::expand` reads as a function.
pub fn expand(attr: &TokenStream, item: &TokenStream) -> Option<TokenStream> {
    if crate::nesting::too_deep(item).is_some() {
        return None;
    }
    if let Some(span) = reserved(item) {
        let message = format!(
            "names holding `{MARKER}`, `{METHOD}`, `{ELEMENT}` or `{OUTER_FLOAT}` are what `#[differentiable]` methods are read with; rename this one"
        );
        let error = syn::Error::new(span, message).to_compile_error();
        return Some(quote::quote!(#item #error));
    }
    let mut tokens: Vec<TokenTree> = item.clone().into_iter().collect();
    let fn_at = tokens
        .iter()
        .position(|t| matches!(t, TokenTree::Ident(i) if i == "fn"))?;
    let args_at = fn_at
        + tokens[fn_at..].iter().position(
            |t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis),
        )?;
    let TokenTree::Group(args) = tokens[args_at].clone() else {
        return None;
    };
    let (receiver, self_span, rest) = receiver(args.stream())?;
    let Some(TokenTree::Group(body)) = tokens.last().cloned() else {
        return None;
    };
    if body.delimiter() != Delimiter::Brace {
        return None;
    }
    // `__micrograd_self: &Self` in place of the receiver.
    let mut inputs: Vec<TokenTree> = vec![
        Ident::new(MARKER, self_span).into(),
        Punct::new(':', Spacing::Alone).into(),
        with_span(Punct::new('&', Spacing::Alone).into(), self_span),
        Ident::new("Self", self_span).into(),
    ];
    inputs.extend(rest);
    let mut group = Group::new(Delimiter::Parenthesis, inputs.into_iter().collect());
    group.set_span(args.span());
    tokens[args_at] = group.into();
    let last = tokens.len() - 1;
    let mut block = Group::new(Delimiter::Brace, read_body(body.stream()));
    block.set_span(body.span());
    tokens[last] = block.into();
    // `impl<T: Float> Model<T> { fn loss(&self, x: &[T]) -> T }`: read as `fn loss<T: Float>`.
    let outer = outer_float(&tokens, fn_at, args_at);
    if let Some(float) = &outer {
        declare(&mut tokens, fn_at, float);
    }
    let read: TokenStream = tokens.into_iter().collect();
    let printed = match receiver {
        Receiver::Mut(at) => shared(item, args_at, at),
        _ => item.clone(),
    };
    let mut expanded = crate::expand_as(read_body(attr.clone()), read, &printed);
    let message = match receiver {
        Receiver::Shared | Receiver::Mut(_) => None,
        Receiver::Owned => Some(
            "`#[differentiable]` methods take `&self`, not `self` by value: write `&self`, and `f_grad` adds the gradient into the shadow `d_self: &mut Self` after it",
        ),
    };
    if let Some(message) = message {
        expanded.extend(syn::Error::new(self_span, message).to_compile_error());
    }
    let user = idents(item);
    let name = tokens_name(item)?;
    let own = siblings(&name);
    let restorer = Restorer {
        name: &name,
        own: &own,
        user: &user,
        outer: outer.is_some(),
    };
    let out = restorer.restore(expanded);
    Some(out)
}

/// The expansion of a function without a receiver, `item`. An associated function names `Self`
/// in `item` or its attribute `attr` (`derivative(x = Self::rule)`), or a float no generics
/// declare (`fn smooth(x: T) -> T` of an `impl<T: Float> Act<T>`, read as `fn smooth<T:
/// Float>` as a method's float is, [`outer_float`], and printed without it). Its output then
/// calls a sibling by its bare name through `Self::` (`f_hessian`'s `f_hvp(..)`), and a doc link
/// `[`f`]` is `[`Self::f`]`. Without either, nothing tells an associated function from a free
/// one, and the expansion is the function's.
pub fn associated(attr: &TokenStream, item: &TokenStream) -> TokenStream {
    let mut tokens: Vec<TokenTree> = item.clone().into_iter().collect();
    let fn_at = tokens
        .iter()
        .position(|t| matches!(t, TokenTree::Ident(i) if i == "fn"));
    let args_at = fn_at.and_then(|fn_at| {
        let at = tokens[fn_at..].iter().position(
            |t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis),
        )?;
        Some(fn_at + at)
    });
    let body =
        matches!(tokens.last(), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace);
    let outer = match (fn_at, args_at) {
        (Some(fn_at), Some(args_at))
            if body && crate::nesting::too_deep(item).is_none() && reserved(item).is_none() =>
        {
            outer_float(&tokens, fn_at, args_at).inspect(|float| declare(&mut tokens, fn_at, float))
        }
        _ => None,
    };
    let read: TokenStream = tokens.into_iter().collect();
    let expanded = crate::expand_as(attr.clone(), read, item);
    let names_self = idents(item).contains("Self") || idents(attr).contains("Self");
    let Some(name) = tokens_name(item).filter(|_| names_self || outer.is_some()) else {
        // Free or associated, the attribute cannot tell: a sibling is called through a copy in
        // the caller's body, which resolves in both.
        return match tokens_name(item) {
            Some(name) => crate::siblings::nest(expanded, &name, &idents(item)),
            None => expanded,
        };
    };
    // No `T: Differentiable` bound: without `self` no `Model<T>` is a parameter struct.
    let restorer = Restorer {
        name: &name,
        own: &siblings(&name),
        user: &HashSet::new(),
        outer: false,
    };
    restorer.restore(expanded)
}

/// `item` with the `mut` of its `&mut self` (the `at`-th token of its parameters, the
/// `args_at`-th token of `item`) left out: `&self`.
fn shared(item: &TokenStream, args_at: usize, at: usize) -> TokenStream {
    let mut tokens: Vec<TokenTree> = item.clone().into_iter().collect();
    if let Some(TokenTree::Group(args)) = tokens.get(args_at) {
        let mut inner: Vec<TokenTree> = args.stream().into_iter().collect();
        inner.remove(at);
        let mut group = Group::new(Delimiter::Parenthesis, inner.into_iter().collect());
        group.set_span(args.span());
        tokens[args_at] = group.into();
    }
    tokens.into_iter().collect()
}

/// Reads the receiver at the head of a method's parameters: its form, the span of its `self`,
/// and the tokens after it (from its comma on). `None` without a receiver.
fn receiver(args: TokenStream) -> Option<(Receiver, Span, Vec<TokenTree>)> {
    let tokens: Vec<TokenTree> = args.into_iter().collect();
    let end = tokens
        .iter()
        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',' ))
        .unwrap_or(tokens.len());
    let head = &tokens[..end];
    let self_at = head
        .iter()
        .position(|t| matches!(t, TokenTree::Ident(i) if i == "self"))?;
    let span = head[self_at].span();
    let before = &head[..self_at];
    let after = &head[self_at + 1..];
    let is = |t: &TokenTree, c: char| matches!(t, TokenTree::Punct(p) if p.as_char() == c);
    let is_ident = |t: &TokenTree, s: &str| matches!(t, TokenTree::Ident(i) if i == s);
    let lifetime =
        |q: &TokenTree, name: &TokenTree| is(q, '\'') && matches!(name, TokenTree::Ident(_));
    // Only the receivers Rust has; anything else is left to `syn`, which refuses it.
    let kind = match (before, after) {
        ([], []) => Receiver::Owned,
        ([m], []) if is_ident(m, "mut") => Receiver::Owned,
        ([amp], []) if is(amp, '&') => Receiver::Shared,
        ([amp, m], []) if is(amp, '&') && is_ident(m, "mut") => Receiver::Mut(self_at - 1),
        ([amp, q, l], []) if is(amp, '&') && lifetime(q, l) => Receiver::Shared,
        ([amp, q, l, m], []) if is(amp, '&') && lifetime(q, l) && is_ident(m, "mut") => {
            Receiver::Mut(self_at - 1)
        }
        // `self: TYPE`: `&Self` is `&self`, `&mut Self` is `&mut self`.
        ([] | [_], [colon, ty @ ..])
            if is(colon, ':') && before.iter().all(|m| is_ident(m, "mut")) =>
        {
            match ty {
                [amp, s] if is(amp, '&') && is_ident(s, "Self") => Receiver::Shared,
                [amp, m, s] if is(amp, '&') && is_ident(m, "mut") && is_ident(s, "Self") => {
                    Receiver::Mut(self_at + 3)
                }
                [] => return None,
                _ => Receiver::Owned,
            }
        }
        _ => return None,
    };
    Some((kind, span, tokens[end..].to_vec()))
}

/// Whether `ident` is a name a field or a method can have (no keyword such as `self`): the
/// others are left as written, for `syn` to refuse.
fn plain(ident: &Ident) -> bool {
    syn::parse2::<Ident>(TokenTree::Ident(ident.clone()).into()).is_ok()
}

/// The first identifier of `item` holding [`MARKER`] or [`METHOD`], which the user's own
/// names must not, with a stack of its own.
fn reserved(item: &TokenStream) -> Option<Span> {
    let mut stack = vec![item.clone()];
    while let Some(stream) = stack.pop() {
        for token in stream {
            match token {
                TokenTree::Ident(ident) => {
                    let text = ident.to_string();
                    if [MARKER, METHOD, ELEMENT, OUTER_FLOAT]
                        .iter()
                        .any(|name| text.contains(name))
                    {
                        return Some(ident.span());
                    }
                }
                TokenTree::Group(group) => stack.push(group.stream()),
                _ => {}
            }
        }
    }
    None
}

/// Every identifier of `stream`'s text, with a stack of its own.
pub(crate) fn idents(stream: &TokenStream) -> HashSet<String> {
    let mut found = HashSet::new();
    let mut stack = vec![stream.clone()];
    while let Some(stream) = stack.pop() {
        for token in stream {
            match token {
                TokenTree::Ident(ident) => {
                    found.insert(crate::names::text(&ident));
                }
                TokenTree::Group(group) => stack.push(group.stream()),
                _ => {}
            }
        }
    }
    found
}

/// The function's name: the identifier after `fn`.
fn tokens_name(item: &TokenStream) -> Option<String> {
    let mut tokens = item.clone().into_iter();
    tokens.find(|t| matches!(t, TokenTree::Ident(i) if i == "fn"))?;
    match tokens.next()? {
        TokenTree::Ident(name) => Some(crate::names::text(&name)),
        _ => None,
    }
}

/// The names of what `#[differentiable]` writes beside `f`: `f_grad`, ..., `__f_tangent`, ...
fn siblings(name: &str) -> HashSet<String> {
    let suffixes = [
        "_grad",
        "_pullback",
        "_graph",
        "_jvp",
        "_hvp",
        "_hessian",
        "_jacobian",
        "_tangent",
        "_tangent_pullback",
    ];
    let lanes = crate::diff::tangent::WIDTHS.map(crate::names::lanes_suffix);
    (suffixes.iter().map(|suffix| suffix.to_string()))
        .chain(lanes)
        .flat_map(|suffix| [format!("{name}{suffix}"), format!("__{name}{suffix}")])
        .collect()
}

fn with_span(mut token: TokenTree, span: Span) -> TokenTree {
    token.set_span(span);
    token
}
