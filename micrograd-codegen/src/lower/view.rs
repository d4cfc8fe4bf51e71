//! Slice views: local names for a slice parameter, a local array, or a window of either.
//!
//! A view is never printed. Reading it reads its base, so gradients flow into the base's
//! shadow with no new IR and no copy.
//!
//! Before: `let x = &xs[2 * k..2 * k + 2]; let s = x[0] * x[1];`
//! After: `let t0 = xs[2 * k]; let t1 = xs[2 * k + 1]; let s = t0 * t1;`

use super::Lowerer;
use super::expr::Value;
use crate::ir::{Arg, IntExpr, IntOp, Op, Stmt, Ty, VarId};
use syn::Expr;
use syn::spanned::Spanned;

mod arith;
use arith::{add, div, plus};
pub(super) use arith::{folded, mul};

/// Entries `lo..hi` of `base` (a slice parameter or a local array); a missing bound is the
/// base's own.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// The slice parameter or local array that holds the entries.
    pub base: VarId,
    /// The first entry, in the base's indices.
    pub lo: Option<IntExpr>,
    /// One past the last entry, in the base's indices.
    pub hi: Option<IntExpr>,
    /// The length of a row where the view is a sequence of rows (`l` of
    /// `let mut l = [[0.0; N]; M];`, or a `&[[f64; N]]` parameter): the entries are the rows'
    /// floats one after the other (row-major), so `l[i]` is the view of entries
    /// `i * N..(i + 1) * N` and `l[i][j]` the entry `i * N + j`. Rows of their own lengths
    /// (`&[Vec<f64>]`, [`Row::Own`]) are read in place: `w[i]` is the view of entries
    /// `(i, 0)..(i, w[i].len())` and `w[i][j]` the entry `(i, j)` ([`IntExpr::Entry`]).
    pub row: Option<Row>,
}

/// How a sequence of rows holds them.
#[derive(Clone, Debug, PartialEq)]
pub enum Row {
    /// Rows of one length, held flat in row-major order.
    Len(IntExpr),
    /// Rows of their own lengths (`&[Vec<f64>]`), read in place by row and column.
    Own,
}

impl Row {
    /// The length of a row where the rows have one.
    pub fn len(&self) -> Option<&IntExpr> {
        match self {
            Row::Len(len) => Some(len),
            Row::Own => None,
        }
    }
}

impl View {
    /// All of `base`.
    pub fn whole(base: VarId) -> View {
        View {
            base,
            lo: None,
            hi: None,
            row: None,
        }
    }

    /// All of `base`, a sequence of rows of `row` floats each if `row` is set.
    pub fn rows_of(base: VarId, row: Option<Row>) -> View {
        View {
            row,
            ..View::whole(base)
        }
    }

    /// The number of elements: rows of a sequence of rows, else entries.
    pub fn count(&self) -> IntExpr {
        match &self.row {
            Some(Row::Len(row)) => div(self.len(), row.clone()),
            Some(Row::Own) | None => self.len(),
        }
    }

    /// Row `i` of a sequence of rows: the view of its entries. Indexing it checks its index
    /// against the row's length, and the base checks the entry, so a row past the end panics
    /// where `f`'s `l[i]` does (except in rows of no entries, where nothing is read).
    pub fn row_at(&self, i: IntExpr) -> View {
        if self.row == Some(Row::Own) {
            // `w[i]` of `&[Vec<f64>]`: its entries `(i, 0)..(i, w[i].len())`.
            let len = IntExpr::RowLen(self.base, Box::new(i.clone()));
            let zero = IntExpr::Lit {
                value: 0,
                suffix: String::new(),
            };
            return View {
                base: self.base,
                lo: Some(IntExpr::Entry(Box::new(i.clone()), Box::new(zero))),
                hi: Some(IntExpr::Entry(Box::new(i), Box::new(len))),
                row: None,
            };
        }
        let row = self
            .row
            .as_ref()
            .and_then(Row::len)
            .cloned()
            .unwrap_or(IntExpr::Lit {
                value: 1,
                suffix: String::new(),
            });
        let lo = plus(self.lo.clone(), mul(i, row.clone()));
        let hi = plus(Some(lo.clone()), row);
        View {
            base: self.base,
            // Row 0 of a whole sequence starts where the base does.
            lo: (!matches!(lo, IntExpr::Lit { value: 0, .. })).then_some(lo),
            hi: Some(hi),
            row: None,
        }
    }

    /// The base's index of the view's entry `i`.
    pub fn at(&self, i: IntExpr) -> IntExpr {
        match &self.lo {
            Some(lo) => add(lo.clone(), i),
            None => i,
        }
    }

