//! Folding the linear part of the reverse sweep: each adjoint is written once, as the sum of
//! its contributions with like terms collected, and an adjoint that is a copy or a constant
//! multiple of another is written in terms of that one.
//!
//! Before (micrograd's `d += 3.0 * d + (b - a).relu()`, reversed):
//! ```text
//! let d_d_2 = -d_e;
//! let mut d_d_1 = d_d_2;
//! let d_t13 = d_d_2;
//! let d_t10 = d_t13;
//! let d_t12 = d_t13;
//! d_d_1 += d_t10 * 3.0;
//! ```
//! After: `d_d_2`, `d_t13`, `d_t10` and `d_t12` are `-d_e` and `d_d_1` is `d_e * -4.0`, written
//! where they are read.
//!
//! The chain rule applied op by op adds `x + 3.0 * x` as written: a chain of dependent
//! floating-point operations that LLVM may not shorten, since IEEE arithmetic is not
//! associative. `x * 4.0` is one multiply, and the exact derivative rounded once instead of
//! twice. Terms whose coefficients cancel are kept as `x * 0.0`, so infinities and NaNs
//! propagate as before.

use super::Rev;
use super::expr::Expr;
use crate::ir::{Scalar, VarId};
use std::collections::{HashMap, HashSet};

/// Sums of more contributions than this stay a chain of `+=` (the expression would nest deep).
const MAX_TERMS: usize = 16;

/// A linear combination `c₁·t₁ + c₂·t₂ + ..` of terms that are not themselves sums or
/// constant multiples.
type Lin = Vec<(f64, Expr)>;

/// Folds `block` and every block nested in it; `params` are the scalar parameters, whose
/// adjoints the generated function returns.
pub fn fold_linear(rev: &mut Vec<Rev>, params: &HashSet<VarId>, scalar: Scalar) {
    super::each_block_mut(rev, None, false, &mut |block, _| {
        fold_block(block, params, scalar)
    });
}

fn fold_block(block: &mut Vec<Rev>, params: &HashSet<VarId>, scalar: Scalar) {
    combine_contributions(block);
    let last_write = last_writes(block);
    let mut scaled = HashMap::new();
    let mut keep = Vec::with_capacity(block.len());
    for (i, stmt) in block.iter_mut().enumerate() {
        super::walk_mut(std::slice::from_mut(stmt), &mut |s| {
            rewrite(s, &scaled, scalar)
        });
        let copy = match stmt {
            Rev::Let { var, expr, .. }
                if !params.contains(var) && last_write.get(var).is_none_or(|&w| w <= i) =>
            {
                scaled_copy(expr, scalar)
                    .filter(|(_, of)| last_write.get(of).is_none_or(|&w| w < i))
                    .map(|(c, of)| (*var, c, of))
            }
            _ => None,
        };
        if let Some((var, c, of)) = copy {
            scaled.insert(var, (c, of));
        }
        keep.push(copy.is_none());
    }
    let mut keep = keep.into_iter();
    block.retain(|_| keep.next().unwrap_or(true));
}

/// `c · d_u` if `expr` is a copy or a constant multiple of the adjoint `d_u`.
fn scaled_copy(expr: &Expr, scalar: Scalar) -> Option<(f64, VarId)> {
    match linear(expr, &HashMap::new(), scalar).as_slice() {
        [(c, Expr::Adj(u))] => Some((*c, *u)),
        _ => None,
    }
}

/// Rewrites the expression of `stmt` with the adjoints in `scaled` replaced and like terms
/// collected.
fn rewrite(stmt: &mut Rev, scaled: &HashMap<VarId, (f64, VarId)>, scalar: Scalar) {
    let simplify = |expr: &mut Expr| *expr = rebuild(linear(expr, scaled, scalar), scalar);
    match stmt {
        Rev::Let { expr, .. } | Rev::Set(_, expr) | Rev::AddElem(_, _, expr) => simplify(expr),
        Rev::Pullback { seed, .. } => simplify(seed),
        Rev::Add(_, expr) => {
            simplify(expr);
            // `d_a -= d_e * 12.0` rather than `d_a += d_e * -12.0`.
            if let Expr::Mul(term, c) = expr
                && let Expr::Const(k) = **c
                && k < 0.0
            {
                *expr = -(std::mem::replace(&mut **term, Expr::Const(0.0)) * Expr::Const(-k));
            }
        }
        _ => {}
    }
}

