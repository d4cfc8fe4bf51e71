//! types.rs `Kind::layout`: each parameter kind says how the lowered body holds it, and the
//! lowering makes its variable of the IR's type for that layout (no match on the kind there).

use super::lower;
use crate::ir::{IntExpr, Origin, Ty};
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
    let data = crate::types::read(&parse_quote!(&[(f64, usize)]), crate::ir::Scalar::F64);
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
            // By value: the caller's, read through a reference, passed on by value.
            Ty::given(lit(2).expect("a length")),
            slice(None, true),
            slice(None, true),
            // Rows of two, held flat: the number of rows times the row's length.
            slice(None, false),
            slice(lit(6), false),
            Ty::Data(data),
        ]
    );
}

/// The facts a pass asks of a variable's floats: who holds them (the caller, or the body as
/// an array or a `Vec`), whether the body writes them, and which length the type fixes.
fn facts(ty: &Ty) -> (bool, bool, bool, bool, bool, bool) {
    (
        ty.is_floats(),
        ty.is_lent(),
        ty.is_lent_mut(),
        ty.is_read_only(),
        ty.is_local(),
        ty.is_vec(),
    )
}

#[test]
fn a_parameter_is_lent_and_a_local_is_the_bodys_own() {
    let item: syn::ItemFn = parse_quote! {
        fn f(x: f64, w: &[f64], a: &[f64; 3], m: &mut [f64], n: usize, p: [f64; 2]) -> f64 {
            let mut h = [0.0; 2];
            h[0] = x;
            let mut v = vec![0.0; n];
            v[0] = h[0];
            let mut g = [[0.0; 2]; 3];
            g[1][0] = v[0];
            m[0] = g[1][0];
            w[0] + a[0] + m[0] + p[1]
        }
    };
    let function = lower(&item, &[]);
    let ty = |name: &str| {
        let at = (function.vars.iter())
            .position(|info| matches!(&info.origin, Origin::Named { name: n, .. } if n == name))
            .unwrap_or_else(|| panic!("no variable `{name}`"));
        function.vars[at].ty.clone()
    };
    let param = |k: usize| function.var(function.params[k].var).ty.clone();
    // (floats, lent, lent and written, read only, the body's own, a `Vec`)
    assert_eq!(facts(&param(0)), (false, false, false, false, false, false));
    assert_eq!(facts(&param(1)), (true, true, false, true, false, false));
    assert_eq!(facts(&param(2)), (true, true, false, true, false, false));
    assert_eq!(facts(&param(3)), (true, true, true, false, false, false));
    // Given by value: the caller's and read only as a `&[f64; 2]` is, and told apart by
    // `is_given` alone (passed on by value, its gradient a partial, not a lent shadow).
    assert_eq!(facts(&param(5)), (true, true, false, true, false, false));
    let given: Vec<bool> = (0..6).map(|k| param(k).is_given()).collect();
    assert_eq!(given, [false, false, false, false, false, true]);
    assert_eq!(param(5).fixed_len(), lit(2).as_ref());
    assert_eq!(facts(&ty("h")), (true, false, false, false, true, false));
    assert_eq!(facts(&ty("v")), (true, false, false, false, true, true));
    assert_eq!(facts(&ty("g")), (true, false, false, false, true, false));
    // Written: what the body owns, and what the caller lends `&mut`.
    let writable: Vec<bool> = [param(1), param(2), param(3), ty("h"), ty("v")]
        .iter()
        .map(Ty::is_writable)
        .collect();
    assert_eq!(writable, [false, false, true, true, true]);
    // Lengths: a `&[f64; 3]` fixes its own, a local array its constant (a matrix flat, rows
    // times the row), a `Vec` one known when the function runs only.
    assert_eq!(param(1).known_len(), None);
    assert_eq!(param(2).fixed_len(), lit(3).as_ref());
    assert_eq!(param(2).array_len(), None);
    assert_eq!(ty("h").array_len(), lit(2).as_ref());
    assert_eq!(ty("g").array_len(), lit(6).as_ref());
    // (`n`, held in a variable of its own where the `Vec` is made.)
    assert!(matches!(ty("v").known_len(), Some(IntExpr::Var(_))));
    assert_eq!((ty("v").fixed_len(), ty("v").array_len()), (None, None));
}

#[test]
fn a_kinds_layout_is_the_irs_type_with_its_lengths_as_written() {
    use crate::types::{Held, Layout};
    let sig = |item: syn::ItemFn| {
        let mut errors = crate::error::Errors::default();
        crate::signature::check(&item, &syn::parse_quote!(::micrograd_runtime), &mut errors)
            .expect("a valid signature")
    };
    let sig = sig(parse_quote! {
        fn f(x: f64, a: &[f64; 3], m: &mut [f64], rows: &[[f64; 2]; 4], pts: &[(f64, usize)]) -> f64 {
            x
        }
    });
    let layouts: Vec<Layout<String, ()>> = (sig.params.iter())
        .map(|spec| {
            let written = |len: &crate::types::Len| len.tokens.0.to_string();
            spec.kind().layout().map(written, |()| ())
        })
        .collect();
    let lent = |len: Option<&str>, mutable| Layout::Floats {
        len: len.map(String::from),
        held: Held::Lent { mutable },
    };
    assert_eq!(
        layouts,
        [
            Layout::F64,
            lent(Some("3"), false),
            lent(None, true),
            // Counted in rows as the type writes them; the lowering holds them flat.
            lent(Some("4"), false),
            Layout::Data(()),
        ]
    );
    // `map` keeps who holds the floats and changes only how lengths and data are described.
    let local: Layout<u32, ()> = Layout::local(5, true);
    assert_eq!(local.map(|n| n * 2, |()| 0u8), Layout::local(10, true));
    assert!(Layout::<u32, ()>::local(5, false).array_len() == Some(&5));
}
