//! A loop over the elements of a field of `self`, `for layer in &self.layers { .. }`, read as
//! the loop by index whose body calls each element's method ([`element_loop`]).

use super::super::{ELEMENT_LEN, plain, with_span};
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, TokenStream, TokenTree};

/// `for layer in &self.layers { .. layer.forward(x) .. }` at the head of `tokens` (also
/// `self.layers.iter()`, `for (l, layer) in self.layers.iter().enumerate()`, and a field of an
/// element, `for n in &self.layers[0].neurons`), when the loop's variable is only ever the
/// receiver of a method call or, in `for n in &layer.neurons { .. }`, the base of an inner
/// loop's sequence: the loop by index, `for l in 0..self.layers.len() { ..
/// self.layers[l].forward(x) .. }`, so that each call is an element's ([`element_method`]);
/// and how many tokens it read. The index is the `enumerate`'s name, else
/// `__micrograd_self_at` (printed `self_at`), with one `_` more per element on the sequence's
/// path, so nested loops keep theirs apart. Any other use of the variable (a field read, a
/// rebinding, a closure's parameter of that name) leaves the loop as written.
pub(super) fn element_loop(tokens: &[TokenTree]) -> Option<(Vec<TokenTree>, usize)> {
    let (index, name) = loop_pattern(tokens.get(1)?)?;
    let enumerated = matches!(tokens.get(1), Some(TokenTree::Group(_)));
    if !is_ident(tokens.get(2), "in") {
        return None;
    }
    let body_at = tokens
        .iter()
        .position(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace))?;
    let (path, receiver) = loop_fields(&tokens[3..body_at], enumerated)?;
    let TokenTree::Group(body) = &tokens[body_at] else {
        return None;
    };
    if !matches!(path.last(), Some(TokenTree::Ident(_))) || !only_receiver(body.stream(), &name) {
        return None;
    }
    let span = name.span();
    // One name per level, so a loop over an element's field inside a loop over the elements
    // (`for l in &self.layers { for n in &l.neurons { .. } }`) keeps the outer index.
    let depth = path
        .iter()
        .filter(|t| matches!(t, TokenTree::Group(_)))
        .count();
    let base = crate::names::method::ELEMENT_INDEX;
    let index = index.unwrap_or_else(|| Ident::new(&format!("{base}{}", "_".repeat(depth)), span));
    let by_index = loop_by_index(&tokens[..3], &name, &index, (&path, receiver), body)?;
    Some((by_index, body_at + 1))
}

