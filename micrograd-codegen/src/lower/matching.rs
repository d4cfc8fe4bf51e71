//! `match` on integers and booleans: a chain of the branches `if` lowers to.
//!
//! Before: `match k { 0 => a, 1 | 2 => b, n if n > 5 => c, _ => d }`
//! After: `if k == 0 { a } else if k == 1 || k == 2 { b } else if k > 5 { c } else { d }`

use super::Lowerer;
use super::expr::Value;
use super::fork::Rest;
use crate::ir::{CmpOp, Cond, IntExpr, Operand, Origin, Scoped, Stmt, Ty, VarId};
use syn::spanned::Spanned;
use syn::{Expr, Pat};

/// The names one arm's pattern binds.
use super::Scope;

/// What a `match`'s arms are lowered for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ArmUse {
    /// A statement: the arms' values are dropped.
    Stmt,
    /// An expression: the value of the arm taken.
    Value,
    /// The function's vector output, returned from each arm (`outputs.rs`).
    Result,
}

/// What is matched: an integer or a boolean, held in one variable so each arm reads it.
#[derive(Clone, Copy)]
enum Scrutinee {
    Int(VarId),
    Bool(VarId),
}

impl Lowerer<'_> {
    /// A `match`; for [`ArmUse::Value`], the value of the arm taken.
    pub(super) fn match_expr(&mut self, expr: &syn::ExprMatch, used: ArmUse) -> Option<Operand> {
        let scrutinee = self.scrutinee(&expr.expr)?;
        let arms: Vec<&syn::Arm> = expr.arms.iter().collect();
        if arms.is_empty() {
            self.errors
                .at(expr.match_token.span, "a `match` needs at least one arm");
            return None;
        }
        self.arms(scrutinee, &arms, used)
    }

    fn scrutinee(&mut self, expr: &Expr) -> Option<Scrutinee> {
        let span = expr.span();
        match self.expr(expr) {
            Value::Int(IntExpr::Var(var)) => Some(Scrutinee::Int(var)),
            Value::Bool(Cond::Var(var)) => Some(Scrutinee::Bool(var)),
            Value::Int(int) => {
                let dst = self.new_var(Origin::Temp, Ty::Int, span);
                self.emit(Stmt::IntLet { dst, expr: int });
                Some(Scrutinee::Int(dst))
            }
            Value::Bool(cond) => {
                let dst = self.new_var(Origin::Temp, Ty::Bool, span);
                self.emit(Stmt::BoolLet { dst, cond });
                Some(Scrutinee::Bool(dst))
            }
            Value::Error => None,
            _ => {
                self.errors.at(span, format!("`match` takes an integer or a `bool` here; compare `{float}`s with `if` / `else if`", float = self.scalar.name()));
                None
            }
        }
    }

    /// The first arm against the rest: `if pattern { body } else { rest }`. The last arm is
    /// taken unconditionally (the compiler has checked that the match is exhaustive).
    fn arms(&mut self, scrutinee: Scrutinee, arms: &[&syn::Arm], used: ArmUse) -> Option<Operand> {
        let (arm, rest) = arms.split_first()?;
        let (cond, bound) = self.arm_cond(scrutinee, arm);
        if rest.is_empty() || matches!(cond, Some(Cond::Lit(true))) {
            self.check_unreachable(rest);
            return self.with_scope(bound, |this| this.arm_body(&arm.body, used));
        }
        let span = arm.fat_arrow_token.spans[0];
        let var = self.two_way(
            cond.unwrap_or(Cond::Lit(true)),
            span,
            used == ArmUse::Value,
            |this| this.with_scope(bound, |this| this.arm_body(&arm.body, used)),
            |this| this.arms(scrutinee, rest, used),
        );
        Some(var.map_or(Operand::Const(0.0), Operand::Var))
    }

    /// Runs `f` with `scope` (an arm's pattern bindings) open. An arm that exits runs on to
    /// code that closed it already, and maybe scopes below it: those stay closed.
    fn with_scope<T>(&mut self, scope: Scope, f: impl FnOnce(&mut Self) -> T) -> T {
        let depth = self.scopes.len();
        self.scopes.push(scope);
        let value = f(self);
        self.scopes.truncate(depth);
        value
    }

    /// A `match` whose arms exit (`1 => return x,`, `_ => break,`): the chain of [`arms`],
    /// each arm running on to where `rest` ends; at the end of the function, its value.
    ///
    /// [`arms`]: Self::arms
    pub(super) fn exiting_match<'s>(
        &mut self,
        expr: &'s syn::ExprMatch,
        rest: Rest<'_, 's>,
    ) -> Option<Operand> {
        let scrutinee = self.scrutinee(&expr.expr)?;
        let arms: Vec<&syn::Arm> = expr.arms.iter().collect();
        self.exiting_arms(scrutinee, &arms, rest)
    }

    fn exiting_arms<'s>(
        &mut self,
        scrutinee: Scrutinee,
        arms: &[&'s syn::Arm],
        rest: Rest<'_, 's>,
    ) -> Option<Operand> {
        let (arm, others) = arms.split_first()?;
        let (cond, bound) = self.arm_cond(scrutinee, arm);
        if others.is_empty() || matches!(cond, Some(Cond::Lit(true))) {
            self.check_unreachable(others);
            return self.with_scope(bound, |this| this.arm_rest(&arm.body, rest));
        }
        let mut bound = Some(bound);
        self.fork(
            rest,
            cond.unwrap_or(Cond::Lit(true)),
            arm.fat_arrow_token.spans[0],
            &mut |this| {
                let scope = bound.take().unwrap_or_default();
                this.with_scope(scope, |this| this.arm_rest(&arm.body, rest))
            },
            &mut |this| this.exiting_arms(scrutinee, others, rest),
        )
    }

    /// An arm's body, then `rest`.
    fn arm_rest<'s>(&mut self, body: &'s Expr, rest: Rest<'_, 's>) -> Option<Operand> {
        match body {
            Expr::Block(block) if block.label.is_none() => self.run_on(&block.block.stmts, rest),
            // The body as the one statement of a block, its tail: the function's value when
            // the `match` ends the function.
            other => self.run_on(&[syn::Stmt::Expr(other.clone(), None)], rest),
        }
    }

    /// The condition under which `arm` is taken, and the scope of its pattern's names: only
    /// the arm's guard and body see them, never the arms after it.
    fn arm_cond(&mut self, scrutinee: Scrutinee, arm: &syn::Arm) -> (Option<Cond>, Scope) {
        self.scopes.push(Scope::default());
        let cond = match &arm.pat {
            Pat::Guard(guarded) => {
                let cond = self.pattern(scrutinee, &guarded.pat);
                self.guarded(cond, &guarded.guard)
            }
            pat => self.pattern(scrutinee, pat),
        };
        (cond, self.scopes.pop().unwrap_or_default())
    }

    /// Arms after a catch-all arm never run: lowering them would only repeat their errors.
    fn check_unreachable(&mut self, rest: &[&syn::Arm]) {
        if let Some(arm) = rest.first() {
            self.errors.at(
                arm.pat.span(),
                "this arm is never reached: an arm before it matches every value",
            );
        }
    }

    /// `pattern if guard`: the guard is evaluated only when the pattern matches.
    fn guarded(&mut self, cond: Option<Cond>, guard: &Expr) -> Option<Cond> {
        let (stmts, guard) = self.capture(|this| this.cond(guard));
        match cond? {
            Cond::Lit(true) if stmts.is_empty() => Some(guard),
            cond => Some(Cond::And(
                Box::new(cond),
                Box::new(Scoped { stmts, cond: guard }),
            )),
        }
    }

    fn arm_body(&mut self, body: &Expr, used: ArmUse) -> Option<Operand> {
        let value = match used {
            ArmUse::Result => return self.result_arm(body),
            ArmUse::Value => true,
            ArmUse::Stmt => false,
        };
        match body {
            Expr::Block(block) if block.label.is_none() => {
                let span = block.block.brace_token.span.close();
                self.tail_block(&block.block.stmts, value.then_some(span))
            }
            expr if value => self.f64_operand(expr),
            expr => {
                self.expr_stmt(expr);
                None
            }
        }
    }

    /// The condition under which `pat` matches; `Cond::Lit(true)` for a catch-all.
    fn pattern(&mut self, scrutinee: Scrutinee, pat: &Pat) -> Option<Cond> {
        match pat {
            Pat::Wild(_) => Some(Cond::Lit(true)),
            // By Rust's convention an upper-case name is a constant, not a new binding; `mut K`
            // and `ref K` bind a name whatever its case.
            Pat::Ident(ident)
                if ident.subpat.is_none()
                    && ident.by_ref.is_none()
                    && ident.mutability.is_none()
                    && is_constant(&ident.ident) =>
            {
                let path = syn::ExprPath {
                    attrs: Vec::new(),
                    qself: None,
                    path: ident.ident.clone().into(),
                };
                self.equals(scrutinee, &Expr::Path(path))
            }
            Pat::Ident(ident) => {
                let var = match scrutinee {
                    Scrutinee::Int(var) | Scrutinee::Bool(var) => var,
                };
                self.bind(&ident.ident.to_string(), var);
                match &ident.subpat {
                    Some((_, sub)) => self.pattern(scrutinee, sub),
                    None => Some(Cond::Lit(true)),
                }
            }
            Pat::Paren(paren) => self.pattern(scrutinee, &paren.pat),
            Pat::Or(or) => {
                let mut cases = or.cases.iter().map(|case| self.pattern(scrutinee, case));
                let first = cases.next()??;
                cases.try_fold(first, |acc, case| {
                    let scoped = Box::new(Scoped {
                        stmts: Vec::new(),
                        cond: case?,
                    });
                    Some(Cond::Or(Box::new(acc), scoped))
                })
            }
            Pat::Lit(lit) => self.equals(scrutinee, &Expr::Lit(lit.clone())),
            Pat::Path(path) => self.equals(scrutinee, &Expr::Path(path.clone())),
            Pat::Range(range) => self.range(scrutinee, range),
            other => {
                self.errors.at(other.span(), "`match` patterns here are integers, ranges `a..=b`, `true` / `false`, names, `_` and `|` of them");
                None
            }
        }
    }

    fn equals(&mut self, scrutinee: Scrutinee, expr: &Expr) -> Option<Cond> {
        match scrutinee {
            Scrutinee::Int(var) => {
                let value = self.int_operand(expr)?;
                Some(Cond::Int(CmpOp::Eq, IntExpr::Var(var), value))
            }
            Scrutinee::Bool(var) => match self.expr(expr) {
                Value::Bool(Cond::Lit(true)) => Some(Cond::Var(var)),
                Value::Bool(Cond::Lit(false)) => Some(Cond::Not(Box::new(Cond::Var(var)))),
                Value::Error => None,
                _ => {
                    self.errors
                        .at(expr.span(), "a `bool` is matched against `true` or `false`");
                    None
                }
            },
        }
    }

    /// `a..=b`, `a..b`, `a..`, `..=b`.
    fn range(&mut self, scrutinee: Scrutinee, range: &syn::ExprRange) -> Option<Cond> {
        let Scrutinee::Int(var) = scrutinee else {
            self.errors
                .at(range.span(), "ranges match integers, not `bool`s");
            return None;
        };
        let lo = range.start.as_deref().map(|e| self.int_operand(e));
        let hi = range.end.as_deref().map(|e| self.int_operand(e));
        let at = || IntExpr::Var(var);
        let upper = match range.limits {
            syn::RangeLimits::Closed(_) => CmpOp::Le,
            syn::RangeLimits::HalfOpen(_) => CmpOp::Lt,
        };
        let lo = lo.map(|lo| Some(Cond::Int(CmpOp::Ge, at(), lo?)));
        let hi = hi.map(|hi| Some(Cond::Int(upper, at(), hi?)));
        Some(match (lo, hi) {
            (Some(lo), Some(hi)) => {
                let scoped = Box::new(Scoped {
                    stmts: Vec::new(),
                    cond: hi?,
                });
                Cond::And(Box::new(lo?), scoped)
            }
            (Some(bound), None) | (None, Some(bound)) => bound?,
            (None, None) => Cond::Lit(true),
        })
    }
}

fn is_constant(ident: &syn::Ident) -> bool {
    ident
        .to_string()
        .starts_with(|c: char| c.is_ascii_uppercase())
}
