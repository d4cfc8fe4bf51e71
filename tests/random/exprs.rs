//! `f64` expressions: the weighted choice among every kind, leaves, and the wrappers that keep
//! an argument positive or inside (-1, 1).

use super::*;

impl Gen<'_> {
    pub fn positive(&mut self, e: Expr) -> Expr {
        let c = self.positive_literal();
        let b = Box::new(e);
        let n = if self.value_only { 4 } else { 7 };
        // `e * e` runs `e` twice: not if `e` has statements (a store before a call that passed
        // the array, again after it).
        let k = match self.rng.below(n) {
            0 if has_stmts(&b) => 3,
            k => k,
        };
        match k {
            0 => Expr::Bin(
                "+",
                Box::new(Expr::Bin("*", b.clone(), b)),
                Box::new(Expr::Lit(c)),
            ),
            1 => Expr::M1("exp", Box::new(Expr::M1("tanh", b))),
            2 => Expr::Bin(
                "+",
                Box::new(Expr::M1("sigmoid", b)),
                Box::new(Expr::Lit(c)),
            ),
            3 => Expr::Bin(
                "+",
                Box::new(Expr::Powi(b, IExpr::Lit(2))),
                Box::new(Expr::Lit(c)),
            ),
            4 => Expr::Bin("+", Box::new(Expr::M1("abs", b)), Box::new(Expr::Lit(c))),
            5 => Expr::M1("cosh", b),
            _ => Expr::M2("hypot", b, Box::new(Expr::Lit(c))),
        }
    }

    pub fn unit(&mut self, e: Expr) -> Expr {
        let b = Box::new(e);
        match self.rng.below(3) {
            0 => Expr::Bin("*", Box::new(Expr::M1("tanh", b)), Box::new(Expr::Lit(0.9))),
            1 => Expr::Bin("*", Box::new(Expr::M1("sin", b)), Box::new(Expr::Lit(0.9))),
            _ => Expr::Bin(
                "*",
                Box::new(Expr::Bin(
                    "-",
                    Box::new(Expr::M1("sigmoid", b)),
                    Box::new(Expr::Lit(0.5)),
                )),
                Box::new(Expr::Lit(1.5)),
            ),
        }
    }

    pub fn leaf(&mut self) -> Expr {
        let vars = self.fvars();
        let seqs = self.svars();
        let ints = self.ivars(ITy::Usize);
        let i32s = self.ivars(ITy::I32);
        match self.rng.weighted(&[
            if vars.is_empty() { 0 } else { 12 },
            3,
            1,
            if seqs.is_empty() { 0 } else { 6 },
            if ints.is_empty() && i32s.is_empty() {
                0
            } else {
                2
            },
        ]) {
            0 => {
                let v = self.rng.pick(&vars);
                Expr::Var(v.name, v.typed)
            }
            1 => Expr::Lit(self.literal()),
            2 => Expr::Const(self.rng.pick(&[
                "PI",
                "E",
                "LN_2",
                "FRAC_1_SQRT_2",
                "SQRT_2",
                "FRAC_PI_4",
            ])),
            3 => {
                let s = self.rng.pick(&seqs);
                let i = self.index(&s);
                Expr::Index(s.name.clone(), i, s.typed)
            }
            _ => {
                if !i32s.is_empty() && (ints.is_empty() || self.rng.chance(0.3)) {
                    Expr::Cast(IExpr::Var(self.rng.pick(&i32s).name))
                } else {
                    let e = self.usize_expr(1);
                    Expr::Cast(e)
                }
            }
        }
    }

    pub fn expr(&mut self, depth: usize) -> Expr {
        if depth == 0 {
            return self.leaf();
        }
        let can_call = self.calls_left > 0 && !self.callees.is_empty();
        let full = !self.value_only;
        let mut weights = vec![
            4,                            // leaf
            14,                           // + - *
            3,                            // /
            2,                            // neg
            9,                            // method
            if full { 4 } else { 0 },     // two-argument method
            3,                            // powi
            1,                            // if expression
            1,                            // block expression
            if can_call { 3 } else { 0 }, // call
            if full { 1 } else { 0 },     // f64::max(a, b)
        ];
        weights.extend(EXPRS.iter().map(|c| c.weight(self)));
        let choice = self.rng.weighted(&weights);
        let d = depth - 1;
        match choice {
            0 => self.leaf(),
            1 => {
                let op = self.rng.pick(&["+", "-", "*"]);
                Expr::Bin(op, Box::new(self.expr(d)), Box::new(self.expr(d)))
            }
            2 => {
                let num = self.expr(d);
                let den = self.expr(d);
                let den = if self.rng.chance(0.85) {
                    self.positive(den)
                } else {
                    den
                };
                // A fifth of them `%` (fmod; not on `Value`), whose jumps the checker's
                // decisions see.
                let op = if full && self.rng.chance(0.2) {
                    "%"
                } else {
                    "/"
                };
                Expr::Bin(op, Box::new(num), Box::new(den))
            }
            3 => Expr::Neg(Box::new(self.expr(d))),
            4 => self.method(d),
            5 => {
                let a = self.expr(d);
                let b = self.expr(d);
                match self.rng.below(5) {
                    0 => Expr::M2("max", Box::new(a), Box::new(b)),
                    1 => Expr::M2("min", Box::new(a), Box::new(b)),
                    // Singular at (0, 0), which `relu` makes common: mostly away from it.
                    2 | 3 => {
                        let b = if self.rng.chance(0.85) {
                            self.positive(b)
                        } else {
                            b
                        };
                        let m = if self.rng.chance(0.5) {
                            "hypot"
                        } else {
                            "atan2"
                        };
                        Expr::M2(m, Box::new(a), Box::new(b))
                    }
                    _ => {
                        let base = self.positive(a);
                        Expr::M2("powf", Box::new(base), Box::new(b))
                    }
                }
            }
            6 => {
                let base = self.expr(d);
                let n = self.i32_expr();
                // A negative power is singular at 0: mostly of a positive base.
                let negative = match &n {
                    IExpr::Lit(k) => *k < 0,
                    IExpr::Var(_) => true,
                    _ => false,
                };
                let base = if negative && self.rng.chance(0.95) {
                    self.positive(base)
                } else {
                    base
                };
                Expr::Powi(Box::new(base), n)
            }
            7 => self.if_expr(d),
            8 => {
                self.push();
                let saved = self.enter_nested();
                self.expr_blocks += 1;
                let n = self.rng.range(1, 2) as usize;
                let stmts = self.stmts(n, 1);
                let tail = self.expr(d);
                self.expr_blocks -= 1;
                self.leave_nested(saved);
                self.pop();
                Expr::Block(stmts, Box::new(tail))
            }
            9 => self.call(d),
            10 => {
                let a = self.expr(d);
                let b = self.expr(d);
                let m = self.rng.pick(&["max", "min"]);
                Expr::Path2(m, Box::new(a), Box::new(b))
            }
            k => EXPRS[k - 11].generate(self, d),
        }
    }
}

