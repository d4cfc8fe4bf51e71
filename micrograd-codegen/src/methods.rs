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

use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use std::collections::HashSet;

/// The name `self` goes by while the pipeline reads the method.
const MARKER: &str = crate::names::method::RECEIVER;

/// The path a method of a field's struct is called through while the pipeline reads it.
const METHOD: &str = crate::names::method::PATH;

/// The path a method of an element of a field (`self.layers[i]`) is called through.
const ELEMENT: &str = crate::names::method::ELEMENT;

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
    let out = restore(expanded, (&name, &own), &user);
    Some(out)
}

/// The expansion of an associated function without a receiver, `expanded`, when `item` or
/// its attribute `attr` names `Self` (so it is inside an `impl`; `derivative(x = Self::rule)`):
/// a bare call of a sibling (`f_hessian`'s `f_hvp(..)`) goes through `Self::`, and a doc link
/// `[`f`]` is `[`Self::f`]`. Without `Self`, nothing tells an associated function from a free
/// one, and `expanded` is returned as it is.
pub fn associated(item: &TokenStream, attr: &TokenStream, expanded: TokenStream) -> TokenStream {
    let names_self = idents(item).contains("Self") || idents(attr).contains("Self");
    let Some(name) = tokens_name(item).filter(|_| names_self) else {
        return expanded;
    };
    restore(expanded, (&name, &siblings(&name)), &HashSet::new())
}

