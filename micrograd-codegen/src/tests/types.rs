//! types.rs: the structural reading of types as written, what reading a value of one yields,
//! and how data parameters lower (`Ty::Data`, places in `Op::Data` and `IntExpr::Data`).

use crate::ir::{IntExpr, Op, Scalar, Step, Stmt, Ty};
use crate::types::{self, Type};
use quote::quote;
use syn::parse_quote;

fn read(ty: syn::Type) -> Type {
    types::read(&ty, crate::ir::Scalar::F64)
}

fn int(name: &str) -> Type {
    Type::Int(name.to_string())
}

/// `[elem; len]`, the length as written.
fn array(elem: Type, len: proc_macro2::TokenStream) -> Type {
    let value = syn::parse2::<syn::LitInt>(len.clone())
        .ok()
        .map(|n| n.base10_parse().expect("a literal length"));
    Type::Array(
        Box::new(elem),
        types::Len {
            value,
            tokens: types::Tokens(len),
        },
    )
}

#[test]
fn types_are_read_structurally() {
    let f64 = Type::Float(Scalar::F64);
    assert_eq!(read(parse_quote!(f64)), f64);
    assert_eq!(
        read(parse_quote!(core::primitive::f32)),
        Type::Float(Scalar::F32)
    );
    assert_eq!(read(parse_quote!(usize)), int("usize"));
    assert_eq!(read(parse_quote!(bool)), Type::Bool);
    assert_eq!(
        read(parse_quote!(&[[f64; 2]])),
        Type::Ref {
            mutable: false,
            elem: Box::new(Type::Slice(Box::new(array(f64.clone(), quote!(2))))),
        }
    );
    assert_eq!(
        read(parse_quote!(std::vec::Vec<(f64, i32)>)),
        Type::Vec(Box::new(Type::Tuple(vec![f64.clone(), int("i32")])))
    );
    assert_eq!(read(parse_quote!([u8; N])), array(int("u8"), quote!(N)));
    assert_eq!(
        read(parse_quote!(&str)),
        Type::Ref {
            mutable: false,
            elem: Box::new(Type::Str)
        }
    );
    assert!(matches!(read(parse_quote!(Option<f64>)), Type::Named(_)));
    assert!(matches!(read(parse_quote!(crate::Mlp)), Type::Named(_)));
    assert!(matches!(read(parse_quote!(char)), Type::Opaque(_)));
    assert!(matches!(read(parse_quote!(Vec<f64, A>)), Type::Opaque(_)));
    assert!(matches!(
        read(parse_quote!(<T as Tr>::f64)),
        Type::Opaque(_)
    ));
    assert!(matches!(
        read(parse_quote!(fn(f64) -> f64)),
        Type::Opaque(_)
    ));
}

#[test]
fn indexing_fields_and_parts_see_through_references() {
    let pts = read(parse_quote!(&[[f64; 2]]));
    let row = pts.elem().expect("a slice has elements");
    assert_eq!(row, &array(Type::Float(Scalar::F64), quote!(2)));
    assert_eq!(row.elem(), Some(&Type::Float(Scalar::F64)));
    assert_eq!(row.parts().map(|p| p.len()), Some(2));
    let data = read(parse_quote!(&Vec<(f64, usize)>));
    let pair = data.elem().expect("a `Vec` has elements");
    assert_eq!(pair.field(1), Some(&int("usize")));
    assert_eq!(pair.field(2), None);
    assert_eq!(pair.parts().map(|p| p.len()), Some(2));
    assert!(read(parse_quote!(&&[usize])).has_len());
    assert!(read(parse_quote!(&str)).has_len());
    assert!(!read(parse_quote!((usize, usize))).has_len());
    assert_eq!(
        read(parse_quote!([f64; N])).parts(),
        None,
        "its length is not a literal"
    );
    assert_eq!(read(parse_quote!(Option<f64>)).elem(), None);
}

