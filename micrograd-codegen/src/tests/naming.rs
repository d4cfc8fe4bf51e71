//! names.rs: every binding minted once, clear of the user's names; shadows and raw identifiers.

use crate::names::{self, Names};
use proc_macro2::Span;
use std::collections::HashSet;
use syn::parse_quote;

#[test]
fn a_shadow_never_takes_a_parameter_name() {
    let (w, d_w, x): (syn::Ident, syn::Ident, syn::Ident) =
        (parse_quote!(w), parse_quote!(d_w), parse_quote!(x));
    let shadows = names::shadows(&[(&w, true), (&d_w, false), (&x, false)]);
    assert_eq!(
        shadows[0].as_ref().map(ToString::to_string).as_deref(),
        Some("d_w_")
    );
    assert!(shadows[1].is_none() && shadows[2].is_none());
}

#[test]
fn keywords_are_printed_raw_and_only_they() {
    assert_eq!(names::ident("r#in", Span::call_site()).to_string(), "r#in");
    assert_eq!(names::ident("in", Span::call_site()).to_string(), "r#in");
    assert_eq!(names::ident("d_in", Span::call_site()).to_string(), "d_in");
    assert_eq!(
        names::ident("gen", Span::call_site()).to_string(),
        "r#gen",
        "edition 2024"
    );
    assert_eq!(
        names::ident("r#dyn", Span::call_site()).to_string(),
        "r#dyn"
    );
    assert_eq!(names::ident("r#x", Span::call_site()).to_string(), "x");
    let raw: syn::Ident = parse_quote!(r#type);
    assert_eq!(names::text(&raw), "type");
}

/// `names::plain` reads an identifier as `syn::parse_str::<Ident>` does, without lexing: every
/// keyword of Rust's reference (strict, reserved, weak, of every edition) and `syn`'s own list,
/// names the macro mints, and texts that are no identifier.
#[test]
fn plain_identifiers_are_read_as_syn_reads_them() {
    let words = [
        "_",
        "abstract",
        "as",
        "async",
        "await",
        "become",
        "box",
        "break",
        "const",
        "continue",
        "crate",
        "do",
        "dyn",
        "else",
        "enum",
        "extern",
        "false",
        "final",
        "fn",
        "for",
        "gen",
        "if",
        "impl",
        "in",
        "let",
        "loop",
        "macro",
        "macro_rules",
        "match",
        "mod",
        "move",
        "mut",
        "override",
        "priv",
        "pub",
        "raw",
        "ref",
        "return",
        "safe",
        "Self",
        "self",
        "static",
        "struct",
        "super",
        "trait",
        "true",
        "try",
        "type",
        "typeof",
        "union",
        "unsafe",
        "unsized",
        "use",
        "virtual",
        "where",
        "while",
        "yield",
        "'static",
        "x",
        "t0",
        "c12",
        "d_x_1",
        "__f_tangent",
        "_x",
        "__",
        "X9",
        "d_in",
        "r#in",
        "in_",
        "9x",
        "x y",
        "x-y",
        "",
        "é",
        "xé",
        "ü_1",
        "x::y",
        "1",
    ];
    for word in words {
        assert_eq!(
            names::plain(word),
            syn::parse_str::<syn::Ident>(word).is_ok(),
            "{word:?}"
        );
    }
}

#[test]
fn generated_names_avoid_every_user_name() {
    let item: syn::ItemFn = parse_quote! {
        fn f(x: f64, d_x: f64) -> f64 {
            let t0 = x * d_x;
            let seed = t0.sin();
            seed * (x + 1.0)
        }
    };
    let function = super::lower(&item, &[]);
    let params: Vec<_> = function
        .params
        .iter()
        .zip(&item.sig.inputs)
        .map(|(p, input)| match input {
            syn::FnArg::Typed(typed) => match &*typed.pat {
                syn::Pat::Ident(pat) => (p.var, pat.ident.clone()),
                _ => unreachable!("plain parameters"),
            },
            syn::FnArg::Receiver(_) => unreachable!("no self"),
        })
        .collect();
    let users = names::user_names(&item);
    let mut names = Names::new(&function.vars, &params, &users);
    let mut printed = HashSet::new();
    for k in 0..function.vars.len() {
        let var = crate::ir::VarId(k as u32);
        assert!(
            printed.insert(names.var(var).to_string()),
            "{} twice",
            names.var(var)
        );
        assert!(
            printed.insert(names.adjoint(var).to_string()),
            "{} twice",
            names.adjoint(var)
        );
    }
    assert_eq!(
        names.adjoint(params[0].0).to_string(),
        "d_x_",
        "d_x is a parameter"
    );
    assert_eq!(names.var(super::var(&function, "t0", 0)).to_string(), "t0");
    for generated in [names.fresh("seed"), names.fresh("t0"), names.local("d_x")] {
        assert!(
            !users.contains(&generated.to_string()),
            "{generated} is the user's"
        );
    }
}
