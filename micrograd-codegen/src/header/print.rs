//! Types printed in generated signatures: a parameter's type, and a structural type
//! ([`crate::types::Type`]) as the header writes it.

use crate::ir::ParamSpec;
use crate::types::{Kind, Type};
use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote};

/// The type of parameter `spec`: what the macro passes through as written, what it
/// differentiates printed from its structural type (`&Vec<f64>` as `&::std::vec::Vec<f64>`).
pub fn param_type(spec: &ParamSpec) -> TokenStream {
    match spec.kind() {
        Kind::Int | Kind::Data => spec.written.0.clone(),
        _ => print(&spec.value),
    }
}

/// A structural type, printed: floats and `bool` by their paths in `core` (a user's `f64`
/// cannot shadow them), `Vec` by its path in `std`, lengths and named types as written.
pub fn print(ty: &Type) -> TokenStream {
    match ty {
        Type::Float(scalar) => scalar.ty(),
        Type::Int(name) => Ident::new(name, proc_macro2::Span::call_site()).into_token_stream(),
        Type::Bool => quote!(::core::primitive::bool),
        Type::Str => quote!(str),
        Type::Array(elem, len) => {
            let elem = print(elem);
            quote!([#elem; #len])
        }
        Type::Slice(elem) => {
            let elem = print(elem);
            quote!([#elem])
        }
        Type::Vec(elem) => {
            let elem = print(elem);
            quote!(::std::vec::Vec<#elem>)
        }
        Type::Tuple(elems) => {
            let elems = elems.iter().map(print);
            quote!((#(#elems,)*))
        }
        Type::Ref { mutable, elem } => {
            let (elem, mutable) = (print(elem), mutable.then(|| quote!(mut)));
            quote!(&#mutable #elem)
        }
        Type::Named(tokens) | Type::Opaque(tokens) => tokens.0.clone(),
    }
}