#[test]
fn what_holds_floats_and_what_is_copy() {
    assert_eq!(
        read(parse_quote!(&[(usize, f32)])).float(),
        Some(Scalar::F32)
    );
    assert_eq!(read(parse_quote!(&[usize])).float(), None);
    assert!(
        read(parse_quote!(&[[f64; 2]]))
            .elem()
            .is_some_and(Type::is_float_sequence)
    );
    assert!(
        !read(parse_quote!(&[(f64, f64)]))
            .elem()
            .is_some_and(Type::is_float_sequence)
    );
    assert!(read(parse_quote!(([i32; 2], (usize, bool)))).is_copy());
    assert!(read(parse_quote!(&Vec<f64>)).is_copy());
    assert!(!read(parse_quote!(Vec<usize>)).is_copy());
    assert!(!read(parse_quote!(&mut [usize])).is_copy());
    assert_eq!(
        types::spelled(&parse_quote!(&[[f64; 2]]) as &syn::Type),
        "&[[f64; 2]]"
    );
    assert_eq!(
        types::spelled(&parse_quote!(&Vec<(f64, usize)>) as &syn::Type),
        "&Vec<(f64, usize)>"
    );
}

#[test]
fn data_parameters_lower_to_places() {
    let item: syn::ItemFn = parse_quote! {
        fn f(w: &[f64], pts: &[&[f64]], labels: &[usize]) -> f64 {
            let k = labels[1];
            w[k] * pts[k][0]
        }
    };
    let function = super::lower(&item, &[]);
    let (pts, labels) = (&function.params[1], &function.params[2]);
    assert!(!pts.wrt && !labels.wrt, "data is never differentiated");
    assert!(matches!(function.var(pts.var).ty, Ty::Data(_)));
    let reads: Vec<&crate::ir::Place> = function
        .body
        .iter()
        .filter_map(|stmt| match stmt {
            Stmt::Assign {
                op: Op::Data(place),
                ..
            } => Some(place),
            _ => None,
        })
        .collect();
    assert_eq!(reads.len(), 1);
    assert_eq!(reads[0].root, pts.var);
    assert!(matches!(
        reads[0].steps.as_slice(),
        [Step::Index(IntExpr::Var(_)), Step::Index(_)]
    ));
    let k = function.body.iter().find_map(|stmt| match stmt {
        Stmt::IntLet { expr, .. } => Some(expr),
        _ => None,
    });
    assert!(
        matches!(k, Some(IntExpr::Data(place)) if place.root == labels.var),
        "an integer read is an integer expression"
    );
}

#[test]
fn misuses_of_data_are_errors_never_panics() {
    let bodies: Vec<syn::Block> = vec![
        parse_quote!({ pts[0][0][1] }),
        parse_quote!({ labels[0].0 as f64 }),
        parse_quote!({ pts.0 }),
        parse_quote!({ name[0] as f64 }),
        parse_quote!({
            let mut p = pts[0];
            p = pts[1];
            p[0]
        }),
        parse_quote!({
            let mut s = 0.0;
            for c in name {
                s += c;
            }
            s
        }),
        parse_quote!({
            let (a, b) = pts[0];
            a + b
        }),
        parse_quote!({
            let [a, b, c] = pts[0];
            a + b + c
        }),
        parse_quote!({
            let [a, b] = data[0];
            a + b
        }),
        parse_quote!({ pts[1..].len() as f64 }),
        parse_quote!({ o.unwrap() }),
        parse_quote!({ cfg.k }),
        parse_quote!({
            let mut s = 0.0;
            for x in pts[0][0] {
                s += x;
            }
            s
        }),
        parse_quote!({ pts.iter().sum::<f64>() }),
        parse_quote!({ data.iter().map(|p| p.2).sum::<f64>() }),
        parse_quote!({ w[0] * pts[labels[0]][labels[1]] * *o }),
        parse_quote!({ g(pts[0], data) }),
        parse_quote!({ -pts[0] }),
        parse_quote!({ if pts[0] > data[0] { 1.0 } else { 2.0 } }),
        parse_quote!({
            match data[0] {
                (a, _) => a,
            }
        }),
    ];
    for body in bodies {
        let item = quote::quote! {
            fn f(w: &[f64], pts: &[[f64; 2]], labels: &[usize], data: &[(f64, f64)], name: &str, o: Option<f64>, cfg: Config32) -> f64 #body
        };
        // `pts` left out of `wrt(..)` is data, as rows of floats in it would be differentiated.
        let code = crate::expand(quote::quote!(wrt(w)), item).to_string();
        assert!(
            code.contains("compile_error"),
            "accepted: {}",
            quote::quote!(#body)
        );
    }
}
