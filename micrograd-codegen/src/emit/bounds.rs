//! Bounds hints: `let _ = &p[..337];` at the top of a loop body that reads `p[336]` in every
//! iteration, through loops of constant length (`for k in 0..16 { .. p[320 + k] .. }`).
//!
//! Indexing a slice checks the index against its length at every read, and the compiler cannot
//! move those checks out of the loops (each one panics at its own place). One check of the
//! largest index first tells it that every read of the body is in bounds: the checks go, and
//! the loops vectorize. In a gradient that reads `p` three times per point and adds into `d_p`
//! (whose length `f_grad` has checked equals `p`'s) that was a tenth of the work.
//!
//! The hint changes nothing else: the body reads that entry anyway, unconditionally, in the same
//! iteration, so a slice too short panics there as before (with a range's message instead of an
//! index's), and it does not rebind the slice.

use super::Emitter;
use crate::ir::{IntExpr, IntOp, LoopKind, Op, Stmt, VarId};
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use std::collections::{BTreeMap, HashMap};

/// The smallest and largest value an integer takes.
type Span = (u128, u128);

impl Emitter<'_> {
    /// `let _ = &w[..n];` for each slice `w` that `body` reads at a constant largest index in
    /// every iteration (`n` is that index plus one).
    pub(super) fn bounds_hints(&self, body: &[Stmt]) -> TokenStream {
        let mut largest = BTreeMap::new();
        self.largest_reads(body, &mut HashMap::new(), &mut largest);
        largest
            .into_iter()
            // An index of `u128::MAX` has no length past it: no hint (the user's literal is
            // rustc's error to report).
            .filter_map(|(slice, index)| {
                let len = Literal::u128_unsuffixed(index.checked_add(1)?);
                let name = self.names.var(slice);
                Some(quote!(let _ = &#name[..#len];))
            })
            .collect()
    }

    /// Adds to `largest` the reads of unsized slices that `block` makes whatever its data, at
    /// indices whose bounds `spans` (the indices of the constant loops around them) fix.
    fn largest_reads(
        &self,
        block: &[Stmt],
        spans: &mut HashMap<VarId, Span>,
        largest: &mut BTreeMap<VarId, u128>,
    ) {
        for stmt in block {
            match stmt {
                Stmt::Assign {
                    op: Op::Load(slice, index),
                    ..
                } if self.unsized_slice(*slice) => {
                    if let Some((_, hi)) = span(index, spans) {
                        let entry = largest.entry(*slice).or_insert(hi);
                        *entry = (*entry).max(hi);
                    }
                }
                Stmt::IntLet { dst, expr } => {
                    if let Some(s) = span(expr, spans) {
                        spans.insert(*dst, s);
                    }
                }
                // A loop that runs a constant, non-zero number of times, to its end. A branch,
                // a `while` and a loop that may leave early run their reads only sometimes.
                Stmt::Loop(the_loop) if the_loop.exit.is_none() && the_loop.count.is_none() => {
                    let LoopKind::Range {
                        index,
                        start,
                        end,
                        inclusive,
                    } = &the_loop.kind
                    else {
                        continue;
                    };
                    let (Some((first, _)), Some((_, bound))) =
                        (span(start, spans), span(end, spans))
                    else {
                        continue;
                    };
                    let last = if *inclusive {
                        Some(bound)
                    } else {
                        bound.checked_sub(1)
                    };
                    let Some(last) =
                        last.filter(|last| *last >= first && is_constant(start, end, spans))
                    else {
                        continue;
                    };
                    if let Some(index) = index {
                        spans.insert(*index, (first, last));
                    }
                    self.largest_reads(&the_loop.body, spans, largest);
                }
                // A branch, a `while`, a loop that may leave early and the rest: their reads
                // happen only sometimes, or they read no slice.
                Stmt::Assign { .. }
                | Stmt::Loop(_)
                | Stmt::If(_)
                | Stmt::BoolLet { .. }
                | Stmt::Array { .. }
                | Stmt::Store { .. }
                | Stmt::StoreAdd { .. }
                | Stmt::Assert(_) => {}
            }
        }
    }

    /// A `&[f64]` parameter or field (not `&[f64; N]`, whose reads need no checks) that prints
    /// as itself.
    fn unsized_slice(&self, var: VarId) -> bool {
        let ty = &self.function.var(var).ty;
        ty.is_lent() && ty.known_len().is_none() && !self.tangent.maybe_empty.contains(&var)
    }
}

/// Whether both ends of a range are single values (not only bounded).
fn is_constant(start: &IntExpr, end: &IntExpr, spans: &HashMap<VarId, Span>) -> bool {
    [start, end]
        .into_iter()
        .all(|e| span(e, spans).is_some_and(|(lo, hi)| lo == hi))
}

/// The bounds of `expr`, when literals and the variables of `spans` fix them.
fn span(expr: &IntExpr, spans: &HashMap<VarId, Span>) -> Option<Span> {
    match expr {
        IntExpr::Lit { value, .. } => Some((*value, *value)),
        IntExpr::Var(var) => spans.get(var).copied(),
        IntExpr::Binary(op, a, b) => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (span(a, spans)?, span(b, spans)?);
            match op {
                IntOp::Add => Some((a_lo.checked_add(b_lo)?, a_hi.checked_add(b_hi)?)),
                IntOp::Mul => Some((a_lo.checked_mul(b_lo)?, a_hi.checked_mul(b_hi)?)),
                IntOp::Sub => Some((a_lo.checked_sub(b_hi)?, a_hi.checked_sub(b_lo)?)),
                IntOp::Div | IntOp::Rem => None,
            }
        }
        _ => None,
    }
}
