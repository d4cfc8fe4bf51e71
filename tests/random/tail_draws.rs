//! Constructs of issue 25's long tail, as numeric code is written: integer-valued `if`s bound
//! by `let`, `assert!`s that hold, closures bound by `let` and called, and names the macro
//! cannot see (`const K1: f64`, `static S1: f64`, `PI` from `use std::f64::consts::PI`, the
//! entries `W1[1]` and `W1[W1.len() - 1]` of `const W1: [f64; 3]`), typed by their use. The
//! outside items are printed once at the top of the macro's input ([`outside_items`]); the
//! `Trace` and `Value` printings read their values as literals, so the references never depend
//! on how the macro types them.

use super::*;
use std::rc::Rc;

/// The items of the module every program may read: `(name, value)`, `const` then `static`.
const OUTSIDE: [(&str, f64); 4] = [("K1", 1.5), ("K2", -0.75), ("K3", 0.25), ("S1", 0.5)];

/// The module's `const W1: [f64; 3]`, an array the function reads as data (session 14).
pub(super) const ARRAY: [f64; 3] = [0.5, -1.25, 2.0];

/// The entries of [`ARRAY`] drawn, as written and with their values: a constant index and one
/// from the array's length.
const ENTRIES: [(&str, f64); 2] = [("W1[1]", ARRAY[1]), ("W1[W1.len() - 1]", ARRAY[2])];

/// The lines declaring [`OUTSIDE`], `W1` ([`ARRAY`]) and `PI`, in the `Plain` printing (the
/// `f32` twin rewrites their `f64`s as it does the functions').
pub fn outside_items() -> String {
    let mut s = String::from("use std::f64::consts::PI;\nuse micrograd_runtime::num_traits::Float;\n");
    for (name, v) in OUTSIDE {
        let kind = if name.starts_with('S') { "static" } else { "const" };
        s.push_str(&format!("{kind} {name}: f64 = {v:?};\n"));
    }
    s.push_str(&format!("const W1: [f64; 3] = {ARRAY:?};\n"));
    s
}

/// `let k = if c { a } else { b };`, an integer the rest of the function may index with.
pub struct IntIf;

#[derive(Debug)]
struct IntIfNode {
    name: String,
    cond: Cond,
    then: IExpr,
    els: IExpr,
}

impl Gen<'_> {
    /// A `usize` for one arm of an integer `if`, and its exclusive bound if known.
    fn int_arm(&mut self) -> (IExpr, Option<usize>) {
        let bounded: Vec<(String, usize)> = self
            .ivars(ITy::Usize)
            .into_iter()
            .filter_map(|v| match v.bound {
                Some(Bound::Const(c)) => Some((v.name, c)),
                _ => None,
            })
            .collect();
        if !bounded.is_empty() && self.rng.chance(0.4) {
            let (name, c) = self.rng.pick(&bounded);
            return (IExpr::Var(name), Some(c));
        }
        if self.rng.chance(0.2) {
            return (self.usize_expr(1), None);
        }
        let k = self.rng.range(0, 3);
        (IExpr::Lit(k), Some(k as usize + 1))
    }
}

impl StmtConstruct for IntIf {
    fn weight(&self, _: &Gen, _: usize) -> u32 {
        3
    }

    fn generate(&self, g: &mut Gen, _: usize) -> Stmt {
        let cond = g.cond(1);
        let (then, a) = g.int_arm();
        let (els, b) = g.int_arm();
        let name = g.fresh("mi");
        let bound = a.zip(b).map(|(a, b)| Bound::Const(a.max(b)));
        let depth = g.depth();
        g.scope().i.push(IVar {
            name: name.clone(),
            ty: ITy::Usize,
            bound,
            mutable: false,
            depth,
        });
        Stmt::Ext(Rc::new(IntIfNode {
            name,
            cond,
            then,
            els,
        }))
    }
}

impl StmtNode for IntIfNode {
    fn print(&self, p: &mut Printer) {
        let name = p.name(&self.name);
        let c = p.cond(&self.cond);
        let (a, b) = (p.iexpr(&self.then), p.iexpr(&self.els));
        p.line(&format!("let {name} = if {c} {{ {a} }} else {{ {b} }};"));
    }
}

/// `assert!(w.len() >= 2);`, `assert_eq!(w.len(), 3)`, `debug_assert!(n < 4, "..", n)`: facts
/// the generator knows, so they hold at every point; kept, not differentiated, by the macro.
pub struct Assert;

#[derive(Debug)]
struct AssertNode {
    /// `assert!`, `assert_eq!`, ...
    mac: &'static str,
    /// The arguments, integers only (the same text in every mode).
    args: Vec<IExpr>,
    /// `>=` or `<` between the two arguments of `assert!`/`debug_assert!`.
    op: &'static str,
    /// A message with one `{}` of the first argument.
    message: bool,
}

impl StmtConstruct for Assert {
    fn weight(&self, g: &Gen, _: usize) -> u32 {
        if g.svars().is_empty() && g.ivars(ITy::Usize).is_empty() {
            0
        } else {
            2
        }
    }