    /// The number of entries: `c` for `&w[a..a + c]` and `&w[2..2 + c]`, else `hi - lo`.
    pub fn len(&self) -> IntExpr {
        let hi = self.hi.clone().unwrap_or(IntExpr::Len(self.base));
        match (&self.lo, hi) {
            // Entries `(i, a)..(i, b)` of a row of its own length.
            (Some(IntExpr::Entry(_, a)), IntExpr::Entry(_, b)) => match &**a {
                IntExpr::Lit { value: 0, .. } => *b,
                a => IntExpr::Binary(IntOp::Sub, b, Box::new(a.clone())),
            },
            (Some(lo), IntExpr::Binary(IntOp::Add, a, c)) if *a == *lo => *c,
            (Some(IntExpr::Lit { value: lo, .. }), IntExpr::Lit { value: hi, suffix })
                if hi >= *lo =>
            {
                IntExpr::Lit {
                    value: hi - lo,
                    suffix,
                }
            }
            (Some(lo), hi) => IntExpr::Binary(IntOp::Sub, Box::new(hi), Box::new(lo.clone())),
            (None, hi) => hi,
        }
    }

    /// The base's index of entry `i`, checked against the view's own length as indexing the
    /// view checks it (folded away where both are literals and `i` is inside).
    pub fn checked_at(&self, i: IntExpr) -> IntExpr {
        if self.is_whole() {
            return i;
        }
        // Row `r` whole of rows of their own lengths: `w[r][j]` checks `j` itself.
        if let (Some(IntExpr::Entry(r, zero)), Some(IntExpr::Entry(_, len))) = (&self.lo, &self.hi)
            && matches!(**zero, IntExpr::Lit { value: 0, .. })
            && **len == IntExpr::RowLen(self.base, r.clone())
        {
            return self.at(i);
        }
        let len = self.len();
        let inside = match (&i, &len) {
            (IntExpr::Lit { value: i, .. }, IntExpr::Lit { value: n, .. }) => i < n,
            _ => false,
        };
        match inside {
            true => self.at(i),
            false => self.at(IntExpr::Checked(Box::new(i), Box::new(len))),
        }
    }

    /// The view's entries `lo..hi` (its own indices).
    pub fn sub(&self, lo: Option<IntExpr>, hi: Option<IntExpr>) -> View {
        View {
            base: self.base,
            hi: hi.map(|hi| self.at(hi)).or_else(|| self.hi.clone()),
            lo: lo.map(|lo| self.at(lo)).or_else(|| self.lo.clone()),
            row: self.row.clone(),
        }
    }

    /// The view passed to another `#[differentiable]` function, by reference, or `by_value`
    /// (then it is a whole array), `mutable` for `&mut`.
    pub fn arg(&self, by_value: bool, mutable: bool) -> Arg {
        Arg::Slice {
            array: self.base,
            lo: self.lo.clone(),
            hi: self.hi.clone(),
            by_value,
            mutable,
            rows: None,
            entry: false,
        }
    }

    /// A sequence of rows passed whole and read-only to a call (`g(a)`, `g(&l)`).
    pub fn rows_arg(&self) -> Arg {
        Arg::Slice {
            array: self.base,
            lo: self.lo.clone(),
            hi: self.hi.clone(),
            by_value: false,
            mutable: false,
            rows: self.row.as_ref().and_then(Row::len).cloned(),
            entry: false,
        }
    }

    /// Whether the view is all of its base.
    pub fn is_whole(&self) -> bool {
        self.lo.is_none() && self.hi.is_none()
    }
}

