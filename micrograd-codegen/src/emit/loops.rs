//! Loops, forward and backward. [`Emitter::header`] is the one place that knows how each loop
//! form prints; the rest (slots, records, the reversed body) is the same for every form.

use super::Emitter;
use crate::diff::needs::BlockId;
use crate::diff::{Fusion, Rev};
use crate::ir::{Arg, Cond, IntExpr, Loop, LoopId, LoopKind, Op, Operand, Stmt, Ty, VarId};
use proc_macro2::TokenStream;
use quote::quote;

/// How one loop form prints.
pub(super) struct Header {
    /// Declares the trip counter, for a loop whose trip count is known only at run time.
    pub before: TokenStream,
    /// `for i in a..b`, `while cond` or `loop`: opens the forward loop.
    pub open: TokenStream,
    /// Starts each iteration: the condition, when it needs statements of its own.
    pub first: TokenStream,
    /// Ends each iteration: counts it, and leaves when the body took an exit.
    pub last: TokenStream,
    /// `for i in (a..b).rev()` or `for _ in 0..trips`: opens the reversed loop.
    pub reverse: TokenStream,
    /// The trip count, when known before the loop runs: sizes the tapes up front.
    pub trips: Option<TokenStream>,
}

impl Emitter<'_> {
    /// The header of `the_loop` in each direction; `counted` when it counts its trips for a
    /// reversed loop.
    pub(super) fn header(&self, the_loop: &Loop, counted: bool) -> Header {
        let count = the_loop
            .count
            .filter(|_| counted)
            .map(|v| self.names.var(v));
        let mut last = TokenStream::new();
        if let Some(count) = count {
            last.extend(quote!(#count += 1;));
        }
        if let Some(exit) = the_loop.exit {
            let exit = self.names.var(exit);
            last.extend(quote!(if #exit { break; }));
        }
        let before = count
            .map(|c| quote!(let mut #c = 0usize;))
            .unwrap_or_default();
        match &the_loop.kind {
            LoopKind::Range {
                index,
                start,
                end,
                inclusive,
            } => {
                let range = self.range(start, end, *inclusive);
                let index = self.index(*index);
                let reverse = match count {
                    Some(count) => {
                        quote!(for #index in (#range).rev().skip((#range).size_hint().0 - #count))
                    }
                    None => quote!(for #index in (#range).rev()),
                };
                Header {
                    before,
                    open: quote!(for #index in #range),
                    first: TokenStream::new(),
                    last,
                    reverse,
                    trips: the_loop
                        .exit
                        .is_none()
                        .then(|| quote!((#range).size_hint().0)),
                }
            }
            LoopKind::While { head, cond } => {
                let test = self.cond(cond);
                let (open, first) = match (head.is_empty(), cond) {
                    (true, Cond::Lit(true)) => (quote!(loop), TokenStream::new()),
                    (true, _) => (quote!(while #test), TokenStream::new()),
                    (false, _) => {
                        let head = self.forward_block(head);
                        (quote!(loop), quote!(#head if !(#test) { break; }))
                    }
                };
                let reverse = match count {
                    Some(count) => quote!(for _ in 0..#count),
                    None => TokenStream::new(),
                };
                Header {
                    before,
                    open,
                    first,
                    last,
                    reverse,
                    trips: None,
                }
            }
        }
    }

    /// The loop, recording at the end of each iteration what the reversed iteration reads.
    pub(super) fn forward_loop(&self, the_loop: &Loop) -> TokenStream {
        let mut slots = TokenStream::new();
        let mut write_backs = TokenStream::new();
        for carried in &the_loop.carried {
            let (slot, init) = (self.names.var(carried.slot), self.bound(&carried.init));
            if carried.exit == Operand::Var(carried.slot) {
                slots.extend(quote!(let #slot = #init;));
            } else {
                let exit = self.operand(&carried.exit);
                slots.extend(quote!(let mut #slot = #init;));
                write_backs.extend(quote!(#slot = #exit;));
            }
        }
        let records = &self.adjoint.plan.records[the_loop.id];
        let header = self.header(the_loop, self.facts.reversed[the_loop.id]);
        let mut reserve = self.reserve(records, header.trips.as_ref());
        reserve.extend(self.reserve_lent(the_loop, header.trips.as_ref()));
        let pushes = records.iter().map(|v| {
            let (tape, name) = (self.tape_of(*v), self.names.var(*v));
            quote!(#tape.push(#name);)
        });
        let hints = self.bounds_hints(&the_loop.body);
        let body = self.forward_block(&the_loop.body);
        let reversed_here = self
            .fused_body(the_loop.id)
            .map(|rev| self.reverse_block(rev, Some(BlockId::Body(the_loop.id))));
        let Header {
            before,
            open,
            first,
            last,
            ..
        } = header;
        quote! {
            #slots
            #before
            #reserve
            #open {
                #first
                #hints
                #body
                #(#pushes)*
                #reversed_here
                #write_backs
                #last
            }
        }
    }

    /// The forward sweep, in which `fusion`'s loop reverses each iteration right after it, and
    /// the reverse sweep that remains. The adjoints the iterations read and add to are set up
    /// just before that loop, with the values they need that the forward sweep computes later.
    pub(super) fn fused_sweeps(&self, fusion: &Fusion) -> (TokenStream, TokenStream) {
        let (seeds, rest) = self.adjoint.rev.split_at(fusion.seeds);
        let hoisted = |stmt: &Stmt| matches!(stmt, Stmt::Assign { dst, .. } | Stmt::IntLet { dst, .. } if fusion.hoisted.contains(dst));
        let mut forward = TokenStream::new();
        for stmt in &self.function.body {
            match stmt {
                Stmt::Loop(the_loop) if the_loop.id == fusion.the_loop => {
                    for early in self.function.body.iter().filter(|s| hoisted(s)) {
                        forward.extend(self.forward_stmt(early));
                    }
                    forward.extend(self.reverse_block(seeds, None));
                    forward.extend(self.forward_loop(the_loop));
                }
                stmt if hoisted(stmt) => {}
                stmt => forward.extend(self.forward_stmt(stmt)),
            }
        }
        (
            forward,
            self.reverse_block(rest.get(1..).unwrap_or_default(), None),
        )
    }

    /// The reversed body of `id`, when its iterations are reversed inside the forward loop.
    fn fused_body(&self, id: LoopId) -> Option<&[Rev]> {
        let fusion = self.adjoint.fused.as_ref().filter(|f| f.the_loop == id)?;
        match self.adjoint.rev.get(fusion.seeds)? {
            Rev::Loop { body, .. } => Some(body),
            _ => None,
        }
    }

    /// Sizes the tape of lent entries up front too: the trip count times the entries the body's
    /// own calls are lent whole (a part's bounds may change from one iteration to the next),
    /// unless each iteration takes its entries back before the next (a fused loop).
    fn reserve_lent(&self, the_loop: &Loop, trips: Option<&TokenStream>) -> TokenStream {
        let fused = self.adjoint.fused.as_ref().map(|f| f.the_loop);
        let Some(trips) = trips.filter(|_| fused != Some(the_loop.id)) else {
            return TokenStream::new();
        };
        let lent = the_loop.body.iter().flat_map(|stmt| match stmt {
            Stmt::Assign {
                dst,
                op: Op::Call(_, args),
            } if self.facts.saved_calls.contains(dst) => args.as_slice(),
            _ => &[],
        });
        let lens: Vec<TokenStream> = lent
            .filter_map(|arg| match arg {
                Arg::Slice {
                    array,
                    lo: None,
                    hi: None,
                    mutable: true,
                    ..
                } => Some(match &self.function.var(*array).ty {
                    Ty::Array { len, vec: false } => self.int(len),
                    _ => {
                        let name = self.names.var(*array);
                        quote!(#name.len())
                    }
                }),
                _ => None,
            })
            .collect();
        let saved = &self.tapes.saved;
        match lens.as_slice() {
            [] => TokenStream::new(),
            [len] => quote!(#saved.reserve(#trips * #len);),
            _ => quote!(#saved.reserve(#trips * (#(#lens)+*));),
        }
    }

    /// Sizes the tapes up front: the trip count times what one iteration records.
    fn reserve(&self, records: &[VarId], trips: Option<&TokenStream>) -> TokenStream {
        let Some(trips) = trips else {
            return TokenStream::new();
        };
        let mut per_tape: Vec<(&proc_macro2::Ident, usize)> = Vec::new();
        for var in records {
            let tape = self.tape_of(*var);
            match per_tape.iter_mut().find(|(t, _)| *t == tape) {
                Some((_, count)) => *count += 1,
                None => per_tape.push((tape, 1)),
            }
        }
        per_tape
            .into_iter()
            .map(|(tape, count)| match count {
                1 => quote!(#tape.reserve(#trips);),
                _ => {
                    let count = proc_macro2::Literal::usize_unsuffixed(count);
                    quote!(#tape.reserve(#trips * #count);)
                }
            })
            .collect()
    }

    /// The loop backwards; each iteration first pops what its forward iteration recorded.
    pub(super) fn reverse_loop(&self, id: LoopId, body: &[Rev]) -> TokenStream {
        let Some(the_loop) = self.facts.loops[id] else {
            return TokenStream::new();
        };
        let records = &self.adjoint.plan.records[id];
        let pops = records.iter().rev().map(|v| {
            let (tape, name) = (self.tape_of(*v), self.names.var(*v));
            quote!(let #name = #tape.pop();)
        });
        let open = self.header(the_loop, true).reverse;
        // The forward iteration read these entries: the hints cannot panic here.
        let hints = self.bounds_hints(&the_loop.body);
        let body = self.reverse_block(body, Some(BlockId::Body(id)));
        quote! {
            #open {
                #(#pops)*
                #hints
                #body
            }
        }
    }

    fn range(&self, start: &IntExpr, end: &IntExpr, inclusive: bool) -> TokenStream {
        let (start, end) = (self.int(start), self.int(end));
        if inclusive {
            quote!(#start..=#end)
        } else {
            quote!(#start..#end)
        }
    }

    fn index(&self, index: Option<VarId>) -> TokenStream {
        match index {
            Some(var) => {
                let name = self.names.var(var);
                quote!(#name)
            }
            None => quote!(_),
        }
    }
}
