//! Iterator chains with closures (issue 12): `w.iter()` with `map`, `zip`, `enumerate`, `rev`,
//! `copied`, `skip`, `take`, `step_by` into `sum`, and `fold`, over the slices and arrays in
//! scope.
//!
//! `f64` and `T` read the entries by pattern (`|&x|`); `Value` is not `Copy`, so its closures
//! take references and clone. `T` and `Value` have no `Sum`: their printings add up with `fold`
//! from -0.0, which is the same sum as `f64`'s, sign of zero included.

use super::*;
use std::rc::Rc;

/// `w.iter()..map(|&x| body).sum::<f64>()` or `w.iter().fold(init, |acc, &x| acc * k + body)`.
pub struct IterChain;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    /// `a.iter().map(..)`, optionally reversed or copied, and maybe with one of `.skip(k)`,
    /// `.take(k)`, `.step_by(k)` after `iter()`.
    Map {
        rev: bool,
        copied: bool,
        adapt: Option<(&'static str, usize)>,
    },
    /// `a.iter().zip(b.iter()).map(|(&x, &y)| ..)`
    Zip,
    /// `a.iter().enumerate().map(|(i, &x)| ..)`
    Enumerate,
    /// `a.iter().fold(init, |acc, &x| acc * k + ..)`
    Fold { init: f64, k: f64 },
}

#[derive(Debug)]
struct IterNode {
    shape: Shape,
    seqs: (String, String),
    /// The closure's names: the entry (and the second entry or the index), the accumulator.
    x: String,
    y: String,
    acc: String,
    body: Expr,
}

impl ExprConstruct for IterChain {
    fn weight(&self, g: &Gen) -> u32 {
        if g.svars().is_empty() { 0 } else { 2 }
    }

    fn generate(&self, g: &mut Gen, _depth: usize) -> Expr {
        let seqs = g.svars();
        let (a, b) = (g.rng.pick(&seqs).name, g.rng.pick(&seqs).name);
        let shape = match g.rng.below(4) {
            0 => Shape::Map {
                rev: g.rng.chance(0.3),
                copied: g.rng.chance(0.3),
                adapt: g.rng.chance(0.4).then(|| {
                    let adaptor = g.rng.pick(&["skip", "take", "step_by"]);
                    (adaptor, 1 + g.rng.below(3))
                }),
            },
            1 => Shape::Zip,
            2 => Shape::Enumerate,
            _ => Shape::Fold {
                init: g.literal(),
                k: [0.5, 0.75, -0.6][g.rng.below(3)],
            },
        };
        let (x, y, acc) = (g.fresh("x"), g.fresh("y"), g.fresh("acc"));
        // The entry times a leaf, plus a leaf (or the second entry, or the index).
        let entry = Expr::Var(x.clone(), true);
        let other = match shape {
            Shape::Zip => Expr::Var(y.clone(), true),
            Shape::Enumerate => Expr::Cast(IExpr::Var(y.clone())),
            _ => g.leaf(),
        };
        let op = g.rng.pick(&["+", "-", "*"]);
        let mut body = Expr::Bin(op, Box::new(entry), Box::new(other));
        if g.rng.chance(0.5) {
            body = Expr::Bin("*", Box::new(body), Box::new(g.leaf()));
        }
        if let Shape::Fold { k, .. } = shape {
            let scaled = Expr::Bin("*", Box::new(Expr::Var(acc.clone(), true)), Box::new(Expr::Lit(k)));
            body = Expr::Bin("+", Box::new(scaled), Box::new(body));
        }
        Expr::Ext(Rc::new(IterNode {
            shape,
            seqs: (a, b),
            x,
            y,
            acc,
            body,
        }))
    }
}

impl IterNode {
    /// The closure's parameters for one entry: `&x` by pattern, or `x` (a reference) for
    /// `Value`, or `x` itself after `copied`.
    fn entry(&self, p: &Printer, name: &str, by_value: bool) -> String {
        let name = p.name(name);
        match (p.mode, by_value) {
            (Mode::Value, _) | (_, true) => name,
            _ => format!("&{name}"),
        }
    }
}

impl ExprNode for IterNode {
    fn print(&self, p: &mut Printer, _typed: bool) -> String {
        let (a, b) = (p.name(&self.seqs.0), p.name(&self.seqs.1));
        let acc = p.name(&self.acc);
        let body = p.expr(&self.body, true);
        let copied = matches!(self.shape, Shape::Map { copied: true, .. });
        let x = self.entry(p, &self.x, copied);
        let (head, pattern) = match self.shape {
            Shape::Map { rev, adapt, .. } => {
                let rev = if rev { ".rev()" } else { "" };
                let adapt = adapt.map_or(String::new(), |(name, k)| format!(".{name}({k})"));
                let copy = match (copied, p.mode) {
                    (false, _) => "",
                    (true, Mode::Value) => ".cloned()",
                    (true, _) => ".copied()",
                };
                (format!("{a}.iter(){adapt}{rev}{copy}"), x)
            }
            Shape::Zip => {
                let y = self.entry(p, &self.y, false);
                (format!("{a}.iter().zip({b}.iter())"), format!("({x}, {y})"))
            }
            Shape::Enumerate => {
                let i = p.name(&self.y);
                (format!("{a}.iter().enumerate()"), format!("({i}, {x})"))
            }
            Shape::Fold { init, .. } => {
                let init = p.float(init, true);
                return format!("{a}.iter().fold({init}, |{acc}, {x}| {body})");
            }
        };
        match p.mode {
            Mode::Plain => format!("{head}.map(|{pattern}| {body}).sum::<f64>()"),
            _ => {
                // `sum` starts from -0.0, so that a sum of negative zeros (or of nothing) is -0.0.
                let zero = p.float(-0.0, true);
                format!("{head}.fold({zero}, |{acc}, {pattern}| {acc} + {body})")
            }
        }
    }

    fn has_stmts(&self) -> bool {
        false
    }

    fn anchored(&self) -> bool {
        true
    }
}
