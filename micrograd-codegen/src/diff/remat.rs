//! Which array reads the reverse sweep may repeat instead of recording.
//!
//! The reverse sweep reads `w[i]` again rather than taping it when the entry cannot have
//! changed in between: always for slice parameters; for a local array, when no write to it
//! can run after the read: none comes later in its scope (on the same path: a write in the
//! other branch of an `if` never follows the read) nor in a loop that also holds the read. An
//! array declared in a loop body is then recorded whole once per iteration (see `needs`), not
//! entry by entry; loads of an array declared in a branch are recorded rather than exporting
//! the array from the branch.
//!
//! A call's pullback reads the arrays passed to it in the same way, wherever they are
//! declared: an array that can change after the call is an error (`unstable_calls`). An array
//! passed as `&mut` is not read again: the forward sweep records the entries it passes, and
//! the call counts as a store into it.
//!
//! A value stored into such an array is read back the same way when that store is the entry's
//! last: the only store of the array, in the same block as the value, under at most one loop
//! of the array's scope whose index is the entry's index (`h[j] = t` in `for j`). A layer's
//! activations are then kept once, in their array, not twice.

use super::expr::Expr;
use crate::ir::{Arg, Block, Function, IntExpr, Op, Operand, Stmt, VarId};
use std::collections::HashMap;

/// Where something happens: its order in the body, the loops around it, and the branches
/// it is in.
#[derive(Clone, Debug)]
struct Site {
    position: usize,
    loops: Vec<usize>,
    path: Vec<Taken>,
}

/// A branch taken: the `if` by number, how many loops are around it, `true` for `then`.
type Taken = (usize, usize, bool);

impl Site {
    /// Whether the two sites are in different branches of one `if` outside any loop of an
    /// array declared under `depth` loops: then only one of them runs while the array lives.
    fn exclusive(&self, other: &Site, depth: usize) -> bool {
        self.path
            .iter()
            .any(|&(id, loops, taken)| loops <= depth && other.path.contains(&(id, loops, !taken)))
    }
}

#[derive(Default)]
struct Walk {
    position: usize,
    loops: Vec<usize>,
    next_loop: usize,
    branches: usize,
    /// The branches around the current statement, and the number of `if`s so far.
    path: Vec<Taken>,
    next_if: usize,
    /// Array -> (loop depth where declared, declared inside a branch).
    declared: HashMap<VarId, (usize, bool)>,
    stores: HashMap<VarId, Vec<Site>>,
    /// (array, the reading value or `None` for a call, where)
    reads: Vec<(VarId, Option<VarId>, Site)>,
    /// Each load's value -> its array and index.
    loads: HashMap<VarId, (VarId, IntExpr)>,
    /// Stores of a variable: (array, index, value, where, block).
    stored: Vec<(VarId, IntExpr, VarId, Site, usize)>,
    /// The block each scalar is defined in, and the current block.
    defined_in: HashMap<VarId, usize>,
    current: usize,
    blocks: usize,
    /// Each loop's index variable.
    indices: HashMap<usize, Option<VarId>>,
}

/// The result of the analysis.
#[derive(Debug, Default)]
pub struct Remat {
    /// Values the reverse sweep reads again from their array: `t -> h[j]`.
    pub values: HashMap<VarId, Expr>,
    /// Arrays passed to calls that change afterwards (the pullback would see the wrong values).
    pub unstable_calls: Vec<VarId>,
}

/// Runs the analysis over `function`.
pub fn analyze(function: &Function) -> Remat {
    let mut walk = Walk::default();
    // A `&mut [f64]` parameter is written like a local array of the function's scope.
    for param in &function.params {
        if function.var(param.var).ty.is_lent_mut() {
            walk.declared.insert(param.var, (0, false));
        }
    }
    walk.block(&function.body);
    let mut remat = Remat::default();
    for (array, read, site) in &walk.reads {
        let stable =
            function.var(*array).ty.is_read_only() || walk.stable(*array, site, read.is_none());
        match (read, stable) {
            (Some(value), true) => {
                if let Some((array, index)) = walk.loads.get(value) {
                    remat
                        .values
                        .insert(*value, Expr::Load(*array, index.clone()));
                }
            }
            (None, false) => remat.unstable_calls.push(*array),
            _ => {}
        }
    }
    for (array, index, value, site, block) in &walk.stored {
        if walk.last_store(*array, index, site) && walk.defined_in.get(value) == Some(block) {
            remat
                .values
                .entry(*value)
                .or_insert_with(|| Expr::Load(*array, index.clone()));
        }
    }
    remat
}

