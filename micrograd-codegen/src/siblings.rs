//! Calls between the functions one expansion writes (`f_hessian` calls `f_hvp`, `f_jacobian`
//! of a function writing its outputs calls `f_jvp` and `__f_jvp_lanes`, `f_pullback` of a
//! function returning `[f64; M]` of a `const M` calls `__f_into_pullback`), where the attribute
//! cannot see whether `f` is a free function or an associated function of an `impl`: a bare
//! `f_hvp(..)` resolves only in the first, `Self::f_hvp(..)` only in the second. What resolves
//! in both is an item of the calling function's own body, so each function the expansion
//! writes that names a sibling holds a copy of it (with the siblings that one names, in turn)
//! first in its body, under the same name and generic over the same parameters: it shadows
//! the module's in a free function, and is the one found in an `impl`.
//!
//! Before: `fn f_hessian(..) { .. f_hvp(..) .. }`
//! After: `fn f_hessian(..) { fn f_hvp(..) { .. } .. f_hvp(..) .. }`
//!
//! A hidden helper copied so (`__f_jvp_lanes`, `__f_into_pullback`) is not printed on its own.
//! Only where the function does not name `Self` (then `methods.rs` knows it is in an `impl` and
//! qualifies the calls instead): a nested item cannot name `Self`.
//!
//! A name the user's function holds is never a sibling here, however it is spelled (a
//! parameter `f_grad: f64` or `f_pullback: usize` of `f`): a copy under that name would shadow
//! the user's binding, which the generated functions read by it.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use std::collections::{BTreeSet, HashMap, HashSet};

/// `expanded`, the expansion of the user's function `user`, with each generated function that
/// names a sibling holding a copy of it first in its body. `taken`: every identifier of the
/// user's function (its name among them), none of which is taken for a sibling.
pub fn nest(expanded: TokenStream, user: &str, taken: &HashSet<String>) -> TokenStream {
    let items = split(expanded);
    let names: Vec<Option<String>> = items
        .iter()
        .map(|item| fn_name(item).filter(|name| name != user && !taken.contains(name)))
        .collect();
    let index: HashMap<&str, usize> = (names.iter().enumerate())
        .filter_map(|(k, name)| name.as_deref().map(|name| (name, k)))
        .collect();
    let callees: Vec<Vec<usize>> = (items.iter().zip(&names))
        .enumerate()
        .map(|(k, (item, name))| {
            let mut found = BTreeSet::new();
            if let (Some(_), Some(body)) = (name, body(item)) {
                mentions(body.stream(), &index, &mut found);
            }
            found.remove(&k);
            found.into_iter().collect()
        })
        .collect();
    // A hidden helper copied into every function that calls it is not printed on its own
    // (`__f_jvp_lanes`, `__f_into_pullback`); `__f_tangent` and the public flavours are, since
    // callers of `f` call them too.
    let copied: BTreeSet<usize> = callees.iter().flatten().copied().collect();
    let alone = |k: &usize| {
        let name = names[*k].as_deref().unwrap_or_default();
        let hidden = name.starts_with("__") && !name.contains("_tangent");
        !(copied.contains(k) && hidden)
    };
    let mut nested: Vec<Option<Vec<TokenTree>>> = vec![None; items.len()];
    (0..items.len())
        .filter(alone)
        .flat_map(|k| with_callees(k, (&items, &callees), &mut nested))
        .collect()
}

/// Item `k` with copies of the siblings it names (each with its own) first in its body.
fn with_callees(
    k: usize,
    (items, callees): (&[Vec<TokenTree>], &[Vec<usize>]),
    nested: &mut Vec<Option<Vec<TokenTree>>>,
) -> Vec<TokenTree> {
    if let Some(done) = &nested[k] {
        return done.clone();
    }
    // While its callees are copied, item `k` stands for itself: a sibling naming it back (a
    // cycle) is called by its name, as before.
    nested[k] = Some(items[k].clone());
    let mut item = items[k].clone();
    if !callees[k].is_empty() {
        let mut inner: TokenStream = callees[k]
            .iter()
            .flat_map(|&callee| undocumented(with_callees(callee, (items, callees), nested)))
            .collect();
        if let Some(TokenTree::Group(body)) = item.last_mut() {
            inner.extend(body.stream());
            let mut group = Group::new(Delimiter::Brace, inner);
            group.set_span(body.span());
            *body = group;
        }
    }
    nested[k] = Some(item.clone());
    item
}

/// `item` without its `#[doc ..]` attributes: a function in a body has no documentation.
fn undocumented(item: Vec<TokenTree>) -> Vec<TokenTree> {
    let doc = |token: Option<&TokenTree>| match token {
        Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Bracket => {
            let first = group.stream().into_iter().next();
            matches!(first, Some(TokenTree::Ident(ident)) if ident == "doc")
        }
        _ => false,
    };
    let mut out = Vec::with_capacity(item.len());
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

/// The expansion's items: each ends at a brace group (a body) or a `;` at the top level.
fn split(expanded: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut items = Vec::new();
    let mut item: Vec<TokenTree> = Vec::new();
    for token in expanded {
        let ends = match &token {
            TokenTree::Group(group) => group.delimiter() == Delimiter::Brace,
            TokenTree::Punct(punct) => punct.as_char() == ';',
            _ => false,
        };
        item.push(token);
        if ends {
            items.push(std::mem::take(&mut item));
        }
    }
    if !item.is_empty() {
        items.push(item);
    }
    items
}

/// The name of `item` if it is a function: the identifier after its `fn`.
fn fn_name(item: &[TokenTree]) -> Option<String> {
    let at = item
        .iter()
        .position(|token| matches!(token, TokenTree::Ident(ident) if ident == "fn"))?;
    match item.get(at + 1) {
        Some(TokenTree::Ident(name)) => Some(crate::names::text(name)),
        _ => None,
    }
}

/// The body of a function item: its last token, a brace group.
fn body(item: &[TokenTree]) -> Option<&Group> {
    match item.last() {
        Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace => Some(group),
        _ => None,
    }
}

/// The items of `index` whose names `tokens` holds, in groups too (a call, or a function passed
/// as a value).
fn mentions(tokens: TokenStream, index: &HashMap<&str, usize>, found: &mut BTreeSet<usize>) {
    let mut stack = vec![tokens];
    while let Some(tokens) = stack.pop() {
        for token in tokens {
            match token {
                TokenTree::Ident(ident) => {
                    if let Some(&k) = index.get(crate::names::text(&ident).as_str()) {
                        found.insert(k);
                    }
                }
                TokenTree::Group(group) => stack.push(group.stream()),
                _ => {}
            }
        }
    }
}
