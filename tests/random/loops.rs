//! `for` loops over integer ranges, with index variables whose bounds are known.

use super::*;

impl Gen<'_> {
    pub fn for_stmt(&mut self, level: usize) -> Stmt {
        self.loops_left -= 1;
        let seqs = self.svars();
        let ints = self.ivars(ITy::Usize);
        let params: Vec<IVar> = ints.iter().filter(|v| v.bound.is_some()).cloned().collect();
        let usize_params: Vec<IVar> = ints
            .iter()
            .filter(|v| v.name.starts_with('n'))
            .cloned()
            .collect();
        let (lo, hi, inclusive, bound) = match self.rng.weighted(&[
            if seqs.is_empty() { 0 } else { 8 },
            4,
            2,
            if usize_params.is_empty() { 0 } else { 3 },
            2,
            if params.is_empty() { 0 } else { 3 },
        ]) {
            0 => {
                let s = self.rng.pick(&seqs);
                let bound = if s.exact {
                    Bound::Const(s.len)
                } else {
                    Bound::Len(s.name.clone())
                };
                if !s.exact && self.rng.chance(0.2) {
                    // for i in 1..w.len(): still below w.len()
                    (IExpr::Lit(1), IExpr::Len(s.name.clone()), false, bound)
                } else {
                    (IExpr::Lit(0), IExpr::Len(s.name.clone()), false, bound)
                }
            }
            1 => {
                let n = self.rng.range(1, 4);
                (
                    IExpr::Lit(0),
                    IExpr::Lit(n),
                    false,
                    Bound::Const(n as usize),
                )
            }
            2 => {
                let n = self.rng.range(0, 3);
                (
                    IExpr::Lit(0),
                    IExpr::Lit(n),
                    true,
                    Bound::Const(n as usize + 1),
                )
            }
            3 => {
                // n has its own maximum; i < n <= max
                let v = self.rng.pick(&usize_params);
                let max = match v.bound {
                    Some(Bound::Const(c)) => c,
                    _ => 4,
                };
                (IExpr::Lit(0), IExpr::Var(v.name), false, Bound::Const(max))
            }
            4 => {
                let a = self.rng.range(1, 2);
                let b = self.rng.range(2, 5);
                (
                    IExpr::Lit(a),
                    IExpr::Lit(b),
                    false,
                    Bound::Const(b as usize),
                )
            }
            _ => {
                // nested: for j in 0..i, 0..=i, i..w.len()
                let v = self.rng.pick(&params);
                let b = v.bound.clone().expect("bounded");
                match self.rng.below(2) {
                    0 => (IExpr::Lit(0), IExpr::Var(v.name), false, b),
                    _ => (IExpr::Lit(0), IExpr::Var(v.name), true, b),
                }
            }
        };
        let var = if self.rng.chance(0.1) {
            None
        } else {
            Some(self.fresh("i"))
        };
        self.loop_depth += 1;
        self.push();
        if let Some(name) = &var {
            let depth = self.depth();
            self.scope().i.push(IVar {
                name: name.clone(),
                ty: ITy::Usize,
                bound: Some(bound),
                mutable: false,
                depth,
            });
        }
        let saved_ret = self.enter_nested();
        let n = self.rng.range(1, 4) as usize;
        let body = self.stmts(n, level + 1);
        self.leave_nested(saved_ret);
        self.pop();
        self.loop_depth -= 1;
        Stmt::For {
            var,
            lo,
            hi,
            inclusive,
            body,
        }
    }
}
