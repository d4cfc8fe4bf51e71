//! Dropping resets of adjoint entries that nothing reads again.
//!
//! `d_h[k] = 0.0` follows the read of `d_h[k]` where the forward sweep stored `h[k]`: an
//! earlier value of the entry has an adjoint of its own. When the array's adjoint is declared in
//! the block (`let mut d_h = [0.0; 16];`, fresh for each data point of a fused loop), and no
//! later statement of that block reads it, the reset only costs a store per entry:
//!
//! ```text
//! for k in (0..16).rev() {
//!     let d_t9 = d_h2[k];
//!     d_h2[k] = 0.0;      // dropped: the other iterations read d_h2[k'] with k' != k
//!     ..
//! }
//! ```
//!
//! Inside a loop the later iterations run the statements before the reset again, so a reset
//! there goes only when every read of the array in the loop body is `let d_v = d_h[k]` at the
//! loop's own index `k`, which each iteration has to itself.

use super::{Rev, evaluated};
use crate::diff::expr::Expr;
use crate::ir::{Block, IntExpr, LoopId, LoopKind, Stmt, VarId};
use std::collections::HashMap;

/// Removes the dead resets of `rev`; `body` is the forward body, for the loops' indices.
pub fn drop_dead_resets(rev: &mut Vec<Rev>, body: &Block) {
    let mut indices = HashMap::new();
    range_indices(body, &mut indices);
    super::each_block_mut(rev, None, true, &mut |block, _| {
        // An array only ever reset would be a `let mut` that nothing writes.
        let declared: Vec<VarId> = block
            .iter()
            .filter_map(|s| match s {
                Rev::ZeroArray(array) if added_to(block, *array) => Some(*array),
                _ => None,
            })
            .collect();
        for array in declared {
            drop_in(block, array, false, None, &indices);
        }
    });
}

/// The index of each range loop, by loop.
fn range_indices(block: &Block, indices: &mut HashMap<LoopId, VarId>) {
    crate::ir::walk(block, &mut |stmt| {
        if let Stmt::Loop(the_loop) = stmt
            && let LoopKind::Range {
                index: Some(index), ..
            } = &the_loop.kind
        {
            indices.insert(the_loop.id, *index);
        }
    });
}

/// Drops `array`'s dead resets in `code`, last statement first. `read_later`: a statement
/// after `code` reads the array. `own_index`: `code` is the body of a loop whose index is
/// this, and whose iterations read only their own entry (at that index).
fn drop_in(
    code: &mut Vec<Rev>,
    array: VarId,
    mut read_later: bool,
    own_index: Option<VarId>,
    indices: &HashMap<LoopId, VarId>,
) {
    for i in (0..code.len()).rev() {
        match &mut code[i] {
            Rev::ZeroElem(a, index) if *a == array => {
                let own = own_index.is_none_or(|k| *index == IntExpr::Var(k));
                if !read_later && own {
                    code.remove(i);
                    continue;
                }
            }
            Rev::Loop { the_loop, body } if own_index.is_none() => {
                let index = indices
                    .get(the_loop)
                    .copied()
                    .filter(|k| reads_own_entry(body, array, *k));
                if let Some(k) = index {
                    drop_in(body, array, read_later, Some(k), indices);
                }
            }
            Rev::Guard { body, .. } | Rev::Gate { body, .. } => {
                drop_in(body, array, read_later, own_index, indices)
            }
            Rev::If {
                then, otherwise, ..
            } => {
                drop_in(then, array, read_later, own_index, indices);
                drop_in(otherwise, array, read_later, own_index, indices);
            }
            _ => {}
        }
        read_later |= reads(std::slice::from_ref(&code[i]), array);
    }
}

/// Whether every read of `array` in `body` is `let d_v = d_array[k]`, none nested deeper.
fn reads_own_entry(body: &[Rev], array: VarId, k: VarId) -> bool {
    body.iter().all(|stmt| match stmt {
        Rev::Let {
            expr: Expr::AdjLoad(a, IntExpr::Var(index)),
            ..
        } if *a == array => *index == k,
        stmt => !reads(std::slice::from_ref(stmt), array),
    })
}

/// Whether `code` adds into `array`'s adjoint.
fn added_to(code: &[Rev], array: VarId) -> bool {
    let mut found = false;
    super::walk(code, &mut |stmt| {
        found |= matches!(stmt, Rev::AddElem(a, ..) if *a == array);
    });
    found
}

/// Whether `code` reads an entry of `array`'s adjoint, or hands it to a pullback.
fn reads(code: &[Rev], array: VarId) -> bool {
    let mut found = false;
    super::walk(code, &mut |stmt| {
        if let Some(expr) = evaluated(stmt) {
            expr.visit_adjoint_arrays(&mut |a| found |= a == array);
        }
        if let Rev::Pullback { args, .. } = stmt {
            found |= args
                .iter()
                .any(|arg| matches!(arg, crate::ir::Arg::Slice { array: a, .. } if *a == array));
        }
    });
    found
}
