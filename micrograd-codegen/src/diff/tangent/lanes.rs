//! Vector forward mode: `K` tangent programs of one function merged into one sweep that
//! computes `f` once and `K` directional derivatives beside it (ADOL-C's vector mode,
//! num-dual's `DualVec`, with each lane's tangents unrolled as scalars of their own).
//!
//! Each lane is [`transform`] along the same parameters, its tangent parameters its own
//! (`v0_x`, `v1_x`, ..), merged as [`super::columns`] merges its columns: primal statement,
//! then each lane's tangent statements. `f_jacobian` of a function writing its outputs calls
//! it once per `K` columns, where it called `f_jvp` once per column.
//!
//! Before: `let y = a * b;` along `a`, `b` with `K = 2`
//! After: `let y = a * b; let v0_y = v0_a * b + v0_b * a; let v1_y = v1_a * b + v1_b * a;`

use super::columns::{continuing, merge};
use super::transform;
use crate::ir::{Function, Op, Origin, Param, Stmt, VarId};
use std::collections::HashSet;

/// How many directions one sweep carries at most: the primal runs once per `LANES` columns.
/// Eight `f64`s are two AVX registers; measured on ht (BENCHMARKS.md, "Session 13: ht").
pub const LANES: usize = 8;

/// The widths `f_jacobian`'s sweeps are compiled at, widest first: `LANES` while `LANES` or
/// more columns are left, then the narrowest width that holds the rest, so a last chunk of
/// `r` columns runs at most `r - 1` idle lanes (3 for `r = 5`) where a fixed width ran
/// `LANES - r` (ht's 26 columns: 8, 8, 8, 2; BENCHMARKS.md, "Session 15: ht").
pub const WIDTHS: [usize; 4] = [LANES, 4, 2, 1];

/// `f` with `K` tangents of every varying parameter.
pub struct Lanes {
    /// The merged program: each of `f`'s parameters followed by its `K` tangents where it
    /// varies; its results are each lane's tangents of `f`'s, lane after lane.
    pub function: Function,
    /// `f`'s results, bit for bit.
    pub values: Vec<crate::ir::Operand>,
    /// `f`'s parameters.
    pub primals: Vec<VarId>,
    /// For each parameter of `f`, its tangent in each lane (empty where it does not vary).
    pub tangents: Vec<Vec<VarId>>,
    /// The tangent parameters nothing reads.
    pub unread: Vec<VarId>,
    /// How many lanes: the directions one sweep carries.
    pub k: usize,
}

/// `k` tangent programs of `function` along `varying`, merged; `None` where a lane would
/// replace a statement rather than follow it (a call lending an array that has a tangent is
/// replaced by its callee's tangent), which merging cannot share.
pub fn lanes(function: &Function, varying: &HashSet<VarId>, k: usize) -> Option<Lanes> {
    // A parameter struct's tangent fields are each lane's own: not merged here.
    if !function.fields.is_empty() || !function.structs.is_empty() {
        return None;
    }
    let base = (function.vars.len(), function.branches);
    let mut merged: Option<Function> = None;
    let mut tangents = vec![Vec::new(); function.params.len()];
    let mut unread = Vec::new();
    let mut results = Vec::new();
    for lane in 0..k {
        // Each lane continues the ids of the ones before it.
        let start = continuing(function, merged.as_ref());
        let first = start.vars.len();
        let mut program = transform(&start, varying);
        if replaces_calls(&program.function.body) {
            return None;
        }
        // `v0_c` rather than `v_c`: each lane's tangents say which lane they are.
        for info in &mut program.function.vars[first..] {
            if let Origin::Named { name, .. } = &mut info.origin
                && let Some(of) = name.strip_prefix("v_")
            {
                *name = format!("v{lane}_{of}");
            }
        }
        for (of, tangent) in tangents.iter_mut().zip(&program.tangents) {
            of.extend(*tangent);
        }
        unread.extend(program.unread);
        results.extend(program.function.results.iter().cloned());
        merged = Some(match merged {
            None => program.function,
            Some(mut merged) => Function {
                body: merge(
                    std::mem::take(&mut merged.body),
                    program.function.body,
                    base,
                ),
                ..program.function
            },
        });
    }
    let mut merged = merged.unwrap_or_else(|| function.clone());
    merged.params = Vec::new();
    for (param, lanes) in function.params.iter().zip(&tangents) {
        merged.params.push(param.clone());
        let lanes = lanes.iter().map(|&var| Param { var, wrt: false });
        merged.params.extend(lanes);
    }
    merged.results = results;
    Some(Lanes {
        function: merged,
        values: function.results.clone(),
        primals: function.params.iter().map(|p| p.var).collect(),
        tangents,
        unread,
        k,
    })
}

/// Whether a tangent program replaced a call by its callee's tangent (`Pair`).
fn replaces_calls(block: &crate::ir::Block) -> bool {
    let mut found = false;
    crate::ir::walk(block, &mut |stmt| {
        found |= matches!(
            stmt,
            Stmt::Assign {
                op: Op::Call(callee, _),
                ..
            } if callee.pair.is_some()
        );
    });
    found
}