    fn generate(&self, g: &mut Gen, _: usize) -> Stmt {
        let seqs = g.svars();
        let ints: Vec<(String, Bound)> = g
            .ivars(ITy::Usize)
            .into_iter()
            .filter_map(|v| v.bound.map(|b| (v.name, b)))
            .collect();
        let message = g.rng.chance(0.3);
        let node = if !ints.is_empty() && (seqs.is_empty() || g.rng.chance(0.4)) {
            let (name, bound) = g.rng.pick(&ints);
            let bound = match bound {
                Bound::Const(c) => IExpr::Lit(c as i64),
                Bound::Len(s) => IExpr::Len(s),
            };
            AssertNode {
                mac: g.rng.pick(&["assert!", "debug_assert!"]),
                args: vec![IExpr::Var(name), bound],
                op: "<",
                message,
            }
        } else if !seqs.is_empty() {
            let s = g.rng.pick(&seqs);
            let len = IExpr::Len(s.name.clone());
            let k = IExpr::Lit(g.rng.range(0, s.len as i64));
            match g.rng.below(3) {
                0 if s.exact => AssertNode {
                    mac: g.rng.pick(&["assert_eq!", "debug_assert_eq!"]),
                    args: vec![len, IExpr::Lit(s.len as i64)],
                    op: "",
                    message,
                },
                1 if s.len > 0 => AssertNode {
                    mac: g.rng.pick(&["assert_ne!", "debug_assert_ne!"]),
                    args: vec![len, IExpr::Lit(0)],
                    op: "",
                    message,
                },
                _ => AssertNode {
                    mac: g.rng.pick(&["assert!", "debug_assert!"]),
                    args: vec![len, k],
                    op: ">=",
                    message,
                },
            }
        } else {
            AssertNode {
                mac: "assert!",
                args: vec![IExpr::Lit(1), IExpr::Lit(0)],
                op: ">=",
                message,
            }
        };
        Stmt::Ext(Rc::new(node))
    }
}

impl StmtNode for AssertNode {
    fn print(&self, p: &mut Printer) {
        let args: Vec<String> = self.args.iter().map(|a| p.iexpr(a)).collect();
        let mut text = match self.op {
            "" => format!("{}({}, {}", self.mac, args[0], args[1]),
            op => format!("{}({} {op} {}", self.mac, args[0], args[1]),
        };
        if self.message {
            text.push_str(&format!(", \"out of range: {{}}\", {}", args[0]));
        }
        p.line(&format!("{text});"));
    }
}

/// `{ let cl = |t: f64| body; cl(a) op cl(b) }`: a closure bound by `let`, capturing what is in
/// scope, called twice. Its body and arguments hold no statements, so nothing the closure
/// borrows is written while it lives.
pub struct BoundClosure;

#[derive(Debug)]
struct ClosureNode {
    name: String,
    params: Vec<String>,
    body: Expr,
    calls: Vec<Vec<Expr>>,
    op: &'static str,
}

impl Gen<'_> {
    /// An expression of leaves, `+ - *`, negation and smooth methods: no statements, no calls.
    fn pure(&mut self, depth: usize) -> Expr {
        if depth == 0 {
            return self.leaf();
        }
        let d = depth - 1;
        match self.rng.weighted(&[3, 6, 1, 3]) {
            0 => self.leaf(),
            1 => {
                let op = self.rng.pick(&["+", "-", "*"]);
                Expr::Bin(op, Box::new(self.pure(d)), Box::new(self.pure(d)))
            }
            2 => Expr::Neg(Box::new(self.pure(d))),
            _ => {
                let m = match self.value_only {
                    true => "tanh",
                    false => self.rng.pick(&["tanh", "sin", "cos", "atan"]),
                };
                Expr::M1(m, Box::new(self.pure(d)))
            }
        }
    }
}

impl ExprConstruct for BoundClosure {
    fn weight(&self, _: &Gen) -> u32 {
        1
    }

    fn generate(&self, g: &mut Gen, depth: usize) -> Expr {
        let d = depth.clamp(1, 2);
        let arity = 1 + g.rng.below(2);
        let params: Vec<String> = (0..arity).map(|_| g.fresh("tc")).collect();
        g.push();
        for name in &params {
            let (name, mutable, typed) = (name.clone(), false, true);
            g.scope().f.push(FVar {
                name,
                mutable,
                typed,
                outside: false,
            });
        }
        let body = g.pure(d);
        g.pop();
        let calls = (0..2)
            .map(|_| (0..arity).map(|_| g.pure(d - 1)).collect())
            .collect();
        let name = g.fresh("cl");
        let op = g.rng.pick(&["+", "-", "*"]);
        Expr::Ext(Rc::new(ClosureNode {
            name,
            params,
            body,
            calls,
            op,
        }))
    }
}

impl ExprNode for ClosureNode {
    fn print(&self, p: &mut Printer, _typed: bool) -> String {
        let name = p.name(&self.name);
        let ty = p.ty();
        let params: Vec<String> = self
            .params
            .iter()
            .map(|q| format!("{}: {ty}", p.name(q)))
            .collect();
        let body = p.expr(&self.body, false);
        let calls: Vec<String> = self
            .calls
            .iter()
            .map(|args| {
                let args: Vec<String> = args.iter().map(|a| p.expr(a, false)).collect();
                format!("{name}({})", args.join(", "))
            })
            .collect();
        format!(
            "{{ let {name} = |{}| {body}; {} }}",
            params.join(", "),
            calls.join(&format!(" {} ", self.op))
        )
    }

