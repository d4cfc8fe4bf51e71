//! The values a block's own statements compute ([`computed`]), looked up by the expression
//! each evaluates, so that the reverse sweep reuses a value the forward sweep computed
//! instead of computing it again.

use super::super::expr::Expr;
use crate::ir::{Block, Op, Operand, Stmt, VarId};
use std::collections::HashMap;

/// The scalar values a block's own statements compute by arithmetic or a function of `f64`,
/// with the expression each evaluates (copies, loads and calls are left out).
pub(super) fn computed(block: &Block) -> Known {
    let leaf = |a: &Operand| Box::new(Expr::from(a));
    block
        .iter()
        .filter_map(|stmt| {
            let Stmt::Assign { dst, op } = stmt else {
                return None;
            };
            let expr = match op {
                Op::Add(a, b) => Expr::Add(leaf(a), leaf(b)),
                Op::Sub(a, b) => Expr::Sub(leaf(a), leaf(b)),
                Op::Mul(a, b) => Expr::Mul(leaf(a), leaf(b)),
                Op::Div(a, b) => Expr::Div(leaf(a), leaf(b)),
                Op::Neg(a) => Expr::Neg(leaf(a)),
                Op::Powi(a, n) => Expr::Powi(leaf(a), n.clone()),
                Op::Call1(f, a) => Expr::Call1(*f, leaf(a)),
                Op::Call2(f, a, b) => Expr::Call2(*f, leaf(a), leaf(b)),
                Op::Call3(f, a, b, c) => Expr::Call3(*f, leaf(a), leaf(b), leaf(c)),
                Op::Copy(_)
                | Op::FromInt(_)
                | Op::Data(_)
                | Op::Load(..)
                | Op::Call(..)
                | Op::Custom(_) => {
                    return None;
                }
            };
            Some((expr, *dst))
        })
        .fold(Known::default(), |mut known, (expr, var)| {
            known
                .0
                .entry(Known::key(&expr))
                .or_default()
                .push((expr, var));
            known
        })
}

/// A block's computed values, bucketed by operation and first operand so that looking one up
/// is not a scan of the whole block (which made long functions expand in quadratic time).
#[derive(Default)]
pub(super) struct Known(HashMap<Key, Vec<(Expr, VarId)>>);

/// A computed value's operation and, when it is a variable, its first operand.
type Key = (std::mem::Discriminant<Expr>, Option<VarId>);

impl Known {
    fn key(expr: &Expr) -> Key {
        let first = match expr {
            Expr::Add(a, _)
            | Expr::Sub(a, _)
            | Expr::Mul(a, _)
            | Expr::Div(a, _)
            | Expr::Neg(a)
            | Expr::Call1(_, a)
            | Expr::Call2(_, a, _)
            | Expr::Call3(_, a, _, _)
            | Expr::Powi(a, _) => match **a {
                Expr::Var(v) => Some(v),
                _ => None,
            },
            _ => None,
        };
        (std::mem::discriminant(expr), first)
    }

    /// The variable holding `expr`, if the block computed it.
    pub(super) fn find(&self, expr: &Expr) -> Option<VarId> {
        let bucket = self.0.get(&Known::key(expr))?;
        bucket
            .iter()
            .find(|(computed, _)| computed == expr)
            .map(|(_, var)| *var)
    }
}