/// Whether `e` holds statements (an `if` value, a block).
pub fn has_stmts(e: &Expr) -> bool {
    match e {
        Expr::If(..) | Expr::Block(..) => true,
        Expr::Lit(_) | Expr::Const(_) | Expr::Var(..) | Expr::Index(..) | Expr::Cast(_) => false,
        Expr::Neg(a) | Expr::M1(_, a) | Expr::Powi(a, _) => has_stmts(a),
        Expr::Bin(_, a, b) | Expr::M2(_, a, b) | Expr::Path2(_, a, b) => {
            has_stmts(a) || has_stmts(b)
        }
        Expr::Call(_, args) => args.iter().any(|a| match a {
            Arg::Scalar(e) => has_stmts(e),
            Arg::Bool(_) => true,
            Arg::Slice(..) | Arg::Int(_) => false,
        }),
        Expr::Ext(node) => node.has_stmts(),
    }
}

/// Whether Rust knows `e` is an `f64` (otherwise it may be an unsuffixed `{float}`).
pub fn anchored(e: &Expr) -> bool {
    match e {
        Expr::Lit(_) => false,
        Expr::Var(_, typed) | Expr::Index(_, _, typed) => *typed,
        Expr::Neg(a) => anchored(a),
        Expr::Bin(_, a, b) => anchored(a) || anchored(b),
        Expr::If(arms, _, tail) => anchored(tail) || arms.iter().any(|(_, _, t)| anchored(t)),
        Expr::Block(_, tail) => anchored(tail),
        Expr::Ext(node) => node.anchored(),
        _ => true,
    }
}