impl Walk {
    fn site(&mut self) -> Site {
        self.position += 1;
        Site {
            position: self.position,
            loops: self.loops.clone(),
            path: self.path.clone(),
        }
    }

    /// Whether no store to `array` can run after `read`; a load (not a `call`) of an array
    /// declared in a branch counts as unstable, so that it is recorded.
    fn stable(&self, array: VarId, read: &Site, call: bool) -> bool {
        let Some(&(depth, in_branch)) = self.declared.get(&array) else {
            return false;
        };
        if in_branch && !call {
            return false;
        }
        let stores = self.stores.get(&array).map_or(&[][..], Vec::as_slice);
        stores.iter().all(|store| {
            let shares_loop =
                read.loops.get(depth).is_some() && read.loops.get(depth) == store.loops.get(depth);
            store.exclusive(read, depth) || (store.position < read.position && !shares_loop)
        })
    }

    /// Whether the store at `site` writes each entry once and nothing overwrites it later.
    fn last_store(&self, array: VarId, index: &IntExpr, site: &Site) -> bool {
        let Some(&(depth, false)) = self.declared.get(&array) else {
            return false;
        };
        let between = site.loops.get(depth..).unwrap_or_default();
        let index_ok = match between {
            [] => true,
            [the_loop] => self
                .indices
                .get(the_loop)
                .copied()
                .flatten()
                .is_some_and(|i| *index == IntExpr::Var(i)),
            _ => false,
        };
        let stores = self.stores.get(&array).map_or(&[][..], Vec::as_slice);
        index_ok && stores.iter().all(|other| other.position == site.position)
    }

    fn block(&mut self, block: &Block) {
        let outer = self.current;
        self.blocks += 1;
        self.current = self.blocks;
        for stmt in block {
            self.stmt(stmt);
        }
        self.current = outer;
    }

    fn stmt(&mut self, stmt: &Stmt) {
        let site = self.site();
        match stmt {
            Stmt::Assign {
                dst,
                op: Op::Load(array, index),
            } => {
                self.defined_in.insert(*dst, self.current);
                self.loads.insert(*dst, (*array, index.clone()));
                self.reads.push((*array, Some(*dst), site));
            }
            Stmt::Assign {
                op: Op::Call(_, args),
                ..
            } => {
                for arg in args {
                    match arg {
                        // Its entry values are recorded; what the call writes is a store.
                        Arg::Slice {
                            array,
                            mutable: true,
                            ..
                        } => self.stores.entry(*array).or_default().push(site.clone()),
                        Arg::Slice { array, .. } => self.reads.push((*array, None, site.clone())),
                        Arg::Scalar(..) | Arg::Int(_) | Arg::Bool(_) | Arg::Data { .. } => {}
                    }
                }
            }
            Stmt::Array { dst, .. } => {
                self.declared
                    .insert(*dst, (self.loops.len(), self.branches > 0));
            }
            Stmt::Store {
                array,
                index,
                value,
            } => {
                if let Operand::Var(value) = value {
                    self.stored
                        .push((*array, index.clone(), *value, site.clone(), self.current));
                }
                self.stores.entry(*array).or_default().push(site)
            }
            Stmt::StoreAdd { array, .. } => self.stores.entry(*array).or_default().push(site),
            Stmt::If(branch) => {
                self.branches += 1;
                self.next_if += 1;
                let id = self.next_if;
                for (taken, block) in [(true, &branch.then), (false, &branch.otherwise)] {
                    self.path.push((id, self.loops.len(), taken));
                    self.block(block);
                    self.path.pop();
                }
                self.branches -= 1;
            }
            Stmt::Loop(the_loop) => {
                self.next_loop += 1;
                self.indices.insert(self.next_loop, the_loop.index());
                self.loops.push(self.next_loop);
                let branches = std::mem::take(&mut self.branches);
                self.block(&the_loop.body);
                self.branches = branches;
                self.loops.pop();
            }
            Stmt::Assign { dst, .. } => {
                self.defined_in.insert(*dst, self.current);
            }
            Stmt::IntLet { .. } | Stmt::BoolLet { .. } | Stmt::Assert(_) => {}
        }
    }
}
