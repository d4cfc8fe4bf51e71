//! diff/expr.rs: the seed, adjoint and variable rewrites are `Expr::rewrite` with one case
//! each; a select's test holds forward values only, so only `map_vars` changes it.

use crate::diff::expr::{Expr, Test};
use crate::ir::{CmpOp, Func, VarId};

/// `if x < y { d_x * seed } else { -y.exp() * d_y }`, whose test reads `x` and `y`.
fn formula() -> Expr {
    let (x, y) = (Expr::Var(VarId(0)), Expr::Var(VarId(1)));
    Expr::select(
        Test::Cmp(CmpOp::Lt, x.clone(), y.clone()),
        Expr::Adj(VarId(0)) * Expr::Seed(0),
        -y.call(Func::Exp) * Expr::Adj(VarId(1)),
    )
}

fn parts(expr: Expr) -> (Test, Expr, Expr) {
    match expr {
        Expr::Select(test, a, b) => (*test, *a, *b),
        other => panic!("not a select: {other:?}"),
    }
}

#[test]
fn replace_seed_changes_only_the_seed() {
    let (test, a, b) = parts(formula().replace_seed(&Expr::Var(VarId(7))));
    let (old_test, _, old_b) = parts(formula());
    assert_eq!(test, old_test);
    assert_eq!(a, Expr::Adj(VarId(0)) * Expr::Var(VarId(7)));
    assert_eq!(b, old_b);
}

#[test]
fn map_adjoints_renames_adjoints_in_both_values() {
    let shifted = formula().map_adjoints(&|v| VarId(v.0 + 10));
    let (test, a, b) = parts(shifted);
    let (old_test, _, _) = parts(formula());
    assert_eq!(test, old_test);
    assert_eq!(a, Expr::Adj(VarId(10)) * Expr::Seed(0));
    let y = Expr::Var(VarId(1));
    assert_eq!(b, -y.call(Func::Exp) * Expr::Adj(VarId(11)));
}

#[test]
fn map_vars_reaches_the_test() {
    let load = |v: VarId| (v == VarId(1)).then_some(Expr::Const(2.0));
    let (test, _, b) = parts(formula().map_vars(&load));
    let x = Expr::Var(VarId(0));
    assert_eq!(test, Test::Cmp(CmpOp::Lt, x, Expr::Const(2.0)));
    assert_eq!(b, -Expr::Const(2.0).call(Func::Exp) * Expr::Adj(VarId(1)));
}
