//! Branches: `if` values and statements, and the conditions they test.

use super::*;

impl Gen<'_> {
    /// Saves the flags a nested block (an `if` value, a `{ .. }`) changes: no `return` there.
    pub fn enter_nested(&mut self) -> bool {
        std::mem::replace(&mut self.ret_ok, false)
    }

    pub fn leave_nested(&mut self, saved: bool) {
        self.ret_ok = saved;
    }

    pub fn if_expr(&mut self, d: usize) -> Expr {
        let saved = self.enter_nested();
        self.expr_blocks += 1;
        let arms_n = self.rng.range(1, 2) as usize;
        let mut arms = Vec::new();
        for _ in 0..arms_n {
            let cond = self.cond(1);
            self.push();
            let n = self.rng.below(2);
            let stmts = self.stmts(n, 1);
            let tail = self.expr(d);
            self.pop();
            arms.push((cond, stmts, tail));
        }
        self.push();
        let n = self.rng.below(2);
        let stmts = self.stmts(n, 1);
        let tail = self.expr(d);
        self.pop();
        self.expr_blocks -= 1;
        self.leave_nested(saved);
        Expr::If(arms, stmts, Box::new(tail))
    }

    pub fn cond(&mut self, depth: usize) -> Cond {
        let ints = self.ivars(ITy::Usize);
        let i32s = self.ivars(ITy::I32);
        let bools = self.bvars();
        match self.rng.weighted(&[
            12,
            if ints.is_empty() && i32s.is_empty() {
                0
            } else {
                2
            },
            if depth > 0 { 3 } else { 0 },
            if depth > 0 { 1 } else { 0 },
            if bools.is_empty() { 0 } else { 2 },
            1,
        ]) {
            0 => {
                let op = if self.rng.chance(0.05) {
                    self.rng.pick(&["==", "!="])
                } else {
                    self.rng.pick(&["<", ">", "<=", ">="])
                };
                let dl = self.rng.range(0, 2) as usize;
                let a = self.expr(dl);
                let b = if self.rng.chance(0.5) {
                    Expr::Lit(self.literal())
                } else {
                    self.expr(1)
                };
                Cond::Cmp(op, Box::new(a), Box::new(b))
            }
            1 => {
                let op = self.rng.pick(&["<", ">", "<=", ">=", "==", "!="]);
                if !i32s.is_empty() && (ints.is_empty() || self.rng.chance(0.3)) {
                    let v = self.rng.pick(&i32s).name;
                    Cond::ICmp(op, IExpr::Var(v), IExpr::Lit(self.rng.range(-1, 3)))
                } else {
                    let a = self.usize_expr(1);
                    let b = self.usize_expr(0);
                    Cond::ICmp(op, a, b)
                }
            }
            2 => {
                let a = self.cond(depth - 1);
                let b = self.cond(depth - 1);
                if self.rng.chance(0.5) {
                    Cond::And(Box::new(a), Box::new(b))
                } else {
                    Cond::Or(Box::new(a), Box::new(b))
                }
            }
            3 => Cond::Not(Box::new(self.cond(depth - 1))),
            4 => Cond::Var(self.rng.pick(&bools)),
            _ => Cond::Lit(self.rng.chance(0.5)),
        }
    }

    // ----- statements

    pub fn if_stmt(&mut self, level: usize) -> Stmt {
        self.if_depth += 1;
        let arms_n = self.rng.weighted(&[0, 6, 3, 1]);
        let mut arms = Vec::new();
        for _ in 0..arms_n {
            let cond = self.cond(2);
            self.push();
            let n = self.rng.range(1, 3) as usize;
            let body = self.stmts(n, level + 1);
            self.pop();
            arms.push((cond, body));
        }
        let els = if self.rng.chance(0.5) {
            self.push();
            let n = self.rng.range(1, 3) as usize;
            let body = self.stmts(n, level + 1);
            self.pop();
            Some(body)
        } else {
            None
        };
        self.if_depth -= 1;
        Stmt::If { arms, els }
    }
}
