//! The derivative table: what each operation adds to the adjoints of its operands.
//!
//! With `y = op(a, b)` and `d` the adjoint of `y`, each line lists `a ← ∂y/∂a · d` and
//! `b ← ∂y/∂b · d`. The rules of the functions of `f64` (`tanh`, `max`, ...) are declared
//! beside each function in `crate::math` and expanded in `functions.rs`.

use super::expr::{Expr, Test};
use super::functions as math;
use crate::ir::{CmpOp, IntExpr, IntOp, Op, Operand, VarId};

/// Where a contribution goes.
#[derive(Clone, Debug)]
pub enum Target<'a> {
    /// The adjoint of a scalar operand.
    Operand(&'a Operand),
    /// The adjoint of one entry of a slice or array.
    Elem(VarId, &'a IntExpr),
}

/// The contributions of `y = op`, or `None` for a call (differentiated by its pullback).
pub fn pullback<'a>(op: &'a Op, y: VarId, d: Expr) -> Option<Vec<(Target<'a>, Expr)>> {
    use Target::Operand as To;
    let y = Expr::Var(y);
    Some(match op {
        // y = a: a ← d
        Op::Copy(a) => vec![(To(a), d)],
        // y = a + b: a ← d, b ← d
        Op::Add(a, b) => vec![(To(a), d.clone()), (To(b), d)],
        // y = a - b: a ← d, b ← -d
        Op::Sub(a, b) => vec![(To(a), d.clone()), (To(b), -d)],
        // y = a * b: a ← d b, b ← d a
        Op::Mul(a, b) => vec![(To(a), d.clone() * b.into()), (To(b), d * a.into())],
        // y = a / b: a ← d / b, b ← -d y / b (PyTorch's order, which does not overflow in b²)
        Op::Div(a, b) => vec![
            (To(a), d.clone() / b.into()),
            (To(b), -(d * (y / b.into()))),
        ],
        // y = -a: a ← -d
        Op::Neg(a) => vec![(To(a), -d)],
        // y = aⁿ: a ← d n aⁿ⁻¹ (0 when n = 0, as in PyTorch)
        Op::Powi(a, n) => powi(a, n, d).map(|e| vec![(To(a), e)]).unwrap_or_default(),
        // y = f(a), y = f(a, b): each function's rule is declared with it, in crate::math
        Op::Call1(f, a) => math::pullback1(*f, a.into(), y, d)
            .map(|e| vec![(To(a), e)])
            .unwrap_or_default(),
        Op::Call2(f, a, b) => {
            let (to_a, to_b) = math::pullback2(*f, a.into(), b.into(), y, d);
            [(a, to_a), (b, to_b)]
                .into_iter()
                .filter_map(|(operand, e)| Some((To(operand), e?)))
                .collect()
        }
        Op::Call3(f, a, b, c) => {
            let to = math::pullback3(*f, a.into(), b.into(), c.into(), y, d);
            [a, b, c]
                .into_iter()
                .zip(to)
                .filter_map(|(operand, e)| Some((To(operand), e?)))
                .collect()
        }
        // y = n as f64: a constant
        Op::FromInt(_) => Vec::new(),
        // y = pts[i][0], read from data: a constant
        Op::Data(_) => Vec::new(),
        // y = w[i]: w[i] ← d
        Op::Load(w, i) => vec![(Target::Elem(*w, i), d)],
        // y = f(x, ..) with `derivative(..)` rules: x ← d ∂f/∂x, the rule's value, which the
        // forward sweep computed before `f`'s body (so forward mode multiplies by the same value)
        Op::Custom(custom) => custom
            .partials
            .iter()
            .map(|(x, partial)| (To(x), d.clone() * Expr::Var(*partial)))
            .collect(),
        Op::Call(..) => return None,
    })
}

/// `d n aⁿ⁻¹`, folded for literal exponents; `None` when it is identically 0.
///
/// A run-time `n` may be `i32::MIN`, where `n - 1` overflows (a panic in debug builds, a wrong
/// `a^i32::MAX` in release) though `f`'s `a.powi(n)` is fine: below zero `aⁿ⁻¹` is `aⁿ / a`
/// (`inf / 0` is still `inf` at `a = 0`), and from 1 up `n - 1` cannot overflow.
fn powi(a: &Operand, n: &IntExpr, d: Expr) -> Option<Expr> {
    let a: Expr = a.into();
    if let IntExpr::Lit { value, .. } = n {
        return match value {
            0 => None,
            1 => Some(d),
            2 => Some(d * Expr::Const(2.0) * a),
            _ => Some(
                d * Expr::Const(*value as f64)
                    * a.powi(IntExpr::Lit {
                        value: value - 1,
                        suffix: String::new(),
                    }),
            ),
        };
    }
    let minus_one = IntExpr::Binary(
        IntOp::Sub,
        Box::new(n.clone()),
        Box::new(IntExpr::Lit {
            value: 1,
            suffix: String::new(),
        }),
    );
    let below_zero = Test::Cmp(CmpOp::Lt, Expr::Int(n.clone()), Expr::Const(0.0));
    let power = Expr::select(
        below_zero,
        a.clone().powi(n.clone()) / a.clone(),
        a.powi(minus_one),
    );
    let general = d * Expr::Int(n.clone()) * power;
    let zero = IntExpr::Lit {
        value: 0,
        suffix: String::new(),
    };
    Some(Expr::select(
        Test::IntEq(n.clone(), zero),
        Expr::Const(0.0),
        general,
    ))
}
