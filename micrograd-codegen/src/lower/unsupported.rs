//! What the language leaves out, and what to write instead.

use super::Lowerer;
use syn::Expr;
use syn::spanned::Spanned;

impl Lowerer<'_> {
    pub(super) fn unsupported(&mut self, expr: &Expr) {
        let (span, message): (proc_macro2::Span, &str) = match expr {
            Expr::Closure(closure) => (
                closure.inputs_begin.span,
                "closures are supported as arguments of iterator adaptors (`.map(|x| ..)`, `.fold(init, |acc, x| ..)`) and bound by `let` then called (`let sq = |t: f64| t * t; sq(x)`), not returned or passed on; write a separate `#[differentiable]` function and call it",
            ),
            Expr::Unsafe(block) => (
                block.unsafe_token.span,
                "`unsafe` blocks are not supported in `#[differentiable]` functions; write the arithmetic without `unsafe`",
            ),
            // Loops as values other than `let x = loop { .. }` reach here.
            Expr::While(w) => (
                w.while_token.span,
                "a `while` loop has no value; use it as a statement, or `let x = loop { .. break value; };`",
            ),
            Expr::Loop(l) => (
                l.loop_token.span,
                "this `loop` is not supported here; bind its value with `let x = loop { .. };` or use it as a statement",
            ),
            Expr::Let(l) => {
                self.errors.at(l.let_token.span, "`if let` and `while let` are not supported in `#[differentiable]` functions; test a condition and read the value in the body: `while i < w.len() { let v = w[i]; .. }`");
                // The names it would bind are read in the body: they report nothing more.
                return self.poison(&l.pat);
            }
            Expr::Break(b) => (
                b.break_token.span,
                "`break` is supported as a statement, or in a block, `if` or `match` whose value is bound or assigned whole, not inside an expression; bind that first: `let v = if c { break; } else { a }; y = v * 2.0;`",
            ),
            Expr::Continue(c) => (
                c.continue_token.span,
                "`continue` is supported as a statement, or in a block, `if` or `match` whose value is bound or assigned whole, not inside an expression; bind that first: `let v = if c { continue; } else { a }; y = v * 2.0;`",
            ),
            Expr::Macro(m) => {
                self.errors
                    .at(m.mac.path.span(), super::vecs::refusal(&m.mac));
                return;
            }
            Expr::Async(a) => (
                a.async_token.span,
                "`async` blocks are not supported in `#[differentiable]` functions",
            ),
            Expr::Await(a) => (
                a.await_token.span,
                "`.await` is not supported in `#[differentiable]` functions",
            ),
            Expr::Try(t) => (
                t.question_token.span,
                "`?` is not supported in `#[differentiable]` functions",
            ),
            Expr::Tuple(t) => (
                t.span(),
                "`()` has no value to compute with; a `#[differentiable]` function works on `f64`s, integers, booleans, slices and tuples of them",
            ),
            Expr::Return(r) => (
                r.return_token.span,
                "`return` is supported as a statement, or in a block, `if` or `match` whose value is bound or assigned whole, not inside an expression; bind that first: `let v = if c { return a; } else { b }; let y = v * 2.0;`",
            ),
            Expr::Struct(s) => (
                s.span(),
                "struct literals are not supported in `#[differentiable]` functions",
            ),
            Expr::Repeat(r) => (r.span(), "arrays `[0.0; N]` can only initialize a `let`"),
            Expr::Range(r) => (
                r.span(),
                "ranges can only bound a `for` loop or slice an argument",
            ),
            Expr::Assign(a) => (
                a.eq_token.span,
                "assignments are statements here; end them with `;`",
            ),
            other => (
                other.span(),
                "this expression is not supported in `#[differentiable]` functions",
            ),
        };
        self.errors.at(span, message);
    }
}

/// Whether `base` calls a function the macro generated (`rosen_grad(x, y)`), as `.1` of it does
/// when a gradient is differentiated again.
pub(super) fn second_order(base: &Expr) -> bool {
    let Expr::Call(call) = base else { return false };
    let Expr::Path(path) = &*call.func else {
        return false;
    };
    path.path.segments.last().is_some_and(|segment| {
        let name = segment.ident.to_string();
        ["_grad", "_pullback", "_graph"]
            .iter()
            .any(|suffix| name.ends_with(suffix))
    })
}
