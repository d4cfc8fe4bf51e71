//! Branches and early returns: `if` joins, and `return` turned into one result.

mod short_circuit;

use super::expr::Value;
use super::fork::Rest;
use super::{Lowerer, Scopes};
use crate::ir::{Cond, If, Join, Operand, Origin, Stmt, Ty, VarId};
use syn::Expr;
use syn::spanned::Spanned;

/// The statements still to run after a block ends, with the scope depth they run at.
pub(super) type Cont<'s> = Vec<(&'s [syn::Stmt], usize)>;

impl Lowerer<'_> {
    /// Lowers the function body, whose early `return`s become branches of one result.
    ///
    /// Before: `if x < 0.0 { return 0.0; } x * 2.0`
    /// After: `let t1 = if x < 0.0 { 0.0 } else { let t0 = x * 2.0; t0 };`
    pub(super) fn function_body(&mut self, block: &syn::Block) -> Option<Operand> {
        let depth = self.scopes.len();
        self.sequence(&block.stmts, &Vec::new(), depth)
    }

    pub(super) fn sequence<'s>(
        &mut self,
        stmts: &'s [syn::Stmt],
        cont: &Cont<'s>,
        depth: usize,
    ) -> Option<Operand> {
        self.declare_items(stmts);
        for (i, stmt) in stmts.iter().enumerate() {
            let last = i + 1 == stmts.len();
            // The statements after this one, run at scope depth `depth`.
            let rest = |depth: usize| {
                let mut rest = vec![(&stmts[i + 1..], depth)];
                rest.extend(cont.iter().copied());
                rest
            };
            if let Some(unfolded) = self.unfold_value(stmt) {
                return self.sequence(&unfolded, &rest(self.scopes.len()), depth);
            }
            match stmt {
                syn::Stmt::Expr(Expr::Return(ret), _) => {
                    return match &ret.expr {
                        Some(value) => self.result(value),
                        None if self.output == Some(crate::ir::Output::Tuple(0)) => {
                            Some(Operand::Const(0.0))
                        }
                        None => {
                            self.errors.at(
                                ret.return_token.span,
                                format!(
                                    "`return` needs an `{float}` value",
                                    float = self.scalar.name()
                                ),
                            );
                            None
                        }
                    };
                }
                _ if self.loop_statement(stmt).is_some_and(|l| self.returns(l)) => {
                    let span = stmt.span();
                    let mut rest = vec![(&stmts[i + 1..], self.scopes.len())];
                    rest.extend(cont.iter().copied());
                    self.exits_prepared = true;
                    self.stmt(stmt);
                    self.exits_prepared = false;
                    return self.after_returning_loop(&rest, depth, span);
                }
                syn::Stmt::Expr(expr @ Expr::If(branch), _) if self.returns(expr) => {
                    return self.exiting_if(branch, Rest::Function(&rest(self.scopes.len())));
                }
                syn::Stmt::Expr(expr @ Expr::Match(matching), _) if self.returns(expr) => {
                    return self.exiting_match(matching, Rest::Function(&rest(self.scopes.len())));
                }
                // A block that returns runs on to the end of the function in a scope of its
                // own (closed here, as in `exit_sequence`).
                syn::Stmt::Expr(expr @ Expr::Block(block), _)
                    if block.label.is_none() && self.returns(expr) =>
                {
                    let outer = self.scopes.len();
                    let mut rest = vec![(&stmts[i + 1..], outer)];
                    rest.extend(cont.iter().copied());
                    self.scopes.push(Default::default());
                    let value = self.sequence(&block.block.stmts, &rest, depth);
                    self.scopes.truncate(outer);
                    return value;
                }
                // The tail of the function, or of a block or branch after which nothing runs.
                syn::Stmt::Expr(expr, None) if last && cont.iter().all(|(s, _)| s.is_empty()) => {
                    return self.result(expr);
                }
                other => self.stmt(other),
            }
        }
        let (next, rest) = cont.split_first()?;
        self.scopes.truncate(next.1.max(depth.min(next.1)));
        self.sequence(next.0, &rest.to_vec(), next.1)
    }

    /// An `if` that exits: each branch runs on to where `rest` ends, the statements after the
    /// `if` included.
    pub(super) fn exiting_if<'s>(
        &mut self,
        branch: &'s syn::ExprIf,
        rest: Rest<'_, 's>,
    ) -> Option<Operand> {
        let cond = self.cond(&branch.cond);
        let else_stmts = else_stmts(branch);
        self.fork(
            rest,
            cond,
            branch.if_token.span,
            &mut |this| this.run_on(&branch.then_branch.stmts, rest),
            &mut |this| this.run_on(&else_stmts, rest),
        )
    }

    /// `if` as an expression: its value.
    pub(super) fn if_expr(&mut self, branch: &syn::ExprIf) -> Value {
        if branch.else_branch.is_none() {
            return self.error(
                branch.if_token.span,
                "an `if` used as a value needs an `else`",
            );
        }
        if self.tuple_arms(&Expr::If(branch.clone())) {
            return Value::Error;
        }
        match self.branch(branch, true) {
            Some(var) => Value::F64(Operand::Var(var)),
            None => Value::Error,
        }
    }

    /// Lowers an `if`, joining every variable the branches bind differently; with `value`,
    /// also joins the branches' tail values and returns the joined variable.
    pub(super) fn branch(&mut self, branch: &syn::ExprIf, value: bool) -> Option<VarId> {
        let cond = self.cond(&branch.cond);
        let stmts = else_stmts(branch);
        let else_span = branch.else_branch.as_ref().map(|(_, e)| e.span());
        let then_span = branch.then_branch.brace_token.span.close();
        self.two_way(
            cond,
            branch.if_token.span,
            value,
            |this| {
                let tail = value.then_some(then_span);
                this.tail_block(&branch.then_branch.stmts, tail)
            },
            |this| this.tail_block(&stmts, else_span.filter(|_| value)),
        )
    }

    /// A branch on `cond` whose arms `then` and `otherwise` lower themselves (an `if`, or one
    /// arm of a `match` and the arms after it); with `value`, joins their values too.
    pub(super) fn two_way(
        &mut self,
        cond: Cond,
        span: proc_macro2::Span,
        value: bool,
        then: impl FnOnce(&mut Self) -> Option<Operand>,
        otherwise: impl FnOnce(&mut Self) -> Option<Operand>,
    ) -> Option<VarId> {
        self.joined_branch(cond, span, value, then, otherwise, &|_, _| true)
    }

    /// [`two_way`](Self::two_way), joining only the names that `keep(level, name)` selects
    /// among those an arm rebound.
    pub(super) fn joined_branch(
        &mut self,
        cond: Cond,
        span: proc_macro2::Span,
        value: bool,
        then: impl FnOnce(&mut Self) -> Option<Operand>,
        otherwise: impl FnOnce(&mut Self) -> Option<Operand>,
        keep: &dyn Fn(usize, &str) -> bool,
    ) -> Option<VarId> {
        let before = self.scopes.clone();
        let (then, then_value) = self.capture(then);
        let after_then = std::mem::replace(&mut self.scopes, before.clone());
        let (otherwise, else_value) = self.capture(otherwise);
        let after_else = std::mem::replace(&mut self.scopes, before.clone());
        let mut joins = self.joins(&before, &after_then, &after_else, keep);
        let result = match (value, then_value, else_value) {
            (true, Some(a), Some(b)) => {
                let dst = self.new_var(Origin::Temp, Ty::F64, span);
                joins.push(Join {
                    dst,
                    then: a,
                    otherwise: b,
                });
                Some(dst)
            }
            _ => None,
        };
        let id = self.branch_id();
        self.emit(Stmt::If(Box::new(If {
            id,
            cond,
            span,
            then,
            otherwise,
            joins,
        })));
        result
    }

    /// A block in its own scope; when `value` gives the block's span, its tail `f64`.
    pub(super) fn tail_block(
        &mut self,
        stmts: &[syn::Stmt],
        value: Option<proc_macro2::Span>,
    ) -> Option<Operand> {
        self.in_scope(|this| {
            this.declare_items(stmts);
            let (last, body) = match stmts.split_last() {
                Some((syn::Stmt::Expr(tail, None), body)) if value.is_some() => (Some(tail), body),
                _ => (None, stmts),
            };
            body.iter().for_each(|stmt| this.stmt(stmt));
            match (last, value) {
                (Some(tail), _) => this.f64_operand(tail),
                (None, Some(span)) => {
                    this.errors.at(
                        span,
                        format!(
                            "this block needs an `{float}` value at its end",
                            float = this.scalar.name()
                        ),
                    );
                    None
                }
                (None, None) => None,
            }
        })
    }

    /// `{ stmts; tail }` has the value of its tail, whatever its type: `x > 0.0 || { let t =
    /// x * x; t < 1.0 }` is a condition, `{ let k = n + 1; k * 2 }` an integer.
    pub(super) fn block_expr(&mut self, block: &syn::Block) -> Value {
        match block.stmts.split_last() {
            Some((syn::Stmt::Expr(tail, None), body)) if !matches!(tail, Expr::ForLoop(_)) => self
                .in_scope(|this| {
                    this.declare_items(body);
                    body.iter().for_each(|stmt| this.stmt(stmt));
                    this.expr(tail)
                }),
            _ => {
                self.tail_block(&block.stmts, None);
                Value::F64(Operand::Const(0.0))
            }
        }
    }

    /// One join per name among those `keep(level, name)` selects that a branch rebound: an
    /// `f64`, or an integer or boolean, which is passed through. A hidden key (`#exit`) joins
    /// into a temporary, a source name into a new version of it.
    fn joins(
        &mut self,
        before: &Scopes,
        then: &Scopes,
        otherwise: &Scopes,
        keep: &dyn Fn(usize, &str) -> bool,
    ) -> Vec<Join> {
        let mut joins = Vec::new();
        for (level, scope) in before.iter().enumerate() {
            let mut names: Vec<&String> = scope.keys().filter(|n| keep(level, n)).collect();
            names.sort();
            for name in names {
                let old = scope[name].var;
                let (a, b) = (then[level][name].var, otherwise[level][name].var);
                if a == old && b == old {
                    continue;
                }
                // The assigned side's kind: a hidden variable's placeholder has none.
                let kind = if a != old { a } else { b };
                let (ty, span) = (self.ty(kind).clone(), self.vars[old.0 as usize].span);
                let dst = match name.starts_with('#') {
                    true => self.new_var(Origin::Temp, ty, span),
                    false => self.named(name, ty, span),
                };
                joins.push(Join {
                    dst,
                    then: Operand::Var(a),
                    otherwise: Operand::Var(b),
                });
                self.rebind(name, dst);
            }
        }
        joins
    }
}

/// The statements of an `else` branch; `else if` becomes a block holding one `if`.
pub(super) fn else_stmts(branch: &syn::ExprIf) -> Vec<syn::Stmt> {
    match &branch.else_branch {
        None => Vec::new(),
        Some((_, expr)) => match &**expr {
            Expr::Block(block) => block.block.stmts.clone(),
            other => vec![syn::Stmt::Expr(other.clone(), None)],
        },
    }
}
