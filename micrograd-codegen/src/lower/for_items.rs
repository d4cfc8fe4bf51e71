//! `for` over the items, chunks and windows of slices, arrays and views, and over reversed and
//! stepped ranges: each is rewritten into the integer-range loop [`loops`](super::loops) lowers, with the items bound
//! as loads at the top of the body.
//!
//! Before: `for (i, (a, b)) in w.iter().zip(x).enumerate() { s += a * b * i as f64; }`
//! After: `for k in 0..w.len().min(x.len()) { let i = k; let a = w[k]; let b = x[k]; .. }`

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, ExprForLoop, Pat, parse_quote_spanned};

/// What one item of the iterator is, before it meets the loop's pattern.
enum Shape {
    /// The running index (`enumerate`).
    Index,
    /// The element of a slice, array or view named by the expression.
    Elem(Expr),
    /// A view of the slice, array or view named by the expression: `chunks(k)`,
    /// `chunks_exact(k)`, `windows(k)`, with the method's name and `k`.
    Part(Expr, String, Expr),
    /// A pair (`zip`, `enumerate`).
    Pair(Box<Shape>, Box<Shape>),
}

/// The `for` rewritten as a loop over an integer range, `None` when `for_loop` already is one
/// or is not a form this knows, and `Err` with a span and message for a pattern that does not
/// fit the items.
pub(super) fn rewrite(
    for_loop: &ExprForLoop,
    depth: usize,
) -> Option<Result<ExprForLoop, (Span, &'static str)>> {
    let span = for_loop.expr.span();
    let k = crate::names::fresh_in_loop(for_loop, &format!("__mg_k{depth}"), span);
    if let Some(out) = over_range(for_loop, &k) {
        return Some(Ok(out));
    }
    let shape = shape(&for_loop.expr)?;
    let mut lens = Vec::new();
    lengths(&shape, &mut lens);
    let len = lens
        .into_iter()
        .reduce(|a, b| parse_quote_spanned!(span=> #a.min(#b)))?;
    let mut head = Vec::new();
    if let Err(e) = bind(&for_loop.pat, &shape, &k, &mut head) {
        return Some(Err(e));
    }
    let mut out = for_loop.clone();
    out.expr = Box::new(parse_quote_spanned!(span=> 0..#len));
    out.pat = Box::new(parse_quote_spanned!(span=> #k));
    head.append(&mut out.body.stmts);
    out.body.stmts = head;
    Some(Ok(out))
}

/// `(a..b).rev()` or `(a..=b).rev()`: the range.
fn reversed(expr: &Expr) -> Option<&syn::ExprRange> {
    let Expr::MethodCall(call) = expr else {
        return None;
    };
    let Expr::Paren(inner) = &*call.receiver else {
        return None;
    };
    match &*inner.expr {
        Expr::Range(range) if call.method == "rev" && call.args.is_empty() => Some(range),
        _ => None,
    }
}

/// `(a..b).rev()` and `(a..b).step_by(s)` (or `a..=b`) as a counted loop over `k`.
fn over_range(for_loop: &ExprForLoop, k: &syn::Ident) -> Option<ExprForLoop> {
    let span = for_loop.expr.span();
    if let Some((range, step)) = stepped(&for_loop.expr) {
        let (a, b) = (range.start.clone()?, range.end.clone()?);
        // The trip count without a subtraction that could go below zero: `a.min(b)` <= `b`.
        let count: Expr = match range.limits {
            syn::RangeLimits::Closed(_) => {
                parse_quote_spanned!(span=> ((#b) + (#step) - (#a).min((#b) + 1)) / (#step))
            }
            syn::RangeLimits::HalfOpen(_) => {
                parse_quote_spanned!(span=> ((#b) + (#step) - 1 - (#a).min(#b)) / (#step))
            }
        };
        let pat = &for_loop.pat;
        let head: syn::Stmt = parse_quote_spanned!(span=> let #pat = (#a) + #k * (#step););
        let mut out = for_loop.clone();
        out.expr = Box::new(parse_quote_spanned!(span=> 0..#count));
        out.pat = Box::new(parse_quote_spanned!(span=> #k));
        out.body.stmts.insert(0, head);
        return Some(out);
    }
    if let Some(range) = reversed(&for_loop.expr) {
        let (a, b) = (range.start.clone()?, range.end.clone()?);
        let last: Expr = match range.limits {
            syn::RangeLimits::Closed(_) => parse_quote_spanned!(span=> (#a) + (#b) - #k),
            syn::RangeLimits::HalfOpen(_) => parse_quote_spanned!(span=> (#a) + (#b) - 1 - #k),
        };
        let pat = &for_loop.pat;
        let head: syn::Stmt = parse_quote_spanned!(span=> let #pat = #last;);
        let mut out = for_loop.clone();
        out.expr = Box::new(Expr::Range(range.clone()));
        out.pat = Box::new(parse_quote_spanned!(span=> #k));
        out.body.stmts.insert(0, head);
        return Some(out);
    }
    None
}

/// `(a..b).step_by(s)` or `(a..=b).step_by(s)`: the range and the step.
fn stepped(expr: &Expr) -> Option<(&syn::ExprRange, &Expr)> {
    let Expr::MethodCall(call) = expr else {
        return None;
    };
    let Expr::Paren(inner) = &*call.receiver else {
        return None;
    };
    match (&*inner.expr, call.args.first()) {
        (Expr::Range(range), Some(step)) if call.method == "step_by" && call.args.len() == 1 => {
            Some((range, step))
        }
        _ => None,
    }
}

/// The items of `expr`: a name (`w`) or a struct's field (`p.w`), `w.iter()`, and `.copied()`, `.cloned()`,
/// `.enumerate()`, `.zip(x)` after them.
fn shape(expr: &Expr) -> Option<Shape> {
    match expr {
        Expr::Path(path) if path.path.get_ident().is_some() => Some(Shape::Elem(expr.clone())),
        // A field of a parameter struct, `p.layer.w`.
        Expr::Field(_) if super::fields::chain(expr).is_some() => Some(Shape::Elem(expr.clone())),
        Expr::Reference(r) if r.mutability.is_none() => match shape(&r.expr)? {
            elem @ Shape::Elem(_) => Some(elem),
            _ => None,
        },
        Expr::Paren(p) => shape(&p.expr),
        Expr::MethodCall(call) => {
            let method = call.method.to_string();
            let args: Vec<&Expr> = call.args.iter().collect();
            match (method.as_str(), args.as_slice()) {
                ("iter", []) => match shape(&call.receiver)? {
                    elem @ Shape::Elem(_) => Some(elem),
                    _ => None,
                },
                ("copied" | "cloned", []) => shape(&call.receiver),
                ("chunks" | "chunks_exact" | "windows", [size]) => match shape(&call.receiver)? {
                    Shape::Elem(e) => Some(Shape::Part(e, method, (*size).clone())),
                    _ => None,
                },
                ("enumerate", []) => Some(Shape::Pair(
                    Box::new(Shape::Index),
                    Box::new(shape(&call.receiver)?),
                )),
                ("zip", [other]) => Some(Shape::Pair(
                    Box::new(shape(&call.receiver)?),
                    Box::new(shape(other)?),
                )),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The length of each sequence the items come from; the loop runs to the shortest.
fn lengths(shape: &Shape, out: &mut Vec<Expr>) {
    match shape {
        Shape::Index => {}
        Shape::Elem(e) => out.push(parse_quote_spanned!(e.span()=> #e.len())),
        // Counts that never go below zero: `windows` of a shorter slice has none.
        Shape::Part(e, method, k) => out.push(match method.as_str() {
            "chunks" => parse_quote_spanned!(e.span()=> (#e.len() + (#k) - 1) / (#k)),
            "chunks_exact" => parse_quote_spanned!(e.span()=> #e.len() / (#k)),
            _ => parse_quote_spanned!(e.span()=> #e.len() + 1 - (#k).min(#e.len() + 1)),
        }),
        Shape::Pair(a, b) => {
            lengths(a, out);
            lengths(b, out);
        }
    }
}

/// `let` statements binding `pat` to the items of `shape` at index `k`.
fn bind(
    pat: &Pat,
    shape: &Shape,
    k: &syn::Ident,
    out: &mut Vec<syn::Stmt>,
) -> Result<(), (Span, &'static str)> {
    let pat = match pat {
        Pat::Reference(r) if matches!(shape, Shape::Elem(_)) => &*r.pat,
        Pat::Paren(p) => &*p.pat,
        other => other,
    };
    let span = pat.span();
    match (pat, shape) {
        (Pat::Wild(_), _) => {}
        (Pat::Ident(_), Shape::Index) => out.push(parse_quote_spanned!(span=> let #pat = #k;)),
        (Pat::Ident(_), Shape::Elem(e)) => {
            out.push(parse_quote_spanned!(span=> let #pat = #e[#k];))
        }
        (Pat::Ident(_), Shape::Part(e, method, n)) => out.push(match method.as_str() {
            "chunks" => parse_quote_spanned!(span=>
                let #pat = &#e[#k * (#n)..(#k * (#n) + (#n)).min(#e.len())];),
            "chunks_exact" => parse_quote_spanned!(span=>
                let #pat = &#e[#k * (#n)..#k * (#n) + (#n)];),
            _ => parse_quote_spanned!(span=> let #pat = &#e[#k..#k + (#n)];),
        }),
        (Pat::Tuple(t), Shape::Pair(a, b)) if t.elems.len() == 2 => {
            bind(&t.elems[0], a, k, out)?;
            bind(&t.elems[1], b, k, out)?;
        }
        (_, Shape::Pair(..)) => {
            return Err((span, "the items here are pairs: bind them as `(a, b)`"));
        }
        (_, Shape::Part(..)) => {
            return Err((span, "the items here are views: bind each to a name"));
        }
        _ => return Err((span, "bind each item to a name, `&name` or `_`")),
    }
    Ok(())
}
