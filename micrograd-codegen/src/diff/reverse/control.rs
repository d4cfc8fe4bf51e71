//! Branches and loops reversed: an `if` on the recorded decision, a loop backwards over its
//! trips, each with the adjoints its blocks contribute to declared where they belong.

use super::super::expr::Expr;
use super::super::{Rev, synthetic};
use super::{Scope, Sweep, defined};
use crate::ir::{If, Loop, Operand, Ty, VarId};
use std::collections::HashSet;

impl Sweep<'_> {
    /// Reverses an `if`: each branch backwards, on the decision the forward sweep stored.
    ///
    /// Before: `let x_1 = if c { x * x } else { x };`
    /// After: `if c { d_x += d_x_1 * x; d_x += d_x_1 * x; } else { d_x += d_x_1; }`
    pub(super) fn branch(&mut self, branch: &If, out: &mut Vec<Rev>) {
        let mut reversed = Vec::new();
        let mut outer = HashSet::new();
        for (block, taken) in [(&branch.then, true), (&branch.otherwise, false)] {
            let scope = Scope::new(defined(block).collect());
            let (rev, used) = self.nested(scope, |this, inner| {
                this.arrays(block, inner);
                for join in &branch.joins {
                    let operand = if taken { &join.then } else { &join.otherwise };
                    if let Operand::Var(v) = operand
                        && this.activity.is_active(*v)
                        && this.is_declared(join.dst)
                    {
                        this.accumulate(*v, Expr::Adj(join.dst), inner);
                    }
                }
                this.block_stmts(block, inner);
            });
            reversed.push(rev);
            outer.extend(used);
        }
        let (Some(otherwise), Some(then)) = (reversed.pop(), reversed.pop()) else {
            return;
        };
        if then.is_empty() && otherwise.is_empty() {
            return;
        }
        self.declare_all(outer, out);
        let cond = synthetic(self.vars, Ty::Bool);
        self.decisions[branch.id] = Some(cond);
        out.push(Rev::If {
            branch: branch.id,
            cond,
            then,
            otherwise,
        });
    }

    /// Reverses a loop: the body backwards, once per iteration, last iteration first.
    ///
    /// Before: `let mut s = 0.0; for i in 0..n { let t = w[i] * w[i]; s = s + t; }`
    /// After: `for i in (0..n).rev() { let d_s_1 = d_s; let d_t = d_s_1; d_s = d_s_1; d_w[i] += d_t * w[i]; .. }`
    pub(super) fn reverse_loop(&mut self, the_loop: &Loop, out: &mut Vec<Rev>) {
        let active = |c: &&crate::ir::Carried| self.activity.is_active(c.slot);
        let slots: Vec<VarId> = the_loop
            .carried
            .iter()
            .filter(active)
            .map(|c| c.slot)
            .collect();
        // Slots the body overwrites: their adjoint restarts at every reversed iteration.
        let restarts: Vec<VarId> = the_loop
            .carried
            .iter()
            .filter(active)
            .filter(|c| c.exit != Operand::Var(c.slot))
            .map(|c| c.slot)
            .collect();
        let (body, outer) = self.reversed_body(the_loop, &restarts);
        if body.is_empty() && slots.is_empty() {
            return;
        }
        for slot in &slots {
            self.declare(*slot, out);
        }
        self.declare_all(outer, out);
        out.push(Rev::Loop {
            the_loop: the_loop.id,
            body,
        });
        for carried in &the_loop.carried {
            if let Operand::Var(init) = carried.init
                && slots.contains(&carried.slot)
                && self.activity.is_active(init)
            {
                self.accumulate(init, Expr::Adj(carried.slot), out);
            }
        }
    }

    /// One reversed iteration: the exit values take the slots' adjoints, the body runs
    /// backwards, and each restarted slot ends with the adjoint of its entry value.
    fn reversed_body(&mut self, the_loop: &Loop, restarts: &[VarId]) -> (Vec<Rev>, HashSet<VarId>) {
        let mut owned: HashSet<VarId> = defined(&the_loop.body).collect();
        owned.extend(the_loop.index());
        owned.extend(restarts.iter().copied());
        let mut scope = Scope::new(owned);
        scope.restarts = restarts.iter().copied().collect();
        self.nested(scope, |this, inner| {
            this.arrays(&the_loop.body, inner);
            for carried in &the_loop.carried {
                if let Operand::Var(exit) = carried.exit
                    && restarts.contains(&carried.slot)
                    && this.activity.is_active(exit)
                {
                    this.accumulate(exit, Expr::Adj(carried.slot), inner);
                }
            }
            this.block_stmts(&the_loop.body, inner);
            for slot in restarts {
                if !this.scope().declared.contains_key(slot) {
                    inner.push(Rev::Set(*slot, Expr::Const(0.0)));
                }
            }
        })
    }
}
