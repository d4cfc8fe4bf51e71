//! What the reverse sweep reads from the forward sweep, and how each value gets there.
//!
//! A value defined at the top of the function is simply in scope. One defined in a branch is
//! exported: the `if` yields it beside its joins. One defined in a loop body is recorded: pushed
//! on a tape at the end of each iteration and popped at the start of the reversed one. An
//! integer `let` is never recorded: the reversed block computes it again from its operands.
//! Nothing else is kept, so a dot product records nothing at all.

use super::Rev;
use super::expr::Expr;
use crate::ir::{
    Arg, Block, BranchId, Function, IntExpr, LoopId, Op, Stmt, Table, Ty, VarId, VarInfo, Visitor,
};
use std::collections::{HashMap, HashSet};

/// A block of the forward sweep, mirrored by one of the reverse sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockId {
    /// The function body.
    Function,
    /// A loop body.
    Body(LoopId),
    /// A branch of an `if` (`true` for `then`).
    Branch(BranchId, bool),
}

/// What the forward sweep keeps for the reverse one.
#[derive(Debug)]
pub struct Plan {
    /// Values each `if` yields besides its joins, with the branch that defines them.
    pub exports: Table<BranchId, Vec<(VarId, bool)>>,
    /// Values (scalars, booleans, arrays) each loop body records per iteration.
    pub records: Table<LoopId, Vec<VarId>>,
    /// Integers each reversed block computes again, in definition order.
    pub recompute: HashMap<BlockId, Vec<VarId>>,
}

struct Definitions<'f> {
    block: HashMap<VarId, BlockId>,
    parent: HashMap<BlockId, BlockId>,
    ints: HashMap<VarId, &'f IntExpr>,
    /// Values of one addition, subtraction, multiplication or negation, and reads of data and
    /// of arrays the reverse sweep may read again: cheaper to compute again than to record.
    cheap: HashMap<VarId, Vec<VarId>>,
    /// The loads whose array cannot change before the reverse sweep reads it again
    /// ([`super::remat::Remat::values`]).
    rereadable: &'f HashSet<VarId>,
    slots: HashMap<VarId, LoopId>,
    /// Trip counts by loop: integers that are recorded or exported, not computed again.
    counts: HashMap<LoopId, VarId>,
    indices: HashMap<VarId, LoopId>,
    bounds: HashMap<LoopId, Vec<&'f IntExpr>>,
}

/// Plans how the values `rev` reads reach it.
pub fn plan(
    function: &Function,
    rev: &[Rev],
    vars: &[VarInfo],
    decisions: &Table<BranchId, Option<VarId>>,
    fused: Option<LoopId>,
    rereadable: &HashSet<VarId>,
) -> Plan {
    let mut defs = Definitions {
        block: HashMap::new(),
        parent: HashMap::new(),
        ints: HashMap::new(),
        cheap: HashMap::new(),
        rereadable,
        slots: HashMap::new(),
        counts: HashMap::new(),
        indices: HashMap::new(),
        bounds: HashMap::new(),
    };
    defs.walk(&function.body, BlockId::Function, decisions);
    let mut planner = Planner {
        defs,
        vars,
        fused,
        recorded: None,
        plan: Plan {
            exports: Table::new(function.branches),
            records: Table::new(function.loops),
            recompute: HashMap::new(),
        },
    };
    planner.block(rev, &[BlockId::Function]);
    // Again, now knowing what is recorded anyway: a cheap value whose operands are recorded
    // (or computed again themselves) is computed again rather than recorded.
    let recorded = planner.plan.records.values().flatten().copied().collect();
    planner.recorded = Some(recorded);
    planner.plan = Plan {
        exports: Table::new(function.branches),
        records: Table::new(function.loops),
        recompute: HashMap::new(),
    };
    planner.block(rev, &[BlockId::Function]);
    for list in planner.plan.recompute.values_mut() {
        list.sort();
    }
    planner.plan
}

impl<'f> Definitions<'f> {
    /// Whether `dst = op` reads data, or an array the reverse sweep may read again.
    fn reread(&self, dst: VarId, op: &Op) -> bool {
        match op {
            Op::Data(_) => true,
            Op::Load(..) => self.rereadable.contains(&dst),
            _ => false,
        }
    }

