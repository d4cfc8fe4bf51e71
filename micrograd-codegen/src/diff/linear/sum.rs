//! Adjoint formulas as linear combinations of terms: read into one (`linear`), like terms
//! collected and written back (`rebuild`).
//!
//! Before: `d_e * 3.0 + d_e * b * -12.0 + d_t`. After: `d_e * (3.0 - b * 12.0) + d_t`.

use super::MAX_TERMS;
use crate::diff::expr::Expr;
use crate::ir::{Scalar, VarId};
use std::collections::HashMap;

/// A linear combination `c₁·t₁ + c₂·t₂ + ..` of terms that are not themselves sums or
/// constant multiples.
pub(super) type Lin = Vec<(f64, Expr)>;

/// `expr` as a linear combination, with each adjoint in `scaled` written as its multiple.
pub(super) fn linear(expr: &Expr, scaled: &HashMap<VarId, (f64, VarId)>, scalar: Scalar) -> Lin {
    let term = |e: Expr| vec![(1.0, e)];
    let inner = |e: &Expr| rebuild(linear(e, scaled, scalar), scalar);
    let linear = |e: &Expr| linear(e, scaled, scalar);
    let times = |lin: Lin, k: f64| times(lin, k, scalar);
    let factored = |lin: Lin, wrap: &dyn Fn(Expr) -> Expr| factored(lin, wrap, scalar);
    match expr {
        Expr::Adj(v) => match scaled.get(v) {
            Some(&(c, u)) => vec![(c, Expr::Adj(u))],
            None => term(expr.clone()),
        },
        Expr::Neg(a) => times(linear(a), -1.0),
        Expr::Add(a, b) => [linear(a), linear(b)].concat(),
        Expr::Sub(a, b) => [linear(a), times(linear(b), -1.0)].concat(),
        Expr::Mul(a, b) => match (&**a, &**b) {
            (e, Expr::Const(k)) | (Expr::Const(k), e) => times(linear(e), *k),
            (e, factor) if !factor.reads_adjoints() => factored(linear(e), &|t| t * factor.clone()),
            (factor, e) if !factor.reads_adjoints() => factored(linear(e), &|t| factor.clone() * t),
            _ => term(inner(a) * inner(b)),
        },
        Expr::Div(a, b) if !b.reads_adjoints() => factored(linear(a), &|t| t / (**b).clone()),
        Expr::Div(a, b) => term(inner(a) / inner(b)),
        Expr::Select(test, a, b) => match (&**a, &**b) {
            (Expr::Const(z), e) if *z == 0.0 && !z.is_sign_negative() => {
                factored(linear(e), &|t| {
                    Expr::select((**test).clone(), Expr::Const(0.0), t)
                })
            }
            (e, Expr::Const(z)) if *z == 0.0 && !z.is_sign_negative() => {
                factored(linear(e), &|t| {
                    Expr::select((**test).clone(), t, Expr::Const(0.0))
                })
            }
            _ => term(Expr::select((**test).clone(), inner(a), inner(b))),
        },
        Expr::Call1(f, a) => term(inner(a).call(*f)),
        Expr::Call2(f, a, b) => term(inner(a).call2(*f, inner(b))),
        Expr::Call3(f, a, b, c) => term(inner(a).call3(*f, inner(b), inner(c))),
        Expr::Powi(a, n) => term(inner(a).powi(n.clone())),
        Expr::Pair(a, b) => term(Expr::Pair(Box::new(inner(a)), Box::new(inner(b)))),
        Expr::Var(_)
        | Expr::Const(_)
        | Expr::Seed(_)
        | Expr::Extern(_)
        | Expr::Consts(_)
        | Expr::Int(_)
        | Expr::Load(..)
        | Expr::AdjLoad(..) => term(expr.clone()),
    }
}

/// `lin · k`; a product that overflows or underflows stays a multiplication of the sum.
fn times(lin: Lin, k: f64, scalar: Scalar) -> Lin {
    if k == 1.0 {
        return lin;
    }
    if lin
        .iter()
        .all(|(c, _)| exact_enough(*c, k, scalar.mul(*c, k)))
    {
        lin.into_iter()
            .map(|(c, t)| (scalar.mul(c, k), t))
            .collect()
    } else {
        vec![(1.0, rebuild(lin, scalar) * Expr::Const(k))]
    }
}

/// Whether `product = c · k` keeps the information of `c` and `k` (no overflow, no underflow).
fn exact_enough(c: f64, k: f64, product: f64) -> bool {
    product.is_finite() && (product != 0.0 || c == 0.0 || k == 0.0)
}

/// `c · wrap(t)` when `lin` is the single term `c · t`; otherwise `wrap` of the whole sum.
fn factored(lin: Lin, wrap: &dyn Fn(Expr) -> Expr, scalar: Scalar) -> Lin {
    match <[_; 1]>::try_from(lin) {
        Ok([(c, t)]) => vec![(c, wrap(t))],
        Err(lin) => vec![(1.0, wrap(rebuild(lin, scalar)))],
    }
}

