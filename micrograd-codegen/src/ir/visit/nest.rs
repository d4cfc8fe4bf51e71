//! What a visitor is told beside a node: where a block sits ([`Nest`]) and how a node uses a
//! variable it names ([`Access`]).

use crate::ir::{BranchId, LoopId};

/// Where a block sits: what runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nest {
    /// The function's body, or a block a pass walks on its own.
    Top,
    /// The branch taken when an `if`'s condition holds.
    Then(BranchId),
    /// The branch taken otherwise.
    Else(BranchId),
    /// A loop's body.
    Body(LoopId),
    /// The head of a `while`: the statements its condition reads, each iteration.
    Head(LoopId),
    /// The statements of the right operand of `&&` / `||`.
    Operand,
}

impl Nest {
    /// Whether only the forward sweep runs the block (a condition has no derivative).
    pub fn is_forward_only(self) -> bool {
        matches!(self, Nest::Head(_) | Nest::Operand)
    }
}

/// How a node uses a variable it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Binds it: a statement's `dst`, a join, a loop's slot, index or trip count, the tangent
    /// a call returns beside its value.
    Def,
    /// Reads it (a scalar, an integer, a boolean, an array's entries or its length, data).
    Read,
    /// Writes one of its entries (`w[i] = ..`, `w[i] += ..`).
    Store,
    /// Lends it as `&mut` to a call, which reads and writes it.
    Lent,
}
