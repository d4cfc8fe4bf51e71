//! Outputs written through references (issue 24): `y: &mut f64` is a case of the type model
//! (`Kind::ScalarMut`, its answers those of a written one-entry slice), and a function returning
//! `()` that writes `&mut` parameters is a vector output of no returned entries
//! (`Output::Tuple(0)`), whose `f_pullback` takes no seed and whose `f_grad`, when its one output
//! is `err: &mut f64`, is that output's gradient.

use crate::emit::Flavor;
use crate::error::Errors;
use crate::ir::{Output, Scalar, Signature};
use crate::types::{Kind, Type};
use syn::parse_quote;

fn signature(item: syn::ItemFn) -> Signature {
    let mut errors = Errors::default();
    let sig = crate::signature::check(&item, &syn::parse_quote!(::micrograd_runtime), &mut errors);
    assert!(errors.is_empty(), "the signature is valid");
    sig.expect("the signature")
}

/// The printed signature of `flavor` (every parameter chosen), `seed` as the emitter asks.
fn printed(sig: &Signature, flavor: Flavor) -> String {
    let chosen = vec![true; sig.params.len()];
    let runtime: syn::Path = parse_quote!(micrograd_runtime);
    let seed = crate::names::ident("seed", proc_macro2::Span::call_site());
    let seed = flavor.seeded(true).then_some(&seed);
    crate::header::signature(sig, &chosen, flavor, seed, &runtime)
        .to_string()
        .replace(":: core :: primitive :: f64", "f64")
}

#[test]
fn a_written_float_is_a_one_entry_written_slice() {
    let ty = crate::types::read(&parse_quote!(&mut f64), crate::ir::Scalar::F64);
    let kind = ty.kind();
    assert_eq!(kind, Kind::ScalarMut);
    assert!(kind.is_differentiable() && kind.is_written() && kind.is_one_entry());
    assert!(kind.has_shadow() && kind.is_sequence());
    // Its shadow is a `&mut f64` of its own type, never a slice: no length to check.
    let shadow = kind.shadow(Scalar::F64, true);
    assert_eq!(
        shadow,
        Some(Type::Ref {
            mutable: true,
            elem: Box::new(Type::Float(Scalar::F64)),
        })
    );
    assert!(!kind.shadow_has_len(false));
    assert_eq!(kind.partial(Scalar::F64), None);
    assert!(!kind.in_jacobian());
    // A written slice is no one-entry float; a read-only float is a plain `f64`.
    assert!(!Kind::SliceMut.is_one_entry());
    assert_eq!(
        crate::types::read(&parse_quote!(&f64), crate::ir::Scalar::F64).kind(),
        Kind::Scalar
    );
}

#[test]
fn a_function_returning_unit_writes_its_outputs() {
    let sig = signature(parse_quote! {
        fn f(x: &[f64], a: f64, out: &mut [f64], err: &mut f64) {
            *err = a;
        }
    });
    assert_eq!(sig.output, Some(Output::Tuple(0)));
    // Two outputs: no `f_grad`, whose gradient would be a Jacobian.
    assert_eq!(sig.written_scalar(), None);
    let options = crate::attr::Options::default();
    assert!(!Flavor::Grad.emitted_for(&options, &sig));
    // The pullback takes the outputs' adjoints in their shadows, and no seed.
    assert_eq!(
        printed(&sig, Flavor::Pullback),
        "fn f_pullback (x : & [f64] , d_x : & mut [f64] , a : f64 , out : & mut [f64] , d_out : & mut [f64] , err : & mut f64 , d_err : & mut f64 ,) -> f64"
    );
    let sig = signature(parse_quote! {
        fn g(x: &[f64], err: &mut f64) -> () {
            *err = x[0];
        }
    });
    assert_eq!(sig.output, Some(Output::Tuple(0)));
    assert_eq!(
        sig.written_scalar().map(ToString::to_string),
        Some("err".into())
    );
    assert!(Flavor::Grad.emitted_for(&crate::attr::Options::default(), &sig));
    // `f_grad` of its one output: no shadow for `err`, the seed `1.0` is a local.
    assert_eq!(
        printed(&sig, Flavor::Grad),
        "fn g_grad (x : & [f64] , d_x : & mut [f64] , err : & mut f64 ,)"
    );
}

#[test]
fn unit_without_a_written_parameter_is_refused() {
    let item: syn::ItemFn = parse_quote! {
        fn f(x: &[f64], y: f64) {}
    };
    assert_eq!(
        crate::signature::output(&item, crate::ir::Scalar::F64),
        None
    );
    let mut errors = Errors::default();
    let _ = crate::signature::check(&item, &syn::parse_quote!(::micrograd_runtime), &mut errors);
    assert_eq!(
        errors.len(),
        1,
        "one error: return `f64` or write into `&mut`"
    );
}

#[test]
fn star_y_reads_and_writes_the_one_entry() {
    let function = super::lower(
        &parse_quote! {
            fn f(x: f64, y: &mut f64) -> f64 {
                *y += x;
                *y * x
            }
        },
        &[],
    );
    let mut loads = 0;
    let mut stores = 0;
    crate::ir::walk(&function.body, &mut |stmt| match stmt {
        crate::ir::Stmt::Assign {
            op: crate::ir::Op::Load(array, _),
            ..
        } if *array == super::param(&function, 1) => loads += 1,
        crate::ir::Stmt::StoreAdd { array, .. } if *array == super::param(&function, 1) => {
            stores += 1
        }
        _ => {}
    });
    assert_eq!(
        (loads, stores),
        (1, 1),
        "`*y += x` a store, `*y * x` a load"
    );
}

#[test]
fn whole_assignment_and_swap_are_entry_wise_stores() {
    let function = super::lower(
        &parse_quote! {
            fn f(x: f64) -> f64 {
                let mut h = [0.0; 2];
                let mut g = [1.0; 2];
                h[0] = x;
                g = h;
                std::mem::swap(&mut h, &mut g);
                let (mut a, mut b) = (x, 2.0 * x);
                for _ in 0..3 {
                    std::mem::swap(&mut a, &mut b);
                    a *= 0.5;
                }
                h[1] + g[0] + a * b
            }
        },
        &[],
    );
    let h = super::var(&function, "h", 0);
    let g = super::var(&function, "g", 0);
    let (mut into_h, mut into_g, mut loops) = (0, 0, 0);
    crate::ir::walk(&function.body, &mut |stmt| match stmt {
        crate::ir::Stmt::Store { array, .. } if *array == h => into_h += 1,
        crate::ir::Stmt::Store { array, .. } if *array == g => into_g += 1,
        crate::ir::Stmt::Loop(_) => loops += 1,
        _ => {}
    });
    // `h[0] = x`, the swap's `h[k] = g[k]`; `g = h`'s `g[k] = h[k]`, the swap's `g[k] = t`.
    assert_eq!((into_h, into_g), (2, 2));
    // One loop each for the assignment and the array swap, and the user's.
    assert_eq!(loops, 3);
}
