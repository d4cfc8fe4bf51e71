//! `#[derive(Differentiable)]`: makes a struct a parameter type of `#[differentiable]` functions.
//!
//! The attribute on a function cannot see a struct's definition, so it relies on this derive
//! instead: `S: Differentiable` is required of every `p: &S` parameter (a struct without the
//! derive is one error at its type, saying to add it), and `zeroed_like` makes the shadow the
//! gradient is added into. Each field delegates to the runtime's own impls (`f64`, `[f64; N]`,
//! `Vec<f64>`, integers, `bool`) or to a nested derived struct, so a field of any other type
//! is an error at that field's type.
//!
//! Before: `struct Line { w: [f64; 2], b: f64 }`
//! After: `impl Differentiable for Line { fn zeroed_like(&self) -> Self { Line { w:
//! Differentiable::zeroed_like(&self.w), b: .. } } fn zero(&mut self) { .. } fn
//! for_each_entry(..) { .. } }`, each method field by field in declaration order

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// Expands `#[derive(Differentiable)] item` into its `impl`, or into a spanned error.
pub fn derive(item: TokenStream) -> TokenStream {
    // `syn::Item` rather than `DeriveInput`: the crate builds `syn` without its `derive`
    // feature, and `full` already parses every item.
    let input = match syn::parse2::<syn::Item>(item) {
        Ok(syn::Item::Struct(input)) => input,
        Ok(syn::Item::Enum(item)) => {
            return error(
                item.enum_token,
                "`#[derive(Differentiable)]` applies to structs with named fields, not enums",
            );
        }
        Ok(syn::Item::Union(item)) => {
            return error(
                item.union_token,
                "`#[derive(Differentiable)]` applies to structs with named fields, not unions",
            );
        }
        Ok(other) => return error(other, "`#[derive(Differentiable)]` applies to structs"),
        Err(error) => return error.to_compile_error(),
    };
    let fields = match &input.fields {
        syn::Fields::Named(fields) => fields,
        other => {
            return error(
                other,
                "`#[derive(Differentiable)]` needs named fields: `struct S { w: [f64; 3], b: f64 }`",
            );
        }
    };
    let runtime = quote!(::micrograd_runtime);
    let trait_path = quote!(#runtime::shadow::Differentiable);
    let idents: Vec<&syn::Ident> = fields
        .named
        .iter()
        .filter_map(|f| f.ident.as_ref())
        .collect();
    // Spanned at each field's type: an unsupported type is reported there.
    let zeroed = fields.named.iter().zip(&idents).map(|(field, ident)| {
        quote_spanned!(field.ty.span()=> #ident: #trait_path::zeroed_like(&self.#ident))
    });
    let zero = fields.named.iter().zip(&idents).map(
        |(field, ident)| quote_spanned!(field.ty.span()=> #trait_path::zero(&mut self.#ident);),
    );
    let entries = fields.named.iter().zip(&idents).map(|(field, ident)| {
        quote_spanned!(field.ty.span()=> #trait_path::for_each_entry(&mut self.#ident, visit);)
    });
    let name = &input.ident;
    // As std's derives do: each type parameter is a parameter type itself (`Model<T>` with a
    // float `T`, whose `T: Record` implies it).
    let mut bounded = input.generics.clone();
    let params: Vec<syn::Ident> = bounded.type_params().map(|p| p.ident.clone()).collect();
    let clause = bounded.make_where_clause();
    for param in params {
        clause
            .predicates
            .push(syn::parse_quote!(#param: #trait_path));
    }
    let (generics, arguments, where_clause) = bounded.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #generics #trait_path for #name #arguments #where_clause {
            fn zeroed_like(&self) -> Self {
                #name { #(#zeroed,)* }
            }

            fn zero(&mut self) {
                #(#zero)*
            }

            // Not `F`: the struct may have a generic parameter of that name.
            fn for_each_entry<MicrogradFloat: 'static>(
                &mut self,
                visit: &mut dyn ::core::ops::FnMut(&mut MicrogradFloat),
            ) {
                #(#entries)*
            }
        }
    }
}

fn error(tokens: impl quote::ToTokens, message: &str) -> TokenStream {
    syn::Error::new_spanned(tokens, message).to_compile_error()
}
