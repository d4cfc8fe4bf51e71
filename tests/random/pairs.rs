//! Data of pairs (issue 24, session 13): the entry takes `pts: &[(f64, f64)]` of `R` pairs,
//! never differentiated (left out of `wrt(..)` by its type), and reads it first into one of its
//! `f64` parameters `a` shadowed by `let`: `pts[i].0`, `pts[j].1` (with `j` a `&[usize]`
//! label of the entry, `labels[k] % R`, where it has one) and `for &(x, y) in pts`.
//!
//! The checker's point holds the pairs flat (`PSpec::Arr(2 R)`, as a matrix of two columns,
//! matrix_params.rs) and its adapters collect them into a `Vec` of tuples (source.rs); their
//! partials are `None`. Drawn from a stream of its own after the rest of the program, so every
//! other program of a seed stays as it was. An entry given pairs asks for no `hvp` (as one given
//! a matrix), and entries returning several values, programs of methods and entries without an
//! `f64` parameter are left alone.

use super::*;
use std::rc::Rc;

/// The chance an entry gets pairs.
const CHANCE: f64 = 0.08;

#[derive(Debug)]
struct PairsRead {
    pts: String,
    a: String,
    acc: String,
    x: String,
    y: String,
    rows: usize,
    first: usize,
    /// The pair whose `.1` is read: a label `labels[k]` (taken modulo the rows) or a literal.
    second: (Option<(String, usize)>, usize),
    op: &'static str,
}

/// Gives the entry of `p` a parameter of pairs, at chance [`CHANCE`].
pub fn draw(p: &mut Program, seed: u64) {
    let Some((mut rng, scalars)) = entry_draw(p, seed, 0x5041_4952_5344_4154, CHANCE, false) else {
        return;
    };
    let entry = p.funcs.last_mut().expect("an entry");
    let labels: Vec<(String, usize)> = entry
        .params
        .iter()
        .filter_map(|q| match q.kind {
            PKind::Labels(n) => Some((q.name.clone(), n)),
            _ => None,
        })
        .collect();
    let rows = rng.range(1, 4) as usize;
    let pts = format!("pts{}", entry.params.len());
    let at = rng.below(entry.params.len() + 1);
    entry.params.insert(
        at,
        Param {
            name: pts.clone(),
            kind: PKind::Matrix(rows, 2, MatrixForm::Pairs),
        },
    );
    entry.hvp = false;
    entry.jacobian = false;
    let label = (!labels.is_empty() && rng.chance(0.6)).then(|| {
        let (name, n) = labels[rng.below(labels.len())].clone();
        (name, rng.below(n))
    });
    let read = PairsRead {
        acc: format!("{pts}_acc"),
        x: format!("{pts}_x"),
        y: format!("{pts}_y"),
        a: scalars[rng.below(scalars.len())].clone(),
        pts,
        rows,
        first: rng.below(rows),
        second: (label, rng.below(rows)),
        op: rng.pick(&["+", "-", "*"]),
    };
    entry.body.insert(0, Stmt::Ext(Rc::new(read)));
}

impl StmtNode for PairsRead {
    fn print(&self, p: &mut Printer) {
        let (pts, a, acc, x, y) = (
            p.name(&self.pts),
            p.name(&self.a),
            p.name(&self.acc),
            p.name(&self.x),
            p.name(&self.y),
        );
        let second = match &self.second {
            (Some((labels, k)), _) => format!("{}[{k}] % {}", p.name(labels), self.rows),
            (None, j) => j.to_string(),
        };
        let (i, op) = (self.first, self.op);
        let half = p.float(0.5, false);
        match p.mode {
            Mode::Plain | Mode::Trace => {
                let add = match p.mode {
                    Mode::Plain => format!("{acc} += {x} * {y} - {x};"),
                    _ => format!("{acc} = {acc} + ({x} * {y} - {x});"),
                };
                p.line(&format!("let mut {acc} = {pts}[{i}].0 {op} {pts}[{second}].1;"));
                p.line(&format!("for &({x}, {y}) in {pts} {{"));
                p.line(&format!("    {add}"));
                p.line("}");
                p.line(&format!("let {a} = {a} + {acc} * {half};"));
            }
            Mode::Value => {
                p.line(&format!(
                    "let mut {acc} = {pts}[{i}].0.clone() {op} {pts}[{second}].1.clone();"
                ));
                p.line(&format!("for ({x}, {y}) in {pts} {{"));
                p.line(&format!(
                    "    {acc} = {acc}.clone() + ({x}.clone() * {y}.clone() - {x}.clone());"
                ));
                p.line("}");
                p.line(&format!("let {a} = {a} + {acc} * {half};"));
            }
        }
    }
}
