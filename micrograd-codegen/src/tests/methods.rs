//! Unit tests of `methods/`: a method read as the associated function it stands for (its
//! receiver, its loops over a field's elements), and its output restored into methods.

use crate::methods::{expand, read_body, restored_in};
use crate::names::method::ELEMENT;
use proc_macro2::{TokenStream, TokenTree};
use std::collections::HashSet;

/// Every receiver form and every truncation of a method expands without a panic.
#[test]
fn no_receiver_and_no_truncation_panics() {
    for receiver in [
        "&self",
        "&'a self",
        "&mut self",
        "self",
        "mut self",
        "self: &Self",
        "self: Box<Self>",
        "&self,",
        "",
    ] {
        let text = format!(
            "fn f({receiver}, x: &[f64]) -> f64 {{ let mut y = self.g(x) + self.layer.h(&x[1..], 2) * Self::K + self.layers[y as usize + 1].h(x); for l in &self.layers {{ y += l.h(x); }} for (j, l) in self.layers.iter().enumerate() {{ y += l.h(x) * j as f64; }} self.w[0] * y + self.b.tanh() }}"
        );
        let item: TokenStream = text.parse().expect("tokens");
        let tokens: Vec<TokenTree> = item.into_iter().collect();
        for end in 0..=tokens.len() {
            let item: TokenStream = tokens[..end].iter().cloned().collect();
            let _ = crate::expand(quote::quote!(wrt(self), hessian), item.clone());
            let _ = crate::expand(TokenStream::new(), item);
        }
    }
}

/// Found by tests/fuzz_expand: a receiver Rust does not have (`& & self`) and a keyword as
/// a method's name (`self.model.self(x)`) gave output that neither parsed nor held an error.
#[test]
fn what_rust_refuses_is_an_error() {
    for text in [
        "fn f(& & self, x: &[f64]) -> f64 { self.b * x[0] }",
        "fn f(&self, x: &[f64]) -> f64 { self.model.self(x) * self.c }",
        "fn f(&self, x: &[f64]) -> f64 { self.self(x) * self.c }",
    ] {
        let out = crate::expand(TokenStream::new(), text.parse().expect("tokens"));
        let text = out.to_string();
        let parses = syn::parse2::<syn::File>(out).is_ok();
        assert!(text.contains("compile_error") || parses, "{text}");
    }
}

/// A loop's variable that only receives method calls is an element; any other use, or a
/// form of loop head not read, leaves the loop as written.
#[test]
fn loops_over_a_field_by_their_variable() {
    let read = |body: &str| read_body(body.parse().expect("tokens")).to_string();
    for (body, element) in [
        ("for l in &self.layers { s += l.f(x); }", true),
        (
            "for l in self.a.layers.iter() { s += l.f(x) * l.g(x); }",
            true,
        ),
        (
            "for (j, n) in self.ns.iter().enumerate() { o[j] = n.f(x); }",
            true,
        ),
        ("for l in &self.layers { s += l.f(x) * l.b; }", false),
        ("for n in &self.layers[0].ns { s += n.f(x); }", true),
        (
            "for l in &self.ls { for n in &l.ns { s += n.f(x); } }",
            true,
        ),
        (
            "for l in &self.ls { for n in l.ns.iter() { s += n.f(x); } }",
            false,
        ),
        ("for n in &self.layers[0].ns[1].ms { s += n.f(x); }", false),
        ("for l in &self.layers { s += w(l); }", false),
        ("for l in &self.layers { let l = 2.0; s += l.f(x); }", false),
        ("for (j, n) in &self.ns { o[j] = n.f(x); }", false),
        ("for l in self.layers { s += l.f(x); }", false),
        ("for l in &self.layers { s += l.tanh(); }", false),
        ("for l in &self.layers", false),
    ] {
        let out = read(body);
        assert_eq!(out.contains(ELEMENT), element, "{body}: {out}");
    }
}

#[test]
fn a_users_name_holding_the_marker_is_one_error() {
    let item = quote::quote!(
        fn f(&self, __micrograd_self_x: f64) -> f64 {
            __micrograd_self_x
        }
    );
    let out = expand(&TokenStream::new(), &item)
        .expect("a method")
        .to_string();
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert!(out.contains("rename this one"), "{out}");
}

#[test]
fn names_in_messages_are_restored_past_multibyte_characters() {
    let user: HashSet<String> = ["d_self".to_string()].into();
    let text = "adds `∂f/∂__micrograd_self` into `d___micrograd_self`, v___micrograd_self";
    assert_eq!(
        restored_in(text, &user),
        "adds `∂f/∂self` into `d_self_`, v_self"
    );
}
