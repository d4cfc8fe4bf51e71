//! Whole-array assignment and swaps (issue 24): two local arrays, one scaled then the two
//! exchanged with `std::mem::swap`, a third assigned whole from one of them (`z = u;`), and two
//! `f64`s swapped, anywhere (local arrays of a literal length are allowed inside loops). `Value`
//! is not `Copy`: there the whole assignment is of a clone and every read clones.

use super::*;
use std::rc::Rc;

/// `{ let mut u = [..]; let mut w = [..]; u[i] = u[i] * f; std::mem::swap(&mut u, &mut w);`
/// `let mut z = [g, g, g]; let s = z[j]; z = u; z[k] = z[k] + s;`
/// `let mut a = u[l]; let mut b = w[m]; std::mem::swap(&mut a, &mut b); (a op b) op2 z[n] }`
pub struct Swap;

#[derive(Debug)]
struct SwapNode {
    /// `u`, `w`, `z`, `s`, `a`, `b`.
    names: [String; 6],
    /// The entries of `u` then of `w`.
    parts: Vec<Expr>,
    factor: Expr,
    fill: Expr,
    /// `i, j, k, l, m, n`.
    at: [usize; 6],
    ops: [&'static str; 2],
}

impl ExprConstruct for Swap {
    fn weight(&self, _: &Gen) -> u32 {
        1
    }

    fn generate(&self, g: &mut Gen, depth: usize) -> Expr {
        let len = 2 + g.rng.below(2);
        let parts: Vec<Expr> = (0..2 * len)
            .map(|_| g.expr(depth.saturating_sub(1)))
            .collect();
        let names = ["u", "w", "z", "s", "a", "b"].map(|n| g.fresh(n));
        let at = [(); 6].map(|_| g.rng.below(len));
        let ops = [g.rng.pick(&["+", "-", "*"]), g.rng.pick(&["+", "-", "*"])];
        Expr::Ext(Rc::new(SwapNode {
            names,
            parts,
            factor: g.leaf(),
            fill: g.leaf(),
            at,
            ops,
        }))
    }
}

impl ExprNode for SwapNode {
    fn print(&self, p: &mut Printer, _typed: bool) -> String {
        let parts: Vec<String> = self.parts.iter().map(|e| p.expr(e, true)).collect();
        let len = parts.len() / 2;
        let [u, w, z, s, a, b] = self.names.each_ref().map(|n| p.name(n));
        let factor = p.expr(&self.factor, true);
        let fill = p.expr(&self.fill, true);
        let [i, j, k, l, m, n] = self.at;
        let [op, op2] = self.ops;
        let value = p.mode == Mode::Value;
        let read = |array: &str, k: usize| match value {
            true => format!("{array}[{k}].clone()"),
            false => format!("{array}[{k}]"),
        };
        let whole = if value { format!("{u}.clone()") } else { u.clone() };
        let fills = vec![fill; len].join(", ");
        format!(
            "{{ let mut {u} = [{}]; let mut {w} = [{}]; {u}[{i}] = {} * {factor}; \
             std::mem::swap(&mut {u}, &mut {w}); let mut {z} = [{fills}]; let {s} = {}; \
             {z} = {whole}; {z}[{k}] = {} + {s}; let mut {a} = {}; let mut {b} = {}; \
             std::mem::swap(&mut {a}, &mut {b}); ({a} {op} {b}) {op2} {} }}",
            parts[..len].join(", "),
            parts[len..].join(", "),
            read(&u, i),
            read(&z, j),
            read(&z, k),
            read(&u, l),
            read(&w, m),
            read(&z, n),
        )
    }

    fn has_stmts(&self) -> bool {
        true
    }

    fn anchored(&self) -> bool {
        true
    }
}
