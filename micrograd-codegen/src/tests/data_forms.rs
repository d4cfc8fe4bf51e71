//! lower/ on issue 24's data forms: a local array filled with a float variable is zeros and a
//! loop storing the variable into every entry; an array of float tuples is rows of its floats,
//! whose tuple `pts[i]` is a load of each of row `i`'s entries.

use super::{lower, param, var};
use crate::ir::{IntExpr, Op, Operand, Stmt};
use syn::parse_quote;

/// Every statement of the body, nested ones included.
fn stmts(function: &crate::ir::Function) -> Vec<&Stmt> {
    let mut out = Vec::new();
    crate::ir::walk(&function.body, &mut |stmt| out.push(stmt));
    out
}

fn lit(value: u128) -> IntExpr {
    IntExpr::Lit {
        value,
        suffix: String::new(),
    }
}

#[test]
fn a_variable_fill_is_zeros_then_a_store_in_a_loop() {
    let item: syn::ItemFn = parse_quote! {
        fn f(b: f64) -> f64 {
            let h = [b; 3];
            h[0] + h[2]
        }
    };
    let function = lower(&item, &[]);
    let (b, h) = (param(&function, 0), var(&function, "h", 0));
    // At the top: zeros, then a loop whose body stores `b`; no store of `b` outside it.
    assert!(function.body.iter().any(|stmt| matches!(
        stmt,
        Stmt::Array { dst, fill: Operand::Const(zero) } if *dst == h && *zero == 0.0
    )));
    let stored = |stmts: &[Stmt]| {
        stmts.iter().any(|stmt| {
            matches!(stmt, Stmt::Store { array, value: Operand::Var(v), .. } if *array == h && *v == b)
        })
    };
    assert!(!stored(&function.body));
    let looped = function.body.iter().any(|stmt| match stmt {
        Stmt::Loop(the_loop) => stored(&the_loop.body),
        _ => false,
    });
    assert!(looped, "the fill is stored by a loop");
}

#[test]
fn a_tuple_of_an_array_of_tuples_loads_its_row() {
    let item: syn::ItemFn = parse_quote! {
        fn f(a: f64) -> f64 {
            let pts = [(a, 1.0), (2.0, a)];
            let (x, y) = pts[1];
            x * y + pts[0].1
        }
    };
    let function = lower(&item, &[]);
    let pts = var(&function, "pts", 0);
    let loads: Vec<&IntExpr> = stmts(&function)
        .into_iter()
        .filter_map(|stmt| match stmt {
            Stmt::Assign {
                op: Op::Load(array, at),
                ..
            } if *array == pts => Some(at),
            _ => None,
        })
        .collect();
    // `pts[1]` is entries 2 and 3 of the flat rows, `pts[0].1` entry 1 alone.
    assert_eq!(loads, [&lit(2), &lit(3), &lit(1)]);
    let (x, y) = (var(&function, "x", 0), var(&function, "y", 0));
    assert_ne!(x, y);
}
