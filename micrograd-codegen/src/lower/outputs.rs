//! The value a function returns: one `f64`, or for a vector output (`-> [f64; M]`, `-> (f64,
//! ..)`) one operand per entry, which become the function's results.
//!
//! Before: `fn r(x: f64) -> [f64; 2] { let mut out = [0.0; 2]; ..; out }`
//! After: results `[out[0], out[1]]`, loaded after the body (`let t0 = out[0]; ..`).
//!
//! A vector returned once, at the end of the body, gives its entries directly. One returned
//! from a branch, a `match` arm or a loop (`return [x, y];`) is stored into a hidden local
//! array on its path, and the results are loaded from that array after the body: the joins of
//! every entry at every exit are the array's, which every pass already handles.
//!
//! Before: `if c { [a, b] } else { [b, a] }`
//! After: `let mut out = [0.0; 2]; if c { out[0] = a; out[1] = b; } else { .. }`
//! `let t0 = out[0]; let t1 = out[1];` and results `[t0, t1]`.

use super::Lowerer;
use super::expr::Value;
use super::matching::ArmUse;
use crate::ir::Output;
use crate::ir::{IntExpr, Op, Operand, Origin, Stmt, Ty, VarId};
use syn::Expr;
use syn::spanned::Spanned;

/// The integer literal `k`.
fn lit(k: usize) -> IntExpr {
    IntExpr::Lit {
        value: k as u128,
        suffix: String::new(),
    }
}

