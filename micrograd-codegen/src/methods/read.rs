//! The method as the pipeline reads it: `self` is the marker `__micrograd_self`, `self.g(..)`
//! the call `Self::g(__micrograd_self, ..)`, `self.layer.g(..)` and `self.layers[i].g(..)`
//! calls through `__micrograd_method::` and `__micrograd_element::` ([`read_body`]), and a float
//! the `impl` declares is declared by the method ([`outer_float`], [`declare`]).

use super::{ELEMENT, MARKER, METHOD, OUTER_FLOAT, plain, with_span};
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, TokenStream, TokenTree};

/// The float type of a method that its `impl` declares (`impl<T: Float> Model<T>`): the first
/// identifier of its return type (`T`, `[T; N]`, `(T, T)`) when it is no primitive, not `Self`,
/// and not a type parameter of the method's own. The attribute sees the method alone, and the
/// return type is a float by the language's rule (a wrong guess is an error about the output).
pub(super) fn outer_float(tokens: &[TokenTree], fn_at: usize, args_at: usize) -> Option<Ident> {
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
pub(super) fn declare(tokens: &mut Vec<TokenTree>, fn_at: usize, float: &Ident) {
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

/// The body (or the attribute's arguments) as the pipeline reads it: `self` is the marker, and
/// `self.g(args)` is `Self::g(__micrograd_self, args)`; a path `self::m` stays.
pub(super) fn read_body(stream: TokenStream) -> TokenStream {
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
            TokenTree::Ident(ident) if ident == "for" => {
                if let Some((rewritten, read)) = element_loop(&tokens[i..]) {
                    out.extend(read_body(rewritten.into_iter().collect()));
                    i += read;
                    continue;
                }
                out.push(tokens[i].clone());
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
/// and how many tokens it read. One level deeper, `self.layers[i].neurons[j].method(args)` (a
/// method of an element's element) is `__micrograd_element::neurons::method(i, j,
/// &__micrograd_self.layers, args)`, printed back as `(..)[i].neurons[j].method(..)`.
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
    // `.inner[j]` between the element and the method: an element's element.
    let inner = match (tokens.get(at + 2), tokens.get(at + 3)) {
        (Some(TokenTree::Ident(inner)), Some(TokenTree::Group(second)))
            if dot(tokens.get(at + 1))
                && plain(inner)
                && second.delimiter() == Delimiter::Bracket =>
        {
            Some((inner.clone(), second.clone()))
        }
        _ => None,
    };
    let after = if inner.is_some() { at + 5 } else { at + 2 };
    let (Some(TokenTree::Ident(method)), Some(TokenTree::Group(call))) =
        (tokens.get(after), tokens.get(after + 1))
    else {
        return None;
    };
    if index.delimiter() != Delimiter::Bracket
        || !dot(tokens.get(after - 1))
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
    if let Some((_, second)) = &inner {
        args.push(Group::new(Delimiter::Parenthesis, read_body(second.stream())).into());
        args.push(Punct::new(',', Spacing::Alone).into());
    }
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
    let rest = read_body(call.stream());
    if !rest.is_empty() {
        args.push(Punct::new(',', Spacing::Alone).into());
        args.extend(rest);
    }
    let mut group = Group::new(Delimiter::Parenthesis, args.into_iter().collect());
    group.set_span(call.span());
    let at_name = method.span();
    let mut out = vec![
        Ident::new(ELEMENT, at_name).into(),
        with_span(Punct::new(':', Spacing::Joint).into(), at_name),
        with_span(Punct::new(':', Spacing::Alone).into(), at_name),
    ];
    if let Some((inner, _)) = inner {
        out.push(TokenTree::Ident(inner));
        out.push(with_span(Punct::new(':', Spacing::Joint).into(), at_name));
        out.push(with_span(Punct::new(':', Spacing::Alone).into(), at_name));
    }
    out.push(TokenTree::Ident(method.clone()));
    out.push(group.into());
    Some((out, after + 2))
}

/// `for layer in &self.layers { .. layer.forward(x) .. }` at the head of `tokens` (also
/// `self.layers.iter()`, and `for (l, layer) in self.layers.iter().enumerate()`), when the
/// loop's variable is only ever the receiver of a method call: the loop by index,
/// `for l in 0..self.layers.len() { .. self.layers[l].forward(x) .. }`, so that each call is an
/// element's ([`element_method`]); and how many tokens it read. The index is the `enumerate`'s
/// name, else `__micrograd_self_at` (printed `self_at`). Any other use of the variable (a field
/// read, a rebinding, a closure's parameter of that name) leaves the loop as written.
fn element_loop(tokens: &[TokenTree]) -> Option<(Vec<TokenTree>, usize)> {
    let (index, name) = loop_pattern(tokens.get(1)?)?;
    let enumerated = matches!(tokens.get(1), Some(TokenTree::Group(_)));
    if !is_ident(tokens.get(2), "in") {
        return None;
    }
    let body_at = tokens
        .iter()
        .position(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace))?;
    let fields = loop_fields(&tokens[3..body_at], enumerated)?;
    let TokenTree::Group(body) = &tokens[body_at] else {
        return None;
    };
    if fields.is_empty() || !only_receiver(body.stream(), &name) {
        return None;
    }
    let span = name.span();
    let index = index.unwrap_or_else(|| Ident::new(crate::names::method::ELEMENT_INDEX, span));
    let by_index = loop_by_index(&tokens[..3], &name, &index, &fields, body);
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

/// The fields of `self` a loop over elements reads, from its `sequence` (after `in`):
/// `&self.a.b` or `self.a.b.iter()`, `.enumerate()` after it where the pattern is a pair
/// (`enumerated`). `None` for any other sequence.
fn loop_fields(sequence: &[TokenTree], enumerated: bool) -> Option<Vec<Ident>> {
    let (borrowed, mut rest) = match sequence {
        [amp, rest @ ..] if is_punct(Some(amp), '&') && !enumerated => (true, rest),
        rest => (false, rest),
    };
    if !is_ident(rest.first(), "self") {
        return None;
    }
    rest = &rest[1..];
    if enumerated {
        rest = without_call(rest, "enumerate")?;
    }
    if !borrowed {
        rest = without_call(rest, "iter")?;
    }
    let mut fields = Vec::new();
    for pair in rest.chunks(2) {
        match pair {
            [dot, TokenTree::Ident(field)]
                if is_punct(Some(dot), '.')
                    && plain(field)
                    && !matches!(dot, TokenTree::Punct(p) if p.spacing() == Spacing::Joint) =>
            {
                fields.push(field.clone());
            }
            _ => return None,
        }
    }
    Some(fields)
}

/// The loop by index, `for index in 0..self.a.b.len() { body }`, its head (`for`, `in`) from
/// `head` and each use of `name` in `body` the element `self.a.b[index]` ([`by_index`]), at
/// `name`'s span.
fn loop_by_index(
    head: &[TokenTree],
    name: &Ident,
    index: &Ident,
    fields: &[Ident],
    body: &Group,
) -> Vec<TokenTree> {
    let span = name.span();
    // `self.a.b`, at the variable's span.
    let field_path = |span| {
        let mut path: Vec<TokenTree> = vec![Ident::new("self", span).into()];
        for field in fields {
            path.push(with_span(Punct::new('.', Spacing::Alone).into(), span));
            path.push(TokenTree::Ident(field.clone()));
        }
        path
    };
    let mut out: Vec<TokenTree> = vec![
        head[0].clone(),
        TokenTree::Ident(index.clone()),
        head[2].clone(),
    ];
    out.push(with_span(Literal::usize_unsuffixed(0).into(), span));
    out.push(with_span(Punct::new('.', Spacing::Joint).into(), span));
    out.push(with_span(Punct::new('.', Spacing::Alone).into(), span));
    out.extend(field_path(span));
    out.push(with_span(Punct::new('.', Spacing::Alone).into(), span));
    out.push(Ident::new("len", span).into());
    out.push(with_span(
        Group::new(Delimiter::Parenthesis, TokenStream::new()).into(),
        span,
    ));
    let mut block = Group::new(
        Delimiter::Brace,
        by_index(body.stream(), name, index, &field_path),
    );
    block.set_span(body.span());
    out.push(block.into());
    out
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
                    let call = matches!(tokens.get(k + 1), Some(TokenTree::Punct(p)) if p.as_char() == '.' && p.spacing() == Spacing::Alone)
                        && matches!(tokens.get(k + 2), Some(TokenTree::Ident(m)) if plain(m) && !crate::lower::known_method(&m.to_string()))
                        && matches!(tokens.get(k + 3), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis);
                    if !call {
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
