//! The forward-mode Jacobian: one tangent program per differentiated `f64`, merged into one
//! sweep that computes `f` once and every column of its Jacobian beside it.
//!
//! Each direction's tangent program is `f`'s body with that direction's tangent statements
//! after the primal statement they differentiate (and its tangent joins and loop slots beside
//! the primal ones). Giving each program the variable ids and `if` ids the previous one ended
//! with keeps every tangent variable distinct, so the merge only interleaves: primal statement,
//! then each direction's tangent statements. A loop that fills a residual then runs once,
//! carrying every column, where the reverse sweep would replay its tape once per output.
//!
//! Before: `let y = a * b;` with directions `a`, `b`
//! After: `let da_da = 1.0; let db_db = 1.0; let y = a * b; let dy_da = da_da * b;`
//! `let dy_db = db_db * a;`

use super::transform;
use crate::ir::{Block, Function, Op, Operand, Origin, Stmt, VarId};
use std::collections::HashSet;

/// `f` with the tangents of every direction.
pub struct Columns {
    /// The merged program; its results are the columns, one after the other: output `i` of
    /// column `j` is `results[j * m + i]`.
    pub function: Function,
    /// `f`'s results, bit for bit: computed by the same statements.
    pub values: Vec<Operand>,
}

/// The columns of the Jacobian of `function` along each of `directions` (`f64` parameters,
/// with the names their unit tangents `dx_dx = 1.0` take).
pub fn columns(function: &Function, directions: &[(VarId, String)]) -> Columns {
    let base = (function.vars.len(), function.branches);
    let mut merged: Option<Function> = None;
    let mut results = Vec::new();
    for direction in directions {
        let start = continuing(function, merged.as_ref());
        let program = column(&start, direction);
        results.extend(program.results.iter().cloned());
        merged = Some(match merged {
            None => program,
            Some(mut merged) => Function {
                body: merge(std::mem::take(&mut merged.body), program.body, base),
                ..program
            },
        });
    }
    let values = function.results.clone();
    let mut function = merged.unwrap_or_else(|| function.clone());
    function.results = results;
    Columns { function, values }
}

/// The tangent program of `function` along the parameter `param` named `name`, its unit
/// tangent a local `dx_dx = 1.0` (unless nothing reads it) and its tangents named `dr_dx`.
fn column(function: &Function, (param, name): &(VarId, String)) -> Function {
    let tangent = transform(function, &HashSet::from([*param]));
    let mut program = tangent.function;
    // `dr_da` rather than `v_r`: each direction's tangents say which column they are.
    for info in &mut program.vars[function.vars.len()..] {
        if let Origin::Named { name: text, .. } = &mut info.origin
            && let Some(of) = text.strip_prefix("v_")
        {
            *text = format!("d{of}_d{name}");
        }
    }
    let seed = function
        .params
        .iter()
        .zip(&tangent.tangents)
        .find_map(|(p, t)| (p.var == *param).then_some(*t).flatten())
        .expect("internal error: a direction is a parameter, so it has a tangent");
    program.params = function.params.clone();
    if !tangent.unread.contains(&seed) {
        program.vars[seed.0 as usize].origin = Origin::Named {
            name: format!("d{name}_d{name}"),
            version: 0,
        };
        let one = Stmt::Assign {
            dst: seed,
            op: Op::Copy(Operand::Const(1.0)),
        };
        program.body.insert(0, one);
    }
    program
}

/// Whether `stmt` belongs to a tangent program rather than to `f`: it defines or writes a
/// variable, or is an `if`, created after `base` (`f`'s variable and `if` counts).
fn is_tangent(stmt: &Stmt, base: (usize, usize)) -> bool {
    let new = |var: &VarId| var.0 as usize >= base.0;
    match stmt {
        Stmt::Assign { dst, .. }
        | Stmt::IntLet { dst, .. }
        | Stmt::BoolLet { dst, .. }
        | Stmt::Array { dst, .. } => new(dst),
        Stmt::Store { array, .. } | Stmt::StoreAdd { array, .. } => new(array),
        Stmt::If(branch) => branch.id.0 as usize >= base.1,
        Stmt::Loop(_) | Stmt::Assert(_) => false,
    }
}

/// `block` as the tangent statements before its first primal one, then each primal statement
/// with the tangent statements after it.
fn chunks(block: Block, base: (usize, usize)) -> (Block, Vec<(Stmt, Block)>) {
    let mut lead = Vec::new();
    let mut chunks: Vec<(Stmt, Block)> = Vec::new();
    for stmt in block {
        match chunks.last_mut() {
            _ if !is_tangent(&stmt, base) => chunks.push((stmt, Vec::new())),
            Some((_, tangents)) => tangents.push(stmt),
            None => lead.push(stmt),
        }
    }
    (lead, chunks)
}

/// Two tangent programs of the same function, interleaved.
pub(super) fn merge(a: Block, b: Block, base: (usize, usize)) -> Block {
    let (mut out, a) = chunks(a, base);
    let (lead, b) = chunks(b, base);
    assert_eq!(
        a.len(),
        b.len(),
        "internal error: tangent programs of one function share its statements"
    );
    out.extend(lead);
    for ((primal, a), (other, b)) in a.into_iter().zip(b) {
        out.push(merge_stmt(primal, other, base));
        out.extend(a);
        out.extend(b);
    }
    out
}

/// One primal statement of both programs: an `if` or a loop with both programs' tangents.
fn merge_stmt(a: Stmt, b: Stmt, base: (usize, usize)) -> Stmt {
    let new = |var: VarId| var.0 as usize >= base.0;
    match (a, b) {
        (Stmt::If(mut a), Stmt::If(b)) => {
            let b = *b;
            a.then = merge(std::mem::take(&mut a.then), b.then, base);
            a.otherwise = merge(std::mem::take(&mut a.otherwise), b.otherwise, base);
            a.joins
                .extend(b.joins.into_iter().filter(|join| new(join.dst)));
            Stmt::If(a)
        }
        (Stmt::Loop(mut a), Stmt::Loop(b)) => {
            let b = *b;
            a.body = merge(std::mem::take(&mut a.body), b.body, base);
            a.carried
                .extend(b.carried.into_iter().filter(|slot| new(slot.slot)));
            Stmt::Loop(a)
        }
        (a, _) => a,
    }
}

/// `function` with the variables and branch count of `merged`, the programs merged so far, so
/// that the next program merged continues their ids (`function` itself before the first).
pub(super) fn continuing(function: &Function, merged: Option<&Function>) -> Function {
    Function {
        vars: merged.map_or_else(|| function.vars.clone(), |m| m.vars.clone()),
        branches: merged.map_or(function.branches, |m| m.branches),
        ..function.clone()
    }
}
