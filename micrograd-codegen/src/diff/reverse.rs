//! Builds the reverse sweep: statements in reverse order, loops backwards, branches on the
//! recorded decision.
//!
//! Before: `let c = a * b; let y = c.tanh();`
//! After: `let d_y = 1.0; let d_c = d_y * (1.0 - y * y); let d_a = d_c * b; let d_b = d_c * a;`
//!
//! Every adjoint belongs to the block that defines its variable. Its first contribution in
//! that block declares it (`let d_c = ..`); a contribution from a nested branch or loop first
//! needs a declaration in the owning block, which [`Sweep::nested`] inserts on return.

mod control;
mod known;

use super::expr::Expr;
use super::rules::{self, Target};
use super::{Activity, Rev, synthetic};
use crate::ir::{
    Arg, Block, BranchId, Extern, Function, Op, Operand, Stmt, Table, Ty, VarId, VarInfo,
};
use known::{Known, computed};
use std::collections::{HashMap, HashSet};

/// The reverse sweep of `function`, the scalar parameters that got contributions, and the
/// boolean each reversed `if` reads its decision from.
pub fn sweep(
    function: &Function,
    activity: &Activity,
    remat: &HashMap<VarId, Expr>,
    vars: &mut Vec<VarInfo>,
) -> (Vec<Rev>, HashSet<VarId>, Table<BranchId, Option<VarId>>) {
    let loads = remat.clone();
    let mut sweep = Sweep {
        activity,
        loads,
        vars,
        scopes: Vec::new(),
        decisions: Table::new(function.branches),
        known: Vec::new(),
    };
    let mut owned: HashSet<VarId> = function.params.iter().map(|p| p.var).collect();
    owned.extend(defined(&function.body));
    sweep.scopes.push(Scope::new(owned));
    let mut out = Vec::new();
    sweep.arrays(&function.body, &mut out);
    for (k, result) in function.results.iter().enumerate() {
        if let Operand::Var(result) = *result
            && activity.is_active(result)
        {
            sweep.accumulate(result, Expr::Seed(k), &mut out);
        }
    }
    sweep.block_stmts(&function.body, &mut out);
    let scope = sweep
        .scopes
        .pop()
        .expect("internal error: the sweep pops the function's scope last");
    let params = function
        .params
        .iter()
        .map(|p| p.var)
        .filter(|v| scope.declared.contains_key(v))
        .collect();
    (out, params, sweep.decisions)
}

/// The adjoints a reverse block owns, and which of them it declared so far.
struct Scope {
    owned: HashSet<VarId>,
    /// Declared adjoints: `Some(i)` when `out[i]` is the `let` that declared it.
    declared: HashMap<VarId, Option<usize>>,
    /// Loop slots whose adjoint restarts in this block (`d_s = ..` rather than `let`).
    restarts: HashSet<VarId>,
    /// Adjoints of outer blocks this block added to.
    outer: HashSet<VarId>,
}

impl Scope {
    fn new(owned: HashSet<VarId>) -> Scope {
        Scope {
            owned,
            declared: HashMap::new(),
            restarts: HashSet::new(),
            outer: HashSet::new(),
        }
    }
}

struct Sweep<'a> {
    activity: &'a Activity,
    /// Loads the reverse sweep repeats: value -> (array, index).
    loads: HashMap<VarId, Expr>,
    vars: &'a mut Vec<VarInfo>,
    scopes: Vec<Scope>,
    decisions: Table<BranchId, Option<VarId>>,
    /// Per block being reversed, innermost last: the values its own statements compute, by
    /// the expression that computes them.
    known: Vec<Known>,
}

/// The variables a block's own statements define (not those of nested blocks).
fn defined(block: &Block) -> impl Iterator<Item = VarId> + '_ {
    block.iter().flat_map(|stmt| -> Vec<VarId> {
        match stmt {
            Stmt::Assign { dst, op } => std::iter::once(*dst).chain(op.tangent_out()).collect(),
            Stmt::IntLet { dst, .. } | Stmt::BoolLet { dst, .. } | Stmt::Array { dst, .. } => {
                vec![*dst]
            }
            Stmt::If(branch) => branch.joins.iter().map(|j| j.dst).collect(),
            Stmt::Loop(the_loop) => the_loop.carried.iter().map(|c| c.slot).collect(),
            Stmt::Store { .. } | Stmt::StoreAdd { .. } | Stmt::Assert(_) => Vec::new(),
        }
    })
}