/// The pattern of a loop over elements: `layer` or `(l, layer)` (the index `l`, `None` for `_`
/// or a plain variable), with the variable.
fn loop_pattern(pattern: &TokenTree) -> Option<(Option<Ident>, Ident)> {
    match pattern {
        TokenTree::Ident(name) if plain(name) => Some((None, name.clone())),
        TokenTree::Group(pair) if pair.delimiter() == Delimiter::Parenthesis => {
            let inner: Vec<TokenTree> = pair.stream().into_iter().collect();
            match &inner[..] {
                [
                    TokenTree::Ident(l),
                    TokenTree::Punct(comma),
                    TokenTree::Ident(name),
                ] if comma.as_char() == ',' && plain(name) && (plain(l) || l == "_") => {
                    Some((Some(l.clone()).filter(|l| l != "_"), name.clone()))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The path after `self` a loop over elements reads, from its `sequence` (after `in`):
/// `&self.a.b` or `self.a.b.iter()`, `.enumerate()` after it where the pattern is a pair
/// (`enumerated`), with elements on the way (`&self.layers[0].neurons`); and the span of its
/// `self`. `None` for any other sequence.
fn loop_fields(
    sequence: &[TokenTree],
    enumerated: bool,
) -> Option<(Vec<TokenTree>, proc_macro2::Span)> {
    let (borrowed, mut rest) = match sequence {
        [amp, rest @ ..] if is_punct(Some(amp), '&') && !enumerated => (true, rest),
        rest => (false, rest),
    };
    if !is_ident(rest.first(), "self") {
        return None;
    }
    let receiver = rest[0].span();
    rest = &rest[1..];
    if enumerated {
        rest = without_call(rest, "enumerate")?;
    }
    if !borrowed {
        rest = without_call(rest, "iter")?;
    }
    let mut path: Vec<TokenTree> = Vec::new();
    let mut at = 0;
    while at < rest.len() {
        match &rest[at..] {
            [dot, TokenTree::Ident(field), ..]
                if is_punct(Some(dot), '.')
                    && plain(field)
                    && !matches!(dot, TokenTree::Punct(p) if p.spacing() == Spacing::Joint) =>
            {
                path.push(dot.clone());
                path.push(TokenTree::Ident(field.clone()));
                at += 2;
            }
            [TokenTree::Group(index), ..]
                if index.delimiter() == Delimiter::Bracket && !path.is_empty() =>
            {
                path.push(rest[at].clone());
                at += 1;
            }
            _ => return None,
        }
    }
    Some((path, receiver))
}

/// The loop by index, `for index in 0..self.a.b.len() { body }`, its head (`for`, `in`) from
/// `head` and each use of `name` in `body` the element `self.a.b[index]` ([`by_index`]), at
/// `name`'s span; `path` is what follows `self` (`.a.b`, `.layers[0].neurons`), `receiver`
/// the span of the user's `self`. `None` for a path whose length is not read ([`element_len`]).
fn loop_by_index(
    head: &[TokenTree],
    name: &Ident,
    index: &Ident,
    (path, receiver): (&[TokenTree], proc_macro2::Span),
    body: &Group,
) -> Option<Vec<TokenTree>> {
    let span = name.span();
    // `self.a.b`, at the variable's span.
    let field_path = |span| {
        let mut out: Vec<TokenTree> = vec![Ident::new("self", span).into()];
        for token in path {
            match token {
                TokenTree::Punct(_) => {
                    out.push(with_span(Punct::new('.', Spacing::Alone).into(), span));
                }
                other => out.push(other.clone()),
            }
        }
        out
    };
    let mut out: Vec<TokenTree> = vec![
        head[0].clone(),
        TokenTree::Ident(index.clone()),
        head[2].clone(),
    ];
    out.push(with_span(Literal::usize_unsuffixed(0).into(), span));
    out.push(with_span(Punct::new('.', Spacing::Joint).into(), span));
    out.push(with_span(Punct::new('.', Spacing::Alone).into(), span));
    let elements = path.iter().any(|t| matches!(t, TokenTree::Group(_)));
    match element_len(path, receiver) {
        Some(len) => out.extend(len),
        None if elements => return None,
        None => {
            out.extend(field_path(span));
            out.push(with_span(Punct::new('.', Spacing::Alone).into(), span));
            out.push(Ident::new("len", span).into());
            out.push(with_span(
                Group::new(Delimiter::Parenthesis, TokenStream::new()).into(),
                span,
            ));
        }
    }
    let mut block = Group::new(
        Delimiter::Brace,
        by_index(body.stream(), name, index, &field_path),
    );
    block.set_span(body.span());
    out.push(block.into());
    Some(out)
}

/// The length of a field of an element, `.layers[i].neurons` after `self` (`path`, one index
/// and one field after it): `__micrograd_element_len::layers::neurons(i)`, which the lowering
/// reads as a call of integers (`IntExpr::Call`) and `restore.rs` prints back as
/// `self.layers[i].neurons.len()`. `None` for a path without an index, or with two or more.
fn element_len(path: &[TokenTree], span: proc_macro2::Span) -> Option<Vec<TokenTree>> {
    let at = path.iter().position(|t| matches!(t, TokenTree::Group(_)))?;
    let (before, index, after) = (&path[..at], &path[at], &path[at + 1..]);
    let [_, TokenTree::Ident(_)] = after else {
        return None;
    };
    let TokenTree::Group(index) = index else {
        return None;
    };
    let colons = || -> [TokenTree; 2] {
        [
            with_span(Punct::new(':', Spacing::Joint).into(), span),
            with_span(Punct::new(':', Spacing::Alone).into(), span),
        ]
    };
    let mut out: Vec<TokenTree> = vec![Ident::new(ELEMENT_LEN, span).into()];
    for token in before.iter().chain([&after[1]]) {
        if let TokenTree::Ident(field) = token {
            out.extend(colons());
            out.push(TokenTree::Ident(field.clone()));
        }
    }
    let mut args = Group::new(Delimiter::Parenthesis, index.stream());
    args.set_span(index.span());
    out.push(args.into());
    Some(out)
}

/// `tokens` without their tail `.method()`, where they end so.
fn without_call<'a>(tokens: &'a [TokenTree], method: &str) -> Option<&'a [TokenTree]> {
    let [head @ .., dot, name, call] = tokens else {
        return None;
    };
    let called = is_punct(Some(dot), '.') && is_ident(Some(name), method);
    (called && is_empty_call(Some(call))).then_some(head)
}

/// Whether `t` is the punctuation `c`.
fn is_punct(t: Option<&TokenTree>, c: char) -> bool {
    matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// Whether `t` is the identifier `s`.
fn is_ident(t: Option<&TokenTree>, s: &str) -> bool {
    matches!(t, Some(TokenTree::Ident(i)) if i == s)
}

/// Whether `t` is `()`, an empty call's arguments.
fn is_empty_call(t: Option<&TokenTree>) -> bool {
    matches!(t, Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis && g.stream().is_empty())
}

/// Whether every use of the variable `name` in `stream` is the receiver of a method call the
/// lowering does not know (`name.forward(..)`); a name after `.` or `::` is another's.
fn only_receiver(stream: TokenStream, name: &Ident) -> bool {
    let mut stack = vec![stream];
    while let Some(stream) = stack.pop() {
        let tokens: Vec<TokenTree> = stream.into_iter().collect();
        for (k, token) in tokens.iter().enumerate() {
            match token {
                TokenTree::Ident(ident) if ident == name => {
                    let after_path = k > 0
                        && matches!(&tokens[k - 1], TokenTree::Punct(p) if matches!(p.as_char(), '.' | ':'));
                    if after_path {
                        continue;
                    }
                    let dot = matches!(tokens.get(k + 1), Some(TokenTree::Punct(p)) if p.as_char() == '.' && p.spacing() == Spacing::Alone);
                    let call = dot
                        && matches!(tokens.get(k + 2), Some(TokenTree::Ident(m)) if plain(m) && !crate::lower::known_method(&m.to_string()))
                        && matches!(tokens.get(k + 3), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis);
                    // `for n in &layer.neurons { .. }`: a field (of an element, once read by
                    // index), the sequence of an inner loop over its elements.
                    let inner_loop = match k {
                        0 => false,
                        1 => is_ident(tokens.first(), "in"),
                        _ => {
                            is_ident(tokens.get(k - 1), "in")
                                || (is_punct(tokens.get(k - 1), '&')
                                    && is_ident(tokens.get(k - 2), "in"))
                        }
                    };
                    let field = inner_loop
                        && dot
                        && matches!(tokens.get(k + 2), Some(TokenTree::Ident(m)) if plain(m))
                        && matches!(tokens.get(k + 3), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace);
                    if !call && !field {
                        return false;
                    }
                }
                TokenTree::Group(group) => stack.push(group.stream()),
                _ => {}
            }
        }
    }
    true
}

/// `stream` with each use of the variable `name` (a method's receiver, [`only_receiver`]) the
/// element `self.a.b[index]`, level by level (after `nesting`'s bound).
fn by_index(
    stream: TokenStream,
    name: &Ident,
    index: &Ident,
    field_path: &dyn Fn(proc_macro2::Span) -> Vec<TokenTree>,
) -> TokenStream {
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    for (k, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Ident(ident)
                if ident == name
                    && !(k > 0
                        && matches!(&tokens[k - 1], TokenTree::Punct(p) if matches!(p.as_char(), '.' | ':'))) =>
            {
                let span = ident.span();
                out.extend(field_path(span));
                let mut at = Group::new(Delimiter::Bracket, TokenTree::Ident(index.clone()).into());
                at.set_span(span);
                out.push(at.into());
            }
            TokenTree::Group(group) => {
                let mut new = Group::new(
                    group.delimiter(),
                    by_index(group.stream(), name, index, field_path),
                );
                new.set_span(group.span());
                out.push(new.into());
            }
            other => out.push(other.clone()),
        }
    }
    out.into_iter().collect()
}
