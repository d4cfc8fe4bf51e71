//! Skipping reverse code that can only add zeros.
//!
//! The reverse sweep is linear in the adjoints: code whose incoming adjoints are all zero adds
//! only zeros. Two kinds of such code are guarded, when they pop nothing (so the tapes stay in
//! step) and reset no outer adjoint:
//!
//! - a reversed loop: `if d_act != 0.0 { for k in (0..n).rev() { .. } }`;
//! - the rest of a loop body from its first nested loop on, when what it reads from earlier is
//!   a few scalar adjoints: `if d_score != 0.0 { for j in (0..16).rev() { .. } .. }`.
//!
//! A ReLU that is off, or a hinge loss that is satisfied, then costs nothing downstream, as in a
//! careful hand-written backward pass. (Skipping `0 · ∞` leaves 0 where IEEE arithmetic gives NaN.)
//!
//! Where the one adjoint such code reads is a select whose other arm is the constant zero (the
//! pullback of a ReLU, a hinge, `abs`, a clamp's bound), the code is gated on the select's own
//! test of forward values instead, and the select goes ([`Rev::Gate`]):
//!
//! ```text
//! Before: let d_z = if h <= 0.0 { 0.0 } else { d_h }; d_w[j] += d_z * x;
//! After:  if !(h <= 0.0) { let d_z = d_h; d_w[j] += d_z * x; }
//! ```
//!
//! That is the hand-written `if h > 0.0 { .. }`: no select, no test of an adjoint, and the
//! statements of a unit that is off are skipped even when they are straight-line code.

use super::needs::{BlockId, Plan};
use super::{Expr, Rev, Test, evaluated, walk};
use crate::ir::{Arg, LoopId, VarId};
use std::collections::HashSet;

/// At most this many adjoints are tested before a guarded suffix.
const MAX_TESTS: usize = 2;

/// Wraps the guardable loops and loop-body suffixes of `rev` in [`Rev::Guard`].
///
/// The `fused` loop stays as it is: its reversed iterations run inside the forward loop.
pub fn insert_guards(rev: &mut Vec<Rev>, plan: &Plan, fused: Option<LoopId>) {
    super::each_block_mut(rev, None, true, &mut |block, id| {
        guard_block(block, plan, matches!(id, Some(BlockId::Body(_))), fused)
    });
}

fn guard_block(block: &mut Vec<Rev>, plan: &Plan, is_body: bool, fused: Option<LoopId>) {
    for stmt in block.iter_mut() {
        if matches!(stmt, Rev::Loop { the_loop, .. } if Some(*the_loop) != fused)
            && let Some(incoming) = incoming(std::slice::from_ref(stmt), &HashSet::new(), plan)
        {
            let guard = Rev::Guard {
                incoming,
                body: Vec::new(),
            };
            let the_loop = std::mem::replace(stmt, guard);
            if let Rev::Guard { body, .. } = stmt {
                body.push(the_loop);
            }
        }
    }
    // Only a loop body's suffix: at the top level, the partials returned come after it.
    if is_body {
        guard_suffix(block, plan);
        gate_suffix(block, 0, plan);
    }
}

/// Gates `block[p + 1..]` on the test of the select `block[p]` declares, for the first `p` at or
/// after `from` where the rest of the block reads only that adjoint from before it; then the
/// gate's own body likewise.
fn gate_suffix(block: &mut Vec<Rev>, from: usize, plan: &Plan) {
    let found = (from..block.len()).find_map(|p| {
        let (var, test, when, arm) = zero_select(&block[p])?;
        let zeroed = fresh_arrays(&block[..p]);
        let incoming = incoming(&block[p + 1..], &zeroed, plan)?;
        (incoming == [var]).then(|| (p, var, test.clone(), when, arm.clone()))
    });
    let Some((p, var, test, when, arm)) = found else {
        return;
    };
    let mut suffix = block.split_off(p + 1);
    let Some(Rev::Let { mutable, .. }) = block.pop() else {
        unreachable!("internal error: a gate opens with its select");
    };
    // A guard on the same adjoint inside tests again what the gate has decided, but for a
    // zero arriving from downstream, which is rare: it goes.
    if let [Rev::Guard { incoming, body }] = suffix.as_mut_slice()
        && incoming.as_slice() == [var]
    {
        suffix = std::mem::take(body);
    }
    let declaration = Rev::Let {
        var,
        expr: arm,
        mutable,
    };
    let mut body = vec![declaration];
    body.extend(suffix);
    gate_suffix(&mut body, 1, plan);
    block.push(Rev::Gate { test, when, body });
}