    fn walk(&mut self, block: &'f Block, id: BlockId, decisions: &Table<BranchId, Option<VarId>>) {
        for stmt in block {
            match stmt {
                Stmt::Assign {
                    dst,
                    op: op @ (Op::Add(..) | Op::Sub(..) | Op::Mul(..) | Op::Neg(_)),
                } => {
                    self.block.insert(*dst, id);
                    self.cheap.insert(*dst, super::activity::sources(op));
                }
                // A float read from data, or from an array the reverse sweep reads again: read
                // again from the array and the integers of its index.
                Stmt::Assign { dst, op } if self.reread(*dst, op) => {
                    self.block.insert(*dst, id);
                    let mut reads = Vec::new();
                    crate::ir::Reads(&mut |v| reads.push(v)).visit_op(op);
                    self.cheap.insert(*dst, reads);
                }
                Stmt::Assign { dst, op } => {
                    self.block.insert(*dst, id);
                    if let Some(tangent) = op.tangent_out() {
                        self.block.insert(tangent, id);
                    }
                }
                Stmt::BoolLet { dst, .. } | Stmt::Array { dst, .. } => {
                    self.block.insert(*dst, id);
                }
                Stmt::IntLet { dst, expr } => {
                    self.block.insert(*dst, id);
                    self.ints.insert(*dst, expr);
                }
                Stmt::If(branch) => {
                    let key = branch.id;
                    for join in &branch.joins {
                        self.block.insert(join.dst, id);
                    }
                    if let Some(cond) = decisions[key] {
                        self.block.insert(cond, id);
                    }
                    for (taken, inner) in [(true, &branch.then), (false, &branch.otherwise)] {
                        self.parent.insert(BlockId::Branch(key, taken), id);
                        self.walk(inner, BlockId::Branch(key, taken), decisions);
                    }
                }
                Stmt::Loop(the_loop) => {
                    let key = the_loop.id;
                    for carried in &the_loop.carried {
                        self.block.insert(carried.slot, id);
                        self.slots.insert(carried.slot, key);
                    }
                    if let Some(count) = the_loop.count {
                        self.block.insert(count, id);
                        self.counts.insert(key, count);
                    }
                    if let Some(index) = the_loop.index() {
                        self.block.insert(index, BlockId::Body(key));
                        self.indices.insert(index, key);
                    }
                    self.bounds.insert(key, the_loop.bounds());
                    self.parent.insert(BlockId::Body(key), id);
                    self.walk(&the_loop.body, BlockId::Body(key), decisions);
                }
                Stmt::Store { .. } | Stmt::StoreAdd { .. } | Stmt::Assert(_) => {}
            }
        }
    }
}

struct Planner<'f> {
    defs: Definitions<'f>,
    vars: &'f [VarInfo],
    /// The loop whose reversed iterations run inside it: its values are in scope there.
    fused: Option<LoopId>,
    /// What a first plan, which computes no scalar again, records.
    recorded: Option<HashSet<VarId>>,
    plan: Plan,
}

