//! The arguments of a call in the forward sweep: a scalar, an integer, data, a slice lent or
//! read, and a sequence of rows (held flat by the IR) chunked into rows again for its callee.

use crate::emit::Emitter;
use crate::ir::{Arg, IntExpr};
use proc_macro2::TokenStream;
use quote::quote;

impl Emitter<'_> {
    /// A forward call argument.
    pub(in crate::emit) fn arg(&self, arg: &Arg) -> TokenStream {
        match arg {
            Arg::Scalar(operand, false) => self.operand(operand),
            Arg::Scalar(operand, true) => {
                let operand = self.operand(operand);
                quote!(&#operand)
            }
            Arg::Int(int) => self.int(int),
            Arg::Data {
                place,
                reference,
                clone,
            } => {
                let place = self.data(place);
                match (reference, clone) {
                    (true, _) => quote!(&#place),
                    (false, true) => quote!(::core::clone::Clone::clone(&#place)),
                    (false, false) => place,
                }
            }
            Arg::Bool(cond) => self.cond(cond),
            Arg::Slice {
                array,
                lo,
                hi,
                mutable: true,
                entry,
                ..
            } => {
                let name = self.names.var(*array);
                if *entry {
                    // A local `f64` lent as `&mut e`, held as a one-entry array (spanned at
                    // `e`: a callee that takes no `&mut f64` is rustc's error there).
                    let span = self.function.var(*array).span;
                    return quote::quote_spanned!(span=> &mut #name[0]);
                }
                let is_param = self.function.var(*array).ty.is_lent();
                let (lo, hi) = self.bounds(lo, hi);
                match (&lo, &hi, is_param) {
                    // `w: &mut [f64]` is lent again (an implicit reborrow).
                    (None, None, true) => quote!(#name),
                    (None, None, false) => quote!(&mut #name),
                    _ => quote!(&mut #name[#lo..#hi]),
                }
            }
            Arg::Slice {
                rows: Some(row), ..
            } => {
                let flat = self.flat_arg(arg);
                self.rechunked(flat, row, false)
            }
            _ => self.flat_arg(arg),
        }
    }

    /// `flat.as_chunks::<N>().0.try_into().unwrap()` (`as_chunks_mut` where `mutable`): a
    /// sequence of rows of `row` floats, which the IR holds flat, as rows again for a callee
    /// taking `&[[f64; N]]` or `&[[f64; N]; M]` (its parameter type says which).
    pub(in crate::emit) fn rechunked(
        &self,
        flat: TokenStream,
        row: &IntExpr,
        mutable: bool,
    ) -> TokenStream {
        let row = self.int(row);
        match mutable {
            true => quote!((#flat).as_chunks_mut::<{ #row }>().0.try_into().unwrap()),
            false => quote!((#flat).as_chunks::<{ #row }>().0.try_into().unwrap()),
        }
    }

    /// An argument of a call as the IR holds it: a sequence of rows flat.
    pub(in crate::emit) fn flat_arg(&self, arg: &Arg) -> TokenStream {
        match arg {
            Arg::Slice {
                array,
                lo,
                hi,
                by_value,
                mutable: false,
                ..
            } => {
                let name = self.names.var(*array);
                let is_param = self.function.var(*array).ty.is_lent();
                if self.is_whole(*array) && lo.is_some() {
                    // The tangent of a constant struct (a slice's would be empty): zeros.
                    let runtime = &self.runtime;
                    return quote!(&#runtime::shadow::Differentiable::zeroed_like(#name));
                }
                match (lo, hi, is_param) {
                    // A parameter is read through a reference (an array by value too).
                    _ if *by_value && is_param => quote!(*#name),
                    _ if *by_value => quote!(#name),
                    (None, None, true) => quote!(#name),
                    (None, None, false) => quote!(&#name),
                    _ => {
                        let part = match self.whole_row(lo, hi) {
                            Some(i) => quote!(&#name[#i]),
                            None => {
                                let range = self.sub_slice(lo, hi);
                                quote!(&#name #range)
                            }
                        };
                        if self.tangent.maybe_empty.contains(array) {
                            // An empty tangent stands for zeros: its part is empty too.
                            return quote!(if #name.is_empty() { &[] } else { #part });
                        }
                        part
                    }
                }
            }
            _ => self.arg(arg),
        }
    }
}