impl Sweep<'_> {
    fn scope(&mut self) -> &mut Scope {
        let last = self.scopes.len() - 1;
        &mut self.scopes[last]
    }

    fn is_declared(&self, var: VarId) -> bool {
        self.scopes
            .iter()
            .rev()
            .any(|scope| scope.declared.contains_key(&var))
    }

    /// Adds `expr` to the adjoint of `var`, declaring it at its first contribution.
    fn accumulate(&mut self, var: VarId, expr: Expr, out: &mut Vec<Rev>) {
        let scope = self.scope();
        if !scope.owned.contains(&var) {
            scope.outer.insert(var);
            out.push(Rev::Add(var, expr));
            return;
        }
        match scope.declared.get(&var).copied() {
            Some(declaration) => {
                if let Some(Rev::Let { mutable, .. }) = declaration.and_then(|i| out.get_mut(i)) {
                    *mutable = true;
                }
                out.push(Rev::Add(var, expr));
            }
            None if scope.restarts.contains(&var) => {
                scope.declared.insert(var, None);
                out.push(Rev::Set(var, expr));
            }
            None => {
                scope.declared.insert(var, Some(out.len()));
                out.push(Rev::Let {
                    var,
                    expr,
                    mutable: false,
                });
            }
        }
    }

    fn arrays(&mut self, block: &Block, out: &mut Vec<Rev>) {
        for stmt in block {
            if let Stmt::Array { dst, .. } = stmt
                && self.activity.is_active(*dst)
            {
                out.push(Rev::ZeroArray(*dst));
            }
        }
    }

    fn block_stmts(&mut self, block: &Block, out: &mut Vec<Rev>) {
        self.known.push(computed(block));
        for stmt in block.iter().rev() {
            self.stmt(stmt, out);
        }
        self.known.pop();
    }

    /// `expr` reading the values its block already computed rather than computing them again.
    ///
    /// Before: `let t1 = x.sin(); let t4 = x.cos();` reversed as `d_x += d_t4 * -x.sin();`
    /// After: `d_x += d_t4 * -t1;`
    ///
    /// Only the block's own values are reused: each holds, when the block's reverse runs, the
    /// value of the same iteration and the same branch as the expression it replaces.
    fn reuse(&self, expr: Expr) -> Expr {
        let Some(known) = self.known.last() else {
            return expr;
        };
        expr.rewrite(&|e| known.find(e).map(Expr::Var))
    }

    fn stmt(&mut self, stmt: &Stmt, out: &mut Vec<Rev>) {
        match stmt {
            Stmt::Assign { dst, op } => self.assign(*dst, op, out),
            Stmt::Store {
                array,
                index,
                value,
            } if self.activity.is_active(*array) => {
                if let Operand::Var(v) = value
                    && self.activity.is_active(*v)
                {
                    self.accumulate(*v, Expr::AdjLoad(*array, index.clone()), out);
                }
                out.push(Rev::ZeroElem(*array, index.clone()));
            }
            Stmt::StoreAdd {
                array,
                index,
                value: Operand::Var(v),
                negate,
            } if self.activity.is_active(*array) && self.activity.is_active(*v) => {
                let adjoint = Expr::AdjLoad(*array, index.clone());
                self.accumulate(*v, if *negate { -adjoint } else { adjoint }, out);
            }
            Stmt::If(branch) => self.branch(branch, out),
            Stmt::Loop(the_loop) => self.reverse_loop(the_loop, out),
            // A store of an inactive value or into an inactive array, integers, booleans, a
            // declaration (its adjoint is declared by `arrays`) and assertions: no adjoint.
            Stmt::Store { .. }
            | Stmt::StoreAdd { .. }
            | Stmt::IntLet { .. }
            | Stmt::BoolLet { .. }
            | Stmt::Array { .. }
            | Stmt::Assert(_) => {}
        }
    }

    fn assign(&mut self, dst: VarId, op: &Op, out: &mut Vec<Rev>) {
        let seeded = |var: VarId| self.activity.is_active(var) && self.is_declared(var);
        let seed = |var: VarId| {
            if seeded(var) {
                Expr::Adj(var)
            } else {
                Expr::Const(0.0)
            }
        };
        // A call that writes an active array carries its adjoint back even when its own
        // value has none (`g(&mut h, u);`): then its seed is zero.
        let writes = super::activity::written(op);
        let writes_active = writes.iter().any(|a| self.activity.is_active(*a));
        let tangent = op.tangent_out();
        if let Op::Call(callee, args) = op
            && (seeded(dst) || tangent.is_some_and(seeded) || writes_active)
        {
            // A tangent program's call lent an array returns its value and its tangent: its
            // pullback is seeded with the adjoints of both.
            let seed = match callee.pair {
                Some(_) => {
                    let tangent = tangent.map_or(Expr::Const(0.0), seed);
                    Expr::Pair(Box::new(seed(dst)), Box::new(tangent))
                }
                None => seed(dst),
            };
            self.pullback(dst, (callee, args), seed, out);
            return;
        }
        let seeded = seeded(dst);
        if !seeded {
            return;
        }
        let d = Expr::Adj(dst);
        let Some(contributions) = rules::pullback(op, dst, d.clone()) else {
            return;
        };
        for (target, expr) in contributions {
            let expr = self.reuse(expr).map_vars(&|v| self.loads.get(&v).cloned());
            match target {
                Target::Operand(Operand::Var(v)) if self.activity.is_active(*v) => {
                    self.accumulate(*v, expr, out)
                }
                Target::Elem(array, index) if self.activity.is_active(array) => {
                    out.push(Rev::AddElem(array, index.clone(), expr))
                }
                _ => {}
            }
        }
    }

    fn pullback(
        &mut self,
        call: VarId,
        (callee, args): (&Extern, &[Arg]),
        seed: Expr,
        out: &mut Vec<Rev>,
    ) {
        let mut outs = Vec::new();
        let mut adds = Vec::new();
        for arg in args {
            if let Arg::Scalar(operand, _) = arg {
                match operand {
                    Operand::Var(v) if self.activity.is_active(*v) => {
                        let adjoint = synthetic(self.vars, Ty::F64);
                        outs.push(Some(adjoint));
                        adds.push((*v, adjoint));
                    }
                    _ => outs.push(None),
                }
            }
        }
        out.push(Rev::Pullback {
            call,
            callee: callee.clone(),
            args: args.to_vec(),
            seed,
            outs,
        });
        for (v, adjoint) in adds {
            self.accumulate(v, Expr::Adj(adjoint), out);
        }
    }

    /// Reverses a nested block in `scope`; returns it with the outer adjoints it added to.
    fn nested(
        &mut self,
        scope: Scope,
        build: impl FnOnce(&mut Self, &mut Vec<Rev>),
    ) -> (Vec<Rev>, HashSet<VarId>) {
        self.scopes.push(scope);
        let mut inner = Vec::new();
        build(self, &mut inner);
        let scope = self
            .scopes
            .pop()
            .expect("internal error: the sweep pops the function's scope last");
        (inner, scope.outer)
    }

    /// Makes sure the adjoint of `var` exists, and is mutable, before a nested block adds to it.
    fn declare(&mut self, var: VarId, out: &mut Vec<Rev>) {
        let scope = self.scope();
        if !scope.owned.contains(&var) {
            scope.outer.insert(var);
            return;
        }
        match scope.declared.get(&var).copied() {
            Some(Some(index)) => {
                if let Some(Rev::Let { mutable, .. }) = out.get_mut(index) {
                    *mutable = true;
                }
            }
            Some(None) => {}
            None if scope.restarts.contains(&var) => out.push(Rev::Set(var, Expr::Const(0.0))),
            None => out.push(Rev::Zero(var)),
        }
        scope.declared.entry(var).or_insert(None);
    }

    fn declare_all(&mut self, vars: HashSet<VarId>, out: &mut Vec<Rev>) {
        let mut vars: Vec<VarId> = vars.into_iter().collect();
        vars.sort();
        for var in vars {
            self.declare(var, out);
        }
    }
}
