//! `for` over the items, chunks and windows of slices, arrays, array literals, views and
//! sub-slices, in either direction, and over reversed and stepped ranges: each is rewritten
//! into the integer-range loop [`loops`](super::loops) lowers, with the items bound as loads at
//! the top of the body.
//!
//! Before: `for (i, (a, b)) in w.iter().zip(x).enumerate() { s += a * b * i as f64; }`
//! After: `for k in 0..w.len().min(x.len()) { let i = k; let a = w[k]; let b = x[k]; .. }`
//!
//! Before: `for &v in w.iter().rev() { .. }` After: `for k in 0..w.len() { let v = w[w.len() - 1 - k]; .. }`

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
    /// The items of the inner shape, last first (`rev`).
    Rev(Box<Shape>),
    /// Every `k`-th item of the inner shape from the first (`step_by(k)`), and `k`.
    Step(Box<Shape>, Expr),
}

/// A `for` rewritten over an integer range.
pub(super) struct Rewrite {
    /// The loop over `0..n`.
    pub for_loop: ExprForLoop,
    /// Array literals and sub-slices the loop runs over (`for x in [a, b]`,
    /// `for x in &w[1..n]`), each to be bound to its name before the loop: Rust evaluates them
    /// once, before the first iteration.
    pub hoisted: Vec<(syn::Ident, Expr)>,
}

