//! The elements of an iterator chain (`iter.rs`): how many there are, and element `i`, read
//! from its slices, data or ranges where the loop body needs it.
//!
//! Before: `w.iter().zip(x).rev()`, element `i`
//! After: `(w[n - 1 - i], x[n - 1 - i])` with `n = min(w.len(), x.len())`

use super::{Chain, bin, int, min};
use crate::ir::{IntExpr, IntOp, Op};
use crate::lower::expr::Value;
use crate::lower::{Lowerer, View};

impl Chain<'_> {
    /// The elements of `view`: its entries, or its rows where it holds rows (the chunks of
    /// `N` entries of its flat storage).
    pub(super) fn of(view: View) -> Self {
        match view.row.clone() {
            Some(crate::lower::view::Row::Own) => Chain::Rows(view),
            Some(crate::lower::view::Row::Len(size)) => Chain::Chunks {
                of: View { row: None, ..view },
                size,
                exact: true,
            },
            None => Chain::Slice(view),
        }
    }

    /// The number of elements.
    pub(in crate::lower) fn count(&self) -> IntExpr {
        match self {
            Chain::Slice(view) => view.len(),
            Chain::Rows(view) => view.count(),
            Chain::Data(place, _) => crate::lower::data::len(place.clone()),
            Chain::Ints(ints) => int(ints.len() as u128),
            // An empty range when `hi < lo`, without an integer underflow.
            Chain::Range(lo, hi) => bin(IntOp::Sub, hi.clone(), min(lo.clone(), hi.clone())),
            Chain::Chunks {
                of,
                size,
                exact: true,
            } => bin(IntOp::Div, of.len(), size.clone()),
            Chain::Chunks {
                of,
                size,
                exact: false,
            } => {
                let up = bin(IntOp::Sub, bin(IntOp::Add, of.len(), size.clone()), int(1));
                bin(IntOp::Div, up, size.clone())
            }
            Chain::Windows { of, size } => {
                let past = bin(IntOp::Add, of.len(), int(1));
                bin(IntOp::Sub, past.clone(), min(size.clone(), past))
            }
            Chain::Enumerate(inner) | Chain::Rev(inner) | Chain::Map(inner, _) => inner.count(),
            Chain::Zip(a, b) => min(a.count(), b.count()),
            Chain::Skip(inner, k) => {
                let n = inner.count();
                bin(IntOp::Sub, n.clone(), min(k.clone(), n))
            }
            Chain::Take(inner, k) => min(k.clone(), inner.count()),
            // ceil(n / k) without overflow: (n - 1) / k + 1, or 0 for n = 0. A `k` of 0
            // panics (a division by zero), as `step_by(0)` does.
            Chain::StepBy(inner, k) => {
                let n = inner.count();
                let some = min(n.clone(), int(1));
                let rest = bin(IntOp::Sub, n, some.clone());
                bin(IntOp::Add, bin(IntOp::Div, rest, k.clone()), some)
            }
        }
    }
}

impl Lowerer<'_> {
    /// The element `i` of `chain`, its loads emitted into the loop body.
    pub(in crate::lower) fn element(
        &mut self,
        chain: &Chain,
        i: IntExpr,
        span: proc_macro2::Span,
    ) -> Value {
        match chain {
            Chain::Slice(view) => Value::F64(self.temp(Op::Load(view.base, view.at(i)), span)),
            Chain::Data(place, ty) => {
                let mut place = place.clone();
                place.steps.push(crate::ir::Step::Index(i));
                let elem = ty
                    .elem()
                    .cloned()
                    .unwrap_or(crate::types::Type::Tuple(Vec::new()));
                self.data(place, &elem, span)
            }
            Chain::Ints(ints) => Value::Int(IntExpr::Pick(ints.clone(), Box::new(i))),
            Chain::Range(lo, _) => Value::Int(match lo {
                IntExpr::Lit { value: 0, .. } => i,
                lo => bin(IntOp::Add, lo.clone(), i),
            }),
            Chain::Chunks { of, size, exact } => {
                let lo = bin(IntOp::Mul, i, size.clone());
                let hi = bin(IntOp::Add, lo.clone(), size.clone());
                let hi = if *exact { hi } else { min(hi, of.len()) };
                Value::Seq(of.sub(Some(lo), Some(hi)))
            }
            Chain::Rows(view) => Value::Seq(view.row_at(i)),
            Chain::Windows { of, size } => {
                let hi = bin(IntOp::Add, i.clone(), size.clone());
                Value::Seq(of.sub(Some(i), Some(hi)))
            }
            Chain::Enumerate(inner) => {
                let element = self.element(inner, i.clone(), span);
                Value::Tuple(vec![Value::Int(i), element])
            }
            Chain::Zip(a, b) => {
                let first = self.element(a, i.clone(), span);
                Value::Tuple(vec![first, self.element(b, i, span)])
            }
            Chain::Rev(inner) => {
                let last = bin(IntOp::Sub, inner.count(), int(1));
                self.element(inner, bin(IntOp::Sub, last, i), span)
            }
            Chain::Map(inner, step) => {
                let element = self.element(inner, i, span);
                self.inline(step, vec![element])
            }
            Chain::Skip(inner, k) => self.element(inner, bin(IntOp::Add, i, k.clone()), span),
            Chain::Take(inner, _) => self.element(inner, i, span),
            Chain::StepBy(inner, k) => self.element(inner, bin(IntOp::Mul, i, k.clone()), span),
        }
    }
}
