//! Iteration-local reverse: a loop that only adds each iteration's contribution into its result
//! runs each iteration's reverse sweep right after that iteration's forward sweep.
//!
//! In a loss summed over data points, the adjoint of the sum is the same for every iteration,
//! and what one iteration adds to the other adjoints depends only on it and on that iteration's
//! own values. When it can be computed before the loop, nothing needs recording: no tape, and
//! no record falling out of cache for a million points.
//!
//! Before: `for s in 0..n { h = ..; total += loss(h); tape.push(h) } .. let d_total = 1.0 / t;
//! for s in (0..n).rev() { let h = tape.pop(); d_w[..] += d_total * .. }`
//! After: `let t = n as f64; let d_total = 1.0 / t; for s in 0..n { h = ..; total += loss(h);
//! d_w[..] += d_total * .. }`
//!
//! The reverse sweep is linear in the adjoints and the order of the iterations' additions is
//! the only thing that changes, so the gradient is the same up to rounding, and the value is
//! the same bit for bit (the forward sweep is untouched; only statements it computes anyway,
//! after the loop, from values known before it, move before it).

use super::{Rev, evaluated, read_adjoints, walk, written_adjoints};
use crate::ir::{Arg, Function, LoopId, LoopKind, Op, Stmt, VarId, VarInfo, Visitor};
use std::collections::{HashMap, HashSet};

/// A loop whose reversed iterations run inside its forward loop.
#[derive(Clone, Debug)]
pub struct Fusion {
    /// The loop, at the top of the function's body.
    pub the_loop: LoopId,
    /// Statements after the loop in the forward sweep that the adjoints below need: their
    /// values move before the loop.
    pub hoisted: Vec<VarId>,
    /// The reverse statements that compute the adjoints the iterations read and add to: the
    /// first `seeds` statements of the sweep, run before the loop. The reversed loop follows.
    pub seeds: usize,
}

/// Fuses the first loop of `function`'s body that qualifies, reordering the top of `rev` as
/// [`Fusion`] describes.
pub fn fuse(function: &Function, vars: &[VarInfo], rev: &mut Vec<Rev>) -> Option<Fusion> {
    function
        .body
        .iter()
        .enumerate()
        .find_map(|(position, stmt)| match stmt {
            Stmt::Loop(the_loop)
                if matches!(the_loop.kind, LoopKind::Range { .. })
                    && the_loop.exit.is_none()
                    && the_loop.count.is_none() =>
            {
                let k = rev.iter().position(
                    |s| matches!(s, Rev::Loop { the_loop: id, .. } if *id == the_loop.id),
                )?;
                let Rev::Loop { body, .. } = &rev[k] else {
                    return None;
                };
                let (outer, arrays) = outer_adjoints(body, vars)?;
                let mut seeds = seed_statements(&rev[..k], outer)?;
                seeds.extend(declarations(&rev[..k], &arrays)?);
                seeds.sort_unstable();
                let hoisted = Available::new(function, position).hoist(&rev[..k], &seeds)?;
                reorder(rev, k, &seeds);
                Some(Fusion {
                    the_loop: the_loop.id,
                    hoisted,
                    seeds: seeds.len(),
                })
            }
            _ => None,
        })
}

