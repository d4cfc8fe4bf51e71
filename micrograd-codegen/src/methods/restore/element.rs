//! A call of an element of a field (`self.layers[i].g(..)`), which the pipeline read through
//! `__micrograd_element::g(i, self_layers, ..)`, printed as a method call again.

use crate::methods::with_span;
use proc_macro2::{Delimiter, Group, Ident, Punct, Spacing, TokenStream, TokenTree};

/// `__micrograd_element::callee(index, sequence, companions.., rest..)` printed as
/// `(sequence)[index].callee((companion)[index].., rest..)`: the sequence's shadow and tangent
/// (`&mut d_self.layers`, `&v_self.layers`), as many as the flavour `callee` takes after its
/// receiver, are indexed as the sequence is.
pub(super) fn element_call(
    callee: &Ident,
    inner: Option<&Ident>,
    args: TokenStream,
) -> Option<Vec<TokenTree>> {
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
    // The indices before the sequence: `i`, or `i, j` for an element's element.
    let indices = if inner.is_some() { 2 } else { 1 };
    if parts.len() < indices + 1 + companions {
        // Not a call the pipeline printed: left as it is, for rustc to report.
        return None;
    }
    let span = callee.span();
    let index = Group::new(Delimiter::Bracket, parts[0].iter().cloned().collect());
    // `.neurons[j]` after `[i]`.
    let deeper: Vec<TokenTree> = match inner {
        Some(inner) => vec![
            with_span(Punct::new('.', Spacing::Alone).into(), span),
            TokenTree::Ident(inner.clone()),
            Group::new(Delimiter::Bracket, parts[1].iter().cloned().collect()).into(),
        ],
        None => Vec::new(),
    };
    let indexed = |part: &[TokenTree]| -> Vec<TokenTree> {
        let inner = Group::new(Delimiter::Parenthesis, part.iter().cloned().collect());
        let mut out = vec![inner.into(), index.clone().into()];
        out.extend(deeper.iter().cloned());
        out
    };
    let mut rest: Vec<TokenTree> = Vec::new();
    for (k, part) in parts[indices + 1..].iter().enumerate() {
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
    let mut out = indexed(&parts[indices]);
    out.push(with_span(Punct::new('.', Spacing::Alone).into(), span));
    out.push(TokenTree::Ident(callee.clone()));
    out.push(Group::new(Delimiter::Parenthesis, rest.into_iter().collect()).into());
    Some(out)
}
