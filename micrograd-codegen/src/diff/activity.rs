//! Activity analysis: which values need adjoints.
//!
//! A value is *varied* when it depends on a `wrt` input and *useful* when the result depends
//! on it; only values that are both get an adjoint. Arrays are tracked whole. Both facts are
//! fixpoints over the loops, found by repeating the pass until nothing changes.

use crate::ir::{Access, Block, Cond, Function, IntExpr, Op, Operand, Place, Stmt, VarId, Visitor};
use std::collections::HashSet;

/// The values that get adjoints.
#[derive(Debug, Default)]
pub struct Activity {
    active: HashSet<VarId>,
}

impl Activity {
    /// Computes the activity of every variable of `function` for the given `wrt` inputs.
    pub fn of(function: &Function, wrt: &HashSet<VarId>) -> Activity {
        let mut varied = wrt.clone();
        while forward(&function.body, &mut varied) {}
        let mut useful: HashSet<VarId> = function.results.iter().filter_map(operand_var).collect();
        // The entries a differentiated `&mut [f64]` holds on exit are outputs too: a caller that
        // lent it passes their adjoint in its shadow, which the sweep carries back to the entry.
        useful.extend(
            function
                .params
                .iter()
                .map(|p| p.var)
                .filter(|v| wrt.contains(v) && function.var(*v).ty.is_lent_mut()),
        );
        while backward(&function.body, &mut useful) {}
        Activity {
            active: varied.intersection(&useful).copied().collect(),
        }
    }

    /// Whether `var` gets an adjoint.
    pub fn is_active(&self, var: VarId) -> bool {
        self.active.contains(&var)
    }
}

fn operand_var(operand: &Operand) -> Option<VarId> {
    match operand {
        Operand::Var(v) => Some(*v),
        _ => None,
    }
}

/// The variables of `op` used as `accesses` says, in order, leaving out those of its integers,
/// conditions and data (no derivative flows through them).
fn differentiable(op: &Op, accesses: &[Access]) -> Vec<VarId> {
    struct Vars<'s> {
        accesses: &'s [Access],
        found: Vec<VarId>,
    }
    impl Visitor<'_> for Vars<'_> {
        fn visit_int(&mut self, _: &IntExpr) {}
        fn visit_cond(&mut self, _: &Cond) {}
        fn visit_place(&mut self, _: &Place) {}
        fn visit_var(&mut self, var: &VarId, access: Access) {
            if self.accesses.contains(&access) {
                self.found.push(*var);
            }
        }
    }
    let mut vars = Vars {
        accesses,
        found: Vec::new(),
    };
    vars.visit_op(op);
    vars.found
}

/// The variables (scalars and arrays) whose values flow into `op` differentiably.
pub fn sources(op: &Op) -> Vec<VarId> {
    differentiable(op, &[Access::Read, Access::Lent])
}

/// The arrays a call may write (passed as `&mut`): each takes its new values from all of the
/// call's sources, as its result does.
pub fn written(op: &Op) -> Vec<VarId> {
    differentiable(op, &[Access::Lent])
}

/// The variables whose values flow into `op` with a derivative that is not identically zero:
/// [`sources`] without the operands a function passes no gradient to (`x.detach()`, `x.floor()`,
/// `signum`, the sign operand of `copysign`), whose pullbacks are `None`. A value read only
/// through them is neither varied nor useful, so it gets no adjoint, and the forward sweep
/// records nothing for it: `x.iter().copied().fold(f64::NEG_INFINITY, f64::max).detach()`, the
/// shift of a LogSumExp, is the primal's loop alone.
fn flowing(op: &Op) -> Vec<VarId> {
    let var = |operand: &Operand| operand_var(operand).into_iter();
    match op {
        Op::Call1(f, _) if !f.passes_gradient() => Vec::new(),
        Op::Call2(f, a, b) => {
            let a = var(a).filter(|_| f.passes_gradient(0));
            a.chain(var(b).filter(|_| f.passes_gradient(1))).collect()
        }
        _ => sources(op),
    }
}

/// One pass of "depends on an input"; true if anything changed.
fn forward(block: &Block, varied: &mut HashSet<VarId>) -> bool {
    let mut changed = false;
    let mark = |set: &mut HashSet<VarId>, var: VarId, from: &[VarId]| {
        from.iter().any(|v| set.contains(v)) && set.insert(var)
    };
    for stmt in block {
        match stmt {
            Stmt::Assign { dst, op } => {
                let from = flowing(op);
                changed |= mark(varied, *dst, &from);
                for var in op.tangent_out().into_iter().chain(written(op)) {
                    changed |= mark(varied, var, &from);
                }
            }
            Stmt::Store { array, value, .. } | Stmt::StoreAdd { array, value, .. } => {
                changed |= mark(
                    varied,
                    *array,
                    &operand_var(value).into_iter().collect::<Vec<_>>(),
                )
            }
            Stmt::If(branch) => {
                changed |= forward(&branch.then, varied);
                changed |= forward(&branch.otherwise, varied);
                for join in &branch.joins {
                    let from: Vec<VarId> = [&join.then, &join.otherwise]
                        .into_iter()
                        .filter_map(operand_var)
                        .collect();
                    changed |= mark(varied, join.dst, &from);
                }
            }
            Stmt::Loop(the_loop) => {
                for carried in &the_loop.carried {
                    let from: Vec<VarId> = [&carried.init, &carried.exit]
                        .into_iter()
                        .filter_map(operand_var)
                        .collect();
                    changed |= mark(varied, carried.slot, &from);
                }
                changed |= forward(&the_loop.body, varied);
            }
            Stmt::IntLet { .. } | Stmt::BoolLet { .. } | Stmt::Array { .. } | Stmt::Assert(_) => {}
        }
    }
    changed
}

/// One pass of "the result depends on it"; true if anything changed.
fn backward(block: &Block, useful: &mut HashSet<VarId>) -> bool {
    let mut changed = false;
    let spread = |set: &mut HashSet<VarId>, var: VarId, to: &[VarId]| {
        set.contains(&var) && to.iter().fold(false, |grew, v| set.insert(*v) | grew)
    };
    for stmt in block.iter().rev() {
        match stmt {
            Stmt::Assign { dst, op } => {
                let to = flowing(op);
                changed |= spread(useful, *dst, &to);
                for var in op.tangent_out().into_iter().chain(written(op)) {
                    changed |= spread(useful, var, &to);
                }
            }
            Stmt::Store { array, value, .. } | Stmt::StoreAdd { array, value, .. } => {
                changed |= spread(
                    useful,
                    *array,
                    &operand_var(value).into_iter().collect::<Vec<_>>(),
                )
            }
            Stmt::If(branch) => {
                for join in &branch.joins {
                    let to: Vec<VarId> = [&join.then, &join.otherwise]
                        .into_iter()
                        .filter_map(operand_var)
                        .collect();
                    changed |= spread(useful, join.dst, &to);
                }
                changed |= backward(&branch.then, useful);
                changed |= backward(&branch.otherwise, useful);
            }
            Stmt::Loop(the_loop) => {
                for carried in &the_loop.carried {
                    let to: Vec<VarId> = [&carried.init, &carried.exit]
                        .into_iter()
                        .filter_map(operand_var)
                        .collect();
                    changed |= spread(useful, carried.slot, &to);
                }
                changed |= backward(&the_loop.body, useful);
            }
            Stmt::IntLet { .. } | Stmt::BoolLet { .. } | Stmt::Array { .. } | Stmt::Assert(_) => {}
        }
    }
    changed
}
