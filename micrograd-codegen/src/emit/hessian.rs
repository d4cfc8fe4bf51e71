//! `f_hessian`: the dense Hessian, one Hessian-vector product per row along a unit vector.
//!
//! `H eᵣ` is row `r` (and, `H` being symmetric, column `r`), so `n` calls of `f_hvp` give `H`
//! for `O(n)` times the cost of `f`, where num-dual's second-order duals carry `n²` entries
//! through every operation.
//!
//! Before: `#[differentiable(hessian)] fn f(x: f64, y: f64) -> f64`
//! After: `fn f_hessian(x: f64, y: f64) -> (f64, [[f64; 2]; 2]) { let (value, h0_0, h0_1) =
//! f_hvp(x, 1.0, y, 0.0); let (_, h1_0, h1_1) = f_hvp(x, 0.0, y, 1.0); (value, [[..], [..]]) }`
//!
//! With slices, `H` is written row-major into the caller's `hess` and nothing is allocated
//! (except a tangent for a `&Vec<f64>` parameter, which only a `Vec` can be): each row of `H v`
//! is added straight into its row of `hess`, and the unit tangent `eᵣ` is laid out in a row of
//! `hess` not yet computed (row 0 for rows `n - 1` down to 1, then row 1, rebuilt afterwards
//! from column 1 by symmetry), see [`dense`]. A parameter struct's part of a row is its entries
//! in `Differentiable::for_each_entry` order (fields in declaration order, arrays and `Vec`s
//! entry by entry): its unit tangent is copied into a tangent struct, and its `H v` out of a
//! shadow struct, both made once.

use super::Flavor;
use crate::header;
use crate::ir::{ParamSpec, Signature};
use crate::names;
use crate::types::Kind;
use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote};
use std::collections::HashSet;

mod row;
use row::row;

/// How one differentiated parameter takes part.
struct Part<'a> {
    spec: &'a ParamSpec,
    /// Where its entries start in a row (a slice's), or its column (an `f64`'s).
    offset: Ident,
    /// Its entries of `H v` in the row being computed, while the call runs (a slice's), or as
    /// the call returns them (an `f64`'s, an array's), or as its shadow holds them (a struct's).
    entries: Ident,
    /// A struct's number of entries, counted before the first row.
    count: Option<Ident>,
}