/// The float type of a method that its `impl` declares (`impl<T: Float> Model<T>`): the first
/// identifier of its return type (`T`, `[T; N]`, `(T, T)`) when it is no primitive, not `Self`,
/// and not a type parameter of the method's own. The attribute sees the method alone, and the
/// return type is a float by the language's rule (a wrong guess is an error about the output).
fn outer_float(tokens: &[TokenTree], fn_at: usize, args_at: usize) -> Option<Ident> {
    let arrow = tokens[args_at..].iter().position(
        |t| matches!(t, TokenTree::Punct(p) if p.as_char() == '>' && p.spacing() == Spacing::Alone),
    )? + args_at;
    let is_arrow = matches!(&tokens[arrow - 1], TokenTree::Punct(p) if p.as_char() == '-');
    if !is_arrow {
        return None;
    }
    let mut first = None;
    let mut stack: Vec<TokenTree> = tokens[arrow + 1..tokens.len() - 1]
        .iter()
        .rev()
        .cloned()
        .collect();
    while let Some(token) = stack.pop() {
        match token {
            TokenTree::Ident(ident) => {
                first = Some(ident);
                break;
            }
            TokenTree::Group(group) => stack.extend(
                group
                    .stream()
                    .into_iter()
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev(),
            ),
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
    }
    let first = first?;
    let text = first.to_string();
    let declared = tokens[fn_at..args_at]
        .iter()
        .any(|t| matches!(t, TokenTree::Ident(i) if *i == first));
    // A bare name: `Vec<f64>` or `Foo::Bar` is no float, and the signature says so.
    let bare = matches!(stack.last(), None | Some(TokenTree::Punct(_)))
        && !matches!(stack.last(), Some(TokenTree::Punct(p)) if matches!(p.as_char(), '<' | ':'));
    let uppercase = text.starts_with(|c: char| c.is_ascii_uppercase());
    (bare && !declared && uppercase && text != "Self").then_some(first)
}

/// Declares `float` among the generics of the method at `fn_at`: `fn f<T: __micrograd_float::Float, ..>`.
fn declare(tokens: &mut Vec<TokenTree>, fn_at: usize, float: &Ident) {
    let span = float.span();
    let mut param: Vec<TokenTree> = vec![
        TokenTree::Ident(float.clone()),
        Punct::new(':', Spacing::Alone).into(),
        Ident::new(OUTER_FLOAT, span).into(),
        Punct::new(':', Spacing::Joint).into(),
        Punct::new(':', Spacing::Alone).into(),
        Ident::new("Float", span).into(),
    ];
    let at = fn_at + 2;
    let opens = matches!(tokens.get(at), Some(TokenTree::Punct(p)) if p.as_char() == '<');
    if opens {
        param.push(Punct::new(',', Spacing::Alone).into());
        tokens.splice(at + 1..at + 1, param);
    } else {
        let mut generics: Vec<TokenTree> = vec![Punct::new('<', Spacing::Alone).into()];
        generics.extend(param);
        generics.push(Punct::new('>', Spacing::Alone).into());
        tokens.splice(at..at, generics);
    }
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

/// The body (or the attribute's arguments) as the pipeline reads it: `self` is the marker, and
/// `self.g(args)` is `Self::g(__micrograd_self, args)`; a path `self::m` stays.
fn read_body(stream: TokenStream) -> TokenStream {
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Ident(ident) if ident == "self" => {
                let span = ident.span();
                let path =
                    matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                if path {
                    out.push(tokens[i].clone());
                    i += 1;
                    continue;
                }
                let dot = matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '.' && p.spacing() == Spacing::Alone);
                if dot
                    && let Some(TokenTree::Ident(method)) = tokens.get(i + 2)
                    && plain(method)
                    && let Some(TokenTree::Group(call)) = tokens.get(i + 3)
                    && call.delimiter() == Delimiter::Parenthesis
                {
                    let marker: TokenTree = Ident::new(MARKER, span).into();
                    let mut args = vec![marker];
                    let inner = read_body(call.stream());
                    if !inner.is_empty() {
                        args.push(Punct::new(',', Spacing::Alone).into());
                        args.extend(inner);
                    }
                    let mut group = Group::new(Delimiter::Parenthesis, args.into_iter().collect());
                    group.set_span(call.span());
                    // At the method's name: rustc's errors about the callee point there.
                    let at = method.span();
                    out.push(Ident::new("Self", at).into());
                    out.push(with_span(Punct::new(':', Spacing::Joint).into(), at));
                    out.push(with_span(Punct::new(':', Spacing::Alone).into(), at));
                    out.push(TokenTree::Ident(method.clone()));
                    out.push(group.into());
                    i += 4;
                    continue;
                }
                if let Some((call, read)) = field_method(&tokens[i..]) {
                    out.extend(call);
                    i += read;
                    continue;
                }
                out.push(Ident::new(MARKER, span).into());
            }
            TokenTree::Group(group) => {
                let mut new = Group::new(group.delimiter(), read_body(group.stream()));
                new.set_span(group.span());
                out.push(new.into());
            }
            other => out.push(other.clone()),
        }
        i += 1;
    }
    out.into_iter().collect()
}

/// `self.layer.forward(args)` at the head of `tokens` (fields of `self`, then a method the
/// lowering does not know as a method of `f64`, slices or iterators): the call
/// `__micrograd_method::forward(&__micrograd_self.layer, args)` of a parameter struct, which
/// [`restore`] prints back as `self_layer.forward_pullback(..)` (the field's binding) or
/// `(&self.layer).forward_pullback(..)`; and how many tokens it read.
fn field_method(tokens: &[TokenTree]) -> Option<(Vec<TokenTree>, usize)> {
    let dot = |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == '.' && p.spacing() == Spacing::Alone);
    let mut fields = Vec::new();
    let mut at = 1;
    loop {
        let Some(TokenTree::Ident(name)) = tokens.get(at + 1).filter(|_| dot(tokens.get(at)))
        else {
            return None;
        };
        if !plain(name) {
            return None;
        }
        if let Some(found) = element_method(tokens, at + 2, &fields, name) {
            return Some(found);
        }
        match tokens.get(at + 2) {
            Some(TokenTree::Group(call)) if call.delimiter() == Delimiter::Parenthesis => {
                if fields.is_empty() || crate::lower::known_method(&name.to_string()) {
                    return None;
                }
                let span = tokens[0].span();
                let mut receiver: Vec<TokenTree> = vec![
                    with_span(Punct::new('&', Spacing::Alone).into(), span),
                    Ident::new(MARKER, span).into(),
                ];
                for field in fields {
                    receiver.push(with_span(Punct::new('.', Spacing::Alone).into(), span));
                    receiver.push(field);
                }
                let inner = read_body(call.stream());
                if !inner.is_empty() {
                    receiver.push(Punct::new(',', Spacing::Alone).into());
                    receiver.extend(inner);
                }
                let mut args = Group::new(Delimiter::Parenthesis, receiver.into_iter().collect());
                args.set_span(call.span());
                let at_name = name.span();
                let out = vec![
                    Ident::new(METHOD, at_name).into(),
                    with_span(Punct::new(':', Spacing::Joint).into(), at_name),
                    with_span(Punct::new(':', Spacing::Alone).into(), at_name),
                    TokenTree::Ident(name.clone()),
                    args.into(),
                ];
                return Some((out, at + 3));
            }
            _ => {
                fields.push(TokenTree::Ident(name.clone()));
                at += 2;
            }
        }
    }
}