/// `expr` as a linear combination, with each adjoint in `scaled` written as its multiple.
fn linear(expr: &Expr, scaled: &HashMap<VarId, (f64, VarId)>, scalar: Scalar) -> Lin {
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
fn rebuild(lin: Lin, scalar: Scalar) -> Expr {
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
    let shared = |k: usize| {
        split[k].as_ref().is_some_and(|(u, _)| {
            split
                .iter()
                .filter(|s| s.as_ref().is_some_and(|(v, _)| v == u))
                .count()
                > 1
        })
    };
    if !(0..terms.len()).any(shared) {
        return terms;
    }
    // Each term, or where the joined term `k` of `factors` goes.
    let mut out: Vec<Result<(f64, Expr), usize>> = Vec::new();
    let mut factors: Vec<(Expr, Lin)> = Vec::new();
    for (k, (c, t)) in terms.into_iter().enumerate() {
        match &split[k] {
            Some((u, factor)) if shared(k) => match factors.iter_mut().find(|(v, _)| v == u) {
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

/// For each adjoint, the last statement of `block` that writes it (nested writes count at
/// the statement holding them).
fn last_writes(block: &[Rev]) -> HashMap<VarId, usize> {
    let mut last = HashMap::new();
    for (i, stmt) in block.iter().enumerate() {
        writes(stmt, &mut |v| {
            last.insert(v, i);
        });
    }
    last
}

/// Calls `f` on each scalar adjoint `stmt` (or a statement nested in it) declares or writes.
fn writes(stmt: &Rev, f: &mut dyn FnMut(VarId)) {
    super::written_adjoints(std::slice::from_ref(stmt), f);
}

/// Calls `f` on each adjoint array `stmt` (or a statement nested in it) writes.
fn writes_arrays(stmt: &Rev, f: &mut dyn FnMut(VarId)) {
    super::walk(std::slice::from_ref(stmt), &mut |s| match s {
        Rev::AddElem(a, ..) | Rev::ZeroElem(a, _) | Rev::ZeroArray(a) => f(*a),
        // A call may write the shadow of any array it is passed.
        Rev::Pullback { args, .. } => args.iter().for_each(|arg| {
            if let crate::ir::Arg::Slice { array, .. } = arg {
                f(*array)
            }
        }),
        _ => {}
    });
}

/// Calls `f` on each scalar adjoint and `g` on each adjoint array `stmt` (or a statement
/// nested in it) reads.
fn reads(stmt: &Rev, f: &mut dyn FnMut(VarId), g: &mut dyn FnMut(VarId)) {
    super::read_adjoints(std::slice::from_ref(stmt), f, g);
}

/// Writes each adjoint declared in `block` with `+=` contributions after it as one `let` of
/// their sum, where its last contribution was, when nothing reads it before and nothing its
/// contributions read changes in between.
fn combine_contributions(block: &mut Vec<Rev>) {
    let mut declared: Vec<(VarId, usize)> = Vec::new();
    let mut adds: HashMap<VarId, Vec<usize>> = HashMap::new();
    let mut other_writes: HashSet<VarId> = HashSet::new();
    let mut first_read: HashMap<VarId, usize> = HashMap::new();
    let mut written_at: HashMap<VarId, Vec<usize>> = HashMap::new();
    let mut array_written_at: HashMap<VarId, Vec<usize>> = HashMap::new();
    for (i, stmt) in block.iter().enumerate() {
        reads(
            stmt,
            &mut |v| {
                first_read.entry(v).or_insert(i);
            },
            &mut |_| {},
        );
        match stmt {
            Rev::Let { var, .. } => declared.push((*var, i)),
            Rev::Add(var, _) => adds.entry(*var).or_default().push(i),
            _ => writes(stmt, &mut |v| {
                other_writes.insert(v);
            }),
        }
        writes(stmt, &mut |v| written_at.entry(v).or_default().push(i));
        writes_arrays(stmt, &mut |a| {
            array_written_at.entry(a).or_default().push(i)
        });
    }
    let changed = |positions: Option<&Vec<usize>>, from: usize, to: usize| {
        positions.is_some_and(|p| p.iter().any(|&w| w > from && w <= to))
    };
    let mut plans = Vec::new();
    for (var, at) in declared {
        let Some(later) = adds.get(&var) else {
            continue;
        };
        let last = *later.last().unwrap_or(&at);
        if other_writes.contains(&var)
            || later.len() >= MAX_TERMS
            || first_read.get(&var).is_some_and(|&r| r <= last)
        {
            continue;
        }
        let movable = std::iter::once(at).chain(later.iter().copied()).all(|p| {
            let (mut scalars, mut arrays) = (true, true);
            reads(
                &block[p],
                &mut |u| scalars &= !changed(written_at.get(&u), p, last),
                &mut |a| arrays &= !changed(array_written_at.get(&a), p, last),
            );
            scalars && arrays
        });
        if movable {
            plans.push((var, at, later.clone()));
        }
    }
    if plans.is_empty() {
        return;
    }
    let mut remove = vec![false; block.len()];
    for (var, at, later) in plans {
        let mut sum = take_expr(&mut block[at]);
        for &p in &later {
            sum = sum + take_expr(&mut block[p]);
        }
        remove[at] = true;
        for &p in &later[..later.len() - 1] {
            remove[p] = true;
        }
        block[later[later.len() - 1]] = Rev::Let {
            var,
            expr: sum,
            mutable: false,
        };
    }
    let mut remove = remove.into_iter();
    block.retain(|_| !remove.next().unwrap_or(false));
}

/// The expression of a `let` or `+=`, left as `0.0`.
fn take_expr(stmt: &mut Rev) -> Expr {
    match stmt {
        Rev::Let { expr, .. } | Rev::Add(_, expr) => std::mem::replace(expr, Expr::Const(0.0)),
        _ => Expr::Const(0.0),
    }
}
