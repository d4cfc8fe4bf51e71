//! What a branch's arms end in, read from its syntax: the tails of a `let`'s `if` or `match`
//! through blocks and arms, a tail that is a name its arm binds, and the arity of a pattern or
//! a literal.

use syn::{Expr, Pat, Stmt};

/// The number of names in `let (a, b)` or `let [a, b]`, through a type annotation.
pub(super) fn arity(pat: &Pat) -> Option<usize> {
    match pat {
        Pat::Type(typed) => arity(&typed.pat),
        Pat::Tuple(tuple) => Some(tuple.elems.len()),
        Pat::Slice(slice) => Some(slice.elems.len()),
        _ => None,
    }
}

/// The length of a tuple or array literal.
pub(super) fn literal_len(expr: &Expr) -> Option<usize> {
    match expr {
        Expr::Tuple(tuple) => Some(tuple.elems.len()),
        Expr::Array(array) => Some(array.elems.len()),
        _ => None,
    }
}

/// The expressions `expr` ends in, through its blocks, `if`s, `else if`s and `match` arms.
pub(super) fn collect_tails<'e>(expr: &'e Expr, tails: &mut Vec<&'e Expr>) {
    match expr {
        Expr::If(branch) => {
            if let Some(tail) = block_tail(&branch.then_branch) {
                collect_tails(tail, tails);
            }
            if let Some((_, otherwise)) = &branch.else_branch {
                collect_tails(otherwise, tails);
            }
        }
        Expr::Match(matching) => {
            for arm in &matching.arms {
                collect_tails(&arm.body, tails);
            }
        }
        Expr::Block(block) if block.label.is_none() => {
            if let Some(tail) = block_tail(&block.block) {
                collect_tails(tail, tails);
            }
        }
        other => tails.push(other),
    }
}

/// The values `expr` ends in, as [`collect_tails`], where an arm's tail that is a name the arm
/// binds (`{ let v = n + 1; v }`) stands for what the arm binds it to: the arm's locals are not
/// lowered yet when the branch's type is decided, so the name would read as one the function
/// does not define (random program 8 of seed 12: `let ev = if n != 3 { return 1.0; } else {
/// let v = loop { break w[1] * 0.5; }; v };`, refused as arms of outside names).
pub(super) fn collect_value_tails<'e>(expr: &'e Expr, tails: &mut Vec<&'e Expr>) {
    let arm = |block: &'e syn::Block, tails: &mut Vec<&'e Expr>| {
        if let Some(tail) = block_tail(block) {
            match bound_in(block, tail) {
                Some(init) => collect_value_tails(init, tails),
                None => collect_value_tails(tail, tails),
            }
        }
    };
    match expr {
        Expr::If(branch) => {
            arm(&branch.then_branch, tails);
            if let Some((_, otherwise)) = &branch.else_branch {
                collect_value_tails(otherwise, tails);
            }
        }
        Expr::Match(matching) => {
            for case in &matching.arms {
                collect_value_tails(&case.body, tails);
            }
        }
        Expr::Block(block) if block.label.is_none() => arm(&block.block, tails),
        other => tails.push(other),
    }
}

/// The value `block` binds its tail `tail` to, when `tail` is a name its last `let` of that
/// name binds (`let v = init;` or `let v: T = init;`, no `else`).
fn bound_in<'e>(block: &'e syn::Block, tail: &Expr) -> Option<&'e Expr> {
    let Expr::Path(path) = tail else {
        return None;
    };
    let name = path.path.get_ident()?;
    block.stmts.iter().rev().find_map(|stmt| {
        let Stmt::Local(local) = stmt else {
            return None;
        };
        let pat = match &local.pat {
            Pat::Type(typed) => &*typed.pat,
            other => other,
        };
        match pat {
            Pat::Ident(bound) if bound.ident == *name && bound.subpat.is_none() => local
                .init
                .as_ref()
                .filter(|init| init.diverge.is_none())
                .map(|init| &*init.expr),
            _ => None,
        }
    })
}

/// A block's tail expression; none when it ends in a statement (an exit, `return x;`).
fn block_tail(block: &syn::Block) -> Option<&Expr> {
    match block.stmts.last() {
        Some(Stmt::Expr(tail, None)) => Some(tail),
        _ => None,
    }
}
