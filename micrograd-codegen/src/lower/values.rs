//! Values that exit: a block, `if` or `match` whose value is bound or assigned while one of
//! its paths returns, breaks or continues. The value goes through a hidden variable that each
//! path that ends normally assigns, so the exits become statements, which the branches of
//! [`fork`](super::fork) lower.
//!
//! Before: `let y = { if x > 1.0 { return x; } x * 2.0 }; f(y)`
//! After: `{ if x > 1.0 { return x; } __mg_value = x * 2.0; } let y = __mg_value; f(y)`

use super::Lowerer;
use std::rc::Rc;
use syn::spanned::Spanned;
use syn::{Expr, Stmt, parse_quote_spanned};

impl Lowerer<'_> {
    /// The statements to lower instead of `stmt` when it binds or assigns a value that exits;
    /// its hidden variable is bound to a placeholder that is never read: every path that reads
    /// the variable assigns it first. The placeholder is not an `f64`, so an assignment gives
    /// the variable the value's own kind (an integer, a tuple, a view) as `let` would.
    pub(super) fn unfold_value(&mut self, stmt: &Stmt) -> Option<Rc<Vec<Stmt>>> {
        if let Stmt::Local(local) = stmt
            && let Some(stmts) = self.unfold_tuple(local)
        {
            return Some(stmts);
        }
        let exits = |expr: &Expr| !self.leaving(expr).is_empty();
        let span = exiting_value(stmt, &exits)?.0.span();
        let hidden = crate::names::free(&mut self.used, crate::names::lowered::VALUE);
        let placeholder = self.new_var(crate::ir::Origin::Temp, crate::ir::Ty::Int, span);
        self.bind(&hidden.to_string(), placeholder);
        let exits = |expr: &Expr| !self.leaving(expr).is_empty();
        Some(Rc::new(unfold(stmt, &hidden, &exits)?))
    }
}

/// Whether an expression has exits that leave it (`Lowerer::leaving`, the desugaring pass's
/// facts where the node has an id).
type Exits<'a> = dyn Fn(&Expr) -> bool + 'a;

/// The value of `let p = value;`, `x = value;` or `x op= value;` when it is a block, `if` or
/// `match` that exits, and the statement with the value taken out.
fn exiting_value<'s>(stmt: &'s Stmt, exits: &Exits) -> Option<(&'s Expr, Stmt)> {
    let value = match stmt {
        Stmt::Local(local) if local.init.as_ref()?.diverge.is_none() => &*local.init.as_ref()?.expr,
        Stmt::Expr(Expr::Assign(assign), _) => &*assign.right,
        Stmt::Expr(Expr::Binary(binary), _) if super::stmt::is_compound(&binary.op) => {
            &*binary.right
        }
        _ => return None,
    };
    let unfolds = match value {
        Expr::Block(block) => block.label.is_none(),
        Expr::If(branch) => branch.else_branch.is_some(),
        Expr::Match(_) => true,
        _ => false,
    };
    (unfolds && exits(value)).then(|| (value, stmt.clone()))
}

/// `stmt` as `{ .. hidden = tail; }` followed by the binding or assignment of `hidden`.
fn unfold(stmt: &Stmt, hidden: &syn::Ident, exits: &Exits) -> Option<Vec<Stmt>> {
    let (value, mut finish) = exiting_value(stmt, exits)?;
    let read: Expr = parse_quote_spanned!(value.span()=> #hidden);
    match &mut finish {
        Stmt::Local(local) => *local.init.as_mut()?.expr = read,
        Stmt::Expr(Expr::Assign(assign), _) => *assign.right = read,
        Stmt::Expr(Expr::Binary(binary), _) => *binary.right = read,
        _ => return None,
    }
    let body = assign_tails(value, hidden, exits);
    Some(vec![Stmt::Expr(body, Some(Default::default())), finish])
}

/// `expr` with each value it ends in assigned to `hidden`, through its blocks, `if`s and
/// `match`es that exit; exits stay as they are.
fn assign_tails(expr: &Expr, hidden: &syn::Ident, leaves: &Exits) -> Expr {
    let exits = leaves(expr);
    match expr {
        Expr::Return(_) | Expr::Break(_) | Expr::Continue(_) => expr.clone(),
        Expr::Block(block) if exits && block.label.is_none() => {
            let mut block = block.clone();
            assign_block_tail(&mut block.block, hidden, leaves);
            Expr::Block(block)
        }
        Expr::If(branch) if exits && branch.else_branch.is_some() => {
            let mut branch = branch.clone();
            assign_block_tail(&mut branch.then_branch, hidden, leaves);
            if let Some((_, otherwise)) = &mut branch.else_branch {
                **otherwise = assign_tails(otherwise, hidden, leaves);
            }
            Expr::If(branch)
        }
        Expr::Match(matching) if exits => {
            let mut matching = matching.clone();
            for arm in &mut matching.arms {
                *arm.body = assign_tails(&arm.body, hidden, leaves);
            }
            Expr::Match(matching)
        }
        // A value that does not exit, or exits from inside an expression (`x * { return y }`),
        // which lowering reports.
        _ => parse_quote_spanned!(expr.span()=> { #hidden = #expr; }),
    }
}

/// The block with its tail, if it has one, assigned to `hidden`.
fn assign_block_tail(block: &mut syn::Block, hidden: &syn::Ident, leaves: &Exits) {
    if let Some(Stmt::Expr(tail, semi @ None)) = block.stmts.last_mut() {
        *tail = assign_tails(tail, hidden, leaves);
        *semi = Some(Default::default());
    }
}