impl Lowerer<'_> {
    /// The returned expression: for a scalar output its operand; for a vector output, the
    /// results are recorded (or stored, on a path of their own) and a placeholder comes back.
    pub(super) fn result(&mut self, expr: &Expr) -> Option<Operand> {
        let m = match self.output {
            Some(Output::Scalar) => return self.f64_operand(expr),
            // A function returning `()` (its outputs written into `&mut` parameters): its tail
            // is a statement.
            Some(Output::Tuple(0)) => {
                let unit = matches!(expr, Expr::Tuple(tuple) if tuple.elems.is_empty());
                if !unit {
                    self.expr_stmt(expr);
                }
                return Some(Operand::Const(0.0));
            }
            Some(Output::Array(m) | Output::Tuple(m)) => m,
            // The signature's error said what to return; the body is still checked. A length
            // that is not a literal is lowered as `__f_into` (`returned/`), never as `f`.
            None | Some(Output::Counted) => {
                self.expr(expr);
                return Some(Operand::Const(0.0));
            }
        };
        self.vector_result(expr, m)?;
        Some(Operand::Const(0.0))
    }

    /// Whether a vector output returns here: the results of the function come from `out`.
    pub(super) fn vector_output(&self) -> bool {
        self.output.is_some_and(Output::is_vector)
    }

    /// A returned vector: a branch, `match` or block whose tails are returned, or the entries.
    fn vector_result(&mut self, expr: &Expr, m: usize) -> Option<()> {
        if let Some(done) = self.compound_result(expr, m) {
            return done;
        }
        let entries = self.entries(expr, m)?;
        if entries.len() != m {
            let kind = self.kind();
            self.errors.at(
                expr.span(),
                format!(
                    "this function returns {m} `f64`s but this {kind} has {}",
                    entries.len()
                ),
            );
            return None;
        }
        self.keep(entries, m);
        Some(())
    }

    /// A returned `if`, `match` or block, each of whose tails is returned; `None` for an
    /// expression of another kind.
    fn compound_result(&mut self, expr: &Expr, m: usize) -> Option<Option<()>> {
        let kind = self.kind();
        match expr {
            Expr::Paren(inner) => Some(self.vector_result(&inner.expr, m)),
            Expr::If(branch) if branch.else_branch.is_some() => Some(self.result_if(branch, m)),
            Expr::Match(matched) => {
                self.match_expr(matched, ArmUse::Result);
                Some(Some(()))
            }
            Expr::Block(block) if block.label.is_none() => {
                let span = block.block.brace_token.span.close();
                self.result_block(&block.block.stmts, span, m);
                Some(Some(()))
            }
            Expr::If(_) => {
                let message =
                    format!("an `if` whose {kind} is returned needs an `else` with one too");
                self.errors.at(expr.span(), message);
                Some(None)
            }
            Expr::Loop(_) | Expr::Block(_) => {
                self.errors.at(expr.span(), format!("`break` carries one `f64` out of a loop; return the {kind} with `return` from inside it instead"));
                Some(None)
            }
            _ => None,
        }
    }

    /// `if c { .. } else { .. }` whose branches' tails are returned.
    fn result_if(&mut self, branch: &syn::ExprIf, m: usize) -> Option<()> {
        let cond = self.cond(&branch.cond);
        let otherwise = super::branch::else_stmts(branch);
        let spans = (
            branch.then_branch.brace_token.span.close(),
            branch
                .else_branch
                .as_ref()
                .map_or(branch.if_token.span, |e| e.1.span()),
        );
        self.two_way(
            cond,
            branch.if_token.span,
            false,
            |this| this.result_block(&branch.then_branch.stmts, spans.0, m),
            |this| this.result_block(&otherwise, spans.1, m),
        );
        Some(())
    }

    /// The body of a `match` arm whose value is returned (`ArmUse::Result`).
    pub(super) fn result_arm(&mut self, body: &Expr) -> Option<Operand> {
        let m = self.output.map_or(0, Output::count);
        match body {
            Expr::Block(block) if block.label.is_none() => {
                let span = block.block.brace_token.span.close();
                self.result_block(&block.block.stmts, span, m)
            }
            expr => self.vector_result(expr, m).map(|()| Operand::Const(0.0)),
        }
    }

    /// `{ stmts; tail }` in a scope of its own, its tail returned.
    fn result_block(
        &mut self,
        stmts: &[syn::Stmt],
        span: proc_macro2::Span,
        m: usize,
    ) -> Option<Operand> {
        self.in_scope(|this| {
            this.declare_items(stmts);
            let Some((syn::Stmt::Expr(tail, None), body)) = stmts.split_last() else {
                body_without_tail(this, stmts, span);
                return None;
            };
            body.iter().for_each(|stmt| this.stmt(stmt));
            this.vector_result(tail, m).map(|()| Operand::Const(0.0))
        })
    }

    /// The entries as the function's results: directly at the end of the body, else stored
    /// into the hidden array on this path.
    fn keep(&mut self, entries: Vec<Operand>, m: usize) {
        if self.blocks.len() == 1 && self.out.is_none() {
            self.results = entries;
            return;
        }
        let out = match self.out {
            Some(out) => out,
            None => self.out_array(m),
        };
        for (k, value) in entries.into_iter().enumerate() {
            let index = lit(k);
            self.emit(Stmt::Store {
                array: out,
                index,
                value,
            });
        }
    }

    /// The hidden array `out`, declared first in the body (its fill is a constant).
    fn out_array(&mut self, m: usize) -> VarId {
        let origin = Origin::Named {
            name: "out".to_string(),
            version: 0,
        };
        let dst = self.new_var(
            origin,
            Ty::local(lit(m), false),
            proc_macro2::Span::mixed_site(),
        );
        let fill = Operand::Const(0.0);
        self.blocks[0].insert(0, Stmt::Array { dst, fill });
        self.out = Some(dst);
        dst
    }

    /// After the body: the results loaded from the hidden array, if any path stored them.
    pub(super) fn load_results(&mut self, span: proc_macro2::Span) {
        let (Some(out), Some(m)) = (self.out, self.output.map(Output::count)) else {
            return;
        };
        self.results = (0..m)
            .map(|k| self.temp(Op::Load(out, lit(k)), span))
            .collect();
    }

    /// The entries of a returned array or tuple.
    fn entries(&mut self, expr: &Expr, m: usize) -> Option<Vec<Operand>> {
        let array = matches!(self.output, Some(Output::Array(_)));
        match expr {
            Expr::Array(literal) if array => {
                literal.elems.iter().map(|e| self.f64_operand(e)).collect()
            }
            Expr::Tuple(tuple) if !array => {
                tuple.elems.iter().map(|e| self.f64_operand(e)).collect()
            }
            _ => match self.expr(expr) {
                Value::Seq(view) if array => Some(
                    (0..m)
                        .map(|k| self.temp(Op::Load(view.base, view.at(lit(k))), expr.span()))
                        .collect(),
                ),
                Value::Tuple(values) if !array => values
                    .into_iter()
                    .map(|value| match value {
                        Value::F64(operand) => Some(operand),
                        _ => self.not_entries(expr),
                    })
                    .collect(),
                Value::Error => None,
                _ => self.not_entries(expr),
            },
        }
    }

    fn not_entries<T>(&mut self, expr: &Expr) -> Option<T> {
        let message = match self.output {
            Some(Output::Array(m)) => format!(
                "this function returns `[f64; {m}]`: return an array literal `[a, b, ..]` or a local array here"
            ),
            _ => "this function returns a tuple of `f64`s: return a tuple `(a, b, ..)` here"
                .to_string(),
        };
        self.errors.at(expr.span(), message);
        None
    }

    fn kind(&self) -> &'static str {
        match self.output {
            Some(Output::Array(_)) => "array",
            _ => "tuple",
        }
    }
}

/// A returned block without a value at its end: its statements are still checked.
fn body_without_tail(this: &mut Lowerer, stmts: &[syn::Stmt], span: proc_macro2::Span) {
    stmts.iter().for_each(|stmt| this.stmt(stmt));
    let kind = this.kind();
    this.errors.at(
        span,
        format!("this block is returned, so it needs the {kind} at its end"),
    );
}
