//! The table of what the syntax of each loop, `if`, `match`, closure and block of the
//! desugared body says ([`Facts`], by the node's id, [`Nodes`]), and the lowering's readers
//! of it: the pass's facts where the node has an id, read now from the syntax of a node the
//! lowering built otherwise (`desugar.rs`).

use super::super::Lowerer;
use super::super::scan::{self, Escape};
use proc_macro2::Span;
use std::borrow::Cow;
use std::collections::BTreeSet;
use syn::Expr;

/// What the lowering must do for a `for` the pass rewrote, beyond lowering its range.
#[derive(Clone)]
pub(crate) enum Loop {
    /// The sequences to bind to their names before the loop, for the loop only.
    Hoisted(Vec<(syn::Ident, Expr)>),
    /// The loop is refused: the span and the message.
    Refused(Span, &'static str),
}

/// What the syntax of one loop, `if`, `match` or block says, read once on the desugared body.
#[derive(Clone, Default)]
pub(crate) struct Facts {
    /// A rewritten `for`'s hoisted sequences or refusal.
    pub rewrite: Option<Loop>,
    /// The exits that leave the node for an enclosing loop or the function
    /// ([`scan::escapes_of`]): those of a loop to itself are not.
    pub leaving: Vec<Escape>,
    /// Of a loop: the exits of its body ([`scan::escapes`]), its own `break`s among them.
    pub exits: Vec<Escape>,
    /// Of a loop: the names its condition and body assign without declaring them
    /// ([`scan::assigned_outer`]), which it carries from one iteration to the next; of a
    /// closure, those its body assigns, which live outside it.
    pub carried: BTreeSet<String>,
}

/// The facts of a desugared body's nodes, by id.
#[derive(Default)]
pub(crate) struct Nodes(pub(super) Vec<Facts>);

impl Nodes {
    /// What the pass recorded for the node whose attributes are `attrs`, if it gave it an id.
    pub(crate) fn of(&self, attrs: &[syn::Attribute]) -> Option<&Facts> {
        let attr = attrs
            .iter()
            .find(|a| a.path().is_ident(crate::names::lowered::NODE_ID))?;
        let id: syn::LitInt = attr.parse_args().ok()?;
        self.0.get(id.base10_parse::<usize>().ok()?)
    }

    /// The facts of `expr`, if it is a node the pass gave an id.
    pub(crate) fn of_expr(&self, expr: &Expr) -> Option<&Facts> {
        self.of(attrs(expr)?)
    }
}

/// The attributes of a node that can carry an id.
pub(super) fn attrs(expr: &Expr) -> Option<&[syn::Attribute]> {
    match expr {
        Expr::ForLoop(e) => Some(&e.attrs),
        Expr::While(e) => Some(&e.attrs),
        Expr::Loop(e) => Some(&e.attrs),
        Expr::If(e) => Some(&e.attrs),
        Expr::Match(e) => Some(&e.attrs),
        Expr::Block(e) => Some(&e.attrs),
        Expr::Closure(e) => Some(&e.attrs),
        _ => None,
    }
}

pub(super) fn attrs_mut(expr: &mut Expr) -> Option<&mut Vec<syn::Attribute>> {
    match expr {
        Expr::ForLoop(e) => Some(&mut e.attrs),
        Expr::While(e) => Some(&mut e.attrs),
        Expr::Loop(e) => Some(&mut e.attrs),
        Expr::If(e) => Some(&mut e.attrs),
        Expr::Match(e) => Some(&mut e.attrs),
        Expr::Block(e) => Some(&mut e.attrs),
        Expr::Closure(e) => Some(&mut e.attrs),
        _ => None,
    }
}

/// The facts of `expr` read from its syntax: for a node the pass did not see.
pub(super) fn facts(expr: &Expr) -> Facts {
    let (exits, carried) = match expr {
        Expr::ForLoop(l) => (
            scan::escapes(&l.body.stmts),
            scan::assigned_outer(&l.body.stmts),
        ),
        // The condition runs before the body, so it is scanned first: a `let` in the body
        // that shadows a name the condition assigns must not hide that assignment.
        Expr::While(l) => {
            let mut scanned = vec![syn::Stmt::Expr((*l.cond).clone(), None)];
            scanned.extend(l.body.stmts.iter().cloned());
            (scan::escapes(&l.body.stmts), scan::assigned_outer(&scanned))
        }
        Expr::Loop(l) => (
            scan::escapes(&l.body.stmts),
            scan::assigned_outer(&l.body.stmts),
        ),
        Expr::Closure(closure) => (Vec::new(), assigned_by(closure)),
        _ => Default::default(),
    };
    Facts {
        rewrite: None,
        leaving: scan::escapes_of(expr),
        exits,
        carried,
    }
}

/// The names `closure`'s body assigns without declaring them, which live outside it.
fn assigned_by(closure: &syn::ExprClosure) -> BTreeSet<String> {
    let body = syn::Stmt::Expr((*closure.body).clone(), None);
    scan::assigned_outer(std::slice::from_ref(&body))
}

impl Lowerer<'_> {
    /// The facts of `expr`: the pass's, or read now from syntax the lowering built.
    pub(in crate::lower) fn facts(&self, expr: &Expr) -> Cow<'_, Facts> {
        match self.desugared.of_expr(expr) {
            Some(facts) => Cow::Borrowed(facts),
            None => Cow::Owned(facts(expr)),
        }
    }

    /// The facts of a loop with attributes `attrs`: the pass's, or read now from
    /// `the_loop`, syntax the lowering built.
    pub(in crate::lower) fn loop_facts(
        &self,
        attrs: &[syn::Attribute],
        the_loop: impl FnOnce() -> Expr,
    ) -> Facts {
        match self.desugared.of(attrs) {
            Some(facts) => facts.clone(),
            None => facts(&the_loop()),
        }
    }

    /// The exits that leave `expr` for an enclosing loop or the function.
    pub(in crate::lower) fn leaving(&self, expr: &Expr) -> Cow<'_, [Escape]> {
        match self.facts(expr) {
            Cow::Borrowed(facts) => Cow::Borrowed(&facts.leaving),
            Cow::Owned(facts) => Cow::Owned(facts.leaving),
        }
    }

    /// The names `closure`'s body assigns that live outside it: the pass's, or read now from
    /// a closure the lowering built.
    pub(in crate::lower) fn assigned_by(&self, closure: &syn::ExprClosure) -> BTreeSet<String> {
        match self.desugared.of(&closure.attrs) {
            Some(facts) => facts.carried.clone(),
            None => assigned_by(closure),
        }
    }

    /// Whether `expr` contains a `return` outside closures.
    pub(in crate::lower) fn returns(&self, expr: &Expr) -> bool {
        self.leaving(expr).contains(&Escape::Return)
    }
}
