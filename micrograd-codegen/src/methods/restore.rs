//! The pipeline's output turned back into methods, one seam per rule: the parameter
//! `__micrograd_self: &Self` is the receiver `&self` ([`Restorer::group`]); the marker in a
//! name is `self` (`d___micrograd_self` is `d_self`), also in messages and docs, where a link
//! to `[`f`]` is `[`Self::f`]` ([`Restorer::ident`], [`Restorer::literal`]); a call through
//! `__micrograd_method::` or `__micrograd_element::` is a method call again
//! ([`Restorer::call`]); the float an `impl` declares is left out of the generics
//! ([`outer_generics`]); and a sibling called by its bare name goes through `Self::`
//! ([`Restorer::bare_sibling`]).
//!
//! Before: `fn loss_grad(__micrograd_self: &Self, d___micrograd_self: &mut Self, ..) { .. __micrograd_method::forward_pullback(self_model, &mut d___micrograd_self.model, ..) }`
//! After: `fn loss_grad(&self, d_self: &mut Self, ..) { .. self_model.forward_pullback(&mut d_self.model, ..) }`

mod element;

use super::{ELEMENT, ELEMENT_LEN, MARKER, METHOD, OUTER_FLOAT, with_span};
use element::element_call;
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, TokenStream, TokenTree};
use std::collections::HashSet;

/// What the output is restored for: the method's name, the names of what the attribute wrote
/// beside it, and every identifier of the user's method.
pub(super) struct Restorer<'a> {
    /// The method's name, `f`.
    pub name: &'a str,
    /// `f_grad`, `f_pullback`, ..., `__f_tangent`, ...
    pub own: &'a HashSet<String>,
    /// The user's identifiers: a restored name steps around them.
    pub user: &'a HashSet<String>,
    /// Whether the float is the `impl`'s (`impl<T: Float> Model<T>`): each generated `where`
    /// clause then also asks `T: Differentiable` (`Model<T>` is a parameter struct where it
    /// holds; the generated bodies name `<T as Zero>::zero()` in full, so `Differentiable::zero`
    /// does not make it ambiguous). `Record` does not imply it: a user's generic body under
    /// `T: Record` calling `T::zero()` would be ambiguous.
    pub outer: bool,
}