impl Planner<'_> {
    fn block(&mut self, rev: &[Rev], context: &[BlockId]) {
        for stmt in rev {
            self.stmt(stmt, context);
        }
    }

    fn stmt(&mut self, stmt: &Rev, context: &[BlockId]) {
        match stmt {
            Rev::Let { expr, .. } | Rev::Set(_, expr) | Rev::Add(_, expr) => {
                self.expr(expr, context)
            }
            Rev::AddElem(_, index, expr) => {
                self.int(index, context);
                self.expr(expr, context);
            }
            Rev::ZeroElem(_, index) => self.int(index, context),
            Rev::Zero(_) => {}
            // A `Vec`'s adjoint is declared with the length `f` gave it (a constant otherwise).
            Rev::ZeroArray(array) => {
                let ty = &self.vars[array.0 as usize].ty;
                if ty.is_local()
                    && let Some(len) = ty.known_len()
                {
                    self.int(len, context);
                }
            }
            Rev::If { cond, .. } => self.need(*cond, context),
            Rev::Loop { the_loop, .. } if Some(*the_loop) == self.fused => {}
            Rev::Loop { the_loop, .. } => {
                if let Some(count) = self.defs.counts.get(the_loop).copied() {
                    self.need(count, context);
                }
                let bounds = self.defs.bounds.get(the_loop).cloned();
                for bound in bounds.into_iter().flatten() {
                    self.int(bound, context);
                }
            }
            Rev::Guard { .. } => {}
            Rev::Gate { test, .. } => {
                let mut vars = Vec::new();
                test.visit_vars(&mut |v| vars.push(v));
                for var in vars {
                    self.need(var, context);
                }
            }
            Rev::Pullback { args, seed, .. } => {
                self.expr(seed, context);
                for arg in args {
                    self.arg(arg, context);
                }
            }
        }
        for (id, block) in stmt.blocks() {
            let mut nested = context.to_vec();
            nested.extend(id);
            self.block(block, &nested);
        }
    }

    /// What a call's argument reads: a `&mut` argument's entry values come from the record of
    /// them, not the array, so only its bounds.
    fn arg(&mut self, arg: &Arg, context: &[BlockId]) {
        let mut vars = Vec::new();
        crate::ir::Reads(&mut |v| vars.push(v)).visit_arg(arg);
        for var in vars {
            self.need(var, context);
        }
    }

    fn expr(&mut self, expr: &Expr, context: &[BlockId]) {
        let mut vars = Vec::new();
        expr.visit_vars(&mut |v| vars.push(v));
        for var in vars {
            self.need(var, context);
        }
    }

    fn int(&mut self, int: &IntExpr, context: &[BlockId]) {
        let mut vars = Vec::new();
        int.visit_vars(&mut |v| vars.push(v));
        for var in vars {
            self.need(var, context);
        }
    }

    /// The block whose reverse must provide `var` to `context`: a loop slot read inside its
    /// own loop is the value entering the iteration, kept by that loop body.
    fn home(&self, var: VarId, context: &[BlockId]) -> BlockId {
        if let Some(the_loop) = self.defs.slots.get(&var)
            && context.contains(&BlockId::Body(*the_loop))
        {
            return BlockId::Body(*the_loop);
        }
        self.defs
            .block
            .get(&var)
            .copied()
            .unwrap_or(BlockId::Function)
    }

    /// Makes `var`, as read from `context`, available there.
    fn need(&mut self, var: VarId, context: &[BlockId]) {
        let home = self.home(var, context);
        self.provide(var, home);
    }

    fn provide(&mut self, var: VarId, home: BlockId) {
        // An integer `let` is computed again from its operands; the integers that hold more
        // than one value (loop slots such as a counter, joins, trip counts) are recorded.
        let is_int = self.vars[var.0 as usize].ty == Ty::Int;
        match home {
            BlockId::Function => {}
            BlockId::Body(the_loop) if Some(the_loop) == self.fused => {}
            BlockId::Body(the_loop) if self.defs.indices.get(&var) == Some(&the_loop) => {}
            _ if is_int && self.defs.ints.contains_key(&var) => {
                let list = self.plan.recompute.entry(home).or_default();
                if list.contains(&var) {
                    return;
                }
                list.push(var);
                if let Some(expr) = self.defs.ints.get(&var).copied() {
                    self.int(expr, &self.context_of(home));
                }
            }
            BlockId::Body(_) if self.recomputable(var, home) => {
                let list = self.plan.recompute.entry(home).or_default();
                if list.contains(&var) {
                    return;
                }
                list.push(var);
                let context = self.context_of(home);
                for operand in self.defs.cheap[&var].clone() {
                    self.need(operand, &context);
                }
            }
            BlockId::Body(the_loop) => {
                let list = &mut self.plan.records[the_loop];
                if !list.contains(&var) {
                    list.push(var);
                }
            }
            BlockId::Branch(branch, taken) => {
                let list = &mut self.plan.exports[branch];
                if list.iter().any(|(v, _)| *v == var) {
                    return;
                }
                list.push((var, taken));
                let parent = self
                    .defs
                    .parent
                    .get(&home)
                    .copied()
                    .unwrap_or(BlockId::Function);
                self.provide(var, parent);
            }
        }
    }

    /// Whether the reversed loop body `home` computes `var` again rather than recording it: one
    /// cheap operation whose operands are outside the loop, recorded anyway, or computed again
    /// themselves, so that recomputing never records more. A read of data or of an array that
    /// cannot change before the reverse sweep (a `&[f64]` parameter, a local array no later
    /// store writes) is such an operation, its operands the array and the integers of its index
    /// (each computed again, or the index of a loop around): `t = x - c[i]` is then read and
    /// computed again, where it was recorded, since its operands were loads.
    ///
    /// Before: `tape.push(t6); tape.push(t4);` .. (with `t6 = 1.0 - t5`, `t5 = e * t4`)
    /// After: `tape.push(t4);` .. `let t4 = tape.pop(); let t5 = e * t4; let t6 = 1.0 - t5;`
    fn recomputable(&self, var: VarId, home: BlockId) -> bool {
        let (Some(operands), Some(recorded)) = (self.defs.cheap.get(&var), &self.recorded) else {
            return false;
        };
        let context = self.context_of(home);
        // An integer (of a read's index) is computed again or is the index of a loop around.
        let integer = |v: &VarId| {
            self.vars[v.0 as usize].ty == Ty::Int
                && (self.defs.ints.contains_key(v)
                    || self
                        .defs
                        .indices
                        .get(v)
                        .is_some_and(|l| context.contains(&BlockId::Body(*l))))
        };
        self.defs.block.get(&var) == Some(&home)
            && operands.iter().all(|v| {
                self.home(*v, &context) == BlockId::Function
                    || recorded.contains(v)
                    || integer(v)
                    || self.recomputable(*v, home)
            })
    }

    /// The chain of blocks from the function down to `block`.
    fn context_of(&self, block: BlockId) -> Vec<BlockId> {
        let mut chain = vec![block];
        let mut current = block;
        while let Some(parent) = self.defs.parent.get(&current) {
            chain.push(*parent);
            current = *parent;
        }
        chain.reverse();
        chain
    }
}
