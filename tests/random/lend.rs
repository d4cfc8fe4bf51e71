//! Arrays lent to calls as `&mut` (README, "The language"): callees that take `w: &mut [f64]`,
//! read and write it and return an `f64`, and calls lending them a local array (`&mut h`,
//! `&mut h[a..b]`) or the caller's own `&mut [f64]` parameter (`w`, `&mut w[a..]`), as a value
//! (`let v = g(&mut h, x) * h[0];`, `y += g(w, x);`) or as a statement made for what it writes
//! (`g(&mut h, x);`), in straight-line code, branches and loop bodies, with the array read after.
//!
//! A third of the callees taking one return `()` instead ([`unit_output`], issue 24's outputs
//! written through references): their tail is stored into entry 0 of the `&mut [f64]`
//! parameter, and their callers call them as statements; a program with one asks no function
//! for `hvp` (a caller's second order does not go through them yet).
//!
//! Only what the macro accepts: one lent array per call, to callees returning one `f64`, never
//! in code only the forward sweep runs (a `while` condition, the right side of `&&` / `||`): the
//! calls are statements, drawn outside `if` values and `{ .. }` values, which conditions may
//! hold. `hvp` (and so `jvp`) goes through a lent call; only an entry taking `&mut [f64]` asks
//! for neither ([`Func::hvp`]), and the checker skips forward mode and second order for it.
//!
//! Inside the function that takes it, a `&mut [f64]` parameter is a local array of unknown
//! length declared outside every loop (an [`SVar`] with `local` and not `exact`): stores may
//! write it, it is passed read-only only where a local array may be (then frozen), and item
//! loops leave it alone. Which callees take one is drawn from a stream of its own
//! ([`mut_param`]), so the programs of functions without one are drawn as before.

use super::*;
use std::rc::Rc;

/// Makes a function take a `&mut [f64]` parameter, a third of the callees and a tenth of the
/// entries: one of its slices, or a new parameter.
pub fn mut_param(params: &mut Vec<Param>, seed: u64, k: usize, entry: bool) {
    let mut rng = Rng::new(mix(seed ^ 0x1E4D_A77A_5EED ^ ((k as u64) << 48)));
    if !rng.chance(if entry { 0.1 } else { 0.35 }) {
        return;
    }
    let slices: Vec<usize> = (0..params.len())
        .filter(|&i| matches!(params[i].kind, PKind::Slice(_)))
        .collect();
    if !slices.is_empty() && rng.chance(0.5) {
        let i = rng.pick(&slices);
        if let PKind::Slice(n) = params[i].kind {
            params[i].kind = PKind::MutSlice(n);
        }
    } else {
        // Parameters are named by their position when drawn: `w{len}` is free.
        let name = format!("w{}", params.len());
        let at = rng.below(params.len() + 1);
        let kind = PKind::MutSlice(rng.range(1, 3) as usize);
        params.insert(at, Param { name, kind });
    }
}

/// The `&mut [f64]` parameter of a callee that returns `()` (its tail stored into entry 0 of
/// that parameter, so what it computes is still its output), for a third of the callees that
/// take one: issue 24's outputs written through references, called as statements made for
/// what they write. Drawn from a stream of its own.
pub fn unit_output(params: &[Param], seed: u64, k: usize, excluded: bool) -> Option<String> {
    let mut rng = Rng::new(mix(seed ^ 0x0417_0B17_5EED ^ ((k as u64) << 40)));
    let param = params
        .iter()
        .find(|p| matches!(p.kind, PKind::MutSlice(_)))?;
    (!excluded && rng.chance(0.35)).then(|| param.name.clone())
}

/// Whether function `f` may ask for `hvp`: not an entry taking `&mut [f64]` (whose tangents
/// the checker's adapters do not pass).
pub fn asks_hvp(params: &[Param], entry: bool) -> bool {
    let takes_mut = params.iter().any(|p| matches!(p.kind, PKind::MutSlice(_)));
    !(entry && takes_mut)
}

