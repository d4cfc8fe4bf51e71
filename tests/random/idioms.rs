//! Constructs of issue 12: `match` on integers, tuples destructured by `let`, and array
//! literals indexed by constants. Each prints the same Rust in every mode: only the operands
//! differ (`f64`, the dual number `T`, or `Value`).

use super::*;
use std::rc::Rc;

/// `match n { 0 => a, 1 | 2 => b, 3..=5 => c, _ => d }` as an `f64` value.
pub struct Match;

#[derive(Debug)]
struct MatchNode {
    scrutinee: IExpr,
    arms: Vec<(String, Expr)>,
}

impl ExprConstruct for Match {
    fn weight(&self, _: &Gen) -> u32 {
        1
    }

    fn generate(&self, g: &mut Gen, depth: usize) -> Expr {
        let scrutinee = g.usize_expr(1);
        let a = g.rng.range(0, 3);
        let patterns = [
            format!("{a}"),
            format!("{} | {}", a + 1, a + 3),
            format!("{}..={}", a + 4, a + 5 + g.rng.range(0, 3)),
            "_".to_string(),
        ];
        let count = 2 + g.rng.below(3);
        let mut arms: Vec<(String, Expr)> = patterns[..count - 1]
            .iter()
            .map(|p| (p.clone(), g.expr(depth.saturating_sub(1))))
            .collect();
        arms.push(("_".into(), g.expr(depth.saturating_sub(1))));
        Expr::Ext(Rc::new(MatchNode { scrutinee, arms }))
    }
}

impl ExprNode for MatchNode {
    fn print(&self, p: &mut Printer, typed: bool) -> String {
        let scrutinee = p.iexpr(&self.scrutinee);
        let arms: Vec<String> = self
            .arms
            .iter()
            .map(|(pattern, e)| format!("{pattern} => {},", p.expr(e, typed)))
            .collect();
        format!("match {scrutinee} {{ {} }}", arms.join(" "))
    }

    fn has_stmts(&self) -> bool {
        self.arms.iter().any(|(_, e)| has_stmts(e))
    }

    fn anchored(&self) -> bool {
        self.arms.iter().any(|(_, e)| anchored(e))
    }
}

/// `{ let (a, b) = (x, y); a op b }` and `{ let v = [x, y, z]; v[i] op v[j] }`.
pub struct Destructure;

#[derive(Debug)]
struct DestructureNode {
    /// Array literal (`[..]`) rather than tuple.
    array: bool,
    names: Vec<String>,
    parts: Vec<Expr>,
    tail: Expr,
}

impl ExprConstruct for Destructure {
    fn weight(&self, _: &Gen) -> u32 {
        1
    }

    fn generate(&self, g: &mut Gen, depth: usize) -> Expr {
        let array = g.rng.chance(0.5);
        let len = 2 + g.rng.below(2);
        let parts: Vec<Expr> = (0..len).map(|_| g.expr(depth.saturating_sub(1))).collect();
        // An array's entries share one type; a tuple's elements each keep their own.
        let typed: Vec<bool> = if array {
            vec![parts.iter().any(anchored); len]
        } else {
            parts.iter().map(anchored).collect()
        };
        let op = g.rng.pick(&["+", "-", "*"]);
        let (i, j) = (g.rng.below(len), g.rng.below(len));
        let (names, tail) = if array {
            let v = g.fresh("arr");
            let at = |k: usize| Expr::Index(v.clone(), IExpr::Lit(k as i64), typed[k]);
            (vec![v.clone()], Expr::Bin(op, Box::new(at(i)), Box::new(at(j))))
        } else {
            let names: Vec<String> = (0..len).map(|_| g.fresh("tup")).collect();
            let var = |k: usize| Expr::Var(names[k].clone(), typed[k]);
            let tail = Expr::Bin(op, Box::new(var(i)), Box::new(var(j)));
            (names, tail)
        };
        Expr::Ext(Rc::new(DestructureNode {
            array,
            names,
            parts,
            tail,
        }))
    }
}

impl ExprNode for DestructureNode {
    fn print(&self, p: &mut Printer, typed: bool) -> String {
        let parts: Vec<String> = self.parts.iter().map(|e| p.expr(e, typed)).collect();
        let tail = p.expr(&self.tail, typed);
        let names: Vec<String> = self.names.iter().map(|n| p.name(n)).collect();
        if self.array {
            format!("{{ let {} = [{}]; {tail} }}", names[0], parts.join(", "))
        } else {
            let names = names.join(", ");
            format!("{{ let ({names}) = ({}); {tail} }}", parts.join(", "))
        }
    }

    fn has_stmts(&self) -> bool {
        true
    }

    fn anchored(&self) -> bool {
        anchored(&self.tail)
    }
}
