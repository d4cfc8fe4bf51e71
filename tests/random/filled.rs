//! Local arrays filled with a float variable and arrays of float tuples (issue 24, session 13):
//! `let b = e; let mut h = [b; N];` with entries written and read, and
//! `let pts = [(x0, 1.0), (x1, 2.5)];` read as `pts[i].0`, `pts[i].1` and through
//! `for &(a, c) in &pts`, all into one `f64` block value.
//!
//! `T` is `Copy`, so its printing is `f64`'s over `[T; N]` and `[(T, T); K]`; `Value` is not:
//! there the arrays are `Vec`s (`vec![b.clone(); N]`), every read clones and the loop takes
//! `for (a, c) in &pts`.

use super::*;
use std::rc::Rc;

/// `{ let b = e; let mut h = [b; N]; h[i] = h[j] * e2; let pts = [(x0, c0), ..];`
/// `let mut acc = pts[k].0 * h[l]; for &(a, c) in &pts { acc += a * c - h[m]; } acc op pts[n].1 }`
pub struct Filled;

#[derive(Debug)]
struct FilledNode {
    /// `b`, `h`, `pts`, `acc`, `a`, `c`.
    names: [String; 6],
    fill: Expr,
    /// `N`.
    len: usize,
    /// `e2`.
    factor: Expr,
    /// The tuples' first entries (expressions) and second entries (constants).
    firsts: Vec<Expr>,
    seconds: Vec<f64>,
    /// `i, j, l, m` into `h`; `k, n` into `pts`.
    at_h: [usize; 4],
    at_pts: [usize; 2],
    op: &'static str,
}

impl ExprConstruct for Filled {
    fn weight(&self, _: &Gen) -> u32 {
        1
    }

    fn generate(&self, g: &mut Gen, depth: usize) -> Expr {
        let d = depth.saturating_sub(1);
        let len = 1 + g.rng.below(4);
        let count = 1 + g.rng.below(3);
        let fill = g.expr(d);
        let factor = g.leaf();
        let firsts: Vec<Expr> = (0..count).map(|_| g.expr(d)).collect();
        let seconds: Vec<f64> = (0..count)
            .map(|_| g.rng.pick(&[1.0, 2.5, -0.5, 0.75]))
            .collect();
        let names = ["b", "h", "pts", "acc", "a", "c"].map(|n| g.fresh(n));
        let at_h = [(); 4].map(|_| g.rng.below(len));
        let at_pts = [(); 2].map(|_| g.rng.below(count));
        let op = g.rng.pick(&["+", "-", "*"]);
        Expr::Ext(Rc::new(FilledNode {
            names,
            fill,
            len,
            factor,
            firsts,
            seconds,
            at_h,
            at_pts,
            op,
        }))
    }
}

impl ExprNode for FilledNode {
    fn print(&self, p: &mut Printer, _typed: bool) -> String {
        let [b, h, pts, acc, a, c] = self.names.each_ref().map(|n| p.name(n));
        let fill = p.expr(&self.fill, true);
        let factor = p.expr(&self.factor, true);
        let tuples: Vec<String> = self
            .firsts
            .iter()
            .zip(&self.seconds)
            .map(|(e, &v)| format!("({}, {})", p.expr(e, true), p.float(v, true)))
            .collect();
        let (len, count) = (self.len, self.firsts.len());
        let [i, j, l, m] = self.at_h;
        let [k, n] = self.at_pts;
        let op = self.op;
        let ty = p.ty();
        match p.mode {
            Mode::Value => format!(
                "{{ let {b}: Value = {fill}; let mut {h}: Vec<Value> = vec![{b}.clone(); {len}]; \
                 {{ let rhs__ = {factor}; {h}[{i}] = {h}[{j}].clone() * rhs__; }} \
                 let {pts}: Vec<(Value, Value)> = vec![{}]; \
                 let mut {acc} = {pts}[{k}].0.clone() * {h}[{l}].clone(); \
                 for ({a}, {c}) in &{pts} {{ {acc} = {acc}.clone() + ({a}.clone() * {c}.clone() - {h}[{m}].clone()); }} \
                 {acc} {op} {pts}[{n}].1.clone() }}",
                tuples.join(", ")
            ),
            Mode::Trace => format!(
                "{{ let {b}: T = {fill}; let mut {h}: [T; {len}] = [{b}; {len}]; \
                 {{ let rhs__ = {factor}; {h}[{i}] = {h}[{j}] * rhs__; }} \
                 let {pts}: [(T, T); {count}] = [{}]; \
                 let mut {acc} = {pts}[{k}].0 * {h}[{l}]; \
                 for &({a}, {c}) in &{pts} {{ {acc} = {acc} + ({a} * {c} - {h}[{m}]); }} \
                 {acc} {op} {pts}[{n}].1 }}",
                tuples.join(", ")
            ),
            Mode::Plain => format!(
                "{{ let {b}: {ty} = {fill}; let mut {h} = [{b}; {len}]; {h}[{i}] = {h}[{j}] * {factor}; \
                 let {pts} = [{}]; let mut {acc} = {pts}[{k}].0 * {h}[{l}]; \
                 for &({a}, {c}) in &{pts} {{ {acc} += {a} * {c} - {h}[{m}]; }} \
                 {acc} {op} {pts}[{n}].1 }}",
                tuples.join(", ")
            ),
        }
    }

    fn has_stmts(&self) -> bool {
        true
    }

    fn anchored(&self) -> bool {
        true
    }
}
