//! The signature's reading (signature.rs, types.rs): each parameter kind reads to its
//! structural type, and how differentiation treats it (`types::Type::kind`: differentiated or
//! not, its shadow, its partial) is a query on that type.

use crate::error::Errors;
use crate::flavor::Flavor;
use crate::ir::{Output, ParamSpec, Signature};
use crate::types::{Kind, Type};
use syn::parse_quote;

/// The signature of `item`, which must be valid.
fn signature(item: syn::ItemFn) -> Signature {
    let mut errors = Errors::default();
    let sig = crate::signature::check(&item, &syn::parse_quote!(::micrograd_runtime), &mut errors);
    assert!(errors.is_empty(), "the signature is valid");
    sig.expect("the signature")
}

/// The parameters of `item`, which must be valid.
fn params(item: syn::ItemFn) -> Vec<ParamSpec> {
    signature(item).params
}

/// The printed signature of `flavor`, every parameter chosen, with spaces as `quote` prints.
fn printed(sig: &Signature, flavor: Flavor) -> String {
    let chosen = vec![true; sig.params.len()];
    let runtime: syn::Path = parse_quote!(micrograd_runtime);
    let seed = crate::names::ident("seed", proc_macro2::Span::call_site());
    let seed = flavor.seeded(false).then_some(&seed);
    let printed = crate::header::signature(sig, &chosen, flavor, seed, &runtime).to_string();
    // The float type is printed by its full path, so a user's `f64` cannot shadow it.
    printed.replace(":: core :: primitive :: f64", "f64")
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
            grid: &[[f64; 3]; N],
            ragged: &[Vec<f64>],
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
    // Rows of floats (issue 24): a shadow of the same shape after them; `rows` sized.
    let Kind::Rows {
        row, rows: None, ..
    } = kind("pts")
    else {
        panic!("`&[[f64; 2]]` is rows of floats")
    };
    assert_eq!(row.value, Some(2));
    assert_eq!(facts(kind("pts")), (true, true, true));
    let Kind::Rows {
        row,
        rows: Some(rows),
        by_value: false,
    } = kind("grid")
    else {
        panic!("`&[[f64; 3]; N]` is rows of floats of known number")
    };
    assert_eq!(
        (row.value, rows.tokens.0.to_string()),
        (Some(3), "N".into())
    );
    for data in ["o", "n", "on"] {
        assert_eq!(facts(kind(data)), (false, false, false), "{data}");
    }
    // Rows of their own lengths (issue 24): a shadow `&mut [Vec<f64>]` of the same shape.
    assert_eq!(kind("ragged"), Kind::Ragged);
    assert_eq!(facts(kind("ragged")), (true, true, true));
    assert_eq!(
        kind("ragged").shadow(crate::scalar::Scalar::F64, true),
        Some(crate::types::read(
            &parse_quote!(&mut [Vec<f64>]),
            crate::scalar::Scalar::F64
        ))
    );
    assert_eq!(kind("o"), Kind::Data);
}

