//! The pullbacks of the functions of `f64` (`tanh`, `max`, `mul_add`, ...): each rule is
//! declared beside its function in `crate::math`'s lists, and expanded here, where the
//! derivative expressions are. With `y = f(a)` (or `f(a, b)`, `f(a, b, c)`) and `d` the
//! adjoint of `y`, each gives the contribution to `a` (and `b`, `c`), or `None` where it is
//! identically zero.

use super::expr::{Expr, Test};
use crate::ir::{CmpOp, Func, Func2, Func3};

macro_rules! unary_rules {
    ($( $(#[$doc:meta])* $variant:ident $name:literal |$a:pat_param, $y:pat_param, $d:pat_param| $rule:expr, )*) => {
        /// The contribution of `y = f(a)` to the adjoint of `a`, given the adjoint `d` of `y`.
        pub(crate) fn pullback1(f: Func, a: Expr, y: Expr, d: Expr) -> Option<Expr> {
            match f { $(Func::$variant => { let ($a, $y, $d) = (a, y, d); $rule })* }
        }
    };
}

macro_rules! binary_rules {
    ($( $variant:ident $name:literal |$a:pat_param, $b:pat_param, $y:pat_param, $d:pat_param| $rule:expr, )*) => {
        /// The contributions of `y = f(a, b)` to the adjoints of `a` and `b`.
        pub(crate) fn pullback2(f: Func2, a: Expr, b: Expr, y: Expr, d: Expr) -> (Option<Expr>, Option<Expr>) {
            match f { $(Func2::$variant => { let ($a, $b, $y, $d) = (a, b, y, d); $rule })* }
        }
    };
}

macro_rules! ternary_rules {
    ($( $variant:ident $name:literal |$a:pat_param, $b:pat_param, $c:pat_param, $y:pat_param, $d:pat_param| $rule:expr, )*) => {
        /// The contributions of `y = f(a, b, c)` to the adjoints of `a`, `b` and `c`.
        pub(crate) fn pullback3(f: Func3, a: Expr, b: Expr, c: Expr, y: Expr, d: Expr) -> [Option<Expr>; 3] {
            match f { $(Func3::$variant => { let ($a, $b, $c, $y, $d) = (a, b, c, y, d); $rule })* }
        }
    };
}

crate::math::unary_functions!(unary_rules);
crate::math::binary_functions!(binary_rules);
crate::math::ternary_functions!(ternary_rules);

fn clamp(a: Expr, lo: Expr, hi: Expr, d: Expr) -> [Option<Expr>; 3] {
    let below = Test::Cmp(CmpOp::Lt, a.clone(), lo);
    let above = Test::Cmp(CmpOp::Gt, a, hi);
    let inside = Expr::select(
        below.clone(),
        zero(),
        Expr::select(above.clone(), zero(), d.clone()),
    );
    [
        Some(inside),
        Some(Expr::select(below, d.clone(), zero())),
        Some(Expr::select(above, d, zero())),
    ]
}

fn zero() -> Expr {
    Expr::Const(0.0)
}

fn one() -> Expr {
    Expr::Const(1.0)
}

/// `d` times the sign of `a`: 0 at ±0, NaN at NaN (PyTorch's `grad * sgn(a)`).
fn sign(a: Expr, d: Expr) -> Expr {
    Expr::select(
        Test::Cmp(CmpOp::Eq, a.clone(), zero()),
        zero(),
        d * a.call(Func::Signum),
    )
}

fn powf(a: Expr, b: Expr, y: Expr, d: Expr) -> (Option<Expr>, Option<Expr>) {
    let to_a = Expr::select(
        Test::Cmp(CmpOp::Eq, b.clone(), zero()),
        zero(),
        d.clone() * b.clone() * a.clone().call2(Func2::Powf, b.clone() - one()),
    );
    let base_zero = Test::Cmp(CmpOp::Eq, a.clone(), zero());
    let to_b = Expr::select(
        Test::And(
            Box::new(base_zero),
            Box::new(Test::Cmp(CmpOp::Ge, b, zero())),
        ),
        zero(),
        d * y * a.call(Func::Ln),
    );
    (Some(to_a), Some(to_b))
}

/// The operand `f64::max` (or `min`) returns takes `d`: the winner of `a cmp b`, or the other
/// operand when one is NaN (as PyTorch's `fmax`); a tie splits `d` in half (as `maximum`).
fn split(cmp: CmpOp, a: Expr, b: Expr, d: Expr) -> (Option<Expr>, Option<Expr>) {
    let share = |first: &Expr, second: &Expr| {
        let wins = Test::Or(
            Box::new(Test::Cmp(cmp, first.clone(), second.clone())),
            Box::new(Test::IsNan(second.clone())),
        );
        let tie = Test::Cmp(CmpOp::Eq, first.clone(), second.clone());
        Expr::select(
            wins,
            d.clone(),
            Expr::select(tie, d.clone() * Expr::Const(0.5), zero()),
        )
    };
    (Some(share(&a, &b)), Some(share(&b, &a)))
}
