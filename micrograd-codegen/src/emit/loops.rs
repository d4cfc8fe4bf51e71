//! Loops, forward and backward. [`Emitter::header`] is the one place that knows how each loop
//! form prints; the rest (slots, records, the reversed body) is the same for every form.

mod records;

use super::Emitter;
use crate::diff::needs::BlockId;
use crate::diff::{Fusion, Rev};
use crate::ir::{Cond, IntExpr, Loop, LoopId, LoopKind, Operand, Stmt, VarId};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use std::collections::HashSet;

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
        let (slots, write_backs) = self.carried_slots(the_loop);
        let header = self.header(the_loop, self.facts.reversed[the_loop.id]);
        let hints = self.bounds_hints(&the_loop.body);
        let region = self.region(the_loop);
        let opened = self.open_forward_views(the_loop);
        let copied = self.copied_view(the_loop, region.is_some());
        let (reserve, body, pushes) = match &region {
            Some((tape, len, _)) => self.region_body(the_loop, tape, len, copied.as_ref()),
            None => self.pushed_body(the_loop, header.trips.as_ref()),
        };
        let reversed_here = self
            .fused_body(the_loop.id)
            .map(|rev| self.reverse_block(rev, Some(BlockId::Body(the_loop.id))));
        let views = self.close_views(opened);
        let Header {
            before,
            mut open,
            first,
            last,
            ..
        } = header;
        let mut chunk = TokenStream::new();
        if let (Some((_, len, count)), None) = (&region, &copied) {
            let region = &self.tapes.region;
            match self.indexed_region_header(the_loop, len, count) {
                Some((head, at)) => (open, chunk) = (head, at),
                None => {
                    open =
                        self.region_header(the_loop, quote!(zip(#region.chunks_exact_mut(#count))))
                }
            }
        }
        quote! {
            #slots
            #before
            #views
            #reserve
            #open {
                #chunk
                #first
                #hints
                #body
                #pushes
                #reversed_here
                #write_backs
                #last
            }
        }
    }

    /// The values `the_loop` carries: a slot for each (`let mut` where the body changes it),
    /// and the statements writing each changed one back at the end of an iteration.
    fn carried_slots(&self, the_loop: &Loop) -> (TokenStream, TokenStream) {
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
        (slots, write_backs)
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

    /// The loop backwards; each iteration first pops what its forward iteration recorded.
    pub(super) fn reverse_loop(&self, id: LoopId, body: &[Rev]) -> TokenStream {
        let Some(the_loop) = self.facts.loops[id] else {
            return TokenStream::new();
        };
        let records = &self.adjoint.plan.records[id];
        let region = self.region(the_loop);
        let (before, pops, after) = match &region {
            Some((tape, len, _)) => {
                let (region, at) = (&self.tapes.region, &self.tapes.at);
                let reads = records.iter().enumerate().map(|(k, v)| {
                    let (name, k) = (
                        self.names.var(*v),
                        proc_macro2::Literal::usize_unsuffixed(k),
                    );
                    quote!(let #name = #at[#k];)
                });
                (
                    quote!(let #region = #tape.last(#len);),
                    quote!(#(#reads)*),
                    quote!(#tape.discard(#len);),
                )
            }
            None => {
                let pops = records.iter().rev().map(|v| {
                    let (tape, name) = (self.tape_of(*v), self.names.var(*v));
                    quote!(let #name = #tape.pop();)
                });
                (TokenStream::new(), quote!(#(#pops)*), TokenStream::new())
            }
        };
        let open = match &region {
            Some((_, _, count)) => {
                let region = &self.tapes.region;
                self.region_header(the_loop, quote!(rev().zip(#region.rchunks_exact(#count))))
            }
            None => self.header(the_loop, true).reverse,
        };
        // The forward iteration read these entries: the hints cannot panic here.
        let hints = self.bounds_hints(&the_loop.body);
        let opened = self.open_reverse_views(the_loop, body);
        let body = self.reverse_block(body, Some(BlockId::Body(id)));
        let views = self.close_views(opened);
        quote! {
            #before
            #views
            #open {
                #pops
                #hints
                #body
            }
            #after
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

/// `tape`'s count in `per_tape`, added at zero if it has none yet.
fn count_of<'t, 'i>(
    per_tape: &'t mut Vec<(&'i proc_macro2::Ident, Count)>,
    tape: &'i proc_macro2::Ident,
) -> &'t mut Count {
    let at = match per_tape.iter().position(|(t, _)| *t == tape) {
        Some(at) => at,
        None => {
            per_tape.push((tape, Count::Own(0)));
            per_tape.len() - 1
        }
    };
    &mut per_tape[at].1
}

/// How many values one iteration records on a tape: its own, plus the inner loops' terms.
enum Count {
    Own(usize),
    Sum(usize, Vec<TokenStream>),
}

impl Count {
    fn add_own(&mut self) {
        match self {
            Count::Own(own) | Count::Sum(own, _) => *own += 1,
        }
    }

    fn add(&mut self, term: TokenStream) {
        match self {
            Count::Own(own) => *self = Count::Sum(*own, vec![term]),
            Count::Sum(_, terms) => terms.push(term),
        }
    }
}

impl ToTokens for Count {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(match self {
            Count::Own(own) => proc_macro2::Literal::usize_unsuffixed(*own).into_token_stream(),
            Count::Sum(0, terms) if terms.len() == 1 => terms[0].clone(),
            Count::Sum(0, terms) => quote!((#(#terms)+*)),
            Count::Sum(own, terms) => {
                let own = proc_macro2::Literal::usize_unsuffixed(*own);
                quote!((#own #(+ #terms)*))
            }
        });
    }
}

/// The variables that may change from one iteration of `the_loop` to the next: its index, its
/// slots, and everything its body defines, however deep.
pub(super) fn defined_in(the_loop: &Loop) -> HashSet<VarId> {
    let mut vars = HashSet::new();
    let of_loop = |the_loop: &Loop, vars: &mut HashSet<VarId>| {
        if let LoopKind::Range { index, .. } = &the_loop.kind {
            vars.extend(*index);
        }
        vars.extend(the_loop.carried.iter().map(|c| c.slot));
        vars.extend(the_loop.exit);
        vars.extend(the_loop.count);
    };
    of_loop(the_loop, &mut vars);
    crate::ir::walk(&the_loop.body, &mut |stmt| match stmt {
        Stmt::Assign { dst, .. }
        | Stmt::IntLet { dst, .. }
        | Stmt::BoolLet { dst, .. }
        | Stmt::Array { dst, .. } => {
            vars.insert(*dst);
        }
        Stmt::If(branch) => vars.extend(branch.joins.iter().map(|j| j.dst)),
        Stmt::Loop(inner) => of_loop(inner, &mut vars),
        Stmt::Store { .. } | Stmt::StoreAdd { .. } | Stmt::Assert(_) => {}
    });
    vars
}

/// Whether `expr` has the same value in every iteration of a loop that may change `changing`:
/// literals, constants, lengths, and integers from outside the loop, combined by arithmetic.
/// Anything else (data, a float's conversion) counts as changing.
pub(super) fn invariant(expr: &IntExpr, changing: &HashSet<VarId>) -> bool {
    match expr {
        IntExpr::Lit { .. } | IntExpr::Extern(_) => true,
        IntExpr::Var(v) | IntExpr::Len(v) => !changing.contains(v),
        IntExpr::Binary(_, a, b) | IntExpr::Min(a, b) => {
            invariant(a, changing) && invariant(b, changing)
        }
        IntExpr::Neg(a) | IntExpr::Cast(a, _) => invariant(a, changing),
        _ => false,
    }
}
