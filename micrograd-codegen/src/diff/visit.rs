//! The one place that knows how reverse statements nest: every pass walks the sweep through
//! [`Rev::blocks`] / [`Rev::blocks_mut`], so a new nested statement is added here and nowhere
//! else.

use super::Rev;
use super::expr::Expr;
use super::needs::BlockId;

/// The match behind [`Rev::blocks`] and [`Rev::blocks_mut`], written once for both.
macro_rules! nested_blocks {
    ($stmt:expr) => {
        match $stmt {
            Rev::If {
                branch,
                then,
                otherwise,
                ..
            } => vec![
                (Some(BlockId::Branch(*branch, true)), then),
                (Some(BlockId::Branch(*branch, false)), otherwise),
            ],
            Rev::Loop { the_loop, body } => vec![(Some(BlockId::Body(*the_loop)), body)],
            Rev::Guard { body, .. } | Rev::Gate { body, .. } => vec![(None, body)],
            Rev::Let { .. }
            | Rev::Zero(_)
            | Rev::Set(..)
            | Rev::Add(..)
            | Rev::AddElem(..)
            | Rev::ZeroElem(..)
            | Rev::ZeroArray(_)
            | Rev::Pullback { .. } => Vec::new(),
        }
    };
}

impl Rev {
    /// The blocks nested directly in this statement, each with the forward block it mirrors
    /// (`None` for a guard or a gate, which adds no block of its own).
    pub fn blocks(&self) -> Vec<(Option<BlockId>, &Vec<Rev>)> {
        nested_blocks!(self)
    }

    /// [`Rev::blocks`], mutably.
    pub fn blocks_mut(&mut self) -> Vec<(Option<BlockId>, &mut Vec<Rev>)> {
        nested_blocks!(self)
    }

    /// Whether the statement holds other statements.
    pub fn is_nested(&self) -> bool {
        matches!(
            self,
            Rev::If { .. } | Rev::Loop { .. } | Rev::Guard { .. } | Rev::Gate { .. }
        )
    }

    /// The expression the statement evaluates, if any, mutably.
    pub fn expr_mut(&mut self) -> Option<&mut Expr> {
        match self {
            Rev::Let { expr, .. }
            | Rev::Set(_, expr)
            | Rev::Add(_, expr)
            | Rev::AddElem(_, _, expr) => Some(expr),
            Rev::Pullback { seed, .. } => Some(seed),
            _ => None,
        }
    }
}

/// Calls `visit` on every statement of `code`, nested ones included, outermost first.
pub fn walk(code: &[Rev], visit: &mut dyn FnMut(&Rev)) {
    for stmt in code {
        visit(stmt);
        for (_, block) in stmt.blocks() {
            walk(block, visit);
        }
    }
}

/// [`walk`], mutably: `visit` sees a statement before the statements nested in it.
pub fn walk_mut(code: &mut [Rev], visit: &mut dyn FnMut(&mut Rev)) {
    for stmt in code.iter_mut() {
        visit(stmt);
        for (_, block) in stmt.blocks_mut() {
            walk_mut(block, visit);
        }
    }
}

/// Calls `visit` on `code` and on every block nested in it, with the forward block each
/// mirrors (`None` for a guard's). `inner_first` visits nested blocks before their parent.
pub fn each_block_mut(
    code: &mut Vec<Rev>,
    id: Option<BlockId>,
    inner_first: bool,
    visit: &mut dyn FnMut(&mut Vec<Rev>, Option<BlockId>),
) {
    if !inner_first {
        visit(code, id);
    }
    for stmt in code.iter_mut() {
        for (id, block) in stmt.blocks_mut() {
            each_block_mut(block, id, inner_first, visit);
        }
    }
    if inner_first {
        visit(code, id);
    }
}
