//! Where a view starts: the offset of a read from the loop's index ([`offset`]), the entries
//! the view covers ([`view_range`]) and the index within it ([`index_in_view`]).

use super::super::loops::invariant;
use crate::ir::{IntExpr, IntOp, VarId};
use std::collections::HashSet;

/// Where a view starts relative to the loop's index `i`: `c + i`, or `i - c` of literals.
pub(super) enum Offset<'a> {
    Add(&'a IntExpr),
    Sub(u128),
    /// `i` itself.
    Whole,
    /// `c + index_in(i, len)`, with `c` and `len` the same in every iteration: `v[i]` of a
    /// view `let v = &w[c..c + len];` the function took.
    Checked(&'a IntExpr, &'a IntExpr),
}

/// `c + i`, `i + c` with `c` the same in every iteration, `i - c` of a literal `c`, or
/// `c + index_in(i, len)` with `c` and `len` the same in every iteration.
pub(super) fn offset<'a>(
    at: &'a IntExpr,
    index: VarId,
    changing: &HashSet<VarId>,
) -> Option<Offset<'a>> {
    let is_index = |e: &IntExpr| *e == IntExpr::Var(index);
    match at {
        IntExpr::Binary(IntOp::Add, c, checked) if invariant(c, changing) => match &**checked {
            IntExpr::Checked(i, len) if is_index(i) && invariant(len, changing) => {
                Some(Offset::Checked(c, len))
            }
            i if is_index(i) => Some(Offset::Add(c)),
            _ => None,
        },
        IntExpr::Binary(IntOp::Add, c, i) | IntExpr::Binary(IntOp::Add, i, c)
            if is_index(i) && invariant(c, changing) =>
        {
            Some(Offset::Add(c))
        }
        IntExpr::Binary(IntOp::Sub, i, c) if is_index(i) => match **c {
            IntExpr::Lit { value, .. } => Some(Offset::Sub(value)),
            _ => None,
        },
        _ => None,
    }
}

fn add(c: &IntExpr, at: &IntExpr) -> IntExpr {
    match at {
        IntExpr::Lit { value: 0, .. } => c.clone(),
        at => IntExpr::Binary(IntOp::Add, Box::new(c.clone()), Box::new(at.clone())),
    }
}

fn lit(value: u128) -> IntExpr {
    IntExpr::Lit {
        value,
        suffix: String::new(),
    }
}

/// The entries a view covers in a loop over `start..end` reading the entry `offset` from its
/// index: `lo..hi`, and `from`, the index at which the view starts. `None` where the range would
/// start below zero (an index less a constant, from a start not known to be that large).
pub(super) fn view_range(
    offset: Offset,
    start: &IntExpr,
    end: &IntExpr,
) -> Option<(IntExpr, IntExpr, IntExpr)> {
    Some(match offset {
        Offset::Add(c) => (add(c, start), add(c, end), start.clone()),
        Offset::Whole | Offset::Checked(..) => (start.clone(), end.clone(), start.clone()),
        Offset::Sub(c) => match start {
            IntExpr::Lit { value, suffix } if *value >= c => (
                IntExpr::Lit {
                    value: value - c,
                    suffix: suffix.clone(),
                },
                IntExpr::Binary(IntOp::Sub, Box::new(end.clone()), Box::new(lit(c))),
                start.clone(),
            ),
            _ => return None,
        },
    })
}

/// `(c, c + len)` of a read of the function's view at `c + index_in(i, len)`: the view of
/// `w[c..c + len]` the loop's view is taken within, so that it checks the loop's range against
/// `len` as `f` checks each `i`.
pub(super) fn within(offset: &Offset) -> Option<(IntExpr, IntExpr)> {
    match offset {
        Offset::Checked(c, len) => Some(((*c).clone(), add(c, len))),
        _ => None,
    }
}

/// The loop's `index` within a view starting at `from`: `index - from`.
pub(super) fn index_in_view(index: VarId, from: &IntExpr) -> IntExpr {
    match from {
        IntExpr::Lit { value: 0, .. } => IntExpr::Var(index),
        from => IntExpr::Binary(
            IntOp::Sub,
            Box::new(IntExpr::Var(index)),
            Box::new(from.clone()),
        ),
    }
}