/// `let d_v = if test { 0.0 } else { arm };` (or `let mut`, or the arms the other way round),
/// with a test of forward values only: `(v, test, when, arm)`, `arm` being the value where
/// `test` is `when`.
fn zero_select(stmt: &Rev) -> Option<(VarId, &Test, bool, &Expr)> {
    let Rev::Let {
        var,
        expr: Expr::Select(test, then, otherwise),
        ..
    } = stmt
    else {
        return None;
    };
    let zero = |e: &Expr| matches!(e, Expr::Const(c) if c.to_bits() == 0);
    let (when, arm) = match (zero(then), zero(otherwise)) {
        (true, false) => (false, &**otherwise),
        (false, true) => (true, &**then),
        _ => return None,
    };
    (!test.reads_adjoints()).then_some((*var, &**test, when, arm))
}

/// Guards `block[p..]`, where `p` is its first nested loop, if the suffix qualifies.
fn guard_suffix(block: &mut Vec<Rev>, plan: &Plan) {
    let Some(p) = block
        .iter()
        .position(|s| matches!(s, Rev::Guard { .. } | Rev::Loop { .. }))
    else {
        return;
    };
    if p == 0 {
        return;
    }
    let zeroed = fresh_arrays(&block[..p]);
    if let Some(incoming) = incoming(&block[p..], &zeroed, plan).filter(|v| v.len() <= MAX_TESTS) {
        let mut suffix = block.split_off(p);
        // The loop that opens the suffix needs no test of its own when it tests nothing new.
        if let Some(Rev::Guard {
            incoming: inner,
            body,
        }) = suffix.first_mut()
            && inner.iter().all(|v| incoming.contains(v))
        {
            let body = std::mem::take(body);
            suffix.splice(0..1, body);
        }
        block.push(Rev::Guard {
            incoming,
            body: suffix,
        });
    }
}

/// Adjoint arrays zeroed in `prefix` and not written there: still all zeros after it.
fn fresh_arrays(prefix: &[Rev]) -> HashSet<VarId> {
    let mut fresh = HashSet::new();
    for stmt in prefix {
        match stmt {
            Rev::ZeroArray(array) => {
                fresh.insert(*array);
            }
            Rev::AddElem(array, ..) | Rev::ZeroElem(array, _) => {
                fresh.remove(array);
            }
            _ => {}
        }
    }
    fresh
}

/// The scalar adjoints `code` reads from outside it, or `None` if it cannot be guarded: it pops,
/// resets an outer adjoint, touches outer adjoint arrays (other than `zeroed`), or reads nothing.
fn incoming(code: &[Rev], zeroed: &HashSet<VarId>, plan: &Plan) -> Option<Vec<VarId>> {
    if pops(code, plan) {
        return None;
    }
    let mut declared = HashSet::new();
    let mut arrays = zeroed.clone();
    declarations(code, &mut declared, &mut arrays);
    let mut reads = Vec::new();
    let mut resets = Vec::new();
    let mut unguardable = false;
    walk(code, &mut |stmt| {
        match stmt {
            // A reset is linear in the adjoints too, so zero when they are, unless its target is
            // not one of them (then skipping would leave a nonzero value in place).
            Rev::Set(var, _) if !declared.contains(var) => resets.push(*var),
            // Zeroing an outer entry is needed whatever the adjoints; adding zeros is not.
            Rev::ZeroElem(array, _) if !arrays.contains(array) => unguardable = true,
            _ => {}
        }
        if let Some(expr) = evaluated(stmt) {
            expr.visit_adjoints(&mut |v| {
                if !declared.contains(&v) && !reads.contains(&v) {
                    reads.push(v);
                }
            });
            expr.visit_adjoint_arrays(&mut |a| unguardable |= !arrays.contains(&a));
        }
    });
    unguardable |= resets.iter().any(|var| !reads.contains(var));
    (!unguardable && !reads.is_empty()).then_some(reads)
}

/// Whether running `code` pops a tape: a loop's records, or the entries a call wrote (whose
/// pullback also carries the written array's adjoint back, zero seed or not).
fn pops(code: &[Rev], plan: &Plan) -> bool {
    let mut any = false;
    walk(code, &mut |stmt| match stmt {
        Rev::Loop { the_loop, .. } => any |= !plan.records[*the_loop].is_empty(),
        Rev::Pullback { args, .. } => any |= args.iter().any(Arg::is_mut),
        _ => {}
    });
    any
}

fn declarations(code: &[Rev], declared: &mut HashSet<VarId>, arrays: &mut HashSet<VarId>) {
    walk(code, &mut |stmt| match stmt {
        Rev::Let { var, .. } | Rev::Zero(var) => {
            declared.insert(*var);
        }
        Rev::ZeroArray(array) => {
            arrays.insert(*array);
        }
        Rev::Pullback { outs, .. } => declared.extend(outs.iter().flatten()),
        _ => {}
    });
}