impl Lowerer<'_> {
    /// A new version of `name` standing for `value`, a view (`let x = &xs[a..b];`,
    /// `let r = &w;`) or a tuple (`let t = (a, b);`). Loops bind the chunk or window of an
    /// iteration with it too. Its type is not `f64`, so no loop gives it a slot.
    pub(crate) fn alias_var(&mut self, name: &str, value: Value, span: proc_macro2::Span) -> VarId {
        let origin = self.next_version(name);
        let var = self.new_var(origin, Ty::slice(None, false), span);
        self.aliases.insert(var, value);
        var
    }

    /// `&expr` outside a call's argument list: a view, or the value itself (`&x` of an `f64`
    /// reads like `x`).
    pub(super) fn reference(&mut self, reference: &syn::ExprReference) -> Value {
        if let Some(token) = reference.mutability {
            return self.error(
                token.span,
                "`&mut` is not supported inside `#[differentiable]` functions; write to a local array `h[j] = ..` instead",
            );
        }
        match &*reference.expr {
            Expr::Index(index) if matches!(&*index.index, Expr::Range(_)) => self.sub_slice(index),
            inner => self.expr(inner),
        }
    }

    /// `w[a..b]` of a slice, an array or a view, and of another sub-slice (`&w[a..][..n]`,
    /// the entries `a..a + n`).
    pub(super) fn sub_slice(&mut self, index: &syn::ExprIndex) -> Value {
        let inner = match &*index.expr {
            Expr::Index(inner) if matches!(&*inner.index, Expr::Range(_)) => self.sub_slice(inner),
            base => self.expr(base),
        };
        let view = match inner {
            Value::Seq(view) => view,
            Value::Error => return Value::Error,
            _ => {
                return self.error(
                    index.expr.span(),
                    "sub-slices `&w[a..b]` are taken of slices and arrays",
                );
            }
        };
        let Expr::Range(range) = &*index.index else {
            return self.error(index.index.span(), "write a sub-slice as `&w[a..b]`");
        };
        let bound = |this: &mut Self, end: Option<&Expr>| match end {
            Some(e) => this.int_operand(e).map(Some),
            None => Some(None),
        };
        let lo = bound(self, range.start.as_deref());
        let hi = bound(self, range.end.as_deref());
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Value::Error;
        };
        let hi = match (&range.limits, hi) {
            (syn::RangeLimits::Closed(_), Some(hi)) => Some(add(
                hi,
                IntExpr::Lit {
                    value: 1,
                    suffix: String::new(),
                },
            )),
            (_, hi) => hi,
        };
        // Rows `a..b` of a sequence of rows are its entries `a * N..b * N`.
        let (lo, hi) = match &view.row {
            Some(Row::Own) => {
                return self.error(
                    index.span(),
                    "sub-slices of rows of their own lengths (`&w[a..b]` of `w: &[Vec<f64>]`) are not supported; index the rows `w[i]` in a loop over `a..b` instead",
                );
            }
            Some(Row::Len(row)) => (
                lo.map(|lo| mul(lo, row.clone())),
                hi.map(|hi| mul(hi, row.clone())),
            ),
            None => (lo, hi),
        };
        self.check_range(&view, lo.clone(), hi.clone(), index.span());
        Value::Seq(view.sub(lo, hi))
    }

    /// `let view_len = ops::view_len(lo..hi, len);`: `f` checks the range where it takes the sub-slice,
    /// whether or not the view is read later, and the generated code, which reads the base,
    /// must fail there too (nothing when the range is all of `view` or literally inside it).
    fn check_range(
        &mut self,
        view: &View,
        lo: Option<IntExpr>,
        hi: Option<IntExpr>,
        span: proc_macro2::Span,
    ) {
        let len = view.len();
        // `Some(None)` for an open end, `Some(Some(k))` for a literal `k`.
        let known = |end: &Option<IntExpr>| match end {
            None => Some(None),
            Some(IntExpr::Lit { value, .. }) => Some(Some(*value)),
            Some(_) => None,
        };
        let inside = match (known(&lo), known(&hi), known(&Some(len.clone()))) {
            (Some(lo), Some(hi), Some(Some(n))) => {
                let hi = hi.unwrap_or(n);
                lo.unwrap_or(0) <= hi && hi <= n
            }
            _ => false,
        };
        if (lo.is_none() && hi.is_none()) || inside {
            return;
        }
        // Named, so the check leaves the numbering of temporaries as it was.
        let dst = self.named("view_len", Ty::Int, span);
        let expr = IntExpr::ViewLen {
            lo: lo.map(Box::new),
            hi: hi.map(Box::new),
            len: Box::new(len),
        };
        self.emit(Stmt::IntLet { dst, expr });
    }

    /// `*r`: a reference to an `f64` or to a slice reads like the value.
    pub(super) fn deref(&mut self, value: Value, span: proc_macro2::Span) -> Value {
        match value {
            // `*y` of a `y: &mut f64`: its one entry.
            Value::Seq(View {
                base,
                lo: None,
                hi: None,
                row: None,
            }) if self.scalar_muts.contains(&base) => {
                let zero = IntExpr::Lit {
                    value: 0,
                    suffix: String::new(),
                };
                Value::F64(self.temp(Op::Load(base, zero), span))
            }
            Value::F64(_) | Value::Seq(_) | Value::Error => value,
            // Data reads through references: `*y` of `for y in labels` is `y`.
            Value::Int(_) | Value::Bool(_) | Value::Data(..) => value,
            _ => self.error(span, "`*` dereferences a reference to an `f64` or a slice"),
        }
    }
}
