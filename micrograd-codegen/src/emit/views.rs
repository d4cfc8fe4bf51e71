//! Views taken once per loop: a loop over `lo..hi` that reads `w[c + i]` in every iteration,
//! where `c` is the same in every iteration (the start of a view, `&w[c..]`, or of a chunk),
//! reads it through a sub-slice taken before the loop, `let w_view = &w[c + lo..c + hi];`, as
//! `w_view[i - lo]` (`w_view[i]` from 0); the reversed loop does the same, and adds into
//! `d_w[c + i]` through `&mut d_w[c + lo..c + hi]`.
//!
//! An entry of a view the function took, `v[i]` of `let v = &w[c..c + len];`, which the
//! generated code reads as `w[c + index_in(i, len)]` (checking `i` against the view and the
//! sum against `w`), is read the same way through `&w[c..c + len][lo..hi]`: slicing the view
//! checks `hi <= len` once, where `f` checked `i < len` in every iteration.
//!
//! Each read `w[c + i]` checks `c + i` against `w`'s length, which the compiler cannot take
//! out of the loop (the sum may wrap, so `c + i < c + hi` does not follow from `i < hi`); the
//! view's index `i - lo` is below the view's length `hi - lo` by the loop's own bound, so the
//! checks go (kmeans' `cost_grad`, whose inner loop reads `centroids[k * d + i]`: 0.65 of the
//! instructions, measured on a copy of the generated code).
//!
//! A view is taken only for a read (or an add) that the loop's body makes unconditionally, at
//! its top level, in every iteration: then every entry of the view is read by some iteration,
//! and the view panics only where `f` would (before the loop, with a range's message instead
//! of an index's). A loop that runs no iteration takes the empty view `&w[..0]`. The array
//! must not change while the view lives: no statement of the loop stores into it, lends it as
//! `&mut` or binds it, and a shadow is viewed only where the reversed body adds into it at that
//! one index and touches it nowhere else; a loop with an exit, a `..=` range, a trip counter,
//! or a call's pullback in its reversed body takes no view.

mod offset;

use super::Emitter;
use super::loops::defined_in;
use crate::diff::needs::BlockId;
use crate::diff::{Expr, Rev};
use crate::ir::{Arg, IntExpr, Loop, LoopKind, Op, Stmt, VarId};
use offset::{Offset, index_in_view, offset, view_range, within};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::cell::{Cell, RefCell};
use std::collections::HashSet;

/// The views of the loops being printed, innermost last.
#[derive(Default)]
pub(super) struct Views {
    open: RefCell<Vec<View>>,
    /// The names of the open views, so a view inside another's loop never shadows it.
    taken: RefCell<HashSet<String>>,
}

/// One view: `name = &w[lo..hi]` (or of `d_w`), read at `at` where the body reads `w[index]`.
struct View {
    array: VarId,
    shadow: bool,
    index: IntExpr,
    name: Ident,
    at: IntExpr,
    lo: IntExpr,
    hi: IntExpr,
    /// `(c, c + len)` where the body reads `w[c + index_in(i, len)]`, an entry of a view of
    /// `f`'s (`let v = &w[c..c + len];` read at `v[i]`): the view is taken of `&w[c..c + len]`,
    /// so it checks `hi <= len` where `f` checks `i < len` in every iteration.
    within: Option<(IntExpr, IntExpr)>,
    used: Cell<bool>,
    /// A read at the loop's index itself (`w[i]`), whose check the compiler takes out of the
    /// loop already: printed as before, the view only recorded whole ([`Emitter::view_name`]).
    whole: bool,
}

/// The views one loop opened: closing them gives the `let`s of those its body read.
pub(super) struct Opened {
    count: usize,
    start: Option<(IntExpr, IntExpr)>,
}

