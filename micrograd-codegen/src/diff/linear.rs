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

mod combine;
mod sum;

use super::Rev;
use super::expr::Expr;
use crate::ir::{Scalar, VarId};
use combine::combine_contributions;
use std::collections::{HashMap, HashSet};
use sum::{linear, rebuild};

/// Sums of more contributions than this stay a chain of `+=` (the expression would nest deep).
const MAX_TERMS: usize = 16;

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
pub(super) fn writes(stmt: &Rev, f: &mut dyn FnMut(VarId)) {
    super::written_adjoints(std::slice::from_ref(stmt), f);
}
