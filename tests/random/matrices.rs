//! Nested local arrays (issue 24): `let mut m = [[0.0; C]; R];` or `[[e, ..], ..]`, entries
//! written and updated (`m[i][j] = e`, `m[i][j] += e`), then read back as an entry, through the
//! rows (`for row in &m`) and as a row summed (`m[k].iter()`), into a new `f64`. Between the
//! writes and the reads, half of them are assigned whole (issue 24's rows assigned whole): a
//! fill `m = [[0.0; C]; R];`, a literal of rows `m = [[e, m[1][0] * (e)], ..];` whose entries
//! read the array it replaces, or another array of rows `m = mn;` built from `m`'s entries,
//! once or in a loop of two or three trips (an LSTM's state at the end of each step).
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
    /// The assignment of the whole array after the writes, if any.
    whole: Option<Whole>,
}

/// An entry of a whole assignment: `e`, or `m[i][j] * (e)` (an entry of the array replaced).
type Cell = (Option<(usize, usize)>, Expr);

/// How the array is assigned whole.
#[derive(Debug)]
enum Whole {
    /// `m = [[0.0; C]; R];`
    Fill,
    /// `m = [[cell, ..], ..];`
    Literal(Vec<Cell>),
    /// `let mn = [[cell, ..], ..]; m = mn;`, inside `for _ in 0..trips` if `trips > 0`.
    Other {
        next: String,
        cells: Vec<Cell>,
        trips: usize,
    },
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
        let whole = g.rng.chance(0.5).then(|| {
            let cells = |g: &mut Gen| -> Vec<Cell> {
                (0..rows * cols)
                    .map(|_| {
                        let entry = g
                            .rng
                            .chance(0.6)
                            .then(|| (g.rng.below(rows), g.rng.below(cols)));
                        (entry, g.expr(d))
                    })
                    .collect()
            };
            match g.rng.below(3) {
                0 => Whole::Fill,
                1 => Whole::Literal(cells(g)),
                _ => {
                    let trips = match g.loops_left > 0 && g.rng.chance(0.5) {
                        true => {
                            g.loops_left -= 1;
                            g.rng.range(2, 3) as usize
                        }
                        false => 0,
                    };
                    let next = g.fresh("mn");
                    // In a loop, its entries are drawn as a loop body is (const_loops.rs).
                    let looped = trips > 0;
                    g.loop_depth += usize::from(looped);
                    let saved = g.enter_nested();
                    let cells = cells(g);
                    g.leave_nested(saved);
                    g.loop_depth -= usize::from(looped);
                    Whole::Other { next, cells, trips }
                }
            }
        });
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
            whole,
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
        if let Some(whole) = &self.whole {
            self.print_whole(p, whole, &m);
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

impl MatrixNode {
    /// The rows of `cells` as an array literal in `p.mode` (`vec!`s of `Value`s).
    fn rows_text(&self, p: &mut Printer, m: &str, cells: &[Cell]) -> String {
        let value = p.mode == Mode::Value;
        let entries: Vec<String> = cells
            .iter()
            .map(|(entry, e)| match entry {
                None => p.expr(e, true),
                Some((i, j)) => {
                    let e = p.expr(e, false);
                    match value {
                        true => format!("{m}[{i}][{j}].clone() * ({e})"),
                        false => format!("{m}[{i}][{j}] * ({e})"),
                    }
                }
            })
            .collect();
        let rows: Vec<String> = entries
            .chunks(self.shape.1)
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

    /// `m = ..;`, the array assigned whole.
    fn print_whole(&self, p: &mut Printer, whole: &Whole, m: &str) {
        let (rows, cols) = self.shape;
        match whole {
            Whole::Fill => {
                let zero = p.float(0.0, false);
                p.line(&match p.mode {
                    Mode::Value => format!("{m} = vec![vec![{zero}; {cols}]; {rows}];"),
                    _ => format!("{m} = [[{zero}; {cols}]; {rows}];"),
                });
            }
            Whole::Literal(cells) => {
                let text = self.rows_text(p, m, cells);
                p.line(&format!("{m} = {text};"));
            }
            Whole::Other { next, cells, trips } => {
                let next = p.name(next);
                if *trips > 0 {
                    p.line(&format!("for _ in 0..{trips} {{"));
                    p.indent += 1;
                }
                let text = self.rows_text(p, m, cells);
                p.line(&format!("let {next} = {text};"));
                p.line(&format!("{m} = {next};"));
                if *trips > 0 {
                    p.indent -= 1;
                    p.line("}");
                }
            }
        }
    }
}