impl Emitter<'_> {
    /// Opens the views of the forward loop `the_loop`: the arrays its body reads at the top
    /// level at `c + i` and never writes.
    pub(super) fn open_forward_views(&self, the_loop: &Loop) -> Opened {
        let Some((index, changing)) = self.viewable(the_loop) else {
            return Opened::none();
        };
        let written = written_in(&the_loop.body);
        let reads: Vec<(VarId, &IntExpr)> = the_loop
            .body
            .iter()
            .filter_map(|stmt| match stmt {
                Stmt::Assign {
                    op: Op::Load(w, i), ..
                } if !written.contains(w) => Some((*w, i)),
                _ => None,
            })
            .collect();
        self.open_views(the_loop, index, &changing, &reads, &[])
    }

    /// Opens the views of the reversed loop `the_loop` of body `body`: the reads its
    /// recomputed values and top-level statements make at `c + i`, and the shadows it adds into
    /// at `c + i` only.
    pub(super) fn open_reverse_views(&self, the_loop: &Loop, body: &[Rev]) -> Opened {
        let Some((index, changing)) = self.viewable(the_loop) else {
            return Opened::none();
        };
        let mut pullback = false;
        crate::diff::walk(body, &mut |rev| {
            pullback |= matches!(rev, Rev::Pullback { .. });
        });
        if pullback {
            return Opened::none();
        }
        let written = written_in(&the_loop.body);
        let mut reads: Vec<(VarId, &IntExpr)> = Vec::new();
        let recomputed = self.adjoint.plan.recompute.get(&BlockId::Body(the_loop.id));
        for var in recomputed.into_iter().flatten() {
            if let Some(Op::Load(w, i)) = self.facts.cheap.get(var) {
                reads.push((*w, i));
            }
        }
        let mut shadows: Vec<(VarId, &IntExpr)> = Vec::new();
        for rev in body {
            match rev {
                Rev::Let { expr, .. } | Rev::Set(_, expr) | Rev::Add(_, expr) => {
                    loads(expr, &mut reads)
                }
                Rev::AddElem(array, i, expr) => {
                    loads(expr, &mut reads);
                    shadows.push((*array, i));
                }
                _ => {}
            }
        }
        reads.retain(|(w, _)| !written.contains(w));
        shadows
            .retain(|(array, i)| !self.may_be_empty(*array) && adds_only_at(body, *array, i, true));
        self.open_views(the_loop, index, &changing, &reads, &shadows)
    }

    /// The loop's index and what changes from one iteration to the next, when the loop may
    /// take views: a range (not `..=`) with no exit and no trip counter.
    fn viewable(&self, the_loop: &Loop) -> Option<(VarId, HashSet<VarId>)> {
        match &the_loop.kind {
            LoopKind::Range {
                index: Some(index),
                inclusive: false,
                ..
            } if the_loop.exit.is_none() && the_loop.count.is_none() => {
                Some((*index, defined_in(the_loop)))
            }
            _ => None,
        }
    }

    fn open_views(
        &self,
        the_loop: &Loop,
        index: VarId,
        changing: &HashSet<VarId>,
        reads: &[(VarId, &IntExpr)],
        shadows: &[(VarId, &IntExpr)],
    ) -> Opened {
        let LoopKind::Range { start, end, .. } = &the_loop.kind else {
            return Opened::none();
        };
        let candidates = reads
            .iter()
            .map(|(w, i)| (*w, *i, false))
            .chain(shadows.iter().map(|(w, i)| (*w, *i, true)));
        let mut open = self.views.open.borrow_mut();
        let before = open.len();
        for (array, at, shadow) in candidates {
            if open[before..]
                .iter()
                .any(|v| v.array == array && v.shadow == shadow && v.index == *at)
                || (!shadow && self.tangent.maybe_empty.contains(&array))
            {
                continue;
            }
            let whole = !shadow && *at == IntExpr::Var(index);
            let Some(offset) = offset(at, index, changing).or(whole.then_some(Offset::Whole))
            else {
                continue;
            };
            let within = within(&offset);
            let Some((lo, hi, from)) = view_range(offset, start, end) else {
                continue;
            };
            let at_view = index_in_view(index, &from);
            let name = self.fresh_view_name(array, shadow);
            open.push(View {
                array,
                shadow,
                index: at.clone(),
                name,
                at: at_view,
                lo,
                hi,
                within,
                used: Cell::new(false),
                whole,
            });
        }
        Opened {
            count: open.len() - before,
            start: Some((start.clone(), end.clone())),
        }
    }

    /// A name for a view of `array` (of its shadow where `shadow`), none of the function's and
    /// no other view's.
    fn fresh_view_name(&self, array: VarId, shadow: bool) -> Ident {
        let base = match shadow {
            true => self.names.adjoint(array).to_string(),
            false => self.names.var(array).to_string(),
        };
        let mut taken = self.views.taken.borrow_mut();
        let mut name = self.names.local(&format!("{base}_view"));
        while taken.contains(&name.to_string()) {
            name = self.names.local(&format!("{name}_"));
        }
        taken.insert(name.to_string());
        name
    }

    /// Closes the views `opened` opened: the `let`s of those the body read, to print before
    /// the loop.
    pub(super) fn close_views(&self, opened: Opened) -> TokenStream {
        let views = {
            let mut open = self.views.open.borrow_mut();
            let from = open.len() - opened.count;
            open.split_off(from)
        };
        // A later loop may take these names again: these views are read no more.
        let mut taken = self.views.taken.borrow_mut();
        for view in &views {
            taken.remove(&view.name.to_string());
        }
        drop(taken);
        let Some((start, end)) = opened.start else {
            return TokenStream::new();
        };
        // A range of literals runs (or not) whatever the data: no test.
        let runs = match (&start, &end) {
            (IntExpr::Lit { value: a, .. }, IntExpr::Lit { value: b, .. }) => Some(a < b),
            _ => None,
        };
        if runs == Some(false) {
            return TokenStream::new();
        }
        let (start, end) = (self.int(&start), self.int(&end));
        views
            .into_iter()
            .filter(|view| view.used.get())
            .map(|view| {
                let (name, lo, hi) = (&view.name, self.int(&view.lo), self.int(&view.hi));
                let (array, borrow) = match view.shadow {
                    true => (self.names.adjoint(view.array), quote!(&mut)),
                    false => (self.names.var(view.array), quote!(&)),
                };
                let viewed = match &view.within {
                    Some((c, end)) => {
                        let (c, end) = (self.int(c), self.int(end));
                        quote!(#array[#c..#end])
                    }
                    None => quote!(#array),
                };
                match runs {
                    Some(_) => quote!(let #name = #borrow #viewed[#lo..#hi];),
                    None => quote! {
                        let #name = if #start < #end {
                            #borrow #viewed[#lo..#hi]
                        } else {
                            #borrow #array[..0]
                        };
                    },
                }
            })
            .collect()
    }

    /// The name of the open view of `w` read at `index`, marked as read: where the whole view
    /// is what a loop reads.
    pub(super) fn view_name(&self, array: VarId, index: &IntExpr) -> Option<Ident> {
        let open = self.views.open.borrow();
        let view = open
            .iter()
            .rev()
            .find(|v| v.array == array && !v.shadow && v.index == *index)?;
        view.used.set(true);
        Some(view.name.clone())
    }

    /// `w_view[i - lo]` where an open view covers `w[index]` (of the shadow `d_w` when
    /// `shadow`).
    pub(super) fn viewed(
        &self,
        array: VarId,
        index: &IntExpr,
        shadow: bool,
    ) -> Option<TokenStream> {
        let open = self.views.open.borrow();
        let view = open
            .iter()
            .rev()
            .find(|v| v.array == array && v.shadow == shadow && v.index == *index && !v.whole)?;
        view.used.set(true);
        let (name, at) = (&view.name, self.int(&view.at));
        Some(quote!(#name[#at]))
    }
}

impl Opened {
    fn none() -> Opened {
        Opened {
            count: 0,
            start: None,
        }
    }
}

/// The arrays `block` stores into, lends as `&mut` or binds, however deep.
fn written_in(block: &[Stmt]) -> HashSet<VarId> {
    let mut written = HashSet::new();
    crate::ir::walk(block, &mut |stmt| match stmt {
        Stmt::Store { array, .. } | Stmt::StoreAdd { array, .. } => {
            written.insert(*array);
        }
        Stmt::Array { dst, .. } => {
            written.insert(*dst);
        }
        Stmt::Assign { op, .. } => {
            let args = match op {
                Op::Call(_, args) => args.as_slice(),
                Op::Custom(custom) => custom.args.as_slice(),
                _ => &[],
            };
            for arg in args {
                if let Arg::Slice {
                    array,
                    mutable: true,
                    ..
                } = arg
                {
                    written.insert(*array);
                }
            }
        }
        _ => {}
    });
    written
}

/// The reads `expr` makes whenever it is evaluated (not those of a `Select`'s branches).
fn loads<'a>(expr: &'a Expr, reads: &mut Vec<(VarId, &'a IntExpr)>) {
    match expr {
        Expr::Load(w, i) => reads.push((*w, i)),
        Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) | Expr::Div(a, b) => {
            loads(a, reads);
            loads(b, reads);
        }
        Expr::Call2(_, a, b) => {
            loads(a, reads);
            loads(b, reads);
        }
        Expr::Call3(_, a, b, c) => {
            loads(a, reads);
            loads(b, reads);
            loads(c, reads);
        }
        Expr::Neg(a) | Expr::Call1(_, a) | Expr::Powi(a, _) => loads(a, reads),
        _ => {}
    }
}

/// Whether the adjoint of `array` is touched in `body` only by adds at `index`, at its top
/// level (`top`).
fn adds_only_at(body: &[Rev], array: VarId, index: &IntExpr, top: bool) -> bool {
    body.iter().all(|rev| {
        let mut reads_entry = false;
        let mut check = |expr: &Expr| expr.visit_adjoint_arrays(&mut |a| reads_entry |= a == array);
        match rev {
            Rev::AddElem(a, i, expr) => {
                check(expr);
                !reads_entry && (*a != array || (top && i == index))
            }
            Rev::ZeroElem(a, _) | Rev::ZeroArray(a) => *a != array,
            Rev::Let { expr, .. } | Rev::Set(_, expr) | Rev::Add(_, expr) => {
                check(expr);
                !reads_entry
            }
            Rev::Zero(_) => true,
            Rev::Pullback { .. } => false,
            Rev::If { .. } | Rev::Loop { .. } | Rev::Guard { .. } | Rev::Gate { .. } => rev
                .blocks()
                .iter()
                .all(|(_, block)| adds_only_at(block, array, index, false)),
        }
    })
}
