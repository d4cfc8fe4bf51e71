//! A helper returning `[f64; M]` assigned back to the local array it reads (issue 24,
//! session 13): a function `fstep(hs: &[f64; M], ws: f64) -> [f64; M]` added before the entry,
//! and, first in the entry's body, `let mut h = [a, ..]; for _ in 0..K { h = fstep(&h, a); }`
//! whose entries are folded into one of the entry's `f64` parameters `a` shadowed by `let`, so
//! every later use of `a` depends on the steps.
//!
//! Drawn from a stream of its own after the rest of the program (and after matrix_params.rs),
//! so every other program of a seed stays as it was. Programs of methods and entries that are
//! generic or have no `f64` parameter are left alone. `fstep` is arithmetic only (the `Value`
//! engine and value-only programs have it), and asks for `hvp` where every function can. Half
//! of them print the returned array's length as a `const` (`Func::named_len`).

use super::*;
use std::rc::Rc;

/// The chance a program gets the step helper.
const CHANCE: f64 = 0.1;

/// The helper's name.
const NAME: &str = "fstep";

/// `let mut h = [a, a * c1, ..]; for _ in 0..K { h = fstep(&h, a); } let a = a + h[i] op h[j];`
#[derive(Debug)]
struct StepLoop {
    h: String,
    a: String,
    m: usize,
    times: usize,
    scales: Vec<f64>,
    at: (usize, usize),
    op: &'static str,
}

/// Adds `fstep` to `p` and its loop to the entry's body, at chance [`CHANCE`].
pub fn draw(p: &mut Program, seed: u64) {
    let Some((mut rng, scalars)) = entry_draw(p, seed, 0x5354_4550_4845_4C50, CHANCE, true) else {
        return;
    };
    let m = rng.range(2, 4) as usize;
    let (hs, ws) = ("hs".to_string(), "ws".to_string());
    let at = |k: usize| Expr::Index(hs.clone(), IExpr::Lit(k as i64), true);
    let ws_var = || Expr::Var(ws.clone(), true);
    // Entry r: ws * hs[r] - c * hs[r] * hs[r + 1] (+ ws), each a different mix.
    let parts: Vec<Expr> = (0..m)
        .map(|r| {
            let c = rng.pick(&[0.25, 0.5, -0.5]);
            let lin = Expr::Bin("*", Box::new(ws_var()), Box::new(at(r)));
            let quad = Expr::Bin(
                "*",
                Box::new(Expr::Bin("*", Box::new(Expr::Lit(c)), Box::new(at(r)))),
                Box::new(at((r + 1) % m)),
            );
            let e = Expr::Bin("-", Box::new(lin), Box::new(quad));
            match rng.chance(0.5) {
                true => Expr::Bin("+", Box::new(e), Box::new(ws_var())),
                false => e,
            }
        })
        .collect();
    let out = Out { m, tuple: false };
    let tail = vec_calls::values(parts, Some(&out));
    let hvp = p.funcs.iter().all(|f| f.unit.is_none());
    let step = Func {
        name: NAME.to_string(),
        params: vec![
            Param {
                name: hs,
                kind: PKind::Array(m),
            },
            Param {
                name: ws,
                kind: PKind::Scalar,
            },
        ],
        wrt: None,
        body: Vec::new(),
        tail: Some(tail),
        hvp,
        out: Some(out),
        jacobian: false,
        generic: false,
        unit: None,
        named_len: false,
    };
    let a = scalars[rng.below(scalars.len())].clone();
    let node = StepLoop {
        h: format!("{a}_h"),
        a,
        m,
        times: rng.range(0, 4) as usize,
        scales: (1..m).map(|_| rng.pick(&[0.5, -0.25, 1.5])).collect(),
        at: (rng.below(m), rng.below(m)),
        op: rng.pick(&["+", "-", "*"]),
    };
    // Half the helpers return `[f64; FSTEP_LEN]` of a `const` (drawn last, so the draws above
    // stay as they were): differentiated through `__fstep_into`, which has no second order, so
    // no function of the program asks for `hvp`.
    let mut step = step;
    if rng.chance(0.5) {
        step.named_len = true;
        step.hvp = false;
        p.funcs.iter_mut().for_each(|f| f.hvp = false);
    }
    let last = p.funcs.len() - 1;
    p.funcs[last].body.insert(0, Stmt::Ext(Rc::new(node)));
    p.funcs.insert(last, step);
}

impl StmtNode for StepLoop {
    fn print(&self, p: &mut Printer) {
        let (h, a) = (p.name(&self.h), p.name(&self.a));
        let callee = p.callee(NAME);
        let a_read = match p.mode {
            Mode::Value => format!("{a}.clone()"),
            _ => a.clone(),
        };
        let mut entries = vec![a_read.clone()];
        for &c in &self.scales {
            entries.push(format!("{a_read} * {}", p.float(c, false)));
        }
        let ty = match p.mode {
            Mode::Plain => String::new(),
            _ => format!(": [{}; {}]", p.ty(), self.m),
        };
        let (i, j) = self.at;
        let read = |k: usize| match p.mode {
            Mode::Value => format!("{h}[{k}].clone()"),
            _ => format!("{h}[{k}]"),
        };
        let (hi, hj) = (read(i), read(j));
        p.line(&format!("let mut {h}{ty} = [{}];", entries.join(", ")));
        p.line(&format!("for _ in 0..{} {{", self.times));
        p.line(&format!("    {h} = {callee}(&{h}, {a_read});"));
        p.line("}");
        p.line(&format!("let {a} = {a_read} + {hi} {} {hj};", self.op));
    }
}