impl Restorer<'_> {
    /// `stream` restored, level by level (each group by a call of its own, after `nesting`'s
    /// bound).
    pub(super) fn restore(&self, stream: TokenStream) -> TokenStream {
        let tokens: Vec<TokenTree> = stream.into_iter().collect();
        let mut out: Vec<TokenTree> = Vec::with_capacity(tokens.len());
        let mut i = 0;
        while i < tokens.len() {
            let found = self
                .call(&tokens[i..])
                .or_else(|| outer_generics(&tokens[i..]));
            if let Some((printed, read)) = found {
                out.extend(printed);
                i += read;
                continue;
            }
            if let Some(span) = self.bare_sibling(&tokens, i) {
                out.push(Ident::new("Self", span).into());
                out.push(with_span(Punct::new(':', Spacing::Joint).into(), span));
                out.push(with_span(Punct::new(':', Spacing::Alone).into(), span));
            }
            if let Some(bound) = self.self_bound(&tokens[i..]) {
                out.push(tokens[i].clone());
                out.extend(bound);
                i += 1;
                continue;
            }
            out.push(match tokens[i].clone() {
                TokenTree::Group(group) => self.group(&group).into(),
                TokenTree::Ident(ident) => self.ident(&ident).into(),
                TokenTree::Literal(literal) => self.literal(literal).into(),
                other => other,
            });
            i += 1;
        }
        out.into_iter().collect()
    }

    /// `__micrograd_method::g_pullback(&self.layer, rest)` at the head of `tokens`, printed
    /// `(&self.layer).g_pullback(rest)` (`self_layer.g_pullback(rest)` for a binding), or
    /// `__micrograd_element::g(i, self_layers, ..)` printed by [`element_call`]; and how many
    /// tokens it read.
    fn call(&self, tokens: &[TokenTree]) -> Option<(Vec<TokenTree>, usize)> {
        if let Some(len) = self.element_len(tokens) {
            return Some(len);
        }
        // `__micrograd_element::neurons::g(i, j, s, ..)`: a method of an element's element.
        if let [
            TokenTree::Ident(path),
            TokenTree::Punct(_),
            TokenTree::Punct(_),
            TokenTree::Ident(inner),
            TokenTree::Punct(colon),
            TokenTree::Punct(_),
            TokenTree::Ident(callee),
            TokenTree::Group(args),
            ..,
        ] = tokens
            && path == ELEMENT
            && colon.as_char() == ':'
        {
            let args = self.restore(args.stream());
            return element_call(callee, Some(inner), args).map(|call| (call, 8));
        }
        let [
            TokenTree::Ident(path),
            TokenTree::Punct(_),
            TokenTree::Punct(_),
            TokenTree::Ident(callee),
            TokenTree::Group(args),
            ..,
        ] = tokens
        else {
            return None;
        };
        if path != ELEMENT && path != METHOD {
            return None;
        }
        let args = self.restore(args.stream());
        if path == ELEMENT {
            return element_call(callee, None, args).map(|call| (call, 5));
        }
        let args: Vec<TokenTree> = args.into_iter().collect();
        let comma = args
            .iter()
            .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
            .unwrap_or(args.len());
        let rest: TokenStream = args
            .get(comma + 1..)
            .unwrap_or_default()
            .iter()
            .cloned()
            .collect();
        let mut out = match &args[..comma] {
            [TokenTree::Ident(alone)] => vec![TokenTree::Ident(alone.clone())],
            receiver => {
                let receiver = receiver.iter().cloned().collect();
                vec![Group::new(Delimiter::Parenthesis, receiver).into()]
            }
        };
        out.push(with_span(
            Punct::new('.', Spacing::Alone).into(),
            callee.span(),
        ));
        out.push(TokenTree::Ident(callee.clone()));
        out.push(Group::new(Delimiter::Parenthesis, rest).into());
        Some((out, 5))
    }

    /// `__micrograd_element_len::layers::neurons(i)` at the head of `tokens` (`read.rs`
    /// `element_len`), printed `self.layers[i].neurons.len()`; and how many tokens it read.
    fn element_len(&self, tokens: &[TokenTree]) -> Option<(Vec<TokenTree>, usize)> {
        let Some(TokenTree::Ident(head)) = tokens.first() else {
            return None;
        };
        if head != ELEMENT_LEN {
            return None;
        }
        let span = head.span();
        let mut fields = Vec::new();
        let mut at = 1;
        let args = loop {
            match &tokens[at..] {
                [
                    TokenTree::Punct(a),
                    TokenTree::Punct(b),
                    TokenTree::Ident(field),
                    ..,
                ] if a.as_char() == ':' && b.as_char() == ':' => {
                    fields.push(field.clone());
                    at += 3;
                }
                [TokenTree::Group(args), ..] if args.delimiter() == Delimiter::Parenthesis => {
                    break args;
                }
                _ => return None,
            }
        };
        let (last, before) = fields.split_last()?;
        let dot = || with_span(Punct::new('.', Spacing::Alone).into(), span);
        // The receiver as the signature prints it (every parameter at `mixed_site`).
        let receiver = Ident::new("self", proc_macro2::Span::mixed_site());
        let mut out: Vec<TokenTree> = vec![receiver.into()];
        for field in before {
            out.extend([dot(), TokenTree::Ident(field.clone())]);
        }
        let mut index = Group::new(Delimiter::Bracket, self.restore(args.stream()));
        index.set_span(args.span());
        out.extend([index.into(), dot(), TokenTree::Ident(last.clone()), dot()]);
        out.push(Ident::new("len", span).into());
        out.push(Group::new(Delimiter::Parenthesis, TokenStream::new()).into());
        Some((out, at + 1))
    }

    /// `T: RUNTIME::shadow::Differentiable,` after the `where` at the head of `tokens`, when
    /// the float is the `impl`'s and the clause is the generated one (`where T: RUNTIME::Record,`,
    /// the runtime's path read from it).
    fn self_bound(&self, tokens: &[TokenTree]) -> Option<Vec<TokenTree>> {
        let [
            TokenTree::Ident(clause),
            TokenTree::Ident(float),
            TokenTree::Punct(colon),
            rest @ ..,
        ] = tokens
        else {
            return None;
        };
        if !self.outer || clause != "where" || colon.as_char() != ':' {
            return None;
        }
        let record = rest
            .iter()
            .position(|t| matches!(t, TokenTree::Ident(i) if i == "Record"))?;
        let path = &rest[..record];
        if !path
            .iter()
            .all(|t| matches!(t, TokenTree::Ident(_) | TokenTree::Punct(_)))
        {
            return None;
        }
        let span = clause.span();
        let mut bound: Vec<TokenTree> = vec![
            TokenTree::Ident(float.clone()),
            Punct::new(':', Spacing::Alone).into(),
        ];
        bound.extend(path.iter().cloned());
        bound.extend([
            Ident::new("shadow", span).into(),
            Punct::new(':', Spacing::Joint).into(),
            Punct::new(':', Spacing::Alone).into(),
            Ident::new("Differentiable", span).into(),
            Punct::new(',', Spacing::Alone).into(),
        ]);
        Some(bound)
    }

    /// The span of `tokens[i]` if it is one of the `own` generated functions called by its bare
    /// name (`f_hessian` calls `f_hvp(..)`), which goes through `Self::`.
    fn bare_sibling(&self, tokens: &[TokenTree], i: usize) -> Option<proc_macro2::Span> {
        let TokenTree::Ident(ident) = &tokens[i] else {
            return None;
        };
        let called = matches!(tokens.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis);
        let after_path = i
            .checked_sub(1)
            .and_then(|k| tokens.get(k))
            .is_some_and(|t| match t {
                TokenTree::Ident(i) => i == "fn",
                TokenTree::Punct(p) => p.as_char() == '.' || p.as_char() == ':',
                _ => false,
            });
        (self.own.contains(&ident.to_string()) && called && !after_path).then(|| ident.span())
    }

    /// A group restored; a parameter list opening with `__micrograd_self: &Self` opens with
    /// `&self`.
    fn group(&self, group: &Group) -> Group {
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
            let receiver = [
                with_span(Punct::new('&', Spacing::Alone).into(), amp.span()),
                Ident::new("self", name.span()).into(),
            ];
            inner.splice(..4, receiver);
        }
        let mut new = Group::new(group.delimiter(), self.restore(inner.into_iter().collect()));
        new.set_span(group.span());
        new
    }

    /// A name holding the marker [`restored`]: `self`, `d_self`, `v_self`.
    fn ident(&self, ident: &Ident) -> Ident {
        let text = ident.to_string();
        if !text.contains(MARKER) {
            return ident.clone();
        }
        match restored(&text, self.user).as_str() {
            "self" => Ident::new("self", ident.span()),
            name => crate::names::ident(name, ident.span()),
        }
    }

    /// A message or a doc with the marker's names [`restored_in`] and `[`f`]` as `[`Self::f`]`.
    fn literal(&self, literal: Literal) -> Literal {
        let text = literal.to_string();
        let link = format!("[`{}`]", self.name);
        if !text.contains(MARKER) && !text.contains(&link) {
            return literal;
        }
        let text =
            restored_in(&text, self.user).replace(&link, &format!("[`Self::{}`]", self.name));
        match text.parse::<Literal>() {
            Ok(mut new) => {
                new.set_span(literal.span());
                new
            }
            Err(_) => literal,
        }
    }
}

/// `<T: __micrograd_float::Float, ..>` at the head of `tokens`, the float an `impl` declares
/// (`read::declare`): printed without it (`<..>`, or nothing when it was alone); and how many
/// tokens it read.
fn outer_generics(tokens: &[TokenTree]) -> Option<(Vec<TokenTree>, usize)> {
    let [
        TokenTree::Punct(open),
        TokenTree::Ident(_),
        TokenTree::Punct(_),
        TokenTree::Ident(path),
        _,
        _,
        TokenTree::Ident(_),
        TokenTree::Punct(next),
        ..,
    ] = tokens
    else {
        return None;
    };
    if open.as_char() != '<' || path != OUTER_FLOAT {
        return None;
    }
    match next.as_char() {
        '>' => Some((Vec::new(), 8)),
        _ => Some((vec![tokens[0].clone()], 8)),
    }
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
pub(crate) fn restored_in(text: &str, user: &HashSet<String>) -> String {
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
