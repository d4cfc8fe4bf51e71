//! The derivative table: what each operation adds to the adjoints of its operands.
//!
//! With `y = op(a, b)` and `d` the adjoint of `y`, each line lists `a ← ∂y/∂a · d` and
//! `b ← ∂y/∂b · d`. Kinks follow PyTorch: relu'(0) = 0, |x|'(0) = 0, and a tie of
//! `max`/`min` splits the gradient in half.

use super::expr::{Expr, Test};
use crate::ir::{CmpOp, Func, Func2, IntExpr, IntOp, Op, Operand, VarId};

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
        // y = f(a): relu and |a| choose between d, 0 (and -d); the others scale d by f'(a)
        Op::Call1(Func::Relu, a) => vec![(
            To(a),
            Expr::select(
                Test::Cmp(CmpOp::Le, y, Expr::Const(0.0)),
                Expr::Const(0.0),
                d,
            ),
        )],
        Op::Call1(Func::Abs, a) => vec![(To(a), sign(a.into(), d))],
        Op::Call1(Func::Signum, _) => Vec::new(),
        Op::Call1(f, a) => vec![(To(a), d * derivative(*f, a.into(), y))],
        // y = f(a, b)
        Op::Call2(f, a, b) => binary(*f, (a, b), y, d),
        // y = n as f64: a constant
        Op::FromInt(_) => Vec::new(),
        // y = w[i]: w[i] ← d
        Op::Load(w, i) => vec![(Target::Elem(*w, i), d)],
        Op::Call(..) => return None,
    })
}

/// ∂y/∂a for `y = f(a)`.
fn derivative(f: Func, a: Expr, y: Expr) -> Expr {
    let one = || Expr::Const(1.0);
    match f {
        // tanh' = 1 - y²
        Func::Tanh => one() - y.clone() * y,
        // relu' = 1 where y > 0, else 0 (0 at the kink; a NaN input passes the gradient, as in PyTorch)
        Func::Relu => Expr::select(
            Test::Cmp(CmpOp::Le, y, Expr::Const(0.0)),
            Expr::Const(0.0),
            one(),
        ),
        // σ' = y (1 - y)
        Func::Sigmoid => y.clone() * (one() - y),
        // exp' = y
        Func::Exp => y,
        // (2ˣ)' = y ln 2
        Func::Exp2 => y * Expr::consts("LN_2"),
        // (eˣ - 1)' = y + 1
        Func::ExpM1 => y + one(),
        // ln' = 1 / a
        Func::Ln => one() / a,
        // ln(1 + a)' = 1 / (1 + a)
        Func::Ln1p => one() / (a + one()),
        // log₂' = 1 / (a ln 2)
        Func::Log2 => one() / (a * Expr::consts("LN_2")),
        // log₁₀' = 1 / (a ln 10)
        Func::Log10 => one() / (a * Expr::consts("LN_10")),
        // √' = 1 / (2 y)
        Func::Sqrt => one() / (Expr::Const(2.0) * y),
        // ∛' = 1 / (3 y²)
        Func::Cbrt => one() / (Expr::Const(3.0) * y.clone() * y),
        // sin' = cos a
        Func::Sin => a.call(Func::Cos),
        // cos' = -sin a
        Func::Cos => -a.call(Func::Sin),
        // tan' = 1 + y²
        Func::Tan => one() + y.clone() * y,
        // asin' = 1 / √(1 - a²)
        Func::Asin => one() / (one() - a.clone() * a).call(Func::Sqrt),
        // acos' = -1 / √(1 - a²)
        Func::Acos => -(one() / (one() - a.clone() * a).call(Func::Sqrt)),
        // atan' = 1 / (1 + a²)
        Func::Atan => one() / (one() + a.clone() * a),
        // sinh' = cosh a
        Func::Sinh => a.call(Func::Cosh),
        // cosh' = sinh a
        Func::Cosh => a.call(Func::Sinh),
        // |a|' = sign a, 0 at 0 (PyTorch's sgn)
        Func::Abs => sign(a, one()),
        // (1/a)' = -y²
        Func::Recip => -(y.clone() * y),
        // signum' = 0 (PyTorch's sign backward is zero everywhere)
        Func::Signum => Expr::Const(0.0),
    }
}

