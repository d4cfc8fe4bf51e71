//! Matrix parameters of the entry (issue 24): `m: &[[f64; C]]`, `m: &[[f64; C]; R]` or
//! `m: [[f64; C]; R]` by value, listed in `wrt(..)` (then `f_grad` takes the shadow
//! `d_m: &mut [[f64; C]]`, or `&mut [[f64; C]; R]`, right after it, or returns the partials of
//! a matrix by value in its tuple, and the checker compares each entry's partial) or left out
//! (data, a constant: its entries' partials are `None`). The body reads it first, into one of the
//! entry's `f64` parameters shadowed by `let`, so every later use of that parameter depends on
//! the matrix: an entry `m[i][j]`, the rows (`for row in m`, two columns of each multiplied)
//! and a row summed (`m[k].iter()`).
//!
//! The checker's point holds the matrix flat, row-major (`PSpec::Arr(R * C)`), and the adapters
//! cut it into rows with `as_chunks` (source.rs), so central differences, the dual numbers `T`
//! and the `Value` engine see its entries as `R * C` coordinates. Drawn from a stream of its
//! own after the rest of the program, so every other program of a seed stays as it was. An
//! entry given a matrix asks for no `hvp` (its adapters do not pass the tangent of a matrix
//! yet), and entries returning several values, programs of methods and entries without an
//! `f64` parameter are left alone.

use super::*;
use std::rc::Rc;

/// The chance an entry gets a matrix parameter.
const CHANCE: f64 = 0.12;

/// The chance such a matrix is taken by value, `[[f64; C]; R]`.
const BY_VALUE: f64 = 0.34;

/// The read of matrix `m` into the `f64` parameter `a`, first in the entry's body.
#[derive(Debug)]
struct MatrixRead {
    m: String,
    a: String,
    acc: String,
    row: String,
    /// The entry read first, the two columns multiplied in each row, the row summed.
    at: (usize, usize),
    columns: (usize, usize),
    summed: usize,
}

/// Gives the entry of `p` a matrix parameter, at chance [`CHANCE`].
pub fn draw(p: &mut Program, seed: u64) {
    let Some((mut rng, scalars)) = entry_draw(p, seed, 0x4D41_5452_4958_5053, CHANCE, false) else {
        return;
    };
    let entry = p.funcs.last_mut().expect("an entry");
    let (rows, cols) = (rng.range(1, 4) as usize, rng.range(1, 4) as usize);
    let shape = match rng.chance(0.5) {
        true => MatrixForm::Fixed,
        false => MatrixForm::Rows,
    };
    let m = format!("mx{}", entry.params.len());
    let at = rng.below(entry.params.len() + 1);
    entry.params.insert(
        at,
        Param {
            name: m.clone(),
            kind: PKind::Matrix(rows, cols, shape),
        },
    );
    if rng.chance(0.7) {
        // Listed: `wrt(..)` without it differentiates every `f64` and slice, so list those.
        let all: Vec<String> = entry
            .params
            .iter()
            .filter(|q| q.kind.differentiable())
            .map(|q| q.name.clone())
            .collect();
        let mut wrt = entry.wrt.take().unwrap_or(all);
        wrt.insert(rng.below(wrt.len() + 1), m.clone());
        entry.wrt = Some(wrt);
    }
    entry.hvp = false;
    entry.jacobian = false;
    let a = scalars[rng.below(scalars.len())].clone();
    let read = MatrixRead {
        acc: format!("{m}_acc"),
        row: format!("{m}_row"),
        m,
        a,
        at: (rng.below(rows), rng.below(cols)),
        columns: (rng.below(cols), rng.below(cols)),
        summed: rng.below(rows),
    };
    entry.body.insert(0, Stmt::Ext(Rc::new(read)));
    // Drawn last, so the programs drawn before it stay as they were: a third of the
    // matrices are taken by value (`[[f64; C]; R]`, their partials in the tuple).
    if rng.chance(BY_VALUE) {
        entry.params[at].kind = PKind::Matrix(rows, cols, MatrixForm::Value);
    }
}

impl StmtNode for MatrixRead {
    fn print(&self, p: &mut Printer) {
        let (m, a, acc, row) = (
            p.name(&self.m),
            p.name(&self.a),
            p.name(&self.acc),
            p.name(&self.row),
        );
        let ((i, j), (c1, c2), k) = (self.at, self.columns, self.summed);
        let half = p.float(0.5, false);
        let zero = p.float(-0.0, true);
        match p.mode {
            Mode::Plain => {
                p.line(&format!("let mut {acc} = {m}[{i}][{j}];"));
                p.line(&format!("for {row} in {m} {{"));
                p.line(&format!("    {acc} += {row}[{c1}] * {row}[{c2}];"));
                p.line("}");
                p.line(&format!(
                    "let {a} = {a} + {acc} * {half} + {m}[{k}].iter().sum::<f64>();"
                ));
            }
            Mode::Trace => {
                p.line(&format!("let mut {acc} = {m}[{i}][{j}];"));
                p.line(&format!("for {row} in {m} {{"));
                p.line(&format!("    {acc} = {acc} + {row}[{c1}] * {row}[{c2}];"));
                p.line("}");
                p.line(&format!(
                    "let {a} = {a} + {acc} * {half} + {m}[{k}].iter().fold({zero}, |s__, x__| s__ + *x__);"
                ));
            }
            Mode::Value => {
                p.line(&format!("let mut {acc} = {m}[{i}][{j}].clone();"));
                p.line(&format!("for {row} in {m} {{"));
                p.line(&format!(
                    "    {acc} = {acc}.clone() + {row}[{c1}].clone() * {row}[{c2}].clone();"
                ));
                p.line("}");
                p.line(&format!(
                    "let {a} = {a} + {acc} * {half} + {m}[{k}].iter().fold({zero}, |s__, x__| s__ + x__.clone());"
                ));
            }
        }
    }
}
