//! Several values (README's "Vector outputs and Jacobians"): functions returning `[f64; M]` or
//! a tuple of `f64`s (M = 2 or 3, at their end and from `return`s), and their calls taken apart
//! by `let`, as README says a caller may: `let [a, _, c] = g(..);`, `let (u, v) = h(..);`, or
//! `let r: [f64; M] = g(..);` and then `r[k]` (a local array, never written, that may be
//! passed on). The checker (tests/random/vector_check.rs) weighs an entry's outputs by the
//! program's seed.

use super::*;
use std::rc::Rc;

/// `let [a, b] = g(..);`, `let (u, _, w) = h(..);` or `let r: [f64; 3] = g(..);`.
pub struct VecCall;

#[derive(Debug)]
enum Bind {
    /// The names of a `[..]` or `(..)` pattern, `None` for `_`.
    Names(Vec<Option<String>>),
    /// `let r: [f64; M]`.
    Array(String),
}

#[derive(Debug)]
struct VecCallNode {
    callee: String,
    args: Vec<Arg>,
    out: Out,
    bind: Bind,
    /// `x += ..` of the outputs read, for a mutable `x` in scope.
    then: Option<Stmt>,
}

/// `[a, b]` or `(a, b, c)`: the value of a function returning several.
#[derive(Debug)]
struct ValuesNode {
    parts: Vec<Expr>,
    tuple: bool,
}

/// The value a function returning `out` returns: `parts[0]` alone for one `f64`.
pub fn values(mut parts: Vec<Expr>, out: Option<&Out>) -> Expr {
    match out {
        None => parts.remove(0),
        Some(out) => Expr::Ext(Rc::new(ValuesNode {
            parts,
            tuple: out.tuple,
        })),
    }
}

impl Gen<'_> {
    /// The value of a `return` in the function being drawn, of depth `d`.
    pub fn ret_value(&mut self, d: usize) -> Expr {
        let m = self.out.as_ref().map_or(1, |o| o.m);
        let parts = (0..m).map(|_| self.expr(d)).collect();
        values(parts, self.out.clone().as_ref())
    }
}

impl StmtConstruct for VecCall {
    fn weight(&self, g: &Gen, _: usize) -> u32 {
        if g.calls_left > 0 && !g.callable(true).is_empty() {
            6
        } else {
            0
        }
    }

    fn generate(&self, g: &mut Gen, _: usize) -> Stmt {
        let callee = g.rng.pick(&g.callable(true));
        g.calls_left -= 1;
        let d = g.rng.range(1, 2) as usize;
        let args = g.call_args(&callee, d);
        let out = callee.out.clone().expect("a callee returning several values");
        let mutable: Vec<FVar> = g.fvars().into_iter().filter(|v| v.mutable).collect();
        let bind = if !out.tuple && g.rng.chance(0.4) {
            let name = g.fresh("r");
            let loop_depth = g.loop_depth;
            g.scope().s.push(SVar {
                name: name.clone(),
                len: out.m,
                exact: true,
                local: true,
                loop_depth,
                typed: true,
            });
            // Not `mut`: no store goes to it.
            g.frozen.insert(name.clone());
            Bind::Array(name)
        } else {
            let keep = g.rng.below(out.m);
            let mut names = Vec::new();
            for k in 0..out.m {
                if k != keep && g.rng.chance(0.25) {
                    names.push(None);
                    continue;
                }
                let name = g.fresh("y");
                g.scope().f.push(FVar {
                    name: name.clone(),
                    mutable: false,
                    typed: true,
                    outside: false,
                });
                names.push(Some(name));
            }
            Bind::Names(names)
        };
        // Most calls' outputs flow on at once into a variable (later statements may read them
        // too).
        let reads: Vec<Expr> = match &bind {
            Bind::Array(r) => (0..out.m)
                .map(|k| Expr::Index(r.clone(), IExpr::Lit(k as i64), true))
                .collect(),
            Bind::Names(names) => names
                .iter()
                .flatten()
                .map(|y| Expr::Var(y.clone(), true))
                .collect(),
        };
        let then = (!mutable.is_empty() && g.rng.chance(0.7)).then(|| {
            let target = g.rng.pick(&mutable);
            let mut sum = g.rng.pick(&reads);
            let more: Vec<Expr> = reads.into_iter().filter(|_| g.rng.chance(0.5)).collect();
            for read in more {
                let op = g.rng.pick(&["+", "-", "*"]);
                sum = Expr::Bin(op, Box::new(sum), Box::new(read));
            }
            Stmt::Assign {
                name: target.name,
                op: "+=",
                expr: sum,
            }
        });
        Stmt::Ext(Rc::new(VecCallNode {
            callee: callee.name,
            args,
            out,
            bind,
            then,
        }))
    }
}

impl StmtNode for VecCallNode {
    fn print(&self, p: &mut Printer) {
        let call = p.expr(&Expr::Call(self.callee.clone(), self.args.clone()), false);
        let pattern = match &self.bind {
            Bind::Array(name) => format!("{}: [{}; {}]", p.name(name), p.ty(), self.out.m),
            Bind::Names(names) => {
                let names: Vec<String> = names
                    .iter()
                    .map(|n| n.as_deref().map_or("_".to_string(), |n| p.name(n)))
                    .collect();
                match self.out.tuple {
                    true => format!("({})", names.join(", ")),
                    false => format!("[{}]", names.join(", ")),
                }
            }
        };
        p.line(&format!("let {pattern} = {call};"));
        if let Some(then) = &self.then {
            p.stmt(then);
        }
    }
}

impl ExprNode for ValuesNode {
    fn print(&self, p: &mut Printer, typed: bool) -> String {
        let parts: Vec<String> = self.parts.iter().map(|e| p.expr(e, typed)).collect();
        match self.tuple {
            true => format!("({})", parts.join(", ")),
            false => format!("[{}]", parts.join(", ")),
        }
    }

    fn has_stmts(&self) -> bool {
        self.parts.iter().any(has_stmts)
    }

    fn anchored(&self) -> bool {
        true
    }
}