/// `self.fields.last[index].method(args)` with `last` at `at - 1` (`fields` the ones before it):
/// the call `__micrograd_element::method(index, &__micrograd_self.fields.last, args)`, which
/// [`restore`] prints back as `(&self_last[index]).method_pullback(&mut (shadow)[index], ..)`;
/// and how many tokens it read.
fn element_method(
    tokens: &[TokenTree],
    at: usize,
    fields: &[TokenTree],
    last: &Ident,
) -> Option<(Vec<TokenTree>, usize)> {
    let dot = |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == '.' && p.spacing() == Spacing::Alone);
    let Some(TokenTree::Group(index)) = tokens.get(at) else {
        return None;
    };
    let (Some(TokenTree::Ident(method)), Some(TokenTree::Group(call))) =
        (tokens.get(at + 2), tokens.get(at + 3))
    else {
        return None;
    };
    if index.delimiter() != Delimiter::Bracket
        || !dot(tokens.get(at + 1))
        || call.delimiter() != Delimiter::Parenthesis
        || !plain(method)
        || crate::lower::known_method(&method.to_string())
    {
        return None;
    }
    let span = tokens[0].span();
    let mut args: Vec<TokenTree> =
        vec![Group::new(Delimiter::Parenthesis, read_body(index.stream())).into()];
    args.push(Punct::new(',', Spacing::Alone).into());
    args.push(with_span(Punct::new('&', Spacing::Alone).into(), span));
    args.push(Ident::new(MARKER, span).into());
    for field in fields
        .iter()
        .cloned()
        .chain([TokenTree::Ident(last.clone())])
    {
        args.push(with_span(Punct::new('.', Spacing::Alone).into(), span));
        args.push(field);
    }
    let inner = read_body(call.stream());
    if !inner.is_empty() {
        args.push(Punct::new(',', Spacing::Alone).into());
        args.extend(inner);
    }
    let mut group = Group::new(Delimiter::Parenthesis, args.into_iter().collect());
    group.set_span(call.span());
    let at_name = method.span();
    let out = vec![
        Ident::new(ELEMENT, at_name).into(),
        with_span(Punct::new(':', Spacing::Joint).into(), at_name),
        with_span(Punct::new(':', Spacing::Alone).into(), at_name),
        TokenTree::Ident(method.clone()),
        group.into(),
    ];
    Some((out, at + 4))
}

/// Whether `ident` is a name a field or a method can have (no keyword such as `self`): the
/// others are left as written, for `syn` to refuse.
fn plain(ident: &Ident) -> bool {
    syn::parse2::<Ident>(TokenTree::Ident(ident.clone()).into()).is_ok()
}