/// The scalar adjoints declared outside `body` that it reads or adds to, if each is only read
/// or only added to (so every iteration sees the same values and contributes independently),
/// and the adjoint arrays it touches are its own, or are the shadows of read-only slices or of
/// local arrays declared before the loop, which it only adds to: those local arrays, whose
/// adjoints must then be declared before the loop, come second.
fn outer_adjoints(body: &[Rev], vars: &[VarInfo]) -> Option<(HashSet<VarId>, HashSet<VarId>)> {
    let (mut own, mut own_arrays) = (HashSet::new(), HashSet::new());
    walk(body, &mut |s| match s {
        Rev::Let { var, .. } | Rev::Zero(var) => {
            own.insert(*var);
        }
        Rev::Pullback { outs, .. } => own.extend(outs.iter().flatten()),
        Rev::ZeroArray(array) => {
            own_arrays.insert(*array);
        }
        _ => {}
    });
    let (mut read, mut written) = (HashSet::new(), HashSet::new());
    let mut arrays_read = HashSet::new();
    read_adjoints(
        body,
        &mut |v| {
            read.insert(v);
        },
        &mut |a| {
            arrays_read.insert(a);
        },
    );
    written_adjoints(body, &mut |v| {
        written.insert(v);
    });
    let mut fine = arrays_read.iter().all(|a| own_arrays.contains(a));
    let mut locals = HashSet::new();
    // A `&mut [f64]`'s shadow is zeroed where the body overwrites an entry, which must come
    // after the reads' contributions: it is not added to from here. A local array's adjoint is
    // declared in the sweep after the loop, which `declarations` moves before it.
    let mut added_to = |array: &VarId| {
        let ty = &vars[array.0 as usize].ty;
        if own_arrays.contains(array) {
            true
        } else if ty.is_local() {
            locals.insert(*array);
            true
        } else {
            ty.is_read_only()
        }
    };
    walk(body, &mut |s| match s {
        Rev::Set(var, _) => fine &= own.contains(var),
        Rev::ZeroElem(array, _) => fine &= own_arrays.contains(array),
        Rev::AddElem(array, ..) => fine &= added_to(array),
        // A call lent an array reads its adjoint (of the entries after the call), which the
        // later iterations give it: only the body's own. One that reads an array adds to its
        // adjoint.
        Rev::Pullback { args, .. } => {
            for arg in args {
                match arg {
                    Arg::Slice {
                        array,
                        mutable: true,
                        ..
                    } => fine &= own_arrays.contains(array),
                    Arg::Slice {
                        array,
                        by_value: false,
                        ..
                    } => fine &= added_to(array),
                    _ => {}
                }
            }
        }
        _ => {}
    });
    let outer: HashSet<VarId> = read
        .union(&written)
        .copied()
        .filter(|v| !own.contains(v))
        .collect();
    fine &= outer
        .iter()
        .all(|v| !(read.contains(v) && written.contains(v)));
    fine.then_some((outer, locals))
}

/// The positions in `before` (the sweep ahead of the loop) of the declarations of `arrays`'
/// adjoints, if each is declared there and no statement of `before` zeroes or reads its
/// entries: a later overwrite in the forward sweep, whose zeroing must follow the loop's
/// additions, or a later `h[1] += t`, whose `d_t = d_h[1]` must not see them (the loop read
/// the entry before it was added to; seed 8's program 60).
fn declarations(before: &[Rev], arrays: &HashSet<VarId>) -> Option<Vec<usize>> {
    // Whether `before` zeroes, reads or lends an entry of one of `arrays`' adjoints.
    let mut touched = false;
    read_adjoints(before, &mut |_| {}, &mut |array| {
        touched |= arrays.contains(&array)
    });
    walk(before, &mut |s| match s {
        Rev::ZeroElem(array, _) => touched |= arrays.contains(array),
        Rev::Pullback { args, .. } => touched |= args.iter().any(
            |arg| matches!(arg, Arg::Slice { array, mutable: true, .. } if arrays.contains(array)),
        ),
        _ => {}
    });
    if touched {
        return None;
    }
    arrays
        .iter()
        .map(|array| {
            before
                .iter()
                .position(|s| matches!(s, Rev::ZeroArray(a) if a == array))
        })
        .collect()
}

/// The statements of `before` (the sweep ahead of the loop) that compute `wanted`: every one
/// that writes one of them or what those read, if all are plain statements and moving them
/// ahead of the rest changes nothing the rest reads.
fn seed_statements(before: &[Rev], mut wanted: HashSet<VarId>) -> Option<Vec<usize>> {
    let mut chosen = vec![false; before.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (i, stmt) in before.iter().enumerate() {
            let mut hit = false;
            written_adjoints(std::slice::from_ref(stmt), &mut |v| {
                hit |= wanted.contains(&v)
            });
            if chosen[i] || !hit {
                continue;
            }
            // Entries of adjoint arrays are left where they are: nothing here tracks them.
            let mut entries = false;
            if let Some(expr) = evaluated(stmt) {
                expr.visit_adjoint_arrays(&mut |_| entries = true);
            }
            if entries
                || !matches!(
                    stmt,
                    Rev::Let { .. } | Rev::Zero(_) | Rev::Set(..) | Rev::Add(..)
                )
            {
                return None;
            }
            chosen[i] = true;
            changed = true;
            if let Some(expr) = evaluated(stmt) {
                expr.visit_adjoints(&mut |v| {
                    wanted.insert(v);
                });
            }
        }
    }
    // A statement left behind must not read an adjoint a chosen one writes after it.
    for (i, stmt) in before.iter().enumerate().filter(|(i, _)| !chosen[*i]) {
        let mut reads = Vec::new();
        read_adjoints(
            std::slice::from_ref(stmt),
            &mut |v| reads.push(v),
            &mut |_| {},
        );
        let later = before[i + 1..]
            .iter()
            .enumerate()
            .filter(|(j, _)| chosen[i + 1 + j]);
        for (_, later) in later {
            let mut clash = false;
            written_adjoints(std::slice::from_ref(later), &mut |v| {
                clash |= reads.contains(&v)
            });
            if clash {
                return None;
            }
        }
    }
    Some((0..before.len()).filter(|i| chosen[*i]).collect())
}

