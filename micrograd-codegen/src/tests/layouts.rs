//! types.rs `Kind::layout`: each parameter kind says how the lowered body holds it, and the
//! lowering makes its variable of the IR's type for that layout (no match on the kind there).

use super::lower;
use crate::ir::{IntExpr, Ty};
use syn::parse_quote;

fn lit(value: u128) -> Option<IntExpr> {
    Some(IntExpr::Lit {
        value,
        suffix: String::new(),
    })
}

fn slice(len: Option<IntExpr>, mutable: bool) -> Ty {
    Ty::slice(len, mutable)
}

#[test]
fn each_parameter_kind_is_held_as_its_layout_says() {
    let item: syn::ItemFn = parse_quote! {
        fn f(
            x: f64, r: &f64, n: usize, b: bool,
            w: &[f64], a: &[f64; 3], v: &Vec<f64>, p: [f64; 2],
            m: &mut [f64], y: &mut f64,
            rows: &[[f64; 2]], grid: &[[f64; 2]; 3],
            pts: &[(f64, usize)],
        ) -> f64 {
            x + *r + w[0] + a[0] + v[0] + p[0] + m[0] + *y + rows[0][0] + grid[0][0] + n as f64
                + if b { pts[0].0 } else { 0.0 }
        }
    };
    let function = lower(&item, &["x", "rows", "grid"]);
    let types: Vec<Ty> = function
        .params
        .iter()
        .map(|param| function.var(param.var).ty.clone())
        .collect();
    let data = crate::types::read(&parse_quote!(&[(f64, usize)]));
    assert_eq!(
        types,
        [
            Ty::F64,
            Ty::F64,
            Ty::Int,
            Ty::Bool,
            slice(None, false),
            slice(lit(3), false),
            slice(None, false),
            slice(lit(2), false),
            slice(None, true),
            slice(None, true),
            // Rows of two, held flat: the number of rows times the row's length.
            slice(None, false),
            slice(lit(6), false),
            Ty::Data(data),
        ]
    );
}
