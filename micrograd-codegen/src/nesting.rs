//! How deep the user's code may nest: checked on the tokens, before `syn` reads them.
//!
//! `syn`'s parser, its printer and every visitor recurse once per nested parenthesis, bracket
//! or block, about 20 KiB a level in a debug build (proc macros are built so): expressions
//! nested 450 deep overflowed rustc's 8 MiB stack, which aborts rustc itself. Long chains
//! (`a + b + c + ..`) nest without brackets and are walked in loops instead (`spine`).

use proc_macro2::{Span, TokenStream, TokenTree};

/// The deepest nesting of brackets, parentheses and braces read: half of what an 8 MiB stack
/// was measured to take, far beyond what people write.
pub const MAX_DEPTH: usize = 256;

/// The opening delimiter of the first group nested deeper than [`MAX_DEPTH`], if any; a loop
/// over the token trees with a stack of its own.
pub fn too_deep(item: &TokenStream) -> Option<Span> {
    let mut stack = vec![(item.clone().into_iter(), 0usize)];
    while let Some((tokens, depth)) = stack.last_mut() {
        let depth = *depth;
        match tokens.next() {
            Some(TokenTree::Group(group)) => {
                if depth + 1 > MAX_DEPTH {
                    return Some(group.span_open());
                }
                stack.push((group.stream().into_iter(), depth + 1));
            }
            Some(_) => {}
            None => {
                stack.pop();
            }
        }
    }
    None
}
