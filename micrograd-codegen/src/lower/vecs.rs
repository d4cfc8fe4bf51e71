//! `vec![fill; n]` and `vec![a, b, c]` bound by `let`: local arrays whose entries live on the
//! heap, as `f` has them, of a length known at run time. They lower as `[0.0; N]` and `[a, b]`
//! do, typed [`Ty::Array`] with `vec`, so the generated code allocates each where `f` does, and
//! its adjoint (and tangent) is a `Vec` of the same length: kept out of loops, a `Vec` is never
//! recorded, so nothing else is allocated.
//!
//! Before: `let mut v = vec![0.0; x.len() + 1];`
//! After: `let n = x.len() + 1; let mut v = ::std::vec![0.0; n];` (and `d_v` in the sweep)

use super::Lowerer;
use super::expr::Value;
use crate::ir::{IntExpr, Stmt, Ty};
use syn::parse::ParseStream;
use syn::spanned::Spanned;
use syn::{Expr, Token};

/// What a `vec!` holds.
pub(super) enum Body {
    /// `vec![fill; len]`
    Repeat(Box<(Expr, Expr)>),
    /// `vec![a, b, c]`
    List(Vec<Expr>),
}

/// Whether `mac` is std's `vec!` (`vec!`, `std::vec!`, `alloc::vec!`).
pub(super) fn is_vec(mac: &syn::Macro) -> bool {
    let names: Vec<String> = mac
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    matches!(
        names
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
        ["vec"] | ["std" | "alloc", "vec"]
    )
}

/// The error for a macro the language leaves out here.
pub(super) fn refusal(mac: &syn::Macro) -> String {
    if is_vec(mac) {
        return "`vec!` is supported as the value of a `let` outside loops: `let mut v = vec![0.0; n];`; declare it before the loop and overwrite its entries there, or use a local array of constant length, `[0.0; N]`, or a literal `[a, b]`".into();
    }
    let name = mac
        .path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    format!(
        "`{name}!` is not supported in `#[differentiable]` functions; they hold arithmetic only, so print or assert around the call instead"
    )
}

/// Parses the tokens of a `vec!`.
pub(super) fn body(input: ParseStream) -> syn::Result<Body> {
    if input.is_empty() {
        return Ok(Body::List(Vec::new()));
    }
    let first: Expr = input.parse()?;
    if input.peek(Token![;]) {
        input.parse::<Token![;]>()?;
        return Ok(Body::Repeat(Box::new((first, input.parse()?))));
    }
    let mut elems = vec![first];
    while !input.is_empty() {
        input.parse::<Token![,]>()?;
        if input.is_empty() {
            break;
        }
        elems.push(input.parse()?);
    }
    Ok(Body::List(elems))
}

impl Lowerer<'_> {
    /// `let name = vec![..];`
    pub(super) fn vec_local(&mut self, name: &str, span: proc_macro2::Span, mac: &syn::Macro) {
        // Inside a loop each iteration would have its own `Vec`, which the reverse sweep would
        // have to record.
        if self.loops > 0 || !self.frames.is_empty() {
            self.errors.at(mac.path.span(), refusal(mac));
            return self.poison_name(name, span);
        }
        match mac.parse_body_with(body) {
            Ok(Body::Repeat(parts)) => {
                let (fill, len) = &*parts;
                self.array(name, span, (fill, len), true);
            }
            Ok(Body::List(elems)) => {
                let elems: Vec<&Expr> = elems.iter().collect();
                match self.array_of(&elems, Some(name), span, true) {
                    Value::Seq(view) => self.bind(name, view.base),
                    _ => self.poison_name(name, span),
                }
            }
            Err(error) => {
                self.errors.at(error.span(), error);
                self.poison_name(name, span);
            }
        }
    }

    /// `len` as a variable of its own, unless it is a literal or a constant: the sweep declares
    /// the adjoint with the length `f` allocated, whatever the names in `len` hold by then.
    pub(super) fn fixed(&mut self, len: IntExpr, span: proc_macro2::Span) -> IntExpr {
        if matches!(len, IntExpr::Lit { .. } | IntExpr::Extern(_)) {
            return len;
        }
        let dst = self.named("len", Ty::Int, span);
        self.emit(Stmt::IntLet { dst, expr: len });
        IntExpr::Var(dst)
    }
}
