//! Gathering an adjoint's `+=` contributions into the one `let` that declares it.
//!
//! Before:
//! ```text
//! let mut d_a = d_e * b;
//! d_x += d_e;
//! d_a += d_e * c;
//! ```
//! After (where the last contribution was; the sum is then one expression `rebuild` folds):
//! ```text
//! d_x += d_e;
//! let d_a = d_e * b + d_e * c;
//! ```

use super::{MAX_TERMS, writes};
use crate::diff::Rev;
use crate::diff::expr::Expr;
use crate::ir::VarId;
use std::collections::{HashMap, HashSet};

/// Where each adjoint of a block is declared, added to, otherwise written and first read, by
/// statement position.
#[derive(Default)]
struct Uses {
    /// Each `let d_v = ..` with its position, in order.
    declared: Vec<(VarId, usize)>,
    /// The positions of each adjoint's `d_v += ..`.
    adds: HashMap<VarId, Vec<usize>>,
    /// Adjoints written other than by `let` or `+=` (a call's shadow, `=`, nested writes).
    other_writes: HashSet<VarId>,
    /// The first statement reading each scalar adjoint.
    first_read: HashMap<VarId, usize>,
    /// Every statement writing each scalar adjoint.
    written_at: HashMap<VarId, Vec<usize>>,
    /// Every statement writing each adjoint array.
    array_written_at: HashMap<VarId, Vec<usize>>,
}

/// Writes each adjoint declared in `block` with `+=` contributions after it as one `let` of
/// their sum, where its last contribution was, when nothing reads it before and nothing its
/// contributions read changes in between.
pub(super) fn combine_contributions(block: &mut Vec<Rev>) {
    let uses = Uses::of(block);
    let plans: Vec<(VarId, usize, Vec<usize>)> = uses
        .declared
        .iter()
        .filter_map(|&(var, at)| Some((var, at, uses.movable_adds(block, var, at)?)))
        .collect();
    if plans.is_empty() {
        return;
    }
    let mut remove = vec![false; block.len()];
    for (var, at, later) in plans {
        let mut sum = take_expr(&mut block[at]);
        for &p in &later {
            sum = sum + take_expr(&mut block[p]);
        }
        let (last, earlier) = later
            .split_last()
            .expect("internal error: a plan has a contribution");
        remove[at] = true;
        earlier.iter().for_each(|&p| remove[p] = true);
        block[*last] = Rev::Let {
            var,
            expr: sum,
            mutable: false,
        };
    }
    let mut remove = remove.into_iter();
    block.retain(|_| !remove.next().unwrap_or(false));
}

impl Uses {
    fn of(block: &[Rev]) -> Uses {
        let mut uses = Uses::default();
        for (i, stmt) in block.iter().enumerate() {
            reads(
                stmt,
                &mut |v| {
                    uses.first_read.entry(v).or_insert(i);
                },
                &mut |_| {},
            );
            match stmt {
                Rev::Let { var, .. } => uses.declared.push((*var, i)),
                Rev::Add(var, _) => uses.adds.entry(*var).or_default().push(i),
                _ => writes(stmt, &mut |v| {
                    uses.other_writes.insert(v);
                }),
            }
            writes(stmt, &mut |v| uses.written_at.entry(v).or_default().push(i));
            writes_arrays(stmt, &mut |a| {
                uses.array_written_at.entry(a).or_default().push(i)
            });
        }
        uses
    }

    /// The positions of the `+=`s of `var` (declared at `at`) when they can all move into its
    /// `let` at the last of them: nothing else writes `var` or reads it before then, and nothing
    /// the contributions read changes on the way.
    fn movable_adds(&self, block: &[Rev], var: VarId, at: usize) -> Option<Vec<usize>> {
        let later = self.adds.get(&var)?;
        let last = *later.last()?;
        if self.other_writes.contains(&var)
            || later.len() >= MAX_TERMS
            || self.first_read.get(&var).is_some_and(|&r| r <= last)
        {
            return None;
        }
        let movable = std::iter::once(at)
            .chain(later.iter().copied())
            .all(|p| self.unchanged_until(&block[p], p, last));
        movable.then(|| later.clone())
    }

    /// Whether no adjoint or adjoint array that `stmt` (at `from`) reads is written after it, up
    /// to and including `to`.
    fn unchanged_until(&self, stmt: &Rev, from: usize, to: usize) -> bool {
        let changed = |positions: Option<&Vec<usize>>| {
            positions.is_some_and(|p| p.iter().any(|&w| w > from && w <= to))
        };
        let (mut scalars, mut arrays) = (true, true);
        reads(
            stmt,
            &mut |u| scalars &= !changed(self.written_at.get(&u)),
            &mut |a| arrays &= !changed(self.array_written_at.get(&a)),
        );
        scalars && arrays
    }
}

/// Calls `f` on each adjoint array `stmt` (or a statement nested in it) writes.
fn writes_arrays(stmt: &Rev, f: &mut dyn FnMut(VarId)) {
    crate::diff::walk(std::slice::from_ref(stmt), &mut |s| match s {
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
    crate::diff::read_adjoints(std::slice::from_ref(stmt), f, g);
}

/// The expression of a `let` or `+=`, left as `0.0`.
fn take_expr(stmt: &mut Rev) -> Expr {
    match stmt {
        Rev::Let { expr, .. } | Rev::Add(_, expr) => std::mem::replace(expr, Expr::Const(0.0)),
        _ => Expr::Const(0.0),
    }
}
