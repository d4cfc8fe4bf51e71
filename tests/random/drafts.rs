//! First-draft constructs: a slice's entries collected into a `Vec` and a copy of the slice
//! written (`let v: Vec<f64> = a.iter().map(|&x| ..).collect(); let mut c = a.to_vec();`),
//! outside loops; and `vec![a, b]` with a `clone` of it written, anywhere (a local array
//! inside loops). Each prints the same Rust in every mode; `T` and `Value` have no `Sum`, so
//! they add up with `fold` from -0.0 (see iter_chains.rs).

use super::*;
use std::rc::Rc;

/// `{ let v: Vec<f64> = a.iter().map(|&x| body).collect(); let mut c = a.to_vec();`
/// `c[i] = v[j] * leaf; v.iter().sum::<f64>() + c[k] }`
pub struct Collected;

#[derive(Debug)]
struct CollectedNode {
    seq: String,
    /// The closure's entry, the `Vec`, the copy, the accumulator of `Value`'s and `T`'s sum.
    names: [String; 4],
    body: Expr,
    /// `c[i] = ..`
    store: (usize, Expr),
    /// `c[k]`
    read: usize,
}

impl ExprConstruct for Collected {
    fn weight(&self, g: &Gen) -> u32 {
        // A `Vec` of a run-time length is made outside loops.
        let seqs = g.svars().into_iter().filter(|s| s.len >= 1).count();
        if g.loop_depth == 0 && seqs > 0 { 1 } else { 0 }
    }

    fn generate(&self, g: &mut Gen, _depth: usize) -> Expr {
        let seqs: Vec<SVar> = g.svars().into_iter().filter(|s| s.len >= 1).collect();
        let a = g.rng.pick(&seqs);
        let names = [g.fresh("x"), g.fresh("v"), g.fresh("c"), g.fresh("acc")];
        let op = g.rng.pick(&["+", "-", "*"]);
        let entry = Expr::Var(names[0].clone(), true);
        let body = Expr::Bin(op, Box::new(entry), Box::new(g.leaf()));
        let pick = |g: &mut Gen| g.rng.below(a.len);
        let j = IExpr::Lit(pick(g) as i64);
        let stored = Expr::Bin(
            "*",
            Box::new(Expr::Index(names[1].clone(), j, true)),
            Box::new(g.leaf()),
        );
        let store = (pick(g), stored);
        Expr::Ext(Rc::new(CollectedNode {
            seq: a.name,
            names,
            body,
            store,
            read: pick(g),
        }))
    }
}

impl ExprNode for CollectedNode {
    fn print(&self, p: &mut Printer, _typed: bool) -> String {
        let a = p.name(&self.seq);
        let [x, v, c, acc] = self.names.each_ref().map(|n| p.name(n));
        let body = p.expr(&self.body, true);
        let stored = p.expr(&self.store.1, true);
        let (ty, i, k) = (p.ty(), self.store.0, self.read);
        let (pattern, sum) = match p.mode {
            Mode::Plain => (format!("&{x}"), format!("{v}.iter().sum::<f64>()")),
            mode => {
                let zero = p.float(-0.0, true);
                let y = if mode == Mode::Value { x.clone() } else { format!("&{x}") };
                (y.clone(), format!("{v}.iter().fold({zero}, |{acc}, {y}| {acc} + {x})"))
            }
        };
        let read = match p.mode {
            Mode::Value => format!("{c}[{k}].clone()"),
            _ => format!("{c}[{k}]"),
        };
        format!(
            "{{ let {v}: Vec<{ty}> = {a}.iter().map(|{pattern}| {body}).collect(); \
             let mut {c} = {a}.to_vec(); {c}[{i}] = {stored}; {sum} + {read} }}"
        )
    }

    fn has_stmts(&self) -> bool {
        true
    }

    fn anchored(&self) -> bool {
        true
    }
}

/// `{ let v = vec![a, b]; let mut q = v.clone(); q[i] = q[i] * leaf; v[j] op q[k] }`
pub struct VecLiteral;

#[derive(Debug)]
struct VecLiteralNode {
    names: [String; 2],
    parts: Vec<Expr>,
    /// `q[i] = q[i] * ..`
    scale: (usize, Expr),
    tail: Expr,
}

impl ExprConstruct for VecLiteral {
    fn weight(&self, _: &Gen) -> u32 {
        1
    }

    fn generate(&self, g: &mut Gen, depth: usize) -> Expr {
        let len = 2 + g.rng.below(2);
        let parts: Vec<Expr> = (0..len).map(|_| g.expr(depth.saturating_sub(1))).collect();
        let typed = parts.iter().any(anchored);
        let names = [g.fresh("v"), g.fresh("q")];
        let at = |name: &String, k: usize| Expr::Index(name.clone(), IExpr::Lit(k as i64), typed);
        let scale = (g.rng.below(len), g.leaf());
        let op = g.rng.pick(&["+", "-", "*"]);
        let (j, k) = (g.rng.below(len), g.rng.below(len));
        let tail = Expr::Bin(op, Box::new(at(&names[0], j)), Box::new(at(&names[1], k)));
        Expr::Ext(Rc::new(VecLiteralNode {
            names,
            parts,
            scale,
            tail,
        }))
    }
}

impl ExprNode for VecLiteralNode {
    fn print(&self, p: &mut Printer, typed: bool) -> String {
        let parts: Vec<String> = self.parts.iter().map(|e| p.expr(e, typed)).collect();
        let [v, q] = self.names.each_ref().map(|n| p.name(n));
        let i = self.scale.0;
        let factor = p.expr(&self.scale.1, true);
        let entry = match p.mode {
            Mode::Value => format!("{q}[{i}].clone()"),
            _ => format!("{q}[{i}]"),
        };
        let tail = p.expr(&self.tail, typed);
        format!(
            "{{ let {v} = vec![{}]; let mut {q} = {v}.clone(); {q}[{i}] = {entry} * {factor}; {tail} }}",
            parts.join(", ")
        )
    }

    fn has_stmts(&self) -> bool {
        true
    }

    fn anchored(&self) -> bool {
        anchored(&self.tail)
    }
}
