//! The signature's reading (signature.rs, types.rs): each parameter kind reads to its
//! structural type, and how differentiation treats it (`types::Type::kind`: differentiated or
//! not, its shadow, its partial) is a query on that type.

use crate::error::Errors;
use crate::signature::ParamSpec;
use crate::types::{Kind, Type};
use syn::parse_quote;

/// The parameters of `item`, which must be valid.
fn params(item: syn::ItemFn) -> Vec<ParamSpec> {
    let mut errors = Errors::default();
    let specs = crate::signature::check(&item, &mut errors);
    assert!(errors.is_empty(), "the signature is valid");
    specs.expect("the parameters")
}

/// What a kind answers: (differentiated, a shadow parameter `d_w`, several floats).
fn facts(kind: Kind) -> (bool, bool, bool) {
    (
        kind.is_differentiable(),
        kind.has_shadow(),
        kind.is_sequence(),
    )
}

#[test]
fn each_parameter_kind_reads_to_its_type_and_layout() {
    let specs = params(parse_quote! {
        fn f<const N: usize>(
            x: f64,
            w: &[f64],
            a: &[f64; 3],
            v: &Vec<f64>,
            p: [f64; N],
            m: &mut [f64],
            n: usize,
            on: bool,
            s: &Mlp,
            pts: &[[f64; 2]],
            o: Option<f64>,
        ) -> f64 {
            x
        }
    });
    let kinds: Vec<(String, Kind)> = specs
        .iter()
        .map(|spec| (spec.ident.to_string(), spec.kind()))
        .collect();
    let kind = |name: &str| kinds.iter().find(|(n, _)| n == name).expect(name).1;
    assert_eq!(kind("x"), Kind::Scalar);
    assert_eq!(facts(kind("x")), (true, false, false));
    assert_eq!(kind("w"), Kind::Slice(None));
    assert_eq!(facts(kind("w")), (true, true, true));
    let Kind::Slice(Some(len)) = kind("a") else {
        panic!("`&[f64; 3]` is a slice of known length")
    };
    assert_eq!(len.value, Some(3));
    assert_eq!(kind("v"), Kind::Vec);
    assert_eq!(facts(kind("v")), (true, true, true));
    // By value: no shadow parameter, its partials come back as one array.
    let Kind::Array(len) = kind("p") else {
        panic!("`[f64; N]` is an array by value")
    };
    assert_eq!((len.value, len.tokens.0.to_string()), (None, "N".into()));
    assert_eq!(facts(kind("p")), (true, false, true));
    assert_eq!(kind("m"), Kind::SliceMut);
    assert_eq!(facts(kind("m")), (true, true, true));
    assert_eq!(kind("n"), Kind::Int);
    assert_eq!(kind("on"), Kind::Bool);
    let Kind::Struct(name) = kind("s") else {
        panic!("`&Mlp` is a parameter struct")
    };
    assert_eq!(name.0.to_string(), "Mlp");
    assert_eq!(facts(kind("s")), (true, true, true));
    for data in ["pts", "o", "n", "on"] {
        assert_eq!(facts(kind(data)), (false, false, false), "{data}");
    }
    assert_eq!(kind("pts"), Kind::Data);
    assert_eq!(kind("o"), Kind::Data);
}

#[test]
fn the_kind_is_a_query_on_the_structural_type() {
    // The kind borrows its type: compared here as its debug text.
    let kind = |ty: syn::Type| format!("{:?}", crate::types::read(&ty).kind());
    let is = |kind: Kind| format!("{kind:?}");
    let f64 = || Box::new(Type::Float(crate::ir::Scalar::F64));
    assert_eq!(
        crate::types::read(&parse_quote!(&mut [f64])),
        Type::Ref {
            mutable: true,
            elem: Box::new(Type::Slice(f64()))
        }
    );
    // Spelled otherwise, the same kind.
    assert_eq!(kind(parse_quote!(&std::vec::Vec<f64>)), is(Kind::Vec));
    assert_eq!(
        kind(parse_quote!(&[core::primitive::f32])),
        is(Kind::Slice(None))
    );
    // Floats inside other structures are data, not yet differentiated.
    assert_eq!(kind(parse_quote!(&[[f64; 3]])), is(Kind::Data));
    assert_eq!(kind(parse_quote!(&Vec<usize>)), is(Kind::Data));
    assert_eq!(kind(parse_quote!(&f64)), is(Kind::Data));
    assert_eq!(kind(parse_quote!((f64, f64))), is(Kind::Data));
    assert_eq!(kind(parse_quote!([usize; 2])), is(Kind::Data));
    // A primitive behind `&` is no parameter struct.
    assert_eq!(kind(parse_quote!(&char)), is(Kind::Data));
    assert_eq!(kind(parse_quote!(&<T as Tr>::S)), is(Kind::Data));
}
