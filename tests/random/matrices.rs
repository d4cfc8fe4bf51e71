//! Nested local arrays (issue 24): `let mut m = [[0.0; C]; R];` or `[[e, ..], ..]`, entries
//! written and updated (`m[i][j] = e`, `m[i][j] += e`), then read back as an entry, through the
//! rows (`for row in &m`) and as a row summed (`m[k].iter()`), into a new `f64`.
//!
//! `T` is `Copy`, so its printing is `f64`'s over `[[T; C]; R]`; `Value` is not: its matrix is
//! a `Vec` of `Vec`s whose entries are cloned where read. `T` and `Value` have no `Sum`: a row
//! adds up with `fold` from -0.0, the same sum as `f64`'s.

use super::*;
use std::rc::Rc;

/// A nested local array and the `f64` read from it.
pub struct MatrixLocal;

#[derive(Debug)]
struct MatrixNode {
    /// The `f64` it defines.
    name: String,
    /// The array, the accumulator and the loop's row.
    m: String,
    acc: String,
    row: String,
    /// `R` rows of `C`.
    shape: (usize, usize),
    /// The entries of a literal `[[e, ..], ..]`, row by row; `None`: `[[0.0; C]; R]`.
    literal: Option<Vec<Expr>>,
    /// `m[i][j] op e;` in order.
    writes: Vec<(usize, usize, &'static str, Expr)>,
    /// The entry read first, the column read from each row, times `weight`, the row summed.
    read: (usize, usize),
    column: usize,
    weight: Expr,
    summed: usize,
}

impl StmtConstruct for MatrixLocal {
    fn weight(&self, _g: &Gen, level: usize) -> u32 {
        if level < 3 { 2 } else { 0 }
    }

    fn generate(&self, g: &mut Gen, _level: usize) -> Stmt {
        let (rows, cols) = (g.rng.range(1, 4) as usize, g.rng.range(1, 4) as usize);
        let d = g.rng.range(0, 2) as usize;
        let literal = g
            .rng
            .chance(0.4)
            .then(|| (0..rows * cols).map(|_| g.expr(d)).collect());
        let writes = (0..g.rng.range(1, 4))
            .map(|_| {
                let (i, j) = (g.rng.below(rows), g.rng.below(cols));
                (i, j, g.rng.pick(&["=", "+=", "-="]), g.expr(d))
            })
            .collect();
        let read = (g.rng.below(rows), g.rng.below(cols));
        let (column, summed) = (g.rng.below(cols), g.rng.below(rows));
        let weight = g.leaf();
        let (m, acc, row, name) = (g.fresh("m"), g.fresh("acc"), g.fresh("row"), g.fresh("mv"));
        g.scope().f.push(FVar {
            name: name.clone(),
            mutable: false,
            typed: false,
            outside: false,
        });
        Stmt::Ext(Rc::new(MatrixNode {
            name,
            m,
            acc,
            row,
            shape: (rows, cols),
            literal,
            writes,
            read,
            column,
            weight,
            summed,
        }))
    }
}

impl StmtNode for MatrixNode {
    fn print(&self, p: &mut Printer) {
        let (m, acc, row, name) = (
            p.name(&self.m),
            p.name(&self.acc),
            p.name(&self.row),
            p.name(&self.name),
        );
        let (rows, cols) = self.shape;
        let value = p.mode == Mode::Value;
        // An entry read as a value: `Value`'s are cloned.
        let at = |i: &str, j: &str| match value {
            true => format!("{i}[{j}].clone()"),
            false => format!("{i}[{j}]"),
        };
        let declared = match &self.literal {
            Some(entries) => {
                let entries: Vec<String> = entries.iter().map(|e| p.expr(e, true)).collect();
                let rows: Vec<String> = entries
                    .chunks(cols)
                    .map(|row| match value {
                        true => format!("vec![{}]", row.join(", ")),
                        false => format!("[{}]", row.join(", ")),
                    })
                    .collect();
                match value {
                    true => format!("vec![{}]", rows.join(", ")),
                    false => format!("[{}]", rows.join(", ")),
                }
            }
            None => {
                let zero = p.float(0.0, true);
                match value {
                    true => format!("vec![vec![{zero}; {cols}]; {rows}]"),
                    false => format!("[[{zero}; {cols}]; {rows}]"),
                }
            }
        };
        let ty = match p.mode {
            Mode::Plain => String::new(),
            Mode::Trace => format!(": [[T; {cols}]; {rows}]"),
            Mode::Value => ": Vec<Vec<Value>>".to_string(),
        };
        p.line(&format!("let mut {m}{ty} = {declared};"));
        for (i, j, op, e) in &self.writes {
            let e = p.expr(e, false);
            let entry = format!("{m}[{i}][{j}]");
            // As for `Stmt::Assign`: `T` and `Value` borrow the target of `+=` before `e` runs.
            let text = match (p.mode, *op) {
                (Mode::Plain, _) => format!("{entry} {op} {e};"),
                (Mode::Trace, _) | (Mode::Value, "=") => {
                    format!("{{ let rhs__ = {e}; {entry} {op} rhs__; }}")
                }
                (Mode::Value, _) => {
                    let op = &op[..1];
                    format!("{{ let rhs__ = {e}; {entry} = {entry}.clone() {op} rhs__; }}")
                }
            };
            p.line(&text);
        }
        let (r, c) = self.read;
        let first = at(&format!("{m}[{r}]"), &c.to_string());
        p.line(&format!("let mut {acc} = {first};"));
        let weight = p.expr(&self.weight, false);
        let term = at(&row, &self.column.to_string());
        p.line(&format!("for {row} in &{m} {{"));
        p.line(&match p.mode {
            Mode::Plain => format!("    {acc} += {term} * ({weight});"),
            _ => format!("    {acc} = {acc}.clone() + {term} * ({weight});"),
        });
        p.line("}");
        let k = self.summed;
        let sum = match p.mode {
            Mode::Plain => format!("{m}[{k}].iter().sum::<f64>()"),
            Mode::Trace => {
                let zero = p.float(-0.0, true);
                format!("{m}[{k}].iter().fold({zero}, |s__, x__| s__ + *x__)")
            }
            Mode::Value => {
                let zero = p.float(-0.0, true);
                format!("{m}[{k}].iter().fold({zero}, |s__, x__| s__ + x__.clone())")
            }
        };
        p.line(&format!("let {name} = {acc} + {sum};"));
    }
}