/// The `for` rewritten as a loop over an integer range, `None` when `for_loop` already is one
/// or is not a form this knows, and `Err` with a span and message for a pattern that does not
/// fit the items.
pub(super) fn rewrite(
    for_loop: &ExprForLoop,
    depth: usize,
) -> Option<Result<Rewrite, (Span, &'static str)>> {
    let span = for_loop.expr.span();
    let k = crate::names::fresh_in_loop(
        for_loop,
        &format!("{}{depth}", crate::names::lowered::INDEX),
        span,
    );
    if let Some(out) = over_range(for_loop, &k) {
        let hoisted = Vec::new();
        return Some(Ok(Rewrite {
            for_loop: out,
            hoisted,
        }));
    }
    let mut shape = shape(&for_loop.expr)?;
    let mut hoisted = Vec::new();
    hoist(&mut shape, for_loop, depth, &mut hoisted);
    let len = length(&shape)?;
    let mut head = Vec::new();
    let at: Expr = parse_quote_spanned!(span=> #k);
    if let Err(e) = bind(&for_loop.pat, &shape, &at, &mut head) {
        return Some(Err(e));
    }
    let mut out = for_loop.clone();
    out.expr = Box::new(parse_quote_spanned!(span=> 0..#len));
    out.pat = Box::new(parse_quote_spanned!(span=> #k));
    head.append(&mut out.body.stmts);
    out.body.stmts = head;
    Some(Ok(Rewrite {
        for_loop: out,
        hoisted,
    }))
}

/// Names each array literal and sub-slice among the sequences of `shape` (`__mg_items0`,
/// minted to avoid every identifier of the loop), to be bound before the loop.
fn hoist(
    shape: &mut Shape,
    for_loop: &ExprForLoop,
    depth: usize,
    out: &mut Vec<(syn::Ident, Expr)>,
) {
    match shape {
        Shape::Elem(e) | Shape::Part(e, ..) => {
            if let Expr::Array(_) | Expr::Index(_) = e {
                let base = format!("{}{depth}_{}", crate::names::lowered::ITEMS, out.len());
                let name = crate::names::fresh_in_loop(for_loop, &base, e.span());
                out.push((name.clone(), e.clone()));
                *e = parse_quote_spanned!(name.span()=> #name);
            }
        }
        Shape::Pair(a, b) => {
            hoist(a, for_loop, depth, out);
            hoist(b, for_loop, depth, out);
        }
        Shape::Rev(inner) | Shape::Step(inner, _) => hoist(inner, for_loop, depth, out),
        Shape::Index => {}
    }
}

/// How many items `shape` has: the fewest of its sequences (`zip` stops at the shorter).
fn length(shape: &Shape) -> Option<Expr> {
    let mut lens = Vec::new();
    lengths(shape, &mut lens);
    lens.into_iter()
        .reduce(|a, b| parse_quote_spanned!(a.span()=> #a.min(#b)))
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

/// The items of `expr`: a name (`w`) or a path (`m::W`), a struct's field (`p.w`) or a sub-slice (`w[a..b]`),
/// `w.iter()`, and `.copied()`, `.cloned()`, `.enumerate()`, `.zip(x)` after them.
fn shape(expr: &Expr) -> Option<Shape> {
    match expr {
        // A name, or a path to a `const` array (`weights::ALL`).
        Expr::Path(path) if path.qself.is_none() => Some(Shape::Elem(expr.clone())),
        // A sub-slice `w[a..b]`, or a row of data `rows[i]`.
        Expr::Index(_) => Some(Shape::Elem(expr.clone())),
        // A field of a parameter struct, `p.layer.w`.
        Expr::Field(_) if super::fields::chain(expr).is_some() => Some(Shape::Elem(expr.clone())),
        Expr::Array(array) if !array.elems.is_empty() => Some(Shape::Elem(expr.clone())),
        Expr::Reference(r) if r.mutability.is_none() => match shape(&r.expr)? {
            elem @ Shape::Elem(_) => Some(elem),
            _ => None,
        },
        Expr::Paren(p) => shape(&p.expr),
        Expr::MethodCall(call) => {
            let method = call.method.to_string();
            let args: Vec<&Expr> = call.args.iter().collect();
            match (method.as_str(), args.as_slice()) {
                ("iter" | "into_iter", []) => match shape(&call.receiver)? {
                    elem @ Shape::Elem(_) => Some(elem),
                    _ => None,
                },
                ("copied" | "cloned", []) => shape(&call.receiver),
                // `w.iter().skip(k)` is `w[k..]`, `take(k)` is `w[..k]`, with `k` at most the
                // length, as the adaptors stop there rather than panic.
                ("skip" | "take", [k]) => match shape(&call.receiver)? {
                    Shape::Elem(e) => {
                        let span = call.method.span();
                        let n: Expr = parse_quote_spanned!(span=> (#k).min((&#e).len()));
                        Some(Shape::Elem(match method.as_str() {
                            "skip" => parse_quote_spanned!(span=> (&#e)[#n..]),
                            _ => parse_quote_spanned!(span=> (&#e)[..#n]),
                        }))
                    }
                    _ => None,
                },
                ("rev", []) => Some(Shape::Rev(Box::new(shape(&call.receiver)?))),
                ("step_by", [k]) => {
                    Some(Shape::Step(Box::new(shape(&call.receiver)?), (*k).clone()))
                }
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
        Shape::Rev(inner) => lengths(inner, out),
        // ceil(n / k) without overflow: (n - 1) / k + 1, or 0 for n = 0; a `k` of 0 panics,
        // as `step_by(0)` does.
        Shape::Step(inner, k) => {
            if let Some(n) = length(inner) {
                let some: Expr = parse_quote_spanned!(k.span()=> (#n).min(1));
                out.push(parse_quote_spanned!(k.span()=> (#n - #some) / (#k) + #some));
            }
        }
    }
}

/// Whether the items of `shape` are elements (which `&name` binds by value).
fn is_elem(shape: &Shape) -> bool {
    match shape {
        Shape::Elem(_) => true,
        Shape::Rev(inner) | Shape::Step(inner, _) => is_elem(inner),
        _ => false,
    }
}

/// `let` statements binding `pat` to the item of `shape` at position `k`.
fn bind(
    pat: &Pat,
    shape: &Shape,
    k: &Expr,
    out: &mut Vec<syn::Stmt>,
) -> Result<(), (Span, &'static str)> {
    if let Shape::Rev(inner) = shape {
        // Reversed, the k-th item is the inner shape's (n - 1 - k)-th; `k < n`, so the
        // subtraction stays at zero or above.
        let n = length(inner).ok_or((pat.span(), "bind each item to a name, `&name` or `_`"))?;
        let at: Expr = parse_quote_spanned!(k.span()=> (#n - 1 - #k));
        return bind(pat, inner, &at, out);
    }
    if let Shape::Step(inner, step) = shape {
        let at: Expr = parse_quote_spanned!(k.span()=> (#k * (#step)));
        return bind(pat, inner, &at, out);
    }
    let pat = match pat {
        Pat::Reference(r) if is_elem(shape) => &*r.pat,
        Pat::Paren(p) => &*p.pat,
        other => other,
    };
    let span = pat.span();
    match (pat, shape) {
        (Pat::Wild(_), _) => {}
        (Pat::Ident(_), Shape::Index) => out.push(parse_quote_spanned!(span=> let #pat = #k;)),
        // Borrowed, as the item is: a row of a sequence of rows is a view of it, not a copy.
        (Pat::Ident(_), Shape::Elem(e)) => {
            out.push(parse_quote_spanned!(span=> let #pat = &#e[#k];))
        }
        (Pat::Ident(_), Shape::Part(e, method, n)) => out.push(match method.as_str() {
            "chunks" => parse_quote_spanned!(span=>
                let #pat = &#e[#k * (#n)..(#k * (#n) + (#n)).min(#e.len())];),
            "chunks_exact" => parse_quote_spanned!(span=>
                let #pat = &#e[#k * (#n)..#k * (#n) + (#n)];),
            _ => parse_quote_spanned!(span=> let #pat = &#e[#k..#k + (#n)];),
        }),
        // Data of tuples or arrays (`for &(x, y) in data`), taken apart by the `let`.
        (Pat::Tuple(_) | Pat::Slice(_), Shape::Elem(e)) => {
            out.push(parse_quote_spanned!(span=> let #pat = #e[#k];))
        }
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
