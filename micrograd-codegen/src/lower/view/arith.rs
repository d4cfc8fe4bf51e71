//! The integer arithmetic of views' offsets and lengths, folded where the operands are
//! literals (a row of a literal length, an entry of a literal row) so the printed index is the
//! one a person would write.

use crate::ir::{IntExpr, IntOp};

/// `a * b`, folded where both are literals or one is 1.
pub(in crate::lower) fn mul(a: IntExpr, b: IntExpr) -> IntExpr {
    match (a, b) {
        // Not folded where it overflows (a mutated length): rustc reports the product.
        (IntExpr::Lit { value: a, suffix }, IntExpr::Lit { value: b, .. })
            if a.checked_mul(b).is_some() =>
        {
            IntExpr::Lit {
                value: a * b,
                suffix,
            }
        }
        (IntExpr::Lit { value: 0, suffix }, _) | (_, IntExpr::Lit { value: 0, suffix }) => {
            IntExpr::Lit { value: 0, suffix }
        }
        (IntExpr::Lit { value: 1, .. }, b) => b,
        (a, IntExpr::Lit { value: 1, .. }) => a,
        (a, b) => IntExpr::Binary(IntOp::Mul, Box::new(a), Box::new(b)),
    }
}

/// `a / b`, folded where both are literals or `b` is 1.
pub(super) fn div(a: IntExpr, b: IntExpr) -> IntExpr {
    match (a, b) {
        (IntExpr::Lit { value: a, suffix }, IntExpr::Lit { value: b, .. }) if b != 0 => {
            IntExpr::Lit {
                value: a / b,
                suffix,
            }
        }
        (a, IntExpr::Lit { value: 1, .. }) => a,
        (a, b) => IntExpr::Binary(IntOp::Div, Box::new(a), Box::new(b)),
    }
}

/// `a + b` of two literals, folded: the entry of a literal row of rows (`m[1][1]`, `m[3]`).
pub(in crate::lower) fn folded(sum: IntExpr) -> IntExpr {
    match sum {
        IntExpr::Binary(IntOp::Add, a, b) => plus(Some(*a), *b),
        other => other,
    }
}

/// `a + b`, folded where both are literals or one is missing or 0.
pub(super) fn plus(a: Option<IntExpr>, b: IntExpr) -> IntExpr {
    match (a, b) {
        (Some(a @ IntExpr::Entry(..)), b) => add(a, b),
        (None | Some(IntExpr::Lit { value: 0, .. }), b) => b,
        (Some(IntExpr::Lit { value: a, suffix }), IntExpr::Lit { value: b, .. }) => IntExpr::Lit {
            value: a + b,
            suffix,
        },
        (Some(a), b) => add(a, b),
    }
}

pub(super) fn add(a: IntExpr, b: IntExpr) -> IntExpr {
    match (a, b) {
        // Entry `(i, c)` plus `b` is `(i, c + b)`, the same row.
        (IntExpr::Entry(i, c), b) => IntExpr::Entry(i, Box::new(plus(Some(*c), b))),
        (a, b) => add_flat(a, b),
    }
}

fn add_flat(a: IntExpr, b: IntExpr) -> IntExpr {
    match b {
        IntExpr::Lit { value: 0, .. } => a,
        b => IntExpr::Binary(IntOp::Add, Box::new(a), Box::new(b)),
    }
}
