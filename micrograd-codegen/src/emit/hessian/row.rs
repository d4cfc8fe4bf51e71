//! One row of `f_hessian`'s dense `H`: the `f_hvp` call along a unit tangent, and where its
//! entries of `H v` land in the row.

use super::{Locals, Part};
use crate::flavor::Flavor;
use crate::header;
use crate::ir::{ParamSpec, Signature};
use crate::names;
use crate::types::Kind;
use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote};

/// One row: `f_hvp` along the unit tangent laid out in `scratch` (an `f64` parameter's is
/// `1.0` where its column is `r`), its slices' entries of `H v` added into their parts of `out`,
/// the others written there after the call; `bind` takes the value.
pub(super) fn row(
    sig: &Signature,
    chosen: &[bool],
    parts: &[Part],
    (l, returned): (&Locals, &[Ident]),
    bind: TokenStream,
) -> TokenStream {
    let specs = &sig.params;
    let mut tokens = entries(parts, &l.out, &l.rest);
    let (mut args, mut after) = (Vec::new(), TokenStream::new());
    let scalar = sig.scalar;
    let (zero, one) = (scalar.zero(), scalar.one());
    for (spec, &chosen) in specs.iter().zip(chosen) {
        args.push(super::passed(spec));
        if !Flavor::Hvp.has_tangent(spec, chosen) {
            // A written `&mut [f64]` left out of `wrt(..)` starts over as the parts do.
            let w = names::param(&spec.ident);
            if let Some((_, entry)) = l.saved.iter().find(|(saved, _)| *saved == w) {
                tokens.extend(quote!(#w.copy_from_slice(&#entry);));
            }
            continue;
        }
        let k = parts
            .iter()
            .position(|p| p.spec.ident == spec.ident)
            .expect("internal error: every parameter with a tangent is a part");
        let (before, passed, back) = part(l, (parts, k), (&zero, &one));
        tokens.extend(before);
        args.extend(passed);
        after.extend(back);
    }
    tokens.extend(call(sig, parts, returned, (&args, bind)));
    tokens.extend(after);
    tokens
}

/// Part `k`'s arguments of the row's `f_hvp` call (the parameter's unit tangent, and its
/// entries of `H v` where they are passed in), what comes before the call (a buffer filled, a
/// written parameter restored) and what after (`H v` copied out, a tangent zeroed).
fn part(
    l: &Locals,
    (parts, k): (&[Part], usize),
    (zero, one): (&TokenStream, &TokenStream),
) -> (TokenStream, Vec<TokenStream>, TokenStream) {
    let (part, at, len) = (&parts[k], &parts[k].offset, parts[k].len());
    let spec = part.spec;
    let (scratch, r) = (&l.scratch, &l.r);
    let (mut tokens, mut args, mut after) = (TokenStream::new(), Vec::new(), TokenStream::new());
    let unit = quote!(&#scratch[#at..#at + #len]);
    let h = &part.entries;
    match &spec.kind() {
        Kind::Scalar => args.push(quote!(if #r == #at { #one } else { #zero })),
        Kind::Array(_) => args.push(quote!(::core::convert::TryInto::try_into(#unit).unwrap())),
        Kind::Slice(Some(_)) => {
            args.push(quote!(::core::convert::TryInto::try_into(#unit).unwrap()));
            args.push(quote!(::core::convert::TryInto::try_into(#h).unwrap()));
        }
        Kind::Rows {
            row,
            by_value: true,
            ..
        } => {
            let unit = quote!(#scratch[#at..#at + #len].as_chunks::<#row>().0);
            args.push(quote!(::core::convert::TryInto::try_into(#unit).unwrap()));
        }
        Kind::Rows { row, rows, .. } => {
            args.extend(rows_part(row, rows.is_some(), scratch, (at, &len, h)));
        }
        Kind::SliceMut => {
            let (before, passed, back) = written_part(l, spec, (at, &len, h), zero);
            tokens.extend(before);
            args.extend(passed);
            after.extend(back);
        }
        Kind::Struct(_) | Kind::Ragged => {
            let shape = super::locals::shape(l, spec.kind());
            let (before, passed, back) = struct_part(l, (k, &shape), (at, &len, h));
            tokens.extend(before);
            args.extend(passed);
            after.extend(back);
        }
        Kind::Vec => {
            let v = &l
                .vecs
                .iter()
                .find(|(j, _)| *j == k)
                .expect("internal error: a buffer per `Vec`")
                .1;
            tokens.extend(quote!(#v.copy_from_slice(#unit);));
            args.push(quote!(&#v));
            args.push(quote!(#h));
        }
        _ => {
            args.push(unit);
            args.push(quote!(#h));
        }
    }
    (tokens, args, after)
}

/// A parameter struct's part of the row `k`: its unit tangent copied into the tangent struct
/// from `scratch[at..at + len]` before the call, its shadow zeroed, the two passed, and `H v`
/// copied out of the shadow into `h` after.
fn struct_part(
    l: &Locals,
    (k, shape): (usize, &TokenStream),
    (at, len, h): (&Ident, &TokenStream, &Ident),
) -> (TokenStream, [TokenStream; 2], TokenStream) {
    let scratch = &l.scratch;
    let (_, v, d) = l
        .structs
        .iter()
        .find(|(j, _, _)| *j == k)
        .expect("internal error: a tangent and a shadow per struct");
    let float = &l.float;
    let each = quote!(#shape::for_each_entry::<#float>);
    let (walk, entry, slot) = (&l.walk, &l.entry, &l.slot);
    let before = quote! {
        let mut #walk = #scratch[#at..#at + #len].iter();
        #each(&mut #v, &mut |#entry| {
            if let ::core::option::Option::Some(#slot) = #walk.next() {
                *#entry = *#slot;
            }
        });
        #shape::zero(&mut #d);
    };
    let after = quote! {
        let mut #walk = #h.iter_mut();
        #each(&mut #d, &mut |#entry| {
            if let ::core::option::Option::Some(#slot) = #walk.next() {
                *#slot = *#entry;
            }
        });
    };
    (before, [quote!(&#v), quote!(&mut #d)], after)
}

/// The call of `f_hvp` with `args`, its value bound to `bind`, and the entries of `H v` it
/// returns (an `f64`'s, an array's) copied into their parts of the row.
fn call(
    sig: &Signature,
    parts: &[Part],
    returned: &[Ident],
    (args, bind): (&[TokenStream], TokenStream),
) -> TokenStream {
    let hvp = header::name(sig, Flavor::Hvp);
    let back: Vec<(&Part, &Ident)> = parts
        .iter()
        .zip(returned)
        .filter(|(p, _)| p.spec.kind().has_partial())
        .collect();
    let names = back.iter().map(|(_, name)| name);
    let mut tokens = match back.len() {
        0 => quote!(let #bind = #hvp(#(#args),*);),
        _ => quote!(let (#bind, #(#names),*) = #hvp(#(#args),*);),
    };
    for (part, name) in back {
        let h = &part.entries;
        tokens.extend(match part.spec.kind() {
            Kind::Scalar => quote!(#h[0] = #name;),
            Kind::Rows { .. } => quote!(#h.copy_from_slice(#name.as_flattened());),
            _ => quote!(#h.copy_from_slice(&#name);),
        });
    }
    tokens
}

/// The row `out` split into each part's entries (`h_w`), in order.
fn entries(parts: &[Part], out: &Ident, rest: &Ident) -> TokenStream {
    let mut tokens = quote!(let #rest = &mut *#out;);
    for part in parts {
        let (h, len) = (&part.entries, part.len());
        tokens.extend(quote!(let (#h, #rest) = #rest.split_at_mut(#len);));
    }
    tokens.extend(quote!(let _ = #rest;));
    tokens
}

/// Rows of `N`: the unit tangent and the entries of `H v` as rows, of the parameter's shape
/// (`f_hvp`'s shadow has its length in its type where `w` has: `sized`).
fn rows_part(
    row: &impl ToTokens,
    sized: bool,
    scratch: &Ident,
    (at, len, h): (&Ident, &TokenStream, &Ident),
) -> [TokenStream; 2] {
    let unit = quote!(#scratch[#at..#at + #len].as_chunks::<#row>().0);
    let h = quote!(#h.as_chunks_mut::<#row>().0);
    match sized {
        true => [
            quote!(::core::convert::TryInto::try_into(#unit).unwrap()),
            quote!(::core::convert::TryInto::try_into(#h).unwrap()),
        ],
        false => [unit, h],
    }
}

/// A differentiated `&mut [f64]` `spec`: `f_hvp` writes `w` and its tangent as `f` writes
/// `w`, so both start over (`w` from its saved entries, the tangent zeroed after the call).
fn written_part(
    l: &Locals,
    spec: &ParamSpec,
    (at, len, h): (&Ident, &TokenStream, &Ident),
    zero: &TokenStream,
) -> (TokenStream, [TokenStream; 2], TokenStream) {
    let scratch = &l.scratch;
    let w = names::param(&spec.ident);
    let entry = &l
        .saved
        .iter()
        .find(|(saved, _)| *saved == w)
        .expect("internal error: a copy per `&mut [f64]`")
        .1;
    (
        quote!(#w.copy_from_slice(&#entry);),
        [quote!(&mut #scratch[#at..#at + #len]), quote!(#h)],
        quote!(#scratch[#at..#at + #len].fill(#zero);),
    )
}
