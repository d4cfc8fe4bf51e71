//! The method as the pipeline reads it: `self` is the marker `__micrograd_self`, `self.g(..)`
//! the call `Self::g(__micrograd_self, ..)`, `self.layer.g(..)` and `self.layers[i].g(..)`
//! calls through `__micrograd_method::` and `__micrograd_element::` ([`read_body`]), and a float
//! the `impl` declares is declared by the method ([`outer_float`], [`declare`]).

mod element_loop;

use super::{ELEMENT, MARKER, METHOD, OUTER_FLOAT, plain, with_span};
use element_loop::element_loop;
use proc_macro2::{Delimiter, Group, Ident, Punct, Spacing, TokenStream, TokenTree};

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
pub(crate) fn read_body(stream: TokenStream) -> TokenStream {
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
