//! `vec![fill; n]` and `vec![a, b, c]` bound by `let`: local arrays whose entries live on the
//! heap, as `f` has them, of a length known at run time. They lower as `[0.0; N]` and `[a, b]`
//! do, typed [`Ty::local`] with `vec`, so the generated code allocates each where `f` does, and
//! its adjoint (and tangent) is a `Vec` of the same length: kept out of loops, a `Vec` is never
//! recorded, so nothing else is allocated. Inside a loop, a `vec!` of a constant length is a
//! local array (`vec` unset): what the body can do with it, an array does the same.
//!
//! Before: `let mut v = vec![0.0; x.len() + 1];`
//! After: `let n = x.len() + 1; let mut v = ::std::vec![0.0; n];` (and `d_v` in the sweep)
//!
//! Before, in a loop: `let v = vec![a * k, b];` After: `let mut v = [0.0; 2]; v[0] = ..; v[1] = b;`

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
        return "`vec!` is supported as the value of a `let`: `let v = vec![a, b];` or `let mut v = vec![0.0; n];`, then use `v` or `&v`".into();
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

/// The error for a `vec!` of a run-time length inside a loop.
const IN_LOOP: &str = "a `vec!` inside a loop takes a literal or a constant length, `vec![0.0; 3]` or `vec![a, b]`; declare one of a run-time length before the loop, `let mut v = vec![0.0; n];`, and overwrite its entries there";

/// Whether `len` is an integer literal or names a constant (`N`, `LEN`): a length an array
/// can take.
fn is_constant_length(len: &Expr) -> bool {
    match len {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(_),
            ..
        }) => true,
        Expr::Path(path) => path
            .path
            .segments
            .last()
            .is_some_and(|s| super::paths::is_constant(&s.ident.to_string())),
        Expr::Paren(inner) => is_constant_length(&inner.expr),
        _ => false,
    }
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

/// The expressions a `vec!` holds (its fill and length, or its entries), which `syn` leaves as
/// tokens: the syntactic scans read them as they read an array literal's. Empty for any other
/// macro and for a body that does not parse (the lowering reports that).
pub(super) fn exprs(mac: &syn::Macro) -> Vec<Expr> {
    if !is_vec(mac) {
        return Vec::new();
    }
    match mac.parse_body_with(body) {
        Ok(Body::Repeat(parts)) => {
            let (fill, len) = *parts;
            vec![fill, len]
        }
        Ok(Body::List(elems)) => elems,
        Err(_) => Vec::new(),
    }
}

impl Lowerer<'_> {
    /// `let name = vec![..];`
    pub(super) fn vec_local(&mut self, name: &str, span: proc_macro2::Span, mac: &syn::Macro) {
        let in_loop = self.loops > 0 || !self.frames.is_empty();
        match mac.parse_body_with(body) {
            // Inside a loop each iteration has its own `Vec`, which the reverse sweep would
            // have to record; one of a constant length is a local array in all but its type.
            Ok(Body::Repeat(parts)) => {
                let (fill, len) = &*parts;
                if in_loop && !is_constant_length(len) {
                    self.errors.at(len.span(), IN_LOOP);
                    return self.poison_name(name, span);
                }
                self.array(name, span, (fill, len), !in_loop);
            }
            Ok(Body::List(elems)) => {
                let elems: Vec<&Expr> = elems.iter().collect();
                // `vec![(x, y), ..]`: an array of tuples, of a literal length, held as one.
                let value = match super::pattern::tuples(&elems) {
                    Some(tuples) => self.rows_of(&tuples, Some(name), span, true),
                    None => self.array_of(&elems, Some(name), span, !in_loop),
                };
                match value {
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