impl Part<'_> {
    fn is_sequence(&self) -> bool {
        self.spec.kind().is_sequence()
    }

    /// How many entries of a row are its: `1`, `N`, `w.len()`, or a struct's count.
    fn len(&self) -> TokenStream {
        let w = names::param(&self.spec.ident);
        if let Some(count) = &self.count {
            return count.to_token_stream();
        }
        match &self.spec.kind() {
            Kind::Scalar => quote!(1usize),
            Kind::Array(len) | Kind::Slice(Some(len)) => quote!(#len),
            Kind::Rows {
                row,
                rows: Some(rows),
                ..
            } => quote!((#rows) * (#row)),
            Kind::Rows { rows: None, .. } => quote!(#w.as_flattened().len()),
            _ => quote!(#w.len()),
        }
    }
}

/// The names the body binds, none of them one the user's function mentions.
struct Locals {
    n: Ident,
    r: Ident,
    value: Ident,
    scratch: Ident,
    out: Ident,
    rest: Ident,
    i: Ident,
    j: Ident,
    mean: Ident,
    /// The buffer of each `&Vec<f64>` parameter's tangent.
    vecs: Vec<(usize, Ident)>,
    /// Each written `&mut` parameter and its entry values, restored before each row since
    /// `f_hvp` writes it: the differentiated ones (parts), then those `wrt(..)` leaves out.
    saved: Vec<(Ident, Ident)>,
    /// The tangent and the shadow of each parameter struct.
    structs: Vec<(usize, Ident, Ident)>,
    /// A walk over a row's part, a struct's entry visited beside it, and the row's slot.
    walk: Ident,
    entry: Ident,
    slot: Ident,
    /// The runtime crate's path and the function's float type, which a struct's entries have.
    runtime: syn::Path,
    float: TokenStream,
}

/// `f_hessian` of `item` (parameters `specs`, `wrt(..)` selecting `chosen`).
pub fn hessian(sig: &Signature, chosen: &[bool], options: &crate::attr::Options) -> TokenStream {
    let specs = &sig.params;
    let mut used: HashSet<String> = sig.user_names.clone();
    used.extend(specs.iter().map(|s| names::text(&s.ident)));
    let parts: Vec<Part> = specs
        .iter()
        .zip(chosen)
        .filter(|(spec, chosen)| **chosen && spec.kind().is_differentiable())
        .map(|(spec, _)| {
            let text = names::text(&spec.ident);
            let is_struct = matches!(spec.kind(), Kind::Struct(_));
            Part {
                spec,
                offset: names::free(&mut used, &format!("at_{text}")),
                entries: names::free(&mut used, &format!("h_{text}")),
                count: is_struct.then(|| names::free(&mut used, &format!("len_{text}"))),
            }
        })
        .collect();
    let signature = header::signature(sig, chosen, Flavor::Hessian, None, &options.runtime());
    let body = if parts.iter().all(|p| !p.is_sequence()) {
        small(sig, chosen, &parts, &mut used)
    } else {
        dense(sig, chosen, &parts, options, &mut used)
    };
    let f = &sig.ident;
    let doc = format!(
        " The value of [`{f}`] and its Hessian (second partial derivatives, in parameter order, each slice entry its own parameter, a parameter struct's entries in `Differentiable::for_each_entry` order: fields in declaration order), one Hessian-vector product per row.\n\n Generated by `#[differentiable(hessian)]`: with `f64` parameters only it returns `({f}(..), H)` with `H` an array of rows; with slices or structs it writes `H` row-major into the last parameter (`n × n` entries, `n` the number of differentiated values) and returns the value, bit for bit `{f}`'s."
    );
    quote! {
        #[doc = #doc]
        #[allow(dead_code, unused_parens, clippy::all)]
        #signature {
            #body
        }
    }
}

/// The `f_hvp` call of `small`: the unit tangent of `f64` parameter number `row`.
fn scalar_call(sig: &Signature, chosen: &[bool], row: usize) -> TokenStream {
    let specs = &sig.params;
    let hvp = header::name(sig, Flavor::Hvp);
    let mut args = Vec::new();
    let mut scalar = 0;
    for (spec, &chosen) in specs.iter().zip(chosen) {
        args.push(passed(spec));
        if Flavor::Hvp.has_tangent(spec, chosen) {
            let float = sig.scalar;
            args.push(if row == scalar {
                float.one()
            } else {
                float.zero()
            });
            scalar += 1;
        }
    }
    quote!(#hvp(#(#args),*))
}

/// `(f, [[h00, h01], [h10, h11]])` from one `f_hvp` per `f64` parameter.
fn small(
    sig: &Signature,
    chosen: &[bool],
    parts: &[Part],
    used: &mut HashSet<String>,
) -> TokenStream {
    let n = parts.len();
    if n == 0 {
        let call = scalar_call(sig, chosen, 0);
        return quote!((#call, []));
    }
    let entries: Vec<Vec<Ident>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| names::free(used, &format!("h{r}_{c}")))
                .collect()
        })
        .collect();
    let first = names::free(used, "value");
    let calls = entries.iter().enumerate().map(|(r, row)| {
        let call = scalar_call(sig, chosen, r);
        let bind = if r == 0 { quote!(#first) } else { quote!(_) };
        quote!(let (#bind, #(#row),*) = #call;)
    });
    // Row r is H eᵣ and column r is its transpose: they agree up to rounding, and their mean
    // makes `H` exactly symmetric, as Newton's method (a Cholesky factorization) expects.
    let half = sig.scalar.literal(0.5, false);
    let rows = (0..n).map(|r| {
        let row = (0..n).map(|c| {
            let (a, b) = (&entries[r][c], &entries[c][r]);
            match r.cmp(&c) {
                std::cmp::Ordering::Equal => quote!(#a),
                std::cmp::Ordering::Less => quote!((#a + #b) * #half),
                std::cmp::Ordering::Greater => quote!((#b + #a) * #half),
            }
        });
        quote!([#(#row),*])
    });
    quote! {
        #(#calls)*
        (#first, [#(#rows),*])
    }
}

/// A tangent and a shadow for each parameter struct (`zeroed_like`, so a `Vec` field
/// allocates), and its number of entries (`Differentiable::for_each_entry`'s order).
fn struct_buffers(parts: &[Part], l: &Locals) -> TokenStream {
    let (runtime, float) = (&l.runtime, &l.float);
    let mut tokens = TokenStream::new();
    for (k, v, d) in &l.structs {
        let part = &parts[*k];
        let (p, count) = (names::param(&part.spec.ident), &part.count);
        tokens.extend(quote! {
            let mut #v = #runtime::shadow::Differentiable::zeroed_like(#p);
            let mut #d = #runtime::shadow::Differentiable::zeroed_like(#p);
            let mut #count = 0usize;
            #runtime::shadow::Differentiable::for_each_entry::<#float>(&mut #v, &mut |_| #count += 1);
        });
    }
    tokens
}

/// `H` row-major into `hess`, allocation-free (but for parameter structs): one `f_hvp` per row, rows `n - 1` down to 1
/// with their unit tangent in row 0, then row 0 with its tangent in row 1, which is then
/// rebuilt from column 1 (already the means of the rows and columns below), since `H` is
/// symmetric. Each pair of entries gets the mean of row and column, as the `f64` case does.
fn dense(
    sig: &Signature,
    chosen: &[bool],
    parts: &[Part],
    options: &crate::attr::Options,
    used: &mut HashSet<String>,
) -> TokenStream {
    let hess = header::hessian_out(&sig.params);
    let (l, [lo, hi, h10, h11, spare], returned) = locals(sig, parts, options, used);
    let Locals {
        n,
        r,
        value,
        scratch,
        out,
        i,
        j,
        mean,
        ..
    } = &l;
    let float = sig.scalar;
    let (zero, one, half) = (float.zero(), float.one(), float.literal(0.5, false));
    let (setup, size) = setup(parts, &l, float);
    let message = format!(
        "{}: `{hess}` has {{}} entries but the Hessian has {{}} × {{}}; pass a buffer of n × n",
        header::name(sig, Flavor::Hessian)
    );
    // The tangent of a `&mut [f64]` is written by `f_hvp`, so only then is `scratch` mutable.
    let written = parts.iter().any(|p| p.spec.kind().is_written());
    let borrow = if written { quote!(&mut) } else { quote!(&) };
    let spare_mut = written.then(|| quote!(mut));
    let row = |bind: TokenStream| row(sig, chosen, parts, (&l, &returned), bind);
    let (later, first, only) = (row(quote!(_)), row(quote!(#value)), row(quote!(#value)));
    quote! {
        #setup
        let #n = #size;
        if #hess.len() != #n * #n {
            ::core::panic!(#message, #hess.len(), #n, #n);
        }
        #hess.fill(#zero);
        for #r in (1..#n).rev() {
            let (#lo, #hi) = #hess.split_at_mut(#r * #n);
            #lo[#r] = #one;
            let (#scratch, #out) = (#borrow #lo[..#n], &mut #hi[..#n]);
            #later
            #hess[#r] = #zero;
        }
        for #i in 1..#n {
            for #j in #i + 1..#n {
                let #mean = (#hess[#i * #n + #j] + #hess[#j * #n + #i]) * #half;
                #hess[#i * #n + #j] = #mean;
                #hess[#j * #n + #i] = #mean;
            }
        }
        let #r = 0usize;
        if #n >= 2 {
            let (#h10, #h11) = (#hess[#n], #hess[#n + 1]);
            let (#lo, #hi) = #hess.split_at_mut(#n);
            #hi[..#n].fill(#zero);
            #hi[0] = #one;
            let (#scratch, #out) = (#borrow #hi[..#n], #lo);
            #first
            #hess[1] = (#hess[1] + #h10) * #half;
            #hess[#n] = #hess[1];
            #hess[#n + 1] = #h11;
            for #j in 2..#n {
                let #mean = (#hess[#j] + #hess[#j * #n]) * #half;
                #hess[#j] = #mean;
                #hess[#j * #n] = #mean;
                #hess[#n + #j] = #hess[#j * #n + 1];
            }
            #value
        } else {
            let #spare_mut #spare = [#one; 1];
            let (#scratch, #out) = (#borrow #spare[..#n], &mut #hess[..#n]);
            #only
            #value
        }
    }
}

/// The names `dense` binds, free of the user's and of each other (minted in this order): the
/// [`Locals`] [`row`] reads too, `lo`, `hi`, `h10`, `h11` and `spare`, and the entries of `H v`
/// each part's `f_hvp` returns.
fn locals(
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
fn setup(parts: &[Part], l: &Locals, float: crate::ir::Scalar) -> (TokenStream, TokenStream) {
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

/// Parameter `spec` as an argument of one of the `f_hvp` calls: data by value that may not be
/// `Copy` (`cfg: Config`) is cloned for each.
fn passed(spec: &ParamSpec) -> TokenStream {
    let name = names::param(&spec.ident);
    match spec.kind() {
        Kind::Data if !spec.value.is_copy() => {
            quote!(::core::clone::Clone::clone(&#name))
        }
        _ => name.into_token_stream(),
    }
}