    fn has_stmts(&self) -> bool {
        true
    }

    /// The closure returns what its body is: `|t: f64| 1.25` returns a `{float}`.
    fn anchored(&self) -> bool {
        anchored(&self.body)
    }
}

/// `K1`, `(K1 * K2)`, `S1` or `PI` in an expression: a name the macro cannot see, typed by its
/// use (the `Trace` and `Value` printings write its value).
pub struct OutsideConst;

#[derive(Debug)]
struct OutsideNode {
    /// `(name, value)` of each factor.
    factors: Vec<(&'static str, f64)>,
}

/// Whether outside names are drawn: by default (`MICROGRAD_RANDOM_OUTSIDE=0` leaves them out).
/// They were off while the macro refused uses that decide their type elsewhere in the function
/// (7 of 200 programs at seed 1 on `901ac5c`), which `lower/typing.rs` now types.
pub(super) fn outside_drawn() -> bool {
    std::env::var("MICROGRAD_RANDOM_OUTSIDE").map_or(true, |v| v.trim() != "0")
}

fn outside_pick(g: &mut Gen) -> (&'static str, f64) {
    match g.rng.below(OUTSIDE.len() + ENTRIES.len() + 1) {
        k if k < OUTSIDE.len() => OUTSIDE[k],
        k if k < OUTSIDE.len() + ENTRIES.len() => ENTRIES[k - OUTSIDE.len()],
        _ => ("PI", std::f64::consts::PI),
    }
}

impl ExprConstruct for OutsideConst {
    fn weight(&self, _: &Gen) -> u32 {
        if outside_drawn() { 2 } else { 0 }
    }

    fn generate(&self, g: &mut Gen, _: usize) -> Expr {
        let n = 1 + g.rng.below(2);
        let factors = (0..n).map(|_| outside_pick(g)).collect();
        Expr::Ext(Rc::new(OutsideNode { factors }))
    }
}

/// How mode `p` writes the outside item `name` of value `v`.
fn outside_text(p: &Printer, name: &str, v: f64) -> String {
    match p.mode {
        Mode::Plain => name.to_string(),
        Mode::Trace if name == "PI" => "T::c(std::f64::consts::PI)".to_string(),
        Mode::Value if name == "PI" => "Value::new(std::f64::consts::PI)".to_string(),
        _ => p.float(v, false),
    }
}

impl ExprNode for OutsideNode {
    fn print(&self, p: &mut Printer, _typed: bool) -> String {
        let parts: Vec<String> = self
            .factors
            .iter()
            .map(|&(name, v)| outside_text(p, name, v))
            .collect();
        match parts.len() {
            1 => parts[0].clone(),
            _ => format!("({})", parts.join(" * ")),
        }
    }

    fn has_stmts(&self) -> bool {
        false
    }

    fn anchored(&self) -> bool {
        true
    }

    fn outside(&self) -> bool {
        true
    }
}

/// Whether `e` is made of outside names only: bound by `let mut`, it needs a use that says
/// what it is, or an annotation, which the generator (not knowing the uses to come) writes.
/// A local bound by [`LetOutside`] (`let pi = PI;`) stands for its item and counts as one
/// (seed 4, program 159: `pi9` alone as a helper's argument): its [`FVar::outside`] says so.
pub fn outside_only(g: &Gen, e: &Expr) -> bool {
    match e {
        Expr::Var(name, _) => g
            .fvars()
            .iter()
            .find(|v| v.name == *name)
            .is_some_and(|v| v.outside),
        Expr::Ext(node) => node.outside(),
        Expr::Neg(a) => outside_only(g, a),
        Expr::Bin(_, a, b) => outside_only(g, a) && outside_only(g, b),
        _ => false,
    }
}

/// `let pi = PI;` or `let k = K1;`: a local standing for an outside item, typed by its uses.
pub struct LetOutside;

#[derive(Debug)]
struct LetOutsideNode {
    name: String,
    item: (&'static str, f64),
}

impl StmtConstruct for LetOutside {
    fn weight(&self, _: &Gen, _: usize) -> u32 {
        if outside_drawn() { 2 } else { 0 }
    }

    fn generate(&self, g: &mut Gen, _: usize) -> Stmt {
        let item = outside_pick(g);
        let name = g.fresh(if item.0 == "PI" { "pi" } else { "ko" });
        g.scope().f.push(FVar {
            name: name.clone(),
            mutable: false,
            typed: true,
            outside: true,
        });
        Stmt::Ext(Rc::new(LetOutsideNode { name, item }))
    }
}

impl StmtNode for LetOutsideNode {
    fn print(&self, p: &mut Printer) {
        let name = p.name(&self.name);
        let value = outside_text(p, self.item.0, self.item.1);
        p.line(&format!("let {name} = {value};"));
    }
}