/// The scope entry of a `&mut [f64]` parameter of at least `len` entries.
pub fn mut_svar(name: &str, len: usize) -> SVar {
    SVar {
        name: name.to_string(),
        len,
        exact: false,
        local: true,
        loop_depth: 0,
        typed: true,
    }
}

/// Whether `s` is a `&mut [f64]` parameter (a local array's length is known).
fn is_param(s: &SVar) -> bool {
    s.local && !s.exact
}

/// The least length of `callee`'s `&mut [f64]` parameter, if it takes one.
fn mut_min(callee: &Callee) -> Option<usize> {
    callee.params.iter().find_map(|p| match p.kind {
        PKind::MutSlice(min) => Some(min),
        _ => None,
    })
}

/// How the lent array is passed.
#[derive(Clone, Debug)]
enum Form {
    /// `&mut h`, or `w` for a parameter.
    Whole,
    /// `&mut h[a..b]`
    Range(usize, usize),
    /// `&mut w[a..]`
    From(usize),
}

/// What the call's value goes to.
#[derive(Debug)]
enum Shape {
    /// `g(..);`, made for what it writes.
    Stmt,
    /// `let v = g(..);`, or `let v = g(..) op e;` with `e` (reading the array) after the call.
    Let(String, bool, Option<(&'static str, Expr)>),
    /// `y op g(..);`
    Assign(String, &'static str),
}

#[derive(Debug)]
struct LentNode {
    callee: String,
    /// The arguments, `None` where the array is lent.
    args: Vec<Option<Arg>>,
    array: String,
    param: bool,
    form: Form,
    shape: Shape,
}

/// A statement calling a function that takes `&mut [f64]`, lending it an array.
pub struct LentCall;

impl Gen<'_> {
    /// Statements first in a function: a `&mut [f64]` parameter read and written (more may
    /// follow among the stores the body draws), and, when a callee takes one, a local array to
    /// lend it.
    pub fn lend_prologue(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        // Not one a call in an earlier statement was passed read-only (frozen; the local
        // array drawn for callees taking slices may have been), which the macro refuses.
        let frozen = |s: &SVar| self.frozen.contains(&s.name);
        let params: Vec<SVar> = self
            .svars()
            .into_iter()
            .filter(|s| is_param(s) && !frozen(s))
            .collect();
        for s in params {
            if !self.rng.chance(0.7) {
                continue;
            }
            let idx = self.index(&s);
            let read = Expr::Index(s.name.clone(), self.index(&s), true);
            self.no_pass.push(s.name.clone());
            let e = self.expr(1);
            self.no_pass.pop();
            let (op, expr) = match self.rng.below(3) {
                0 => (
                    "=",
                    Expr::M1(
                        "tanh",
                        Box::new(Expr::Bin("*", Box::new(read), Box::new(e))),
                    ),
                ),
                1 => ("+=", e),
                _ => ("=", Expr::Bin("-", Box::new(e), Box::new(read))),
            };
            out.push(Stmt::Store {
                arr: s.name,
                idx,
                op,
                expr,
            });
        }
        let min = self.callees.iter().filter_map(mut_min).max();
        if let Some(min) = min
            && self.rng.chance(0.7)
        {
            let name = self.fresh("h");
            let len = min + self.rng.below(3);
            let fill = if self.rng.chance(0.5) {
                0.0
            } else {
                self.positive_literal()
            };
            let style = self.rng.below(3) as u8;
            out.push(Stmt::LetArr {
                name: name.clone(),
                len,
                fill,
                fill_var: None,
                style,
                seq: None,
            });
            let typed = style != 0;
            let svar = SVar {
                name: name.clone(),
                len,
                exact: true,
                local: true,
                loop_depth: 0,
                typed,
            };
            self.scope().s.push(svar.clone());
            let idx = self.index(&svar);
            self.no_pass.push(name.clone());
            let expr = self.expr(1);
            self.no_pass.pop();
            out.push(Stmt::Store {
                arr: name,
                idx,
                op: "=",
                expr,
            });
        }
        out
    }

    /// The arrays that may be lent here: local arrays and `&mut [f64]` parameters not frozen
    /// by a read-only pass nor being stored into.
    fn lendable(&self) -> Vec<SVar> {
        self.svars()
            .into_iter()
            .filter(|s| {
                s.local && !self.frozen.contains(&s.name) && !self.no_pass.contains(&s.name)
            })
            .collect()
    }

    /// Each callee taking `&mut [f64]` with an array to lend it, whose other slices can be
    /// given something long enough from here (not the lent array).
    fn lend_choices(&self) -> Vec<(Callee, SVar)> {
        let seqs = self.svars();
        let fits = |min: usize, lent: &str| {
            seqs.iter().any(|s| {
                s.len >= min
                    && s.name != lent
                    && (!s.local || s.loop_depth == self.loop_depth)
                    && self.unit.as_ref() != Some(&s.name)
                    && !self.no_pass.contains(&s.name)
            })
        };
        let mut out = Vec::new();
        for c in &self.callees {
            let Some(min) = mut_min(c) else { continue };
            for s in self.lendable().into_iter().filter(|s| s.len >= min) {
                let others = c.params.iter().all(|p| match p.kind {
                    PKind::Slice(m) | PKind::Array(m) | PKind::Vec(m) | PKind::ArrayByValue(m) => {
                        fits(m, &s.name)
                    }
                    _ => true,
                });
                if others {
                    out.push((c.clone(), s));
                }
            }
        }
        out
    }

    /// Takes `name` out of scope (so that the other arguments neither read nor pass it while
    /// it is lent), for [`Gen::unhide`].
    fn hide(&mut self, name: &str) -> Option<(usize, usize, SVar)> {
        for (k, scope) in self.scopes.iter_mut().enumerate().rev() {
            if let Some(at) = scope.s.iter().position(|s| s.name == name) {
                return Some((k, at, scope.s.remove(at)));
            }
        }
        None
    }

    fn unhide(&mut self, hidden: Option<(usize, usize, SVar)>) {
        if let Some((k, at, s)) = hidden {
            let at = at.min(self.scopes[k].s.len());
            self.scopes[k].s.insert(at, s);
        }
    }

    /// The arguments of `callee` but the lent array, scalars of depth below `d`.
    fn lend_args(&mut self, callee: &Callee, d: usize) -> Vec<Option<Arg>> {
        let mut args = Vec::new();
        for p in &callee.params {
            let arg = match p.kind {
                PKind::MutSlice(_) => None,
                // `f0(&mut h, S1)` as any call: a lone outside name is written `S1 * 1.0`.
                PKind::Scalar => Some(self.scalar_arg(d)),
                PKind::Slice(m) | PKind::Array(m) | PKind::Vec(m) | PKind::ArrayByValue(m) => {
                    Some(self.slice_arg(m))
                }
                PKind::Usize(max) => {
                    let e = self.usize_expr(1);
                    let k = IExpr::Lit(max as i64 + 1);
                    Some(Arg::Int(IExpr::Bin("%", Box::new(e), Box::new(k))))
                }
                PKind::I32(lo, hi) => {
                    Some(Arg::Int(IExpr::Lit(self.rng.range(lo as i64, hi as i64))))
                }
                PKind::Bool => Some(Arg::Bool(self.cond(1))),
                PKind::Labels(_) | PKind::Matrix(..) => unreachable!("only entries take data"),
            };
            args.push(arg);
        }
        args
    }
}

impl StmtConstruct for LentCall {
    fn weight(&self, g: &Gen, level: usize) -> u32 {
        let here = level < 3 && g.expr_blocks == 0 && g.calls_left > 0;
        if here && !g.lend_choices().is_empty() {
            10
        } else {
            0
        }
    }

    fn generate(&self, g: &mut Gen, _: usize) -> Stmt {
        let choices = g.lend_choices();
        let (callee, s) = g.rng.pick(&choices);
        let min = mut_min(&callee).expect("a callee taking &mut [f64]");
        g.calls_left -= 1;
        let param = is_param(&s);
        let form = match (param, g.rng.below(2)) {
            (_, 0) => Form::Whole,
            (true, _) => Form::From(g.rng.range(0, (s.len - min) as i64) as usize),
            (false, _) => {
                let a = g.rng.range(0, (s.len - min) as i64) as usize;
                Form::Range(a, g.rng.range((a + min) as i64, s.len as i64) as usize)
            }
        };
        let hidden = g.hide(&s.name);
        let d = g.rng.range(1, 3) as usize;
        let args = g.lend_args(&callee, d);
        g.unhide(hidden);
        let mutable: Vec<FVar> = g.fvars().into_iter().filter(|v| v.mutable).collect();
        let shape = match g.rng.below(4) {
            _ if callee.unit => Shape::Stmt,
            0 => Shape::Stmt,
            1 if !mutable.is_empty() => {
                let op = g.rng.pick(&["=", "+=", "-="]);
                Shape::Assign(g.rng.pick(&mutable).name, op)
            }
            k => {
                // Drawn after the call, so it may read the array as the call left it.
                let after = (k == 2).then(|| {
                    let read = Expr::Index(s.name.clone(), g.index(&s), true);
                    let e = if g.rng.chance(0.5) { read } else { g.expr(1) };
                    (g.rng.pick(&["+", "-", "*"]), e)
                });
                let name = g.fresh("x");
                let mutable = g.rng.chance(0.5);
                g.scope().f.push(FVar {
                    name: name.clone(),
                    mutable,
                    typed: true,
                    outside: false,
                });
                Shape::Let(name, mutable, after)
            }
        };
        Stmt::Ext(Rc::new(LentNode {
            callee: callee.name,
            args,
            array: s.name,
            param,
            form,
            shape,
        }))
    }
}

impl StmtNode for LentNode {
    fn print(&self, p: &mut Printer) {
        let array = p.name(&self.array);
        let lent = match (&self.form, self.param) {
            (Form::Whole, true) => array,
            (Form::Whole, false) => format!("&mut {array}"),
            (Form::Range(a, b), _) => format!("&mut {array}[{a}..{b}]"),
            (Form::From(a), _) => format!("&mut {array}[{a}..]"),
        };
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| a.as_ref().map_or_else(|| lent.clone(), |a| p.arg(a)))
            .collect();
        let name = p.callee(&self.callee);
        let call = format!("{name}({})", args.join(", "));
        let ty = p.ty();
        match &self.shape {
            Shape::Stmt => p.line(&format!("{call};")),
            Shape::Let(v, mutable, after) => {
                let m = if *mutable { "mut " } else { "" };
                let v = p.name(v);
                let value = match after {
                    None => call,
                    Some((op, e)) => format!("{call} {op} {}", p.expr(e, false)),
                };
                p.line(&format!("let {m}{v}: {ty} = {value};"));
            }
            // As print_stmt.rs prints an assignment: `T` and `Value` borrow the target of
            // `+=` before the value runs.
            Shape::Assign(y, op) => {
                let y = p.name(y);
                match (p.mode, *op) {
                    (Mode::Plain, _) => p.line(&format!("{y} {op} {call};")),
                    (Mode::Trace, _) | (Mode::Value, "=") => {
                        p.line(&format!("{{ let rhs__ = {call}; {y} {op} rhs__; }}"))
                    }
                    (Mode::Value, _) => {
                        let op = &op[..1];
                        p.line(&format!(
                            "{{ let rhs__ = {call}; {y} = {y}.clone() {op} rhs__; }}"
                        ))
                    }
                }
            }
        }
    }
}
