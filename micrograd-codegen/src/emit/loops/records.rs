//! What a forward loop records for its reversal, and where: pushed onto the tapes (reserved
//! up front where the trip count is known), or written into a region of a tape, one chunk per
//! iteration.

use super::super::Emitter;
use super::{Count, count_of, defined_in, invariant};
use crate::ir::{Arg, IntExpr, Loop, LoopKind, Op, Stmt, VarId};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::HashSet;

impl Emitter<'_> {
    /// A region of one value per iteration (`region`, when the loop records into one), read
    /// through a view at the iteration's entry, holds the view itself: recorded by one copy
    /// before the loop (`extend_from_slice`), where the region was filled with blanks and each
    /// iteration wrote its own. The view's name, for that copy.
    pub(super) fn copied_view(&self, the_loop: &Loop, region: bool) -> Option<Ident> {
        let records = &self.adjoint.plan.records[the_loop.id];
        let [record] = records.as_slice() else {
            return None;
        };
        if !region {
            return None;
        }
        the_loop.body.iter().find_map(|stmt| match stmt {
            Stmt::Assign {
                dst,
                op: Op::Load(w, i),
            } if dst == record => self.view_name(*w, i),
            _ => None,
        })
    }

    /// The loop's reserve, body and pushes where its records go to a region of `tape`
    /// (`len` values per iteration): each value written to the iteration's chunk where the
    /// body defines it, those it does not define (a slot's value on entry) at the end; or,
    /// for a view `copied`, the view copied before the loop and nothing in it.
    pub(super) fn region_body(
        &self,
        the_loop: &Loop,
        tape: &Ident,
        len: &TokenStream,
        copied: Option<&Ident>,
    ) -> (TokenStream, TokenStream, TokenStream) {
        let records = &self.adjoint.plan.records[the_loop.id];
        let (region, at) = (&self.tapes.region, &self.tapes.at);
        let write = |v: VarId| {
            if copied.is_some() {
                return None;
            }
            let k = records.iter().position(|r| *r == v)?;
            let (name, k) = (self.names.var(v), proc_macro2::Literal::usize_unsuffixed(k));
            Some(quote!(#at[#k] = #name;))
        };
        // Each value is written where the body defines it; those it does not define
        // (a slot's value on entry) at the end.
        let mut body = TokenStream::new();
        let mut written = Vec::new();
        for stmt in &the_loop.body {
            body.extend(self.forward_stmt(stmt));
            if let Stmt::Assign { dst, .. } | Stmt::IntLet { dst, .. } | Stmt::BoolLet { dst, .. } =
                stmt
                && let Some(tokens) = write(*dst)
            {
                body.extend(tokens);
                written.push(*dst);
            }
        }
        let rest = records.iter().filter(|v| !written.contains(v));
        (
            match copied {
                Some(view) => quote!(#tape.extend_from_slice(#view);),
                None => quote!(let #region = #tape.grow(#len);),
            },
            body,
            rest.filter_map(|v| write(*v)).collect(),
        )
    }

    /// The loop's reserve, body and pushes where its records are pushed to their tapes at the
    /// end of each iteration, the tapes reserved for `trips` iterations where known.
    pub(super) fn pushed_body(
        &self,
        the_loop: &Loop,
        trips: Option<&TokenStream>,
    ) -> (TokenStream, TokenStream, TokenStream) {
        let records = &self.adjoint.plan.records[the_loop.id];
        let mut reserve = self.reserve(the_loop, trips);
        reserve.extend(self.reserve_lent(the_loop, trips));
        let pushes = records.iter().map(|v| {
            let (tape, name) = (self.tape_of(*v), self.names.var(*v));
            quote!(#tape.push(#name);)
        });
        (
            reserve,
            self.forward_block(&the_loop.body),
            quote!(#(#pushes)*),
        )
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
                } => Some(match self.function.var(*array).ty.array_len() {
                    Some(len) => self.int(len),
                    None => {
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

    /// Sizes the tapes up front: the trip count times what one iteration records, its own
    /// values and those of the loops nested in it whose trip counts the iterations do not
    /// change (RK4's stages inside its steps: one reservation for the whole nest, where each
    /// inner loop's own reservation grew the tape by doubling, copying it each time). The
    /// inner loops still reserve for themselves, which then costs a comparison.
    fn reserve(&self, the_loop: &Loop, trips: Option<&TokenStream>) -> TokenStream {
        let fused = self.adjoint.fused.as_ref().map(|f| f.the_loop);
        let Some(trips) = trips else {
            return TokenStream::new();
        };
        let changing = (fused != Some(the_loop.id)).then(|| defined_in(the_loop));
        self.per_iteration(the_loop, changing.as_ref())
            .into_iter()
            .map(|(tape, count)| match count {
                Count::Own(1) => quote!(#tape.reserve(#trips);),
                count => quote!(#tape.reserve(#trips * #count);),
            })
            .collect()
    }

    /// What one iteration of `the_loop` records, by tape: its own values, and for each loop
    /// directly in its body whose trip count reads nothing in `changing`, that count times
    /// what the inner loop's iteration records. `changing` is `None` where only the loop's own
    /// values count (a fused loop pops each iteration's values at its end).
    fn per_iteration(
        &self,
        the_loop: &Loop,
        changing: Option<&HashSet<VarId>>,
    ) -> Vec<(&proc_macro2::Ident, Count)> {
        let mut per_tape: Vec<(&proc_macro2::Ident, Count)> = Vec::new();
        for var in &self.adjoint.plan.records[the_loop.id] {
            count_of(&mut per_tape, self.tape_of(*var)).add_own();
        }
        let Some(changing) = changing else {
            return per_tape;
        };
        for stmt in &the_loop.body {
            let Stmt::Loop(inner) = stmt else { continue };
            let LoopKind::Range {
                start,
                end,
                inclusive,
                ..
            } = &inner.kind
            else {
                continue;
            };
            if inner.exit.is_some() || !invariant(start, changing) || !invariant(end, changing) {
                continue;
            }
            let range = self.range(start, end, *inclusive);
            for (tape, count) in self.per_iteration(inner, Some(changing)) {
                let term = match count {
                    Count::Own(1) => quote!((#range).size_hint().0),
                    count => quote!((#range).size_hint().0 * #count),
                };
                count_of(&mut per_tape, tape).add(term);
            }
        }
        per_tape
    }

    /// The tape, the length of the region `the_loop` records into and what one iteration
    /// records there, when it records at known positions rather than by a push and a pop per
    /// value: a `for` over a range with no exit (so its trip count is known before it runs),
    /// not fused, whose values all go on one tape and whose body runs no call and no loop that
    /// records (either would record on the tape between two of its iterations; an inner loop
    /// that records nothing, such as a dot product whose terms are read again, leaves the
    /// region's chunks in step). Each iteration writes its values into its own chunk of
    /// the region, zipped with the loop's range, and the reversed iteration reads them there
    /// (`rchunks_exact`): a store and a load with no check, where a push checked the tape's
    /// room and a pop its length and kept the tape's fields in memory.
    pub(super) fn region(
        &self,
        the_loop: &Loop,
    ) -> Option<(&proc_macro2::Ident, TokenStream, proc_macro2::Literal)> {
        let records = &self.adjoint.plan.records[the_loop.id];
        let fused = self.adjoint.fused.as_ref().map(|f| f.the_loop);
        let LoopKind::Range {
            start,
            end,
            inclusive,
            ..
        } = &the_loop.kind
        else {
            return None;
        };
        let tape = self.tape_of(*records.first()?);
        if fused == Some(the_loop.id)
            || the_loop.exit.is_some()
            || the_loop.count.is_some()
            || records.iter().any(|v| self.tape_of(*v) != tape)
            || self.records_inside(&the_loop.body)
        {
            return None;
        }
        let range = self.range(start, end, *inclusive);
        let count = proc_macro2::Literal::usize_unsuffixed(records.len());
        Some(match records.len() {
            1 => (tape, quote!((#range).size_hint().0), count),
            _ => (tape, quote!((#range).size_hint().0 * #count), count),
        })
    }

    /// Whether `block` runs a call or a loop that records a value or its trip count, however
    /// deep: what would put values on a tape inside one iteration of a loop around it.
    fn records_inside(&self, block: &[Stmt]) -> bool {
        let mut any = false;
        crate::ir::walk(block, &mut |stmt| {
            any |= match stmt {
                Stmt::Loop(inner) => {
                    inner.count.is_some() || !self.adjoint.plan.records[inner.id].is_empty()
                }
                Stmt::Assign {
                    op: Op::Call(..), ..
                } => true,
                _ => false,
            };
        });
        any
    }

    /// `for (i, at) in (a..b).ITER`: a region loop's header, its index beside `at`, the slots
    /// of the iteration (`ITER` zips them in, `rev().zip(..)` for the reversed loop).
    pub(super) fn region_header(&self, the_loop: &Loop, iter: TokenStream) -> TokenStream {
        let LoopKind::Range {
            index,
            start,
            end,
            inclusive,
        } = &the_loop.kind
        else {
            unreachable!("internal error: only a range loop records into a region")
        };
        let (range, index, at) = (
            self.range(start, end, *inclusive),
            self.index(*index),
            &self.tapes.at,
        );
        quote!(for (#index, #at) in (#range).#iter)
    }

    /// A forward region loop from 0, `for i in 0..n`, indexed: its header, the region cut to
    /// its length `len` before it, and the binding of `at` to the iteration's chunk,
    /// `&mut region[i * count..][..count]`, which rustc sees is inside the region from the
    /// range alone. A loop of one exit, which LLVM unrolls, where zipping the range with the
    /// chunks gave it two (lse's `exp` loop: 15 instructions per entry, 6.5 indexed). Other
    /// starts keep the zip: the check of `(i - a) * count` against the region is not folded.
    pub(super) fn indexed_region_header(
        &self,
        the_loop: &Loop,
        len: &TokenStream,
        count: &proc_macro2::Literal,
    ) -> Option<(TokenStream, TokenStream)> {
        let LoopKind::Range {
            index: Some(index),
            start: IntExpr::Lit { value: 0, .. },
            end,
            inclusive: false,
        } = &the_loop.kind
        else {
            return None;
        };
        let (index, end) = (self.names.var(*index), self.int(end));
        let (region, at) = (&self.tapes.region, &self.tapes.at);
        Some((
            quote! {
                let #region = &mut #region[..#len];
                for #index in 0..#end
            },
            quote!(let #at = &mut #region[#index * #count..][..#count];),
        ))
    }
}