/// The expansion back as methods: a parameter list opening with `__micrograd_self: &Self`
/// opens with `&self`; the marker in a name is `self` (`d___micrograd_self` is `d_self`), also in
/// messages ([`restored`]); a doc link to `[`f`]` (the method `name`) is `[`Self::f`]`. A call of one of the `own` generated functions by
/// its bare name is a call through `Self::`.
fn restore(
    stream: TokenStream,
    (name, own): (&str, &HashSet<String>),
    user: &HashSet<String>,
) -> TokenStream {
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::with_capacity(tokens.len());
    let mut skip = 0;
    for (i, token) in tokens.iter().cloned().enumerate() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        if let TokenTree::Ident(path) = &token
            && path == METHOD
            && let Some(
                [
                    TokenTree::Punct(_),
                    TokenTree::Punct(_),
                    TokenTree::Ident(callee),
                    TokenTree::Group(args),
                ],
            ) = tokens.get(i + 1..i + 5)
        {
            // `__micrograd_method::g_pullback(&self.layer, rest)`: `(&self.layer).g_pullback(rest)`.
            let args: Vec<TokenTree> = restore(args.stream(), (name, own), user)
                .into_iter()
                .collect();
            let comma = args
                .iter()
                .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                .unwrap_or(args.len());
            let receiver = Group::new(
                Delimiter::Parenthesis,
                args[..comma].iter().cloned().collect(),
            );
            let rest = Group::new(
                Delimiter::Parenthesis,
                args.get(comma + 1..)
                    .unwrap_or_default()
                    .iter()
                    .cloned()
                    .collect(),
            );
            match &args[..comma] {
                [TokenTree::Ident(alone)] => out.push(TokenTree::Ident(alone.clone())),
                _ => out.push(receiver.into()),
            }
            out.push(with_span(
                Punct::new('.', Spacing::Alone).into(),
                callee.span(),
            ));
            out.push(TokenTree::Ident(callee.clone()));
            out.push(rest.into());
            skip = 4;
            continue;
        }
        // `<T: __micrograd_float::Float, ..>` declared by the `impl`: left out.
        if let TokenTree::Punct(open) = &token
            && open.as_char() == '<'
            && let Some(
                [
                    TokenTree::Ident(_),
                    TokenTree::Punct(_),
                    TokenTree::Ident(path),
                    _,
                    _,
                    TokenTree::Ident(_),
                    TokenTree::Punct(next),
                ],
            ) = tokens.get(i + 1..i + 8)
            && path == OUTER_FLOAT
        {
            match next.as_char() {
                '>' => skip = 7,
                _ => {
                    out.push(token);
                    skip = 7;
                }
            }
            continue;
        }
        if let TokenTree::Ident(path) = &token
            && path == ELEMENT
            && let Some(
                [
                    TokenTree::Punct(_),
                    TokenTree::Punct(_),
                    TokenTree::Ident(callee),
                    TokenTree::Group(args),
                ],
            ) = tokens.get(i + 1..i + 5)
        {
            let args = restore(args.stream(), (name, own), user);
            if let Some(call) = element_call(callee, args) {
                out.extend(call);
                skip = 4;
                continue;
            }
        }
        if let TokenTree::Ident(ident) = &token
            && own.contains(&ident.to_string())
            && matches!(tokens.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis)
            && !i
                .checked_sub(1)
                .and_then(|k| tokens.get(k))
                .is_some_and(|t| match t {
                    TokenTree::Ident(i) => i == "fn",
                    TokenTree::Punct(p) => p.as_char() == '.' || p.as_char() == ':',
                    _ => false,
                })
        {
            // A sibling called by its bare name (`f_hessian` calls `f_hvp`): `Self::f_hvp`.
            let span = ident.span();
            out.push(Ident::new("Self", span).into());
            out.push(with_span(Punct::new(':', Spacing::Joint).into(), span));
            out.push(with_span(Punct::new(':', Spacing::Alone).into(), span));
        }
        match token {
            TokenTree::Group(group) => {
                let mut inner: Vec<TokenTree> = group.stream().into_iter().collect();
                if group.delimiter() == Delimiter::Parenthesis
                    && let [
                        TokenTree::Ident(name),
                        TokenTree::Punct(colon),
                        TokenTree::Punct(amp),
                        TokenTree::Ident(ty),
                        ..,
                    ] = inner.as_slice()
                    && name == MARKER
                    && colon.as_char() == ':'
                    && amp.as_char() == '&'
                    && ty == "Self"
                    && inner
                        .get(4)
                        .is_none_or(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                {
                    let span = name.span();
                    let receiver = [
                        with_span(Punct::new('&', Spacing::Alone).into(), amp.span()),
                        Ident::new("self", span).into(),
                    ];
                    inner.splice(..4, receiver);
                }
                let stream = restore(inner.into_iter().collect(), (name, own), user);
                let mut new = Group::new(group.delimiter(), stream);
                new.set_span(group.span());
                out.push(new.into());
            }
            TokenTree::Ident(ident) => {
                let text = ident.to_string();
                if text.contains(MARKER) {
                    let name = restored(&text, user);
                    out.push(
                        match name.as_str() {
                            "self" => Ident::new("self", ident.span()),
                            _ => crate::names::ident(&name, ident.span()),
                        }
                        .into(),
                    );
                } else {
                    out.push(ident.into());
                }
            }
            TokenTree::Literal(literal) => {
                let text = literal.to_string();
                let link = format!("[`{name}`]");
                let new = (text.contains(MARKER) || text.contains(&link))
                    .then(|| restored_in(&text, user).replace(&link, &format!("[`Self::{name}`]")));
                match new.and_then(|text| text.parse::<Literal>().ok()) {
                    Some(mut new) => {
                        new.set_span(literal.span());
                        out.push(new.into());
                    }
                    None => out.push(literal.into()),
                }
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}

/// `__micrograd_element::callee(index, sequence, companions.., rest..)` printed as
/// `(sequence)[index].callee((companion)[index].., rest..)`: the sequence's shadow and tangent
/// (`&mut d_self.layers`, `&v_self.layers`), as many as the flavour `callee` takes after its
/// receiver, are indexed as the sequence is.
fn element_call(callee: &Ident, args: TokenStream) -> Option<Vec<TokenTree>> {
    let mut parts: Vec<Vec<TokenTree>> = vec![Vec::new()];
    for token in args {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ',' => parts.push(Vec::new()),
            _ => parts.last_mut().expect("a part").push(token),
        }
    }
    if parts.last().is_some_and(Vec::is_empty) {
        parts.pop();
    }
    let text = callee.to_string();
    let companions = match () {
        _ if text.starts_with("__") && text.ends_with("_tangent_pullback") => 3,
        _ if text.starts_with("__") && text.ends_with("_tangent") => 1,
        _ if text.ends_with("_pullback") => 1,
        _ => 0,
    };
    if parts.len() < 2 + companions {
        // Not a call the pipeline printed: left as it is, for rustc to report.
        return None;
    }
    let span = callee.span();
    let index = Group::new(Delimiter::Bracket, parts[0].iter().cloned().collect());
    let indexed = |part: &[TokenTree]| -> Vec<TokenTree> {
        let inner = Group::new(Delimiter::Parenthesis, part.iter().cloned().collect());
        vec![inner.into(), index.clone().into()]
    };
    let mut rest: Vec<TokenTree> = Vec::new();
    for (k, part) in parts[2..].iter().enumerate() {
        if k > 0 {
            rest.push(Punct::new(',', Spacing::Alone).into());
        }
        if k < companions {
            // `&mut (&mut d_self.layers)[i]`, `&(&v_self.layers)[i]`.
            let mutable = matches!(part.get(1), Some(TokenTree::Ident(m)) if m == "mut");
            rest.push(with_span(Punct::new('&', Spacing::Alone).into(), span));
            if mutable {
                rest.push(Ident::new("mut", span).into());
            }
            rest.extend(indexed(part));
        } else {
            rest.extend(part.iter().cloned());
        }
    }
    let mut out = indexed(&parts[1]);
    out.push(with_span(Punct::new('.', Spacing::Alone).into(), span));
    out.push(TokenTree::Ident(callee.clone()));
    out.push(Group::new(Delimiter::Parenthesis, rest.into_iter().collect()).into());
    Some(out)
}

/// The name `text` (holding the marker) stands for: the marker is `self`
/// (`d___micrograd_self` is `d_self`), with `_` appended while the user's function has that
/// name, as `names::shadows` does for a parameter named `d_w`.
fn restored(text: &str, user: &HashSet<String>) -> String {
    let mut name = text.replace(MARKER, "self");
    while name != "self" && user.contains(&name) {
        name.push('_');
    }
    name
}

/// `text` (a message, a doc) with each word holding the marker [`restored`].
fn restored_in(text: &str, user: &HashSet<String>) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(MARKER) {
        let start = rest[..at]
            .char_indices()
            .rev()
            .find(|(_, c)| !word(*c))
            .map_or(0, |(k, c)| k + c.len_utf8());
        let end = rest[at..].find(|c| !word(c)).map_or(rest.len(), |k| at + k);
        out.push_str(&rest[..start]);
        out.push_str(&restored(&rest[start..end], user));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
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
fn idents(stream: &TokenStream) -> HashSet<String> {
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
    suffixes
        .iter()
        .flat_map(|suffix| [format!("{name}{suffix}"), format!("__{name}{suffix}")])
        .collect()
}

fn with_span(mut token: TokenTree, span: Span) -> TokenTree {
    token.set_span(span);
    token
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every receiver form and every truncation of a method expands without a panic.
    #[test]
    fn no_receiver_and_no_truncation_panics() {
        for receiver in [
            "&self",
            "&'a self",
            "&mut self",
            "self",
            "mut self",
            "self: &Self",
            "self: Box<Self>",
            "&self,",
            "",
        ] {
            let text = format!(
                "fn f({receiver}, x: &[f64]) -> f64 {{ let y = self.g(x) + self.layer.h(&x[1..], 2) * Self::K + self.layers[y as usize + 1].h(x); self.w[0] * y + self.b.tanh() }}"
            );
            let item: TokenStream = text.parse().expect("tokens");
            let tokens: Vec<TokenTree> = item.into_iter().collect();
            for end in 0..=tokens.len() {
                let item: TokenStream = tokens[..end].iter().cloned().collect();
                let _ = crate::expand(quote::quote!(wrt(self), hessian), item.clone());
                let _ = crate::expand(TokenStream::new(), item);
            }
        }
    }

    /// Found by tests/fuzz_expand: a receiver Rust does not have (`& & self`) and a keyword as
    /// a method's name (`self.model.self(x)`) gave output that neither parsed nor held an error.
    #[test]
    fn what_rust_refuses_is_an_error() {
        for text in [
            "fn f(& & self, x: &[f64]) -> f64 { self.b * x[0] }",
            "fn f(&self, x: &[f64]) -> f64 { self.model.self(x) * self.c }",
            "fn f(&self, x: &[f64]) -> f64 { self.self(x) * self.c }",
        ] {
            let out = crate::expand(TokenStream::new(), text.parse().expect("tokens"));
            let text = out.to_string();
            let parses = syn::parse2::<syn::File>(out).is_ok();
            assert!(text.contains("compile_error") || parses, "{text}");
        }
    }

    #[test]
    fn a_users_name_holding_the_marker_is_one_error() {
        let item = quote::quote!(
            fn f(&self, __micrograd_self_x: f64) -> f64 {
                __micrograd_self_x
            }
        );
        let out = expand(&TokenStream::new(), &item)
            .expect("a method")
            .to_string();
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(out.contains("rename this one"), "{out}");
    }

    #[test]
    fn names_in_messages_are_restored_past_multibyte_characters() {
        let user: HashSet<String> = ["d_self".to_string()].into();
        let text = "adds `∂f/∂__micrograd_self` into `d___micrograd_self`, v___micrograd_self";
        assert_eq!(
            restored_in(text, &user),
            "adds `∂f/∂self` into `d_self_`, v_self"
        );
    }
}
