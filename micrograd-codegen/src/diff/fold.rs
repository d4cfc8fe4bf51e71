//! Folding the copy pair that opens a reversed loop iteration.
//!
//! A loop updating `s` reverses into `let d_s_2 = d_s_1; .. d_s_1 = d_s_2; ..`: the exit value's
//! adjoint is the slot's, copied out and back. When nothing writes `d_s_1` in between, or before
//! the last read of `d_s_2`, the two are one variable:
//!
//! Before: `let d_s_2 = d_s_1; d_s_1 = d_s_2; let d_t = d_s_2;`
//! After: `let d_t = d_s_1;`

use super::Rev;
use super::expr::Expr;
use super::needs::BlockId;
use crate::ir::VarId;

/// Folds the copy pairs of every loop body in `rev`.
pub fn fold_copies(rev: &mut Vec<Rev>) {
    super::each_block_mut(rev, None, true, &mut |block, id| {
        if let Some(BlockId::Body(_)) = id {
            while fold_one(block) {}
        }
    });
}

/// Declares each adjoint `mut` exactly when something still writes it after its declaration,
/// so the generated code has no `unused_mut` warning once pairs were folded.
pub fn settle_mutability(rev: &mut [Rev]) {
    let mut written = std::collections::HashSet::new();
    super::walk(rev, &mut |s| {
        if let Rev::Set(v, _) | Rev::Add(v, _) = s {
            written.insert(*v);
        }
    });
    super::walk_mut(rev, &mut |stmt| match stmt {
        Rev::Let { var, mutable, .. } => *mutable = written.contains(var),
        Rev::Zero(var) if !written.contains(var) => {
            *stmt = Rev::Let {
                var: *var,
                expr: Expr::Const(0.0),
                mutable: false,
            };
        }
        _ => {}
    });
}

/// Folds the first foldable pair of `body`; true if it found one.
fn fold_one(body: &mut Vec<Rev>) -> bool {
    for i in 0..body.len() {
        let Rev::Let {
            var: copy,
            expr: Expr::Adj(slot),
            mutable: false,
        } = &body[i]
        else {
            continue;
        };
        let (copy, slot) = (*copy, *slot);
        let Some(j) = body.iter().position(
            |s| matches!(s, Rev::Set(target, Expr::Adj(from)) if *target == slot && *from == copy),
        ) else {
            continue;
        };
        if j < i || body[i + 1..j].iter().any(|s| touches(s, slot)) {
            continue;
        }
        let next_write = body[j + 1..]
            .iter()
            .position(|s| writes(s, slot))
            .map_or(body.len(), |k| k + j + 1);
        let read_after = body[next_write..]
            .iter()
            .enumerate()
            .any(|(k, s)| (k != 0 || s.is_nested()) && reads(s, copy));
        if read_after {
            continue;
        }
        body.remove(j);
        body.remove(i);
        for stmt in body.iter_mut() {
            rename(stmt, copy, slot);
        }
        return true;
    }
    false
}

/// Whether `stmt` (or a statement nested in it) reads or writes the adjoint of `var`.
fn touches(stmt: &Rev, var: VarId) -> bool {
    reads(stmt, var) || writes(stmt, var)
}

fn writes(stmt: &Rev, var: VarId) -> bool {
    let mut found = false;
    super::written_adjoints(std::slice::from_ref(stmt), &mut |v| found |= v == var);
    found
}

fn reads(stmt: &Rev, var: VarId) -> bool {
    let mut found = false;
    super::read_adjoints(
        std::slice::from_ref(stmt),
        &mut |v| found |= v == var,
        &mut |_| {},
    );
    found
}

/// Renames the adjoint `from` to `to` in every expression of `stmt`.
fn rename(stmt: &mut Rev, from: VarId, to: VarId) {
    super::walk_mut(std::slice::from_mut(stmt), &mut |s| {
        if let Some(expr) = s.expr_mut() {
            *expr = std::mem::replace(expr, Expr::Const(0.0))
                .map_adjoints(&|v| if v == from { to } else { v })
        }
    });
}