#[test]
fn the_kind_is_a_query_on_the_structural_type() {
    // The kind borrows its type: compared here as its debug text.
    let kind = |ty: syn::Type| {
        format!(
            "{:?}",
            crate::types::read(&ty, crate::ir::Scalar::F64).kind()
        )
    };
    let is = |kind: Kind| format!("{kind:?}");
    let f64 = || Box::new(Type::Float(crate::ir::Scalar::F64));
    assert_eq!(
        crate::types::read(&parse_quote!(&mut [f64]), crate::ir::Scalar::F64),
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
    // A float behind `&` is an `f64` to differentiation (issue 24), behind `&mut` a written
    // one (tests/out_params.rs).
    assert_eq!(kind(parse_quote!(&f64)), is(Kind::Scalar));
    assert_eq!(kind(parse_quote!(&core::primitive::f32)), is(Kind::Scalar));
    assert_eq!(kind(parse_quote!(&mut f64)), is(Kind::ScalarMut));
    // Rows of floats are differentiated; floats inside other structures are data.
    let three = crate::types::Len {
        value: Some(3),
        tokens: crate::types::Tokens(quote::quote!(3)),
    };
    let rows = |rows, by_value| Kind::Rows {
        row: &three,
        rows,
        by_value,
    };
    assert_eq!(kind(parse_quote!(&[[f64; 3]])), is(rows(None, false)));
    assert_eq!(
        kind(parse_quote!(&[[f32; 3]; 3])),
        is(rows(Some(&three), false))
    );
    // By value: no shadow, its partials of its type in the tuple.
    assert_eq!(
        kind(parse_quote!([[f64; 3]; 3])),
        is(rows(Some(&three), true))
    );
    assert_eq!(kind(parse_quote!(&[Vec<f64>])), is(Kind::Ragged));
    // As `&Vec<f64>` is read as `&[f64]`; a `Vec<Vec<f64>>` by value stays data.
    assert_eq!(kind(parse_quote!(&Vec<Vec<f32>>)), is(Kind::Ragged));
    assert_eq!(kind(parse_quote!(Vec<Vec<f64>>)), is(Kind::Data));
    assert_eq!(kind(parse_quote!(&Vec<Vec<usize>>)), is(Kind::Data));
    assert_eq!(kind(parse_quote!(&[&[f64]])), is(Kind::Data));
    assert_eq!(kind(parse_quote!(&[[[f64; 3]; 3]])), is(Kind::Data));
    assert_eq!(kind(parse_quote!(&Vec<usize>)), is(Kind::Data));
    assert_eq!(kind(parse_quote!((f64, f64))), is(Kind::Data));
    assert_eq!(kind(parse_quote!([usize; 2])), is(Kind::Data));
    // A primitive behind `&` is no parameter struct.
    assert_eq!(kind(parse_quote!(&char)), is(Kind::Data));
    assert_eq!(kind(parse_quote!(&<T as Tr>::S)), is(Kind::Data));
}

#[test]
fn the_signature_is_read_into_the_ir() {
    let sig = signature(parse_quote! {
        pub(crate) fn f<const N: usize>(x: f64, w: &[f64; N], labels: &[usize]) -> [f64; 2] {
            let seed = x;
            [seed, w[labels[0]]]
        }
    });
    assert_eq!(sig.ident, "f");
    assert_eq!(sig.vis.to_string(), "pub (crate)");
    assert_eq!(sig.generics.to_string(), "< const N : usize >");
    assert_eq!(sig.output, Some(Output::Array(2)));
    assert_eq!(sig.scalar, crate::ir::Scalar::F64);
    // The body's names, which generated bindings avoid.
    assert!(sig.user_names.contains("seed") && sig.user_names.contains("labels"));
    assert_eq!(sig.params[2].written.0.to_string(), "& [usize]");
}

#[test]
fn shadows_partials_and_tangents_are_laid_out_from_the_kind() {
    let sig = signature(parse_quote! {
        fn f<const N: usize>(
            x: f64,
            w: &[f64],
            a: &[f64; 3],
            v: &Vec<f64>,
            p: [f64; N],
            m: &mut [f64],
            s: &Mlp,
            n: usize,
            pts: &[[f64; 2]],
        ) -> f64 {
            x
        }
    });
    // f_grad: a shadow `&mut [f64]` after each slice (`&mut [f64; 3]` keeps a known length),
    // `&mut S` after a struct; partials of the `f64` and the array by value in the tuple.
    assert_eq!(
        printed(&sig, Flavor::Grad),
        "fn f_grad < const N : usize > (x : f64 , w : & [f64] , d_w : & mut [f64] , \
         a : & [f64 ; 3] , d_a : & mut [f64 ; 3] , v : & :: std :: vec :: Vec < f64 > , \
         d_v : & mut [f64] , p : [f64 ; N] , m : & mut [f64] , d_m : & mut [f64] , \
         s : & Mlp , d_s : & mut Mlp , n : usize , pts : & [[f64 ; 2]] , \
         d_pts : & mut [[f64 ; 2]] ,) -> (f64 , f64 , [f64 ; N])"
    );
    // The pullback's shadows are all slices, so a caller may pass a part of its own.
    assert!(printed(&sig, Flavor::Pullback).contains("d_a : & mut [f64] ,"));
    // f_jvp: a tangent of the parameter's own type right after each differentiated one.
    assert_eq!(
        printed(&sig, Flavor::Jvp),
        "fn f_jvp < const N : usize > (x : f64 , v_x : f64 , w : & [f64] , v_w : & [f64] , \
         a : & [f64 ; 3] , v_a : & [f64 ; 3] , v : & :: std :: vec :: Vec < f64 > , \
         v_v : & :: std :: vec :: Vec < f64 > , p : [f64 ; N] , v_p : [f64 ; N] , \
         m : & mut [f64] , v_m : & mut [f64] , s : & Mlp , v_s : & Mlp , n : usize , \
         pts : & [[f64 ; 2]] , v_pts : & [[f64 ; 2]] ,) -> (f64 , f64)"
    );
    // The tangent program is a signature of its own, whose pullback is printed as any.
    let chosen = vec![true; sig.params.len()];
    let program = crate::header::tangent_signature(&sig, &chosen, Flavor::TangentPullback);
    assert_eq!(program.ident, "__f_tangent");
    // `m: &mut [f64]` makes it return its value beside the tangent.
    assert_eq!(program.output, Some(Output::Tuple(2)));
    let names: Vec<String> = program.params.iter().map(|p| p.ident.to_string()).collect();
    assert_eq!(names[..4], ["x", "v_x", "w", "v_w"]);
}

#[test]
fn layouts_are_queries_on_the_kind() {
    let specs = params(parse_quote! {
        fn f<const N: usize>(
            x: f64,
            w: &[f64],
            a: &[f64; 3],
            v: &Vec<f64>,
            p: [f64; N],
            m: &mut [f64],
            s: &Mlp,
            n: usize,
        ) -> f64 {
            x
        }
    });
    let f64 = crate::ir::Scalar::F64;
    let print = |ty: Option<Type>| ty.map(|ty| crate::header::print(&ty).to_string());
    let layout = |spec: &ParamSpec| {
        let kind = spec.kind();
        let shadow = |sized| print(kind.shadow(f64, sized));
        (shadow(true), shadow(false), print(kind.partial(f64)))
    };
    let float = ":: core :: primitive :: f64";
    let slice = || Some(format!("& mut [{float}]"));
    let expected = [
        (None, None, Some(float.to_string())),
        (slice(), slice(), None),
        (Some(format!("& mut [{float} ; 3]")), slice(), None),
        (slice(), slice(), None),
        (None, None, Some(format!("[{float} ; N]"))),
        (slice(), slice(), None),
        (Some("& mut Mlp".into()), Some("& mut Mlp".into()), None),
        (None, None, None),
    ];
    for (spec, expected) in specs.iter().zip(expected) {
        assert_eq!(layout(spec), expected, "{}", spec.ident);
    }
    // Only the written slice is written; f_jacobian takes `f64`s and read-only slices.
    let written: Vec<bool> = specs.iter().map(|s| s.kind().is_written()).collect();
    assert_eq!(
        written,
        [false, false, false, false, false, true, false, false]
    );
    let jacobian: Vec<bool> = specs.iter().map(|s| s.kind().in_jacobian()).collect();
    assert_eq!(
        jacobian,
        [true, true, true, true, false, false, false, false]
    );
    // A shadow's length is checked at run time where its type does not fix it.
    let checked: Vec<bool> = specs
        .iter()
        .map(|s| s.kind().shadow_has_len(true))
        .collect();
    assert_eq!(
        checked,
        [false, true, false, true, false, true, false, false]
    );
}
