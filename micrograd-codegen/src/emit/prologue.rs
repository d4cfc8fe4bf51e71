//! What a generated function does before its forward sweep: read rows of floats as row-major
//! slices, read the seed, check each shadow's length, read arrays taken by value and `&f64`s through the names the body uses, and give a
//! written array that `wrt(..)` leaves out a local shadow.

use super::Emitter;
use crate::diff::Shadow;
use crate::flavor::{Flavor, Params, Seed};
use crate::ir::{ParamSpec, VarId};
use crate::types::Kind;
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::HashSet;

impl Emitter<'_> {
    /// `let seed = Seed::value(seed);`: a pullback's seed comes as itself or, from a
    /// `#[differentiable]` caller, as `ByCaller(seed)` (micrograd_runtime::calls).
    pub(super) fn seed_value(&self, flavor: Flavor) -> TokenStream {
        let runtime = &self.runtime;
        match (&self.seed, flavor.spec().seed) {
            (Some(seed), Seed::Always) => {
                quote!(let #seed = #runtime::calls::Seed::value(#seed);)
            }
            _ => TokenStream::new(),
        }
    }

    /// `let w = w.as_flattened();` for each parameter of rows (`&[[f64; N]]`, and its tangent)
    /// and `let d_w = d_w.as_flattened_mut();` for its shadow: the body reads and writes them
    /// as row-major slices of floats (`Kind::Rows`).
    pub(super) fn flattened(&self, specs: &[ParamSpec], wrt: &HashSet<VarId>) -> TokenStream {
        let mut tokens = TokenStream::new();
        for (param, spec) in self.function.params.iter().zip(specs) {
            if spec.kind() == Kind::Ragged {
                tokens.extend(self.ragged(param.var, wrt.contains(&param.var)));
                continue;
            }
            if spec.kind().row().is_none() {
                continue;
            }
            let w = self.names.var(param.var);
            tokens.extend(quote!(let #w = #w.as_flattened();));
            // Rows by value have a local shadow (`array_params`).
            if wrt.contains(&param.var) && spec.kind().has_shadow() {
                let d_w = self.names.adjoint(param.var);
                tokens.extend(quote!(let #d_w = #d_w.as_flattened_mut();));
            }
        }
        tokens
    }

    /// `let w = &Ragged::new(w);` for rows of their own lengths (`&[Vec<f64>]`, and its
    /// tangent), `let d_w = &mut RaggedMut::new(d_w);` for its shadow: the body reads entry
    /// `j` of row `i` in place as `w[i][j]` and adds into `d_w[i][j]`.
    fn ragged(&self, var: VarId, shadow: bool) -> TokenStream {
        let (w, runtime) = (self.names.var(var), &self.runtime);
        let mut tokens = quote!(let #w = &#runtime::ragged::Ragged::new(#w););
        if shadow {
            let d_w = self.names.adjoint(var);
            tokens.extend(quote!(let #d_w = &mut #runtime::ragged::RaggedMut::new(#d_w);));
        }
        tokens
    }

    /// A shadow of the wrong length is a caller's mistake: say which one.
    pub(super) fn shadow_checks(
        &self,
        specs: &[ParamSpec],
        wrt: &HashSet<VarId>,
        name: &Ident,
    ) -> TokenStream {
        let mut checks = TokenStream::new();
        for (param, spec) in self.function.params.iter().zip(specs) {
            // `&mut [f64; N]` has its length checked by its type, in `f_grad` only; a
            // struct's shadow has the struct's type, its slice fields checked where they are
            // bound (`emit/fields.rs`).
            let sized = self.shadow == Shadow::Always;
            if !spec.kind().shadow_has_len(sized) || !wrt.contains(&param.var) {
                continue;
            }
            // The reverse sweep reads the shadow of a written slice, so it is never skipped.
            let shadow = if spec.kind().is_written() {
                Shadow::Always
            } else {
                self.shadow
            };
            let (w, d_w) = (self.names.var(param.var), self.names.adjoint(param.var));
            let message = format!(
                "{name}: the shadow `{d_w}` has {{}} entries but `{w}` has {{}}; they must have the same length"
            );
            let wrong = match shadow {
                Shadow::MaybeEmpty => quote!(!#d_w.is_empty() && #d_w.len() != #w.len()),
                _ => quote!(#d_w.len() != #w.len()),
            };
            checks.extend(quote! {
                if #wrong {
                    ::core::panic!(#message, #d_w.len(), #w.len());
                }
            });
            if spec.kind() == Kind::Ragged {
                checks.extend(ragged_rows_check(name, "shadow", d_w, w));
            }
        }
        checks
    }

    /// An array taken by value is read through a reference, as `&[f64; N]` is, so the code
    /// that follows is the same for both; its shadow is a local returned at the end. A `&f64`
    /// is read once into an `f64`, so the code that follows is an `f64`'s. Rows by value
    /// (`[[f64; N]; M]`, already read flat by `flattened`) have a local shadow of their shape,
    /// `d_m_rows`, which the body writes flat.
    pub(super) fn array_params(&self, specs: &[ParamSpec], wrt: &HashSet<VarId>) -> TokenStream {
        let mut tokens = TokenStream::new();
        for (param, spec) in self.function.params.iter().zip(specs) {
            if let Kind::Rows {
                row,
                rows: Some(rows),
                by_value: true,
            } = spec.kind()
            {
                if wrt.contains(&param.var) {
                    let d_w = self.names.adjoint(param.var);
                    let shadow = self.rows_partial(param.var);
                    let zero = self.function.scalar.zero();
                    tokens.extend(quote! {
                        let #shadow = &mut [[#zero; #row]; #rows];
                        let #d_w = #shadow.as_flattened_mut();
                    });
                }
                continue;
            }
            if matches!(spec.kind(), Kind::Scalar)
                && matches!(spec.value, crate::types::Type::Ref { .. })
            {
                let x = self.names.var(param.var);
                tokens.extend(quote!(let #x = *#x;));
                continue;
            }
            let Kind::Array(len) = &spec.kind() else {
                continue;
            };
            let w = self.names.var(param.var);
            tokens.extend(quote!(let #w = &#w;));
            if wrt.contains(&param.var) {
                let d_w = self.names.adjoint(param.var);
                let zero = self.function.scalar.zero();
                tokens.extend(quote!(let #d_w = &mut [#zero; #len];));
            }
        }
        tokens
    }

    /// The local shadow of rows taken by value, of their shape, returned as their partials.
    pub(super) fn rows_partial(&self, var: VarId) -> Ident {
        self.names
            .local(&format!("{}_rows", self.names.adjoint(var)))
    }

    /// A `&mut [f64]` left out by `wrt(..)` still carries gradient from the values written
    /// into it to the values read back: its adjoint is then a local.
    pub(super) fn written_constants(
        &self,
        specs: &[ParamSpec],
        wrt: &HashSet<VarId>,
    ) -> TokenStream {
        let mut tokens = TokenStream::new();
        for (param, spec) in self.function.params.iter().zip(specs) {
            let active = self.adjoint.activity.is_active(param.var);
            if !spec.kind().is_written() || wrt.contains(&param.var) || !active {
                continue;
            }
            let (w, d_w) = (self.names.var(param.var), self.names.adjoint(param.var));
            let buffer = self.names.local("constant_shadow");
            let zero = self.function.scalar.zero();
            tokens.extend(quote! {
                let mut #buffer = ::std::vec![#zero; #w.len()];
                let #d_w = &mut #buffer[..];
            });
        }
        tokens
    }

    /// A `y: &mut f64` (and its shadow and tangent) is read as the one-entry `&mut [f64]` it
    /// is, so the code that follows is a written slice's: `*y` is `y[0]`.
    /// In `f_grad` of a function returning `()` whose one output is `err: &mut f64`, the
    /// shadow of `err` is the seed, `1.0`, a local (`header::grad_output`).
    pub(super) fn one_entry_params(
        &self,
        specs: &[ParamSpec],
        wrt: &HashSet<VarId>,
        flavor: Flavor,
    ) -> TokenStream {
        let mut tokens = TokenStream::new();
        for (param, spec) in self.function.params.iter().zip(specs) {
            if !spec.kind().is_one_entry() {
                continue;
            }
            let y = self.names.var(param.var);
            tokens.extend(quote!(let #y = ::core::slice::from_mut(#y);));
            let of_output = flavor.spec().differentiates == Params::ChosenWithOutput;
            if of_output && self.function.results.is_empty() {
                let (d_y, seed) = (self.names.adjoint(param.var), self.names.local("seed"));
                let one = self.function.scalar.one();
                tokens.extend(quote! {
                    let mut #seed = #one;
                    let #d_y = ::core::slice::from_mut(&mut #seed);
                });
            } else if wrt.contains(&param.var) {
                let d_y = self.names.adjoint(param.var);
                tokens.extend(quote!(let #d_y = ::core::slice::from_mut(#d_y);));
            }
        }
        tokens
    }
}

/// Rows of their own lengths: after their numbers of rows, each row of a shadow or tangent
/// `d_w` must have the length of `w`'s row (the first that does not is named).
pub(super) fn ragged_rows_check(name: &Ident, what: &str, d_w: &Ident, w: &Ident) -> TokenStream {
    let message = format!(
        "{name}: row {{0}} of the {what} `{d_w}` has {{1}} entries but row {{0}} of `{w}` has {{2}}; they must have the same shape"
    );
    quote! {
        if let ::core::option::Option::Some((i, n, m)) = #d_w.mismatch(#w) {
            ::core::panic!(#message, i, n, m);
        }
    }
}