/// The sum `c₁·t₁ + c₂·t₂ + ..` as an expression, like terms collected, in first-seen order;
/// terms that multiply the same adjoint by forward values share it:
/// `d_e * 3.0 - d_e * b * 12.0` is `d_e * (3.0 - b * 12.0)`, whose factor the forward values
/// give before `d_e` is known.
pub(super) fn rebuild(lin: Lin, scalar: Scalar) -> Expr {
    let mut terms: Lin = Vec::with_capacity(lin.len());
    for (c, t) in lin {
        let like = (terms.len() <= MAX_TERMS)
            .then(|| {
                terms
                    .iter_mut()
                    .find(|(d, u)| *u == t && scalar.add(*d, c).is_finite())
            })
            .flatten();
        match like {
            Some((d, _)) => *d = scalar.add(*d, c),
            None => terms.push((c, t)),
        }
    }
    let terms = share_adjoints(terms, scalar);
    let mut terms = terms.into_iter();
    let Some((c, t)) = terms.next() else {
        return Expr::Const(0.0);
    };
    let first = if c < 0.0 && (c == -1.0 || t == Expr::Const(1.0)) {
        -scaled(-c, t)
    } else {
        scaled(c, t)
    };
    terms.fold(first, |sum, (c, t)| {
        if c < 0.0 {
            sum - scaled(-c, t)
        } else {
            sum + scaled(c, t)
        }
    })
}

/// `c · t`, written `t` for 1, `c` alone when `t` is 1, and `d_u * (F * c)` when `t` is an
/// adjoint times forward factors (the factor is ready before the adjoint).
fn scaled(c: f64, t: Expr) -> Expr {
    match t {
        Expr::Const(1.0) => Expr::Const(c),
        t if c == 1.0 => t,
        t => match split_adjoint(&t) {
            Some((u, factor)) if factor != Expr::Const(1.0) => {
                u * Expr::Mul(Box::new(factor), Box::new(Expr::Const(c)))
            }
            _ => t * Expr::Const(c),
        },
    }
}

/// Joins the terms `cᵢ · d_u · Fᵢ` of one adjoint `d_u` (forward factors `Fᵢ`, 1 when absent)
/// into the single term `d_u · (c₁·F₁ + c₂·F₂ + ..)`, where its first one was.
fn share_adjoints(terms: Lin, scalar: Scalar) -> Lin {
    let split: Vec<Option<(Expr, Expr)>> = terms.iter().map(|(_, t)| split_adjoint(t)).collect();
    let shared = shared_adjoints(&split);
    if !shared.contains(&true) {
        return terms;
    }
    // Each term, or where the joined term `k` of `factors` goes.
    let mut out: Vec<Result<(f64, Expr), usize>> = Vec::new();
    let mut factors: Vec<(Expr, Lin)> = Vec::new();
    for (k, (c, t)) in terms.into_iter().enumerate() {
        match &split[k] {
            Some((u, factor)) if shared[k] => match factors.iter_mut().find(|(v, _)| v == u) {
                Some((_, lin)) => lin.push((c, factor.clone())),
                None => {
                    out.push(Err(factors.len()));
                    factors.push((u.clone(), vec![(c, factor.clone())]));
                }
            },
            _ => out.push(Ok((c, t))),
        }
    }
    let mut joined: Vec<Option<(Expr, Lin)>> = factors.into_iter().map(Some).collect();
    out.into_iter()
        .map(|slot| match slot {
            Ok(term) => term,
            Err(k) => {
                let (u, lin) = joined[k]
                    .take()
                    .expect("internal error: each joined term has one place");
                (1.0, u * rebuild(lin, scalar))
            }
        })
        .collect()
}

/// For each term as `split_adjoint` splits it, whether another term multiplies the same adjoint.
fn shared_adjoints(split: &[Option<(Expr, Expr)>]) -> Vec<bool> {
    let count = |u: &Expr| split.iter().flatten().filter(|(v, _)| v == u).count();
    split
        .iter()
        .map(|s| s.as_ref().is_some_and(|(u, _)| count(u) > 1))
        .collect()
}

/// `(d_u, F)` when `t` is the adjoint `d_u` (F = 1) or a product `d_u · F` of it with forward
/// values.
fn split_adjoint(t: &Expr) -> Option<(Expr, Expr)> {
    match t {
        Expr::Adj(_) | Expr::Seed(_) => Some((t.clone(), Expr::Const(1.0))),
        Expr::Mul(a, b) if !b.reads_adjoints() => {
            let (u, factor) = split_adjoint(a)?;
            Some((u, factor * (**b).clone()))
        }
        _ => None,
    }
}
