//! The tangent flavors, `f_jvp`, `f_tangent`, `f_hvp` and `f_tangent_pullback`: printed from
//! the tangent program (and for the last two from its reverse sweep) by the code that prints
//! `f_grad`, under the signatures of [`crate::header`].

use super::{Emitter, Flavor, wrt};
use crate::attr::Options;
use crate::diff::Adjoint;
use crate::diff::tangent::Tangent;
use crate::ir::{Param, ParamSpec, Signature, VarId};
use crate::names::Names;
use crate::types::Kind;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// Prints `flavor` (a tangent flavor) of the user's `item` with parameters `specs`, of which
/// `wrt(..)` selects `chosen`, from its tangent program and that program's reverse sweep
/// `adjoint` (empty for the forward-only flavors).
pub fn tangent(
    sig: &Signature,
    chosen: &[bool],
    tangent: &Tangent,
    adjoint: &Adjoint,
    flavor: Flavor,
    options: &Options,
) -> TokenStream {
    let specs = &sig.params;
    let all = crate::header::tangent_specs(specs, chosen, flavor);
    let params = spec_names(&tangent.function.params, &all);
    let names = Names::new(&adjoint.vars, &params, &sig.user_names);
    let mut emitter = Emitter::new(&tangent.function, adjoint, names, flavor, options);
    emitter.values = tangent.values.clone();
    let callee = flavor.spec().callee;
    let tangents: Vec<VarId> = tangent.tangents.iter().flatten().copied().collect();
    if callee {
        emitter.tangent.maybe_empty = tangents
            .iter()
            .copied()
            .filter(|v| tangent.function.var(*v).ty.is_lent())
            .collect();
    }
    let signature =
        crate::header::signature(sig, chosen, flavor, emitter.seed.as_ref(), &emitter.runtime);
    emitter.tangent.pairs = tangent
        .function
        .params
        .windows(2)
        .filter(|pair| tangents.contains(&pair[1].var))
        .map(|pair| (pair[0].var, pair[1].var))
        .collect();
    emitter.tangent.unread = tangent.unread.clone();
    // Its parameters but shadows: each of `f`'s, followed by its tangent where it has one.
    let program = Signature {
        params: all,
        ..sig.clone()
    };
    emitter.function_with(&program, &wrt(&tangent.function, flavor), flavor, signature)
}

impl Emitter<'_> {
    /// Checks that each tangent slice has its slice's length (or, in the callee flavors, is
    /// empty: a constant argument); `let _ = v_x;` for a tangent nothing reads (its parameter
    /// reaches the result only through conditions), which would otherwise warn.
    pub(super) fn tangent_prelude(&self, specs: &[ParamSpec], name: &Ident) -> TokenStream {
        let mut tokens = TokenStream::new();
        for (primal, tangent) in &self.tangent.pairs {
            let ty = &self.function.var(*tangent).ty;
            if !ty.is_lent()
                || ty.known_len().is_some()
                || self.is_whole(*primal)
                || self.function.fields.iter().any(|f| f.var == *primal)
            {
                continue;
            }
            let (w, v_w) = (self.names.var(*primal), self.names.var(*tangent));
            let message = format!(
                "{name}: the tangent `{v_w}` has {{}} entries but `{w}` has {{}}; they must have the same length"
            );
            let wrong = if self.tangent.maybe_empty.contains(tangent) {
                quote!(!#v_w.is_empty() && #v_w.len() != #w.len())
            } else {
                quote!(#v_w.len() != #w.len())
            };
            tokens.extend(quote! {
                if #wrong {
                    ::core::panic!(#message, #v_w.len(), #w.len());
                }
            });
            let ragged = (self.function.params.iter().zip(specs))
                .any(|(p, s)| p.var == *primal && s.kind() == Kind::Ragged);
            if ragged {
                tokens.extend(super::prologue::ragged_rows_check(name, "tangent", v_w, w));
            }
        }
        for unread in &self.tangent.unread {
            let name = self.names.var(*unread);
            tokens.extend(quote!(let _ = #name;));
        }
        tokens
    }
}

/// Each parameter of a program printed under the parameters `specs` (the user's, with the
/// tangents a flavor adds), paired with its name there: one spec per parameter, in order.
pub(super) fn spec_names(params: &[Param], specs: &[ParamSpec]) -> Vec<(VarId, Ident)> {
    let named: Vec<(VarId, Ident)> = (params.iter().zip(specs))
        .map(|(p, s)| (p.var, s.ident.clone()))
        .collect();
    assert_eq!(
        named.len(),
        specs.len(),
        "internal error: a program's parameters are its flavor's, one for one"
    );
    named
}
