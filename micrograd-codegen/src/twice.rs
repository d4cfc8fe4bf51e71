//! `#[differentiable]` written twice on one function: the first expansion sees the second
//! among the function's attributes, and both would write `f_grad` and its siblings (rustc's
//! "the name `f_grad` is defined multiple times", once per generated function, at the
//! attributes). The first takes the second off and says so at it, once.
//!
//! Before: `#[differentiable] #[differentiable(hvp)] fn f(x: f64) -> f64 { x * x }`
//! After: one error at `#[differentiable(hvp)]`, and `f` expanded by the first attribute.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

/// `item` without the `#[differentiable]` attributes among its leading ones, and the span of
/// the first taken off.
pub fn strip(item: TokenStream) -> (TokenStream, Option<Span>) {
    let trees: Vec<TokenTree> = item.into_iter().collect();
    let mut kept = Vec::with_capacity(trees.len());
    let mut found = None;
    let mut at = 0;
    while at < trees.len() {
        match (&trees[at], trees.get(at + 1)) {
            (TokenTree::Punct(hash), Some(TokenTree::Group(group)))
                if hash.as_char() == '#' && group.delimiter() == Delimiter::Bracket =>
            {
                if is_differentiable(group.stream()) {
                    found.get_or_insert(group.span());
                } else {
                    kept.extend(trees[at..at + 2].iter().cloned());
                }
                at += 2;
            }
            _ => break,
        }
    }
    kept.extend(trees[at..].iter().cloned());
    (kept.into_iter().collect(), found)
}

/// Whether an attribute's tokens are `differentiable`, `differentiable(..)` or a path ending
/// in it (`micrograd_runtime::differentiable`).
fn is_differentiable(attr: TokenStream) -> bool {
    let mut last = None;
    for tree in attr {
        match tree {
            TokenTree::Ident(ident) => last = Some(ident.to_string()),
            TokenTree::Punct(punct) if punct.as_char() == ':' => {}
            TokenTree::Group(group) if group.delimiter() == Delimiter::Parenthesis => break,
            _ => return false,
        }
    }
    last.as_deref() == Some("differentiable")
}

/// The error at the attribute taken off.
pub fn error(span: Span) -> TokenStream {
    let mut errors = crate::error::Errors::default();
    errors.at(
        span,
        "`#[differentiable]` is on this function twice, and each would write its `f_grad` and siblings; write it once, with the options of both: `#[differentiable(hvp, jacobian)]`",
    );
    errors.to_compile_errors()
}
