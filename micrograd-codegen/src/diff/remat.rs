//! Which array reads the reverse sweep may repeat instead of recording.
//!
//! The reverse sweep reads `w[i]` again rather than taping it when the entry cannot have
//! changed in between: always for slice parameters; for a local array, when no write to it
//! comes later in its scope nor in a loop that also holds the read. An array declared in a
//! loop body is then recorded whole once per iteration (see `needs`), not entry by entry.

use crate::ir::{Arg, Block, Function, Op, Stmt, Ty, VarId};
use std::collections::{HashMap, HashSet};

/// Where something happens: its order in the body and the loops around it.
#[derive(Clone, Debug)]
struct Site {
    position: usize,
    loops: Vec<usize>,
}

#[derive(Default)]
struct Walk {
    position: usize,
    loops: Vec<usize>,
    next_loop: usize,
    branches: usize,
    /// Array -> (loop depth where declared, declared inside a branch).
    declared: HashMap<VarId, (usize, bool)>,
    stores: HashMap<VarId, Vec<Site>>,
    /// (array, the reading value or `None` for a call, where)
    reads: Vec<(VarId, Option<VarId>, Site)>,
}

/// The result of the analysis.
#[derive(Debug, Default)]
pub struct Remat {
    /// Load results the reverse sweep reads again from their array.
    pub loads: HashSet<VarId>,
    /// Arrays passed to calls that change afterwards (the pullback would see the wrong values).
    pub unstable_calls: Vec<VarId>,
}

/// Runs the analysis over `function`.
pub fn analyze(function: &Function) -> Remat {
    let mut walk = Walk::default();
    walk.block(&function.body);
    let mut remat = Remat::default();
    for (array, read, site) in &walk.reads {
        let stable = match &function.var(*array).ty {
            Ty::Slice { .. } => true,
            _ => walk.stable(*array, site),
        };
        match (read, stable) {
            (Some(value), true) => {
                remat.loads.insert(*value);
            }
            (None, false) => remat.unstable_calls.push(*array),
            _ => {}
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
        }
    }

    fn stable(&self, array: VarId, read: &Site) -> bool {
        let Some(&(depth, in_branch)) = self.declared.get(&array) else {
            return false;
        };
        if in_branch {
            return false;
        }
        let stores = self.stores.get(&array).map_or(&[][..], Vec::as_slice);
        stores.iter().all(|store| {
            let shares_loop =
                read.loops.get(depth).is_some() && read.loops.get(depth) == store.loops.get(depth);
            store.position < read.position && !shares_loop
        })
    }

    fn block(&mut self, block: &Block) {
        for stmt in block {
            self.stmt(stmt);
        }
    }

    fn stmt(&mut self, stmt: &Stmt) {
        let site = self.site();
        match stmt {
            Stmt::Assign {
                dst,
                op: Op::Load(array, _),
            } => self.reads.push((*array, Some(*dst), site)),
            Stmt::Assign {
                op: Op::Call(_, args),
                ..
            } => {
                for arg in args {
                    if let Arg::Slice { array, .. } = arg {
                        self.reads.push((*array, None, site.clone()));
                    }
                }
            }
            Stmt::Array { dst, .. } => {
                self.declared
                    .insert(*dst, (self.loops.len(), self.branches > 0));
            }
            Stmt::Store { array, .. } | Stmt::StoreAdd { array, .. } => {
                self.stores.entry(*array).or_default().push(site)
            }
            Stmt::If(branch) => {
                self.branches += 1;
                self.block(&branch.then);
                self.block(&branch.otherwise);
                self.branches -= 1;
            }
            Stmt::For(the_loop) => {
                self.next_loop += 1;
                self.loops.push(self.next_loop);
                let branches = std::mem::take(&mut self.branches);
                self.block(&the_loop.body);
                self.branches = branches;
                self.loops.pop();
            }
            Stmt::Assign { .. } | Stmt::IntLet { .. } | Stmt::BoolLet { .. } => {}
        }
    }
}
