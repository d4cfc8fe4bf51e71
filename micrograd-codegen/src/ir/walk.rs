//! Walks over the statements of a block, those nested in conditions included.

use super::{Arg, Cond, LoopKind, Op, Stmt};

impl Cond {
    /// Whether evaluating the condition runs statements (of a right operand of `&&` / `||`).
    pub fn has_stmts(&self) -> bool {
        let mut any = false;
        self.visit_blocks(&mut |stmts| any |= !stmts.is_empty());
        any
    }

    /// Calls `f` on the statements of every right operand of `&&` / `||` in the condition.
    fn visit_blocks<'a>(&'a self, f: &mut dyn FnMut(&'a [Stmt])) {
        match self {
            Cond::And(a, b) | Cond::Or(a, b) => {
                a.visit_blocks(f);
                f(&b.stmts);
                b.cond.visit_blocks(f);
            }
            Cond::Not(c) => c.visit_blocks(f),
            Cond::F64(..)
            | Cond::Int(..)
            | Cond::Multiple(..)
            | Cond::Var(_)
            | Cond::Lit(_)
            | Cond::Data(_) => {}
        }
    }
}

/// Calls `f` on every statement of `block` and of the blocks nested in it, outermost first,
/// also those that compute the right operands of `&&` / `||` in conditions.
pub fn walk<'a>(block: &'a [Stmt], f: &mut dyn FnMut(&'a Stmt)) {
    for stmt in block {
        f(stmt);
        let mut nested = |stmts: &'a [Stmt]| walk(stmts, f);
        match stmt {
            Stmt::If(branch) => {
                branch.cond.visit_blocks(&mut nested);
                nested(&branch.then);
                nested(&branch.otherwise);
            }
            Stmt::Loop(the_loop) => {
                if let LoopKind::While { head, cond } = &the_loop.kind {
                    nested(head);
                    cond.visit_blocks(&mut nested);
                }
                nested(&the_loop.body)
            }
            Stmt::BoolLet { cond, .. } => cond.visit_blocks(&mut nested),
            Stmt::Assign {
                op: Op::Call(_, args),
                ..
            } => {
                for arg in args {
                    if let Arg::Bool(cond) = arg {
                        cond.visit_blocks(&mut nested);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Calls `f` on each block nested in `block` that only the forward sweep runs: the head of a
/// `while`, and the right operands of `&&` / `||` (a condition has no derivative).
pub fn forward_only<'a>(block: &'a [Stmt], f: &mut dyn FnMut(&'a [Stmt])) {
    walk(block, &mut |stmt| match stmt {
        Stmt::If(branch) => branch.cond.visit_blocks(f),
        Stmt::Loop(the_loop) => {
            if let LoopKind::While { head, cond } = &the_loop.kind {
                f(head);
                cond.visit_blocks(f);
            }
        }
        Stmt::BoolLet { cond, .. } => cond.visit_blocks(f),
        Stmt::Assign {
            op: Op::Call(_, args),
            ..
        } => {
            for arg in args {
                if let Arg::Bool(cond) = arg {
                    cond.visit_blocks(f);
                }
            }
        }
        _ => {}
    });
}
