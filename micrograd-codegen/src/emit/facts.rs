//! What the function and its reverse sweep hold that the printers look up, read once when an
//! [`Emitter`] is made: the tapes the forward sweep records on, the calls whose lent arrays are
//! saved, the integers and cheap operations a reversed block computes again, the written
//! arrays, the loops and which of them run backwards.

use super::Emitter;
use crate::diff::Adjoint;
use crate::ir::{Access, Function, IntExpr, Loop, LoopId, Op, Stmt, Table, Ty, VarId, Visitor};
use crate::names::Names;
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::{HashMap, HashSet};

/// The tapes of the forward sweep, by name.
pub(super) struct Tapes {
    pub(super) tape: Ident,
    pub(super) branches: Ident,
    /// The tape of the entries of arrays lent to calls as `&mut` (`Facts::saved_calls`).
    pub(super) saved: Ident,
    /// The tape of the trip counts of loops inside loops.
    pub(super) counts: Ident,
    /// The tapes of recorded arrays and counters (see `own_tapes`).
    pub(super) own: HashMap<VarId, Ident>,
    /// The region of a tape that a loop of known trip count records into, and the chunk of
    /// it that one iteration writes or reads (`Emitter::region`).
    pub(super) region: Ident,
    pub(super) at: Ident,
}

/// What the function and its reverse sweep hold that the printers look up.
pub(super) struct Facts<'a> {
    /// The calls whose `&mut` arrays' entry values are recorded: those the reverse sweep
    /// reverses, by the variable each defines.
    pub(super) saved_calls: HashSet<VarId>,
    pub(super) int_lets: HashMap<VarId, IntExpr>,
    /// The scalar operations a reversed loop body may compute again (`needs::Plan::recompute`).
    pub(super) cheap: HashMap<VarId, Op>,
    pub(super) stored: HashSet<VarId>,
    /// Each loop of the function, by id.
    pub(super) loops: Table<LoopId, Option<&'a Loop>>,
    /// Whether each loop is run backwards in the reverse sweep (then it counts its trips).
    pub(super) reversed: Table<LoopId, bool>,
}

/// A tape for each recorded local array and each recorded integer other than a trip count:
/// an array's tape holds whole arrays, and an integer's takes the integer's own type, which
/// the user's code decides (`i32`, `usize`, ..).
pub(super) fn own_tapes(
    function: &Function,
    adjoint: &Adjoint,
    names: &mut Names,
) -> HashMap<VarId, Ident> {
    let counts = trip_counts(function);
    let mut arrays: Vec<VarId> = adjoint
        .plan
        .records
        .values()
        .flatten()
        .copied()
        .filter(|v| match &adjoint.vars[v.0 as usize].ty {
            ty if ty.is_local() => true,
            Ty::Int => !counts.contains(v),
            _ => false,
        })
        .collect();
    arrays.sort();
    arrays.dedup();
    arrays
        .into_iter()
        .map(|v| (v, names.fresh(&format!("{}_tape", names.var(v)))))
        .collect()
}

pub(super) fn saved_calls(adjoint: &Adjoint) -> HashSet<VarId> {
    let mut calls = HashSet::new();
    crate::diff::walk(&adjoint.rev, &mut |rev| {
        if let crate::diff::Rev::Pullback { call, args, .. } = rev
            && args.iter().any(crate::ir::Arg::is_mut)
        {
            calls.insert(*call);
        }
    });
    calls
}

fn trip_counts(function: &Function) -> HashSet<VarId> {
    let mut counts = HashSet::new();
    crate::ir::walk(&function.body, &mut |stmt| {
        if let Stmt::Loop(the_loop) = stmt {
            counts.extend(the_loop.count);
        }
    });
    counts
}

pub(super) fn int_lets(block: &[Stmt]) -> HashMap<VarId, IntExpr> {
    let mut lets = HashMap::new();
    crate::ir::walk(block, &mut |stmt| {
        if let Stmt::IntLet { dst, expr } = stmt {
            lets.insert(*dst, expr.clone());
        }
    });
    lets
}

pub(super) fn cheap(block: &[Stmt]) -> HashMap<VarId, Op> {
    let mut ops = HashMap::new();
    crate::ir::walk(block, &mut |stmt| {
        if let Stmt::Assign { dst, op } = stmt
            && matches!(
                op,
                Op::Add(..) | Op::Sub(..) | Op::Mul(..) | Op::Neg(_) | Op::Load(..) | Op::Data(_)
            )
        {
            ops.insert(*dst, op.clone());
        }
    });
    ops
}

