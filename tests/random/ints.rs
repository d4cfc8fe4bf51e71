//! Integer expressions: `usize` values never below zero, `powi` exponents, indices in bounds.

use super::*;

impl Gen<'_> {
    pub fn literal(&mut self) -> f64 {
        if self.rng.chance(0.6) {
            self.rng.pick(&[
                0.5, 1.0, 1.5, 2.0, 0.25, 3.0, 0.1, 0.75, -0.5, -1.0, -2.0, 1.25, 0.3,
            ])
        } else {
            self.rng.range(-48, 48) as f64 / 16.0
        }
    }

    pub fn positive_literal(&mut self) -> f64 {
        self.rng.pick(&[0.1, 0.5, 1.0, 2.0, 0.25, 1.5])
    }

    /// A `usize` expression, small and never negative.
    pub fn usize_expr(&mut self, depth: usize) -> IExpr {
        let vars = self.ivars(ITy::Usize);
        let seqs = self.svars();
        let choice = self.rng.weighted(&[
            3,
            if vars.is_empty() { 0 } else { 6 },
            if seqs.is_empty() { 0 } else { 2 },
            if depth > 0 { 3 } else { 0 },
            if self.labels.is_empty() { 0 } else { 3 },
        ]);
        match choice {
            // A tenth of the literals an entry of an array of literals, picked at run time.
            0 if depth > 0 && self.rng.chance(0.1) => {
                let entries = (0..2 + self.rng.below(3)).map(|_| self.rng.range(0, 4));
                let entries = entries.collect();
                IExpr::Pick(entries, Box::new(self.usize_expr(depth - 1)))
            }
            0 => IExpr::Lit(self.rng.range(0, 4)),
            4 => {
                let (name, n) = self.rng.pick(&self.labels);
                IExpr::Label(name, self.rng.below(n))
            }
            1 => IExpr::Var(self.rng.pick(&vars).name),
            2 => IExpr::Len(self.rng.pick(&seqs).name),
            _ => {
                // `^` where a second `+` was: the same draws, so the programs keep their shape,
                // and `a ^ b <= a + b` keeps every bound a sum has.
                let op = self.rng.pick(&["+", "*", "%", "^"]);
                let a = self.usize_expr(depth - 1);
                let b = if op == "%" {
                    if !seqs.is_empty() && self.rng.chance(0.5) {
                        IExpr::Len(self.rng.pick(&seqs).name)
                    } else {
                        IExpr::Lit(self.rng.range(1, 4))
                    }
                } else if op == "*" {
                    IExpr::Lit(self.rng.range(0, 2))
                } else {
                    self.usize_expr(depth - 1)
                };
                IExpr::Bin(op, Box::new(a), Box::new(b))
            }
        }
    }

    /// An `i32` exponent for `powi`, in `-2..=4`.
    pub fn i32_expr(&mut self) -> IExpr {
        let vars = self.ivars(ITy::I32);
        let bounded: Vec<IVar> = self
            .ivars(ITy::Usize)
            .into_iter()
            .filter(|v| matches!(v.bound, Some(Bound::Const(c)) if c <= 5))
            .collect();
        match self.rng.weighted(&[
            6,
            if vars.is_empty() { 0 } else { 3 },
            if bounded.is_empty() { 0 } else { 2 },
        ]) {
            0 => IExpr::Lit(self.rng.pick(&[2, 3, 2, -1, -2, 0, 1, 4])),
            1 => IExpr::Var(self.rng.pick(&vars).name),
            _ => IExpr::Cast(Box::new(IExpr::Var(self.rng.pick(&bounded).name)), "i32"),
        }
    }

    /// An index valid for `seq`.
    pub fn index(&mut self, seq: &SVar) -> IExpr {
        let direct: Vec<IVar> = self
            .ivars(ITy::Usize)
            .into_iter()
            .filter(|v| match &v.bound {
                Some(Bound::Const(c)) => *c <= seq.len,
                Some(Bound::Len(s)) => *s == seq.name,
                None => false,
            })
            .collect();
        match self.rng.weighted(&[
            3,
            if direct.is_empty() { 0 } else { 8 },
            3,
            if direct.is_empty() { 0 } else { 1 },
        ]) {
            0 => IExpr::Lit(self.rng.range(0, seq.len as i64 - 1)),
            1 => IExpr::Var(self.rng.pick(&direct).name),
            2 => {
                let e = self.usize_expr(1);
                IExpr::Bin("%", Box::new(e), Box::new(IExpr::Len(seq.name.clone())))
            }
            _ => {
                // w.len() - 1 - i, with i < w.len()
                let i = self.rng.pick(&direct).name;
                IExpr::Bin(
                    "-",
                    Box::new(IExpr::Bin(
                        "-",
                        Box::new(IExpr::Len(seq.name.clone())),
                        Box::new(IExpr::Lit(1)),
                    )),
                    Box::new(IExpr::Var(i)),
                )
            }
        }
    }
}
