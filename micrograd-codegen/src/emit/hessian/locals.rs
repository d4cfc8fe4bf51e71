//! The names `f_hessian`'s dense body binds ([`Locals`]) and what it sets up before the first
//! row: the struct buffers, each part's offset, the `Vec` tangents, the written parameters'
//! entry values.

use super::Part;
use crate::ir::Signature;
use crate::names;
use crate::types::Kind;
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::HashSet;

/// The names the body binds, none of them one the user's function mentions.
pub(super) struct Locals {
    pub(super) n: Ident,
    pub(super) r: Ident,
    pub(super) value: Ident,
    pub(super) scratch: Ident,
    pub(super) out: Ident,
    pub(super) rest: Ident,
    pub(super) i: Ident,
    pub(super) j: Ident,
    pub(super) mean: Ident,
    /// The buffer of each `&Vec<f64>` parameter's tangent.
    pub(super) vecs: Vec<(usize, Ident)>,
    /// Each written `&mut` parameter and its entry values, restored before each row since
    /// `f_hvp` writes it: the differentiated ones (parts), then those `wrt(..)` leaves out.
    pub(super) saved: Vec<(Ident, Ident)>,
    /// The tangent and the shadow of each parameter struct.
    pub(super) structs: Vec<(usize, Ident, Ident)>,
    /// A walk over a row's part, a struct's entry visited beside it, and the row's slot.
    pub(super) walk: Ident,
    pub(super) entry: Ident,
    pub(super) slot: Ident,
    /// The runtime crate's path and the function's float type, which a struct's entries have.
    pub(super) runtime: syn::Path,
    pub(super) float: TokenStream,
}

/// The names `dense` binds, free of the user's and of each other (minted in this order): the
/// [`Locals`] [`row`] reads too, `lo`, `hi`, `h10`, `h11` and `spare`, and the entries of `H v`
/// each part's `f_hvp` returns.
pub(super) fn locals(
    sig: &Signature,
    parts: &[Part],
    options: &crate::attr::Options,
    used: &mut HashSet<String>,
) -> (Locals, [Ident; 5], Vec<Ident>) {
    let mut free = |base: &str| names::free(used, base);
    let vecs = parts
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p.spec.kind(), Kind::Vec))
        .map(|(k, p)| (k, free(&format!("v_{}", names::text(&p.spec.ident)))))
        .collect();
    // The parts first, then the parameters `wrt(..)` leaves out.
    let left_out = sig
        .params
        .iter()
        .filter(|spec| !parts.iter().any(|p| p.spec.ident == spec.ident));
    let saved = parts
        .iter()
        .map(|p| p.spec)
        .chain(left_out)
        .filter(|spec| spec.kind().is_written())
        .map(|spec| {
            let entry = free(&format!("entry_{}", names::text(&spec.ident)));
            (names::param(&spec.ident), entry)
        })
        .collect();
    let structs = parts
        .iter()
        .enumerate()
        .filter(|(_, p)| p.count.is_some())
        .map(|(k, p)| {
            let text = names::text(&p.spec.ident);
            (k, free(&format!("v_{text}")), free(&format!("d_{text}")))
        })
        .collect();
    let locals = Locals {
        n: free("n"),
        r: free("r"),
        value: free("value"),
        scratch: free("scratch"),
        out: free("out"),
        rest: free("rest"),
        i: free("i"),
        j: free("j"),
        mean: free("mean"),
        vecs,
        saved,
        structs,
        walk: free("walk"),
        entry: free("entry"),
        slot: free("slot"),
        runtime: options.runtime(),
        float: sig.scalar.ty(),
    };
    let spares = ["lo", "hi", "h10", "h11", "spare"].map(&mut free);
    let returned = parts
        .iter()
        .map(|p| free(&format!("hv_{}", names::text(&p.spec.ident))))
        .collect();
    (locals, spares, returned)
}

/// What the rows need before the first: the struct buffers, each part's offset in a row, the
/// tangent buffer of each `&Vec<f64>`, the entry values of each `&mut [f64]`; and the length of
/// a row.
pub(super) fn setup(
    parts: &[Part],
    l: &Locals,
    float: crate::ir::Scalar,
) -> (TokenStream, TokenStream) {
    let zero = float.zero();
    let mut setup = struct_buffers(parts, l);
    let mut size = quote!(0usize);
    for part in parts {
        let (offset, len) = (&part.offset, part.len());
        setup.extend(quote!(let #offset = #size;));
        size = quote!(#offset + #len);
    }
    for (k, v) in &l.vecs {
        let w = names::param(&parts[*k].spec.ident);
        setup.extend(quote!(let mut #v = ::std::vec![#zero; #w.len()];));
    }
    for (w, entry) in &l.saved {
        setup.extend(quote!(let #entry = #w.to_vec();));
    }
    (setup, size)
}

/// A tangent and a shadow for each parameter struct (`zeroed_like`, so a `Vec` field
/// allocates), and its number of entries (`Differentiable::for_each_entry`'s order).
fn struct_buffers(parts: &[Part], l: &Locals) -> TokenStream {
    let float = &l.float;
    let mut tokens = TokenStream::new();
    for (k, v, d) in &l.structs {
        let part = &parts[*k];
        let (p, count) = (names::param(&part.spec.ident), &part.count);
        let shape = shape(l, part.spec.kind());
        tokens.extend(quote! {
            let mut #v = #shape::zeroed_like(#p);
            let mut #d = #shape::zeroed_like(#p);
            let mut #count = 0usize;
            #shape::for_each_entry::<#float>(&mut #v, &mut |_| #count += 1);
        });
    }
    tokens
}

/// What gives a struct part of `kind` its buffers and walks their entries (`zeroed_like`,
/// `zero`, `for_each_entry`): `Differentiable` for a parameter struct, the runtime's `ragged`
/// functions for rows of their own lengths (`&[Vec<T>]`, buffers `Vec<Vec<T>>` of its shape),
/// which need no `Differentiable` of the float, so a generic `T: Float` has them too.
pub(super) fn shape(l: &Locals, kind: Kind) -> TokenStream {
    let runtime = &l.runtime;
    match kind {
        Kind::Ragged => quote!(#runtime::ragged),
        _ => quote!(#runtime::shadow::Differentiable),
    }
}