/// Moves the chosen statements of `rev[..k]` to the front, keeping their order; the loop follows.
fn reorder(rev: &mut Vec<Rev>, k: usize, chosen: &[usize]) {
    let mut rest = std::mem::take(rev).into_iter();
    let (seeds, others): (Vec<_>, Vec<_>) = rest
        .by_ref()
        .take(k)
        .enumerate()
        .partition(|(i, _)| chosen.contains(i));
    rev.extend(seeds.into_iter().map(|(_, s)| s));
    rev.extend(rest.next());
    rev.extend(others.into_iter().map(|(_, s)| s));
    rev.extend(rest);
}

/// Which forward values exist before the loop at `position`, or can be computed there.
struct Available {
    /// Parameters and the values of the statements before the loop.
    known: HashSet<VarId>,
    /// The statements after the loop that compute a plain value: dst -> (position, operands).
    later: HashMap<VarId, (usize, Vec<VarId>)>,
}

impl Available {
    fn new(function: &Function, position: usize) -> Available {
        // Arrays whose entries the loop may write are left out: an entry read before the loop
        // could differ from the one read after it.
        let mut known: HashSet<VarId> = (function.params.iter().map(|p| p.var))
            .filter(|v| !function.var(*v).ty.is_lent_mut())
            .collect();
        let mut later = HashMap::new();
        for (i, stmt) in function.body.iter().enumerate() {
            let mut reads = Vec::new();
            let dst = match stmt {
                Stmt::Assign { dst, op } if pure(op) => {
                    op_vars(op, &mut reads);
                    *dst
                }
                Stmt::IntLet { dst, expr } => {
                    expr.visit_vars(&mut |v| reads.push(v));
                    *dst
                }
                Stmt::Assign { dst, .. } | Stmt::BoolLet { dst, .. } if i < position => {
                    known.insert(*dst);
                    continue;
                }
                Stmt::If(branch) if i < position => {
                    known.extend(branch.joins.iter().map(|j| j.dst));
                    continue;
                }
                Stmt::Loop(the_loop) if i < position => {
                    known.extend(the_loop.carried.iter().map(|c| c.slot));
                    continue;
                }
                _ => continue,
            };
            if i < position {
                known.insert(dst);
            } else if i > position {
                later.insert(dst, (i, reads));
            }
        }
        Available { known, later }
    }

    /// The later statements to compute before the loop for the chosen seed statements, in
    /// their order, or `None` if one of them reads a value only the loop or its sequel has.
    fn hoist(&self, before: &[Rev], seeds: &[usize]) -> Option<Vec<VarId>> {
        let mut needed = Vec::new();
        for i in seeds {
            evaluated(&before[*i]).inspect(|e| e.visit_vars(&mut |v| needed.push(v)));
        }
        let mut hoisted: HashMap<VarId, usize> = HashMap::new();
        while let Some(var) = needed.pop() {
            if self.known.contains(&var) || hoisted.contains_key(&var) {
                continue;
            }
            let (position, reads) = self.later.get(&var)?;
            hoisted.insert(var, *position);
            needed.extend(reads.iter().copied());
        }
        let mut order: Vec<(usize, VarId)> = hoisted.into_iter().map(|(v, i)| (i, v)).collect();
        order.sort();
        Some(order.into_iter().map(|(_, v)| v).collect())
    }
}

/// Arithmetic and functions of `f64`: nothing that reads memory or calls, so it can run earlier.
/// A read of data could panic where `f` would not read it (after an exit, past a length).
fn pure(op: &Op) -> bool {
    !matches!(op, Op::Load(..) | Op::Call(..) | Op::Data(_))
}

/// Every variable a pure `op` reads: its operands, the integers of `powi` and `as f64`, the
/// indices of data.
fn op_vars(op: &Op, reads: &mut Vec<VarId>) {
    crate::ir::Reads(&mut |v| reads.push(v)).visit_op(op)
}