pub(super) fn loops(function: &Function) -> Table<LoopId, Option<&Loop>> {
    let mut loops = Table::new(function.loops);
    crate::ir::walk(&function.body, &mut |stmt| {
        if let Stmt::Loop(the_loop) = stmt {
            loops[the_loop.id] = Some(&**the_loop);
        }
    });
    loops
}

pub(super) fn reversed(function: &Function, adjoint: &Adjoint) -> Table<LoopId, bool> {
    let mut reversed = Table::new(function.loops);
    crate::diff::walk(&adjoint.rev, &mut |rev| {
        if let crate::diff::Rev::Loop { the_loop, .. } = rev {
            reversed[*the_loop] = true;
        }
    });
    reversed
}

/// The arrays the function writes: by a store, or by lending them to a call as `&mut` (an
/// array only a call writes, `let mut h = [0.0; 2]; g(&mut h, x);`, is `mut` too).
pub(super) fn stored(block: &[Stmt]) -> HashSet<VarId> {
    struct Stored(HashSet<VarId>);
    impl Visitor<'_> for Stored {
        fn visit_var(&mut self, var: &VarId, access: Access) {
            if matches!(access, Access::Store | Access::Lent) {
                self.0.insert(*var);
            }
        }
    }
    let mut stored = Stored(HashSet::new());
    for stmt in block {
        stored.visit_stmt(stmt);
    }
    stored.0
}

impl Emitter<'_> {
    pub(super) fn tape_declarations(&self) -> TokenStream {
        let runtime = &self.runtime;
        self.tapes()
            .into_iter()
            .map(|(name, element, inline)| quote!(let mut #name = #runtime::Tape::<#element #inline>::new();))
            .collect()
    }

    /// Each tape the forward sweep records on: its name, its element type, and `, 0` for
    /// arrays, which stay off the stack.
    pub(super) fn tapes(&self) -> Vec<(&Ident, TokenStream, TokenStream)> {
        let records: Vec<VarId> = self
            .adjoint
            .plan
            .records
            .values()
            .flatten()
            .copied()
            .collect();
        let ty = |v: &VarId| &self.adjoint.vars[v.0 as usize].ty;
        let any = |wanted: Ty| records.iter().any(|v| *ty(v) == wanted);
        let scalar = self.function.scalar.ty();
        let mut tapes = Vec::new();
        if any(Ty::F64) {
            tapes.push((&self.tapes.tape, scalar.clone(), quote!()));
        }
        if any(Ty::Bool) {
            tapes.push((
                &self.tapes.branches,
                quote!(::core::primitive::bool),
                quote!(),
            ));
        }
        if !self.facts.saved_calls.is_empty() {
            tapes.push((&self.tapes.saved, scalar.clone(), quote!()));
        }
        if records
            .iter()
            .any(|v| *ty(v) == Ty::Int && !self.tapes.own.contains_key(v))
        {
            tapes.push((
                &self.tapes.counts,
                quote!(::core::primitive::usize),
                quote!(),
            ));
        }
        let mut own: Vec<(&VarId, &Ident)> = self.tapes.own.iter().collect();
        own.sort();
        for (var, name) in own {
            // A `Vec` is never recorded: lowering keeps `vec!` out of loops.
            match self.adjoint.vars[var.0 as usize].ty.array_len() {
                Some(len) => {
                    let len = self.int(len);
                    tapes.push((name, quote!([#scalar; #len]), quote!(, 0)));
                }
                None => tapes.push((name, quote!(_), quote!())),
            }
        }
        tapes
    }

    /// The tape that records `var`.
    pub(super) fn tape_of(&self, var: VarId) -> &Ident {
        match &self.adjoint.vars[var.0 as usize].ty {
            Ty::Bool => &self.tapes.branches,
            Ty::Int => self.tapes.own.get(&var).unwrap_or(&self.tapes.counts),
            ty if ty.is_local() => self
                .tapes
                .own
                .get(&var)
                .expect("internal error: every recorded array has its own tape"),
            _ => &self.tapes.tape,
        }
    }
}
