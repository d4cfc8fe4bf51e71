//! The value a function returns: one `f64`, or for a vector output (`-> [f64; M]`, `-> (f64,
//! ..)`) one operand per entry, which become the function's results.
//!
//! Before: `fn r(x: f64) -> [f64; 2] { let mut out = [0.0; 2]; ..; out }`
//! After: results `[out[0], out[1]]`, loaded after the body (`let t0 = out[0]; ..`).
//!
//! A vector is returned once, at the end of the body: branches and loops fill a local array or
//! bind the entries first. Several returns would need one join per entry at every exit.

use super::Lowerer;
use super::expr::Value;
use crate::error::Errors;
use crate::ir::{IntExpr, Op, Operand};
use crate::signature::Output;
use syn::Expr;
use syn::spanned::Spanned;
use syn::visit::Visit;

impl Lowerer<'_> {
    /// The returned expression: for a scalar output its operand; for a vector output, the
    /// results are recorded and a placeholder comes back.
    pub(super) fn result(&mut self, expr: &Expr) -> Option<Operand> {
        let m = match self.output {
            Some(Output::Scalar) => return self.f64_operand(expr),
            Some(Output::Array(m) | Output::Tuple(m)) => m,
            // The signature's error said what to return; the body is still checked.
            None => {
                self.expr(expr);
                return Some(Operand::Const(0.0));
            }
        };
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
        self.results = entries;
        Some(Operand::Const(0.0))
    }

    /// The entries of a returned array or tuple.
    fn entries(&mut self, expr: &Expr, m: usize) -> Option<Vec<Operand>> {
        let array = matches!(self.output, Some(Output::Array(_)));
        match expr {
            Expr::Paren(inner) => self.entries(&inner.expr, m),
            Expr::Array(literal) if array => {
                literal.elems.iter().map(|e| self.f64_operand(e)).collect()
            }
            Expr::Tuple(tuple) if !array => {
                tuple.elems.iter().map(|e| self.f64_operand(e)).collect()
            }
            Expr::If(_) | Expr::Match(_) | Expr::Block(_) | Expr::Loop(_) => {
                let kind = self.kind();
                self.errors.at(expr.span(), format!("a function returning several `f64`s returns its {kind} once, at its end; compute the entries in branches or loops (into a local array, or bound with `let`), then return them"));
                None
            }
            _ => match self.expr(expr) {
                Value::Seq(view) if array => Some(
                    (0..m)
                        .map(|k| {
                            let index = view.at(IntExpr::Lit {
                                value: k as u128,
                                suffix: String::new(),
                            });
                            self.temp(Op::Load(view.base, index), expr.span())
                        })
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
                "this function returns `[f64; {m}]`: end it with an array literal `[a, b, ..]` or a local array"
            ),
            _ => "this function returns a tuple of `f64`s: end it with a tuple `(a, b, ..)`"
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

/// Reports every `return` of a vector-output function but a last statement of the body.
pub fn check_returns(block: &syn::Block, errors: &mut Errors) {
    let (last, body) = match block.stmts.split_last() {
        Some((syn::Stmt::Expr(Expr::Return(ret), _), body)) => (ret.expr.as_deref(), body),
        _ => (None, &block.stmts[..]),
    };
    let mut returns = Returns(Vec::new());
    for stmt in body {
        returns.visit_stmt(stmt);
    }
    if let Some(value) = last {
        returns.visit_expr(value);
    }
    for span in returns.0 {
        errors.at(span, "a function returning several `f64`s returns once, at the end of its body; store the entries in a local array (or bind them) and return it there");
    }
}

/// Where `return` is written, closures left out (their `return` is theirs).
struct Returns(Vec<proc_macro2::Span>);

impl<'ast> Visit<'ast> for Returns {
    fn visit_expr_return(&mut self, ret: &'ast syn::ExprReturn) {
        self.0.push(ret.return_token.span);
        syn::visit::visit_expr_return(self, ret);
    }

    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
}
