//! Statements: `let` (with shadowing and generated-looking names), assignments, integer and
//! `bool` bindings, local arrays and stores into them, blocks, `return`.

use super::*;

impl Gen<'_> {
    pub fn stmts(&mut self, n: usize, level: usize) -> Vec<Stmt> {
        let mut out = Vec::new();
        for _ in 0..n {
            let s = self.stmt(level);
            let is_return = diverges(&s);
            out.push(s);
            if is_return {
                break;
            }
        }
        out
    }

    pub fn name_for_let(&mut self) -> (String, bool) {
        let vars = self.fvars();
        if !vars.is_empty() && self.rng.chance(0.2) {
            return (self.rng.pick(&vars).name, true);
        }
        if self.rng.chance(0.06) {
            let n = self.rng.pick(&TRICKY).to_string();
            let taken = self.fvars().iter().any(|v| v.name == n)
                || self.svars().iter().any(|v| v.name == n)
                || self.ivars(ITy::Usize).iter().any(|v| v.name == n)
                || self.ivars(ITy::I32).iter().any(|v| v.name == n)
                || self.bvars().contains(&n);
            if !taken {
                return (n, false);
            }
        }
        (self.fresh("x"), false)
    }

    pub fn stmt(&mut self, level: usize) -> Stmt {
        let mutable: Vec<FVar> = self.fvars().into_iter().filter(|v| v.mutable).collect();
        let arrays: Vec<SVar> = self
            .svars()
            .into_iter()
            .filter(|s| {
                s.local && !self.frozen.contains(&s.name) && !self.no_pass.contains(&s.name)
            })
            .collect();
        // Any mutable integer in scope: branches join them and loops carry them (issue 11).
        let mutable_ints: Vec<IVar> = self
            .ivars(ITy::Usize)
            .into_iter()
            .filter(|v| v.mutable)
            .collect();
        let nest = level < 3;
        let mut weights = vec![
            30,                                            // let
            if mutable.is_empty() { 0 } else { 24 },       // assign
            4,                                             // let int
            if mutable_ints.is_empty() { 0 } else { 2 },   // assign int
            2,                                             // let bool
            if self.arrays_left > 0 { 4 } else { 0 },      // let array
            if arrays.is_empty() { 0 } else { 12 },        // store
            if nest && self.if_depth < 3 { 8 } else { 0 }, // if
            if nest && self.loops_left > 0 && self.loop_depth < 2 {
                9
            } else {
                0
            }, // for
            if self.ret_ok && self.returns_left > 0 && self.if_depth > 0 {
                3
            } else {
                0
            }, // return
            if nest { 1 } else { 0 },                      // block
        ];
        weights.extend(STMTS.iter().map(|c| c.weight(self, level)));
        let choice = self.rng.weighted(&weights);
        match choice {
            0 => self.let_stmt(),
            1 => self.assign(&mutable),
            2 => {
                let name = self.fresh("k");
                let expr = self.usize_expr(2);
                let mutable = self.rng.chance(0.3);
                let depth = self.depth();
                self.scope().i.push(IVar {
                    name: name.clone(),
                    ty: ITy::Usize,
                    bound: None,
                    mutable,
                    depth,
                });
                Stmt::LetInt {
                    name,
                    mutable,
                    expr,
                }
            }
            3 => {
                let v = self.rng.pick(&mutable_ints);
                let op = self.rng.pick(&["=", "+="]);
                let expr = self.usize_expr(1);
                Stmt::AssignInt {
                    name: v.name,
                    op,
                    expr: IExpr::Bin("%", Box::new(expr), Box::new(IExpr::Lit(5))),
                }
            }
            4 => {
                let name = self.fresh("b");
                let cond = self.cond(1);
                self.scope().b.push(name.clone());
                Stmt::LetBool { name, cond }
            }
            5 => self.let_array(),
            6 => {
                let arr = self.rng.pick(&arrays);
                let idx = self.index(&arr);
                let op = self
                    .rng
                    .pick(&["=", "=", "+=", "+=", "+=", "-=", "*=", "/="]);
                let d = self.rng.range(1, 3) as usize;
                // A call in the value would read the array before this store changes it.
                self.no_pass.push(arr.name.clone());
                let mut expr = self.expr(d);
                self.no_pass.pop();
                if op == "/=" {
                    expr = self.positive(expr);
                    expr = Expr::Bin("+", Box::new(expr), Box::new(Expr::Lit(1.0)));
                } else if op == "*=" && self.loop_depth > 0 {
                    expr = Expr::M1("tanh", Box::new(expr));
                }
                Stmt::Store {
                    arr: arr.name,
                    idx,
                    op,
                    expr,
                }
            }
            7 => self.if_stmt(level),
            8 => self.for_stmt(level),
            9 => {
                self.returns_left -= 1;
                let d = self.rng.range(1, 3) as usize;
                Stmt::Return(self.ret_value(d))
            }
            10 => {
                // Exits cross a `{ .. }` statement: `return`, and labelled `break` /
                // `continue` from the loops in it.
                self.push();
                let n = self.rng.range(1, 3) as usize;
                let body = self.stmts(n, level + 1);
                self.pop();
                Stmt::Block(body)
            }
            k => STMTS[k - 11].generate(self, level),
        }
    }

    pub fn let_stmt(&mut self) -> Stmt {
        let d = self.rng.range(1, 3) as usize;
        let expr = self.expr(d);
        let (name, _shadow) = self.name_for_let();
        let mutable = self.rng.chance(0.6);
        let anchored = anchored(&expr);
        let annot = if anchored {
            self.rng.chance(0.2)
        } else {
            self.value_only || self.rng.chance(0.6)
        };
        // `let mut k = K1;` used nowhere that says what `K1` is asks for an annotation.
        let annot = annot || (mutable && tail_draws::outside_only(self, &expr));
        // Rust knows the type of an annotated variable, or of one bound to an `f64` value; the
        // others may be `{float}`, so their methods are called as `f64::sqrt(c)`.
        let typed = anchored || annot;
        self.scope().f.push(FVar {
            name: name.clone(),
            mutable,
            typed,
            outside: false,
        });
        Stmt::Let {
            name,
            mutable,
            annot,
            expr,
        }
    }

    pub fn let_array(&mut self) -> Stmt {
        self.arrays_left -= 1;
        let name = self.fresh("h");
        let len = self.rng.range(1, 5) as usize;
        let fill = if self.rng.chance(0.7) {
            0.0
        } else {
            self.positive_literal()
        };
        // `[x; N]` of a float variable in scope (issue 24), a fifth of the time.
        let floats = self.fvars();
        let fill_var =
            (!floats.is_empty() && self.rng.chance(0.2)).then(|| self.rng.pick(&floats).name);
        let style = self.rng.below(if self.loop_depth == 0 { 4 } else { 3 }) as u8;
        let seqs = self.svars();
        let seq = (style == 3 && !seqs.is_empty() && self.rng.chance(0.5))
            .then(|| self.rng.pick(&seqs).name);
        let loop_depth = self.loop_depth;
        self.scope().s.push(SVar {
            name: name.clone(),
            len,
            exact: true,
            local: true,
            loop_depth,
            typed: style == 1 || style == 2,
        });
        Stmt::LetArr {
            name,
            len,
            fill,
            fill_var,
            style,
            seq,
        }
    }

    pub fn assign(&mut self, mutable: &[FVar]) -> Stmt {
        let v = self.rng.pick(mutable);
        let op = self.rng.pick(&["=", "=", "+=", "+=", "-=", "*=", "/="]);
        let d = self.rng.range(1, 3) as usize;
        let mut expr = self.expr(d);
        let in_loop = self.loop_depth > 0;
        match op {
            "/=" => {
                expr = self.positive(expr);
                if in_loop {
                    expr = Expr::Bin("+", Box::new(expr), Box::new(Expr::Lit(1.0)));
                }
            }
            "*=" if in_loop => expr = Expr::M1("tanh", Box::new(expr)),
            "=" if in_loop && self.rng.chance(0.5) => {
                // x = (x * c + e).tanh(), or x = x * 0.5 + e: bounded across iterations.
                let me = Expr::Var(v.name.clone(), v.typed);
                let scaled = Expr::Bin("*", Box::new(me), Box::new(Expr::Lit(0.5)));
                let sum = Expr::Bin("+", Box::new(scaled), Box::new(expr));
                expr = if self.rng.chance(0.5) && !self.value_only {
                    Expr::M1("sin", Box::new(sum))
                } else if self.rng.chance(0.5) {
                    Expr::M1("tanh", Box::new(sum))
                } else {
                    sum
                };
            }
            _ => {}
        }
        Stmt::Assign {
            name: v.name,
            op,
            expr,
        }
    }
}
