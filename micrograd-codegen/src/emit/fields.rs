//! Parameter structs: each field the body reads is bound from the struct before the forward
//! sweep, with its kind's type (so a wrong guess of the kind is a compile error at the field),
//! and its adjoint goes to the matching field of the shadow.
//!
//! Before: `fn f(p: &S) -> f64 { p.w[0] * p.b }`
//! After (in `f_grad(p: &S, d_p: &mut S)`): `let p_w: &[f64] = &p.w; let p_b: f64 = p.b;`
//! `let d_p_w: &mut [f64] = &mut d_p.w;` .. the sweeps .. `d_p.b += d_p_b;`

use super::Emitter;
use crate::diff::Shadow;
use crate::ir::ParamSpec;
use crate::ir::{Field, FieldKind, VarId};
use crate::types::Kind;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use std::collections::HashSet;

impl Emitter<'_> {
    /// `root.a.b`, or the same path in the root's shadow.
    fn place(&self, field: &Field, shadow: bool) -> TokenStream {
        let root = match shadow {
            true => self.names.adjoint(field.root),
            false => self.names.var(field.root),
        };
        let span = self.function.var(field.var).span;
        // The root keeps its hygiene but reads as the user's field, so an error points there.
        let mut root = root.clone();
        root.set_span(root.span().located_at(span));
        let path = field
            .path
            .iter()
            .map(|name| crate::names::ident(name, span));
        quote!(#root #(.#path)*)
    }

    /// The bindings of the fields, the `S: Differentiable` requirement of each parameter
    /// struct, and the shadows of the differentiated slice fields with their length checks.
    pub(super) fn struct_prologue(
        &self,
        specs: &[ParamSpec],
        wrt: &HashSet<VarId>,
        name: &proc_macro2::Ident,
    ) -> TokenStream {
        let f64_ty = self.function.scalar.ty();
        let runtime = &self.runtime;
        let mut tokens = TokenStream::new();
        for spec in specs {
            if let Kind::Struct(ty) = &spec.kind() {
                let span = syn::spanned::Spanned::span(ty);
                tokens.extend(quote_spanned!(span=> #runtime::shadow::parameter_struct::<#ty>();));
            }
        }
        for field in &self.function.fields {
            let (var, place) = (self.names.var(field.var), self.place(field, false));
            let span = self.function.var(field.var).span;
            tokens.extend(match field.kind {
                FieldKind::Scalar => quote_spanned!(span=> let #var: #f64_ty = #place;),
                FieldKind::Slice => quote_spanned!(span=> let #var: &[#f64_ty] = &#place;),
                FieldKind::Int => {
                    quote_spanned!(span=> let #var = #runtime::shadow::integer(#place);)
                }
                FieldKind::Bool => {
                    quote_spanned!(span=> let #var: ::core::primitive::bool = #place;)
                }
                FieldKind::Whole | FieldKind::Elements => quote!(let #var = &#place;),
            });
            if field.kind == FieldKind::Slice && wrt.contains(&field.var) {
                tokens.extend(self.slice_shadow(field, name));
            }
        }
        tokens
    }

    /// `let d_p_w: &mut [f64] = &mut d_p.w;` and its length check; or, where a call is also
    /// handed an enclosing struct, a zeroed buffer (added into `d_p.w` by the epilogue).
    fn slice_shadow(&self, field: &Field, name: &proc_macro2::Ident) -> TokenStream {
        let f64_ty = self.function.scalar.ty();
        let (d_w, shadow) = (self.names.adjoint(field.var), self.place(field, true));
        let w = self.place(field, false);
        let bind = match field.buffered {
            true => {
                let zero = self.function.scalar.zero();
                quote!(let mut #d_w = ::std::vec![#zero; #shadow.len()];)
            }
            false => quote!(let #d_w: &mut [#f64_ty] = &mut #shadow;),
        };
        let text = |tokens: &TokenStream| tokens.to_string().replace(' ', "");
        let message = format!(
            "{name}: the shadow `{}` has {{}} entries but `{}` has {{}}; they must have the same length",
            text(&shadow),
            text(&w)
        );
        let wrong = match self.shadow {
            Shadow::MaybeEmpty => quote!(!#d_w.is_empty() && #d_w.len() != #w.len()),
            _ => quote!(#d_w.len() != #w.len()),
        };
        quote! {
            #bind
            if #wrong {
                ::core::panic!(#message, #d_w.len(), #w.len());
            }
        }
    }

    /// Adds the adjoints of the differentiated `f64` fields, and the buffered slice shadows,
    /// into the struct shadows.
    pub(super) fn struct_epilogue(&self, wrt: &HashSet<VarId>) -> TokenStream {
        let mut tokens = TokenStream::new();
        let generic = self.function.scalar.is_generic();
        for field in &self.function.fields {
            if !wrt.contains(&field.var) {
                continue;
            }
            let (d_x, shadow) = (self.names.adjoint(field.var), self.place(field, true));
            match field.kind {
                // `Float` has no `AddAssign`: a generic float's sums are written out.
                FieldKind::Scalar if self.adjoint.declared_params.contains(&field.var) => {
                    tokens.extend(match generic {
                        true => quote!(#shadow = #shadow + #d_x;),
                        false => quote!(#shadow += #d_x;),
                    });
                }
                FieldKind::Slice if field.buffered => {
                    let (sum, part) = (self.names.local("sum"), self.names.local("part"));
                    let add = match generic {
                        true => quote!(*#sum = *#sum + *#part;),
                        false => quote!(*#sum += *#part;),
                    };
                    tokens.extend(quote! {
                        for (#sum, #part) in #shadow.iter_mut().zip(&#d_x) {
                            #add
                        }
                    });
                }
                _ => {}
            }
        }
        tokens
    }

    /// The shadow handed to a callee for a parameter struct or a field passed whole:
    /// `&mut *d_p`, `&mut d_p.layer`, or a zeroed copy where it is not differentiated.
    /// `None` for other arrays.
    pub(super) fn whole_shadow(&self, var: VarId) -> Option<TokenStream> {
        let runtime = &self.runtime;
        let active = self.adjoint.activity.is_active(var);
        if self.function.structs.contains(&var) {
            let (p, d_p) = (self.names.var(var), self.names.adjoint(var));
            return Some(match active {
                true => quote!(&mut *#d_p),
                false => quote!(&mut #runtime::shadow::Differentiable::zeroed_like(#p)),
            });
        }
        let field = self
            .function
            .fields
            .iter()
            .find(|f| f.var == var && f.kind.is_whole())?;
        Some(match active {
            true => {
                let shadow = self.place(field, true);
                quote!(&mut #shadow)
            }
            false => {
                let p = self.names.var(var);
                quote!(&mut #runtime::shadow::Differentiable::zeroed_like(#p))
            }
        })
    }

    /// Whether `var` is a parameter struct or a field handed on whole: no `f64`s of its own.
    pub(super) fn is_whole(&self, var: VarId) -> bool {
        self.function.structs.contains(&var)
            || self
                .function
                .fields
                .iter()
                .any(|f| f.var == var && f.kind.is_whole())
    }
}