/// `d` times the sign of `a`: 0 at ±0, NaN at NaN (PyTorch's `grad * sgn(a)`).
fn sign(a: Expr, d: Expr) -> Expr {
    let zero = || Expr::Const(0.0);
    Expr::select(
        Test::Cmp(CmpOp::Eq, a.clone(), zero()),
        zero(),
        d * a.call(Func::Signum),
    )
}

/// The contributions of `y = f(a, b)`.
fn binary<'a>(
    f: Func2,
    (a, b): (&'a Operand, &'a Operand),
    y: Expr,
    d: Expr,
) -> Vec<(Target<'a>, Expr)> {
    use Target::Operand as To;
    let (ea, eb): (Expr, Expr) = (a.into(), b.into());
    let zero = || Expr::Const(0.0);
    match f {
        // y = aᵇ: a ← d b aᵇ⁻¹ (0 where b = 0), b ← d y ln a (0 where a = 0 and b ≥ 0), as in PyTorch
        Func2::Powf => vec![
            (
                To(a),
                Expr::select(
                    Test::Cmp(CmpOp::Eq, eb.clone(), zero()),
                    zero(),
                    d.clone()
                        * eb.clone()
                        * ea.clone().call2(Func2::Powf, eb.clone() - Expr::Const(1.0)),
                ),
            ),
            (
                To(b),
                Expr::select(
                    Test::And(
                        Box::new(Test::Cmp(CmpOp::Eq, ea.clone(), zero())),
                        Box::new(Test::Cmp(CmpOp::Ge, eb, zero())),
                    ),
                    zero(),
                    d * y * ea.call(Func::Ln),
                ),
            ),
        ],
        // y = max(a, b): the operand returned gets d; a tie gives each d / 2
        Func2::Max => split(CmpOp::Gt, (a, b), d),
        // y = min(a, b): the operand returned gets d; a tie gives each d / 2
        Func2::Min => split(CmpOp::Lt, (a, b), d),
        // y = √(a² + b²): a ← d a / y, b ← d b / y
        Func2::Hypot => vec![(To(a), d.clone() * ea / y.clone()), (To(b), d * eb / y)],
        // y = atan2(a, b): a ← d b / (a² + b²), b ← -d a / (a² + b²)
        Func2::Atan2 => {
            let norm = ea.clone() * ea.clone() + eb.clone() * eb.clone();
            vec![
                (To(a), d.clone() * eb / norm.clone()),
                (To(b), -(d * ea / norm)),
            ]
        }
    }
}

/// The operand `f64::max` (or `min`) returns takes `d`: the winner of `a cmp b`, or the other
/// operand when one is NaN (as PyTorch's `fmax`); a tie splits `d` in half (as `maximum`).
fn split<'a>(cmp: CmpOp, (a, b): (&'a Operand, &'a Operand), d: Expr) -> Vec<(Target<'a>, Expr)> {
    let share = |first: &Operand, second: &Operand| {
        let wins = Test::Or(
            Box::new(Test::Cmp(cmp, first.into(), second.into())),
            Box::new(Test::IsNan(second.into())),
        );
        let tie = Test::Cmp(CmpOp::Eq, first.into(), second.into());
        Expr::select(
            wins,
            d.clone(),
            Expr::select(tie, d.clone() * Expr::Const(0.5), Expr::Const(0.0)),
        )
    };
    vec![
        (Target::Operand(a), share(a, b)),
        (Target::Operand(b), share(b, a)),
    ]
}

/// `d n aⁿ⁻¹`, folded for literal exponents; `None` when it is identically 0.
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
    let general = d * Expr::Int(n.clone()) * a.powi(minus_one);
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
