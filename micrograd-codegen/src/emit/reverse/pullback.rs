//! A call's pullback in the reverse sweep, `let (d_a, _) = g_pullback(a, b, w, d_w, d_y);`:
//! each argument beside its shadow, the entries an array lent as `&mut` held before the call,
//! the partials of an array passed by value, and `DroppedN` for a call made for what it writes.

use super::super::Emitter;
use super::super::tokens::{Prec, call, constant, entry_seed, entry_value, external};
use crate::diff::Expr;
use crate::ir::{Arg, Extern, IntExpr, VarId};
use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote};

impl Emitter<'_> {
    /// `let (d_a, _) = g_pullback(a, b, w, d_w, d_y);`: the callee's own reverse sweep. An
    /// array passed by value gets its partials back in the tuple: they are added after.
    pub(super) fn pullback(
        &self,
        callee: &Extern,
        args: &[Arg],
        seed: &Expr,
        outs: &[Option<VarId>],
    ) -> TokenStream {
        let mut path = callee.clone();
        if let Some(last) = path.path.last_mut() {
            last.push_str("_pullback");
        }
        let PullbackArgs {
            tokens,
            names,
            before,
            after,
        } = self.pullback_args(args, outs, callee.args_at());
        let call = self.pullback_call(&path, tokens, seed);
        let call = match names.as_slice() {
            [] => quote!(#call;),
            [single] => quote!(let #single = #call;),
            _ => quote!(let (#(#names),*) = #call;),
        };
        // At the user's call: a pullback returning another number of partials than the
        // pattern binds (a callee given one argument too many) is an error there.
        let call = super::super::tokens::located_ops(call, callee.span);
        quote!(#before #call #after)
    }

    /// The pullback's arguments for the call's `args` (each followed by its shadow where it
    /// has one), the names its result binds (the adjoints of the scalars `outs`, the partials
    /// of an array passed by value), and what goes before and after the call (the lent
    /// arrays' entries, an aliased shadow's buffer and its sum).
    fn pullback_args(
        &self,
        args: &[Arg],
        outs: &[Option<VarId>],
        at: &[proc_macro2::Span],
    ) -> PullbackArgs {
        let mut tokens = Vec::new();
        let (mut before, mut after) = (TokenStream::new(), TokenStream::new());
        let mut lent = Vec::new();
        let mut outs = outs.iter();
        let mut names = Vec::new();
        let mut entries = self
            .lent_entries(args, (&mut before, &mut after))
            .into_iter();
        for (k, arg) in args.iter().enumerate() {
            if let Arg::Slice {
                array,
                lo,
                hi,
                mutable: true,
                entry,
                ..
            } = arg
            {
                let entries = entries
                    .next()
                    .expect("internal error: each lent array has its entries");
                let shadow = self.shadow_arg(*array, lo.as_ref(), hi.as_ref());
                match entry {
                    // A local `f64` lent as `&mut e`: its one entry, and its shadow's.
                    true => tokens.extend([quote!(&mut (#entries)[0]), quote!(&mut (#shadow)[0])]),
                    false => tokens.extend([entries, shadow]),
                }
                continue;
            }
            // Where the user wrote it: an error about it (a wrong type) is there.
            let arg_tokens = self.arg(arg);
            tokens.push(match at.get(k) {
                Some(span) => super::super::tokens::located(arg_tokens, *span),
                None => arg_tokens,
            });
            match arg {
                Arg::Scalar(..) => names.push(match outs.next() {
                    Some(Some(var)) => self.names.adjoint(*var).to_token_stream(),
                    _ => quote!(_),
                }),
                Arg::Slice {
                    array,
                    by_value: true,
                    ..
                } => names.push(self.returned_partials(k, *array, &mut after)),
                // Rows passed whole: their shadow as rows too (`&mut []` where inactive).
                Arg::Slice {
                    array,
                    rows: Some(row),
                    ..
                } => {
                    // Whole, so an empty shadow (a caller skipping it) chunks to no rows.
                    tokens.push(match self.adjoint.activity.is_active(*array) {
                        true => {
                            let name = self.names.adjoint(*array);
                            self.rechunked(quote!(&mut #name[..]), row, true)
                        }
                        false => quote!(&mut []),
                    });
                }
                Arg::Slice { array, lo, hi, .. } => {
                    if lent.contains(array) && self.adjoint.activity.is_active(*array) {
                        let (buffer, add) = self.aliased_shadow(k, arg, *array, lo.as_ref());
                        tokens.push(buffer.0);
                        before.extend(buffer.1);
                        after.extend(add);
                        continue;
                    }
                    lent.push(*array);
                    tokens.push(self.shadow_arg(*array, lo.as_ref(), hi.as_ref()));
                }
                Arg::Int(_) | Arg::Bool(_) | Arg::Data { .. } => {}
            }
        }
        PullbackArgs {
            tokens,
            names,
            before,
            after,
        }
    }

    /// The call of the pullback `path` with its arguments `tokens` and the seed: through
    /// `DroppedN` where the call was made only for what it writes.
    fn pullback_call(
        &self,
        path: &Extern,
        mut tokens: Vec<TokenStream>,
        seed: &Expr,
    ) -> TokenStream {
        let callee = external(path);
        let zero = self.expr(&Expr::Const(0.0));
        let dropped = path.dropped && is_zero(seed) && tokens.len() <= crate::names::DROPPED_ARITY;
        // A constant seed (`f_grad`'s `1.0`) typed, as the variable in `f_pullback` is: a
        // hand-written pullback then fails to take `ByCaller<f64>` once, not twice.
        let seed = match seed {
            Expr::Const(c) => constant(self.function.scalar, *c, Prec::Postfix),
            seed => self.expr(seed),
        };
        // A call made only for what it writes, its value dropped (so its seed is zero): the
        // callee may return `()` and take no seed, and `DroppedN` (micrograd_runtime::calls)
        // passes the seed only to a pullback that takes it.
        if dropped {
            let runtime = &self.runtime;
            let dropped = crate::names::dropped(tokens.len(), path.span);
            // Spanned at the user's call, as `ByCaller` is: a bound of the callee not met is
            // one error there.
            let dropped = quote!(#runtime::calls::dropped::#dropped::dropped)
                .into_iter()
                .map(|mut tree| {
                    tree.set_span(path.span);
                    tree
                })
                .collect();
            let seed = entry_value(self, path, seed, &zero);
            call(dropped, quote!(#callee, #(#tokens,)* #seed), path.span)
        } else {
            let seed = entry_seed(self, path, seed, &zero);
            tokens.push(seed);
            call(callee, quote!(#(#tokens),*), path.span)
        }
    }

    /// The entries each array lent to the call as `&mut` held before it, last on the tape of
    /// entries (scratch the callee may write), which its pullback gets beside their shadow
    /// (holding the adjoint of the entries after the call, and receiving that of the entries
    /// before it). `before` the call their number is taken, and `after` it they leave the tape.
    /// A tangent program's call is lent the array and its tangent, recorded one after the
    /// other: the tape's last entries are split between them.
    fn lent_entries(
        &self,
        args: &[Arg],
        (before, after): (&mut TokenStream, &mut TokenStream),
    ) -> Vec<TokenStream> {
        let saved = &self.tapes.saved;
        let mut lens = Vec::new();
        for (k, arg) in args.iter().enumerate() {
            let Arg::Slice {
                array,
                lo,
                hi,
                mutable: true,
                ..
            } = arg
            else {
                continue;
            };
            let len = self.names.local(&format!("lent{k}"));
            let d = self.names.adjoint(*array);
            let part = match self.bounds(lo, hi) {
                (None, None) => quote!(#d),
                (lo, hi) => quote!(#d[#lo..#hi]),
            };
            before.extend(quote!(let #len = #part.len();));
            lens.push(len);
        }
        if lens.is_empty() {
            return Vec::new();
        }
        let total = quote!(#(#lens)+*);
        after.extend(quote!(#saved.discard(#total);));
        match lens.as_slice() {
            [len] => vec![quote!(#saved.last_mut(#len))],
            // One array and its tangent, or two arrays.
            [first, _] => {
                let (array, tangent) = (self.names.local("entries"), self.names.local("v_entries"));
                before.extend(quote! {
                    let (#array, #tangent) = #saved.last_mut(#total).split_at_mut(#first);
                });
                vec![quote!(#array), quote!(#tangent)]
            }
            // Several arrays and their tangents: the tape's last entries split between them
            // in the order they were recorded, the last one what remains.
            [init @ .., _] => {
                let rest = self.names.local("entries");
                before.extend(quote!(let #rest = #saved.last_mut(#total);));
                let mut parts = Vec::new();
                for (k, len) in init.iter().enumerate() {
                    let part = self.names.local(&format!("entries{k}"));
                    before.extend(quote!(let (#part, #rest) = #rest.split_at_mut(#len);));
                    parts.push(quote!(#part));
                }
                parts.push(quote!(#rest));
                parts
            }
            [] => unreachable!("internal error: a call lent no array has no entries"),
        }
    }

    /// The name that receives the partials of `array`, passed by value as argument `k`, and
    /// (in `after`) their sum into its adjoint; `_` when it has none.
    fn returned_partials(&self, k: usize, array: VarId, after: &mut TokenStream) -> TokenStream {
        if !self.adjoint.activity.is_active(array) {
            return quote!(_);
        }
        let partials = self.names.local(&format!("partials{k}"));
        let (i, value) = (self.names.local("i"), self.names.local("value"));
        let shadow = self.names.adjoint(array);
        let add = quote! {
            for (#i, #value) in #partials.iter().enumerate() {
                #shadow[#i] += *#value;
            }
        };
        after.extend(if self.may_be_empty(array) {
            quote!(if !#shadow.is_empty() { #add })
        } else {
            add
        });
        quote!(#partials)
    }

    /// A slice passed twice (`dot(w, w)`): its second shadow cannot borrow `d_w` again, so it
    /// is a zeroed buffer whose entries are added into `d_w` after the call.
    fn aliased_shadow(
        &self,
        k: usize,
        arg: &Arg,
        array: VarId,
        lo: Option<&IntExpr>,
    ) -> ((TokenStream, TokenStream), TokenStream) {
        let buffer = self.names.local(&format!("aliased{k}"));
        let (i, value) = (self.names.local("i"), self.names.local("value"));
        let (slice, shadow) = (self.arg(arg), self.names.adjoint(array));
        // Entry `i` of the part: of a row of rows of their own lengths, `[r][c + i]`.
        let entry = match lo {
            Some(IntExpr::Entry(r, c)) => {
                let (r, c) = (self.int(r), self.int(c));
                quote!([#r][#c + #i])
            }
            _ => {
                let offset = lo.map_or_else(|| quote!(0), |lo| self.int(lo));
                quote!([#offset + #i])
            }
        };
        let zero = self.function.scalar.zero();
        let declare = quote!(let mut #buffer = ::std::vec![#zero; (#slice).len()];);
        let add = quote! {
            for (#i, #value) in #buffer.iter().enumerate() {
                #shadow #entry += *#value;
            }
        };
        let add = if self.may_be_empty(array) {
            quote!(if !#shadow.is_empty() { #add })
        } else {
            add
        };
        ((quote!(&mut #buffer), declare), add)
    }

    /// The shadow passed for a slice argument: its adjoint's part, or `&mut []` if constant.
    fn shadow_arg(&self, array: VarId, lo: Option<&IntExpr>, hi: Option<&IntExpr>) -> TokenStream {
        if self.is_whole(array) && lo.is_some() {
            // The zero tangent of a constant struct (`arg`): what it receives is dropped.
            let (runtime, name) = (&self.runtime, self.names.var(array));
            return quote!(&mut #runtime::shadow::Differentiable::zeroed_like(#name));
        }
        if let Some(shadow) = self.whole_shadow(array) {
            return shadow;
        }
        if !self.adjoint.activity.is_active(array) {
            return quote!(&mut []);
        }
        let name: &Ident = self.names.adjoint(array);
        let is_param = self.function.var(array).ty.is_lent();
        let part = match (lo, hi) {
            (None, None) if is_param => quote!(&mut #name[..]),
            (None, None) => quote!(&mut #name),
            _ => match self.whole_row(&lo.cloned(), &hi.cloned()) {
                Some(i) => quote!(&mut #name[#i]),
                None => {
                    let range = self.sub_slice(&lo.cloned(), &hi.cloned());
                    quote!(&mut #name #range)
                }
            },
        };
        if self.may_be_empty(array) {
            quote!(if #name.is_empty() { &mut [] } else { #part })
        } else {
            part
        }
    }
}

/// Whether a callee's seed is zero: that of a call whose value is dropped (a tangent program's
/// call returns the value and its tangent, seeded as a pair).
fn is_zero(seed: &Expr) -> bool {
    match seed {
        Expr::Const(c) => *c == 0.0,
        Expr::Pair(value, tangent) => is_zero(value) && is_zero(tangent),
        _ => false,
    }
}

/// What the arguments of a call's pullback make (`Emitter::pullback_args`).
struct PullbackArgs {
    /// The pullback's arguments but the seed, in order.
    tokens: Vec<TokenStream>,
    /// The names its result binds, in order (`_` for a result not needed).
    names: Vec<TokenStream>,
    /// Statements before the call (the lent arrays' entries, aliased shadows' buffers).
    before: TokenStream,
    /// Statements after it (the entries leaving the tape, partials and buffers added).
    after: TokenStream,
}
