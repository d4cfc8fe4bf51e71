//! Syntactic questions asked before lowering a loop or a branch.

use std::collections::BTreeSet;
use syn::visit::Visit;
use syn::{Expr, Pat, Stmt};

/// Names that `stmts` assign (`x = ..`, `x += ..`) without declaring them first: the
/// variables a loop body carries from one iteration to the next.
pub fn assigned_outer(stmts: &[Stmt]) -> BTreeSet<String> {
    let mut scan = Assigned {
        scopes: vec![BTreeSet::new()],
        outer: BTreeSet::new(),
    };
    for stmt in stmts {
        scan.visit_stmt(stmt);
    }
    scan.outer
}

struct Assigned {
    scopes: Vec<BTreeSet<String>>,
    outer: BTreeSet<String>,
}

impl Assigned {
    fn target(&mut self, left: &Expr) {
        if let Expr::Path(path) = left
            && let Some(ident) = path.path.get_ident()
        {
            let name = ident.to_string();
            if !self.scopes.iter().any(|scope| scope.contains(&name)) {
                self.outer.insert(name);
            }
        }
    }
}

impl<'ast> Visit<'ast> for Assigned {
    fn visit_block(&mut self, block: &'ast syn::Block) {
        self.scopes.push(BTreeSet::new());
        syn::visit::visit_block(self, block);
        self.scopes.pop();
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let Some(init) = &local.init {
            self.visit_expr(&init.expr);
        }
        let mut names = Vec::new();
        pattern_names(&local.pat, &mut names);
        if let Some(scope) = self.scopes.last_mut() {
            scope.extend(names);
        }
    }

    fn visit_expr_assign(&mut self, assign: &'ast syn::ExprAssign) {
        self.target(&assign.left);
        syn::visit::visit_expr_assign(self, assign);
    }

    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |this, node| {
            if compound(&node.op) {
                this.target(&node.left);
            }
        });
    }

    fn visit_expr_for_loop(&mut self, for_loop: &'ast syn::ExprForLoop) {
        self.visit_expr(&for_loop.expr);
        let mut names = Vec::new();
        pattern_names(&for_loop.pat, &mut names);
        self.scopes.push(names.into_iter().collect());
        self.visit_block(&for_loop.body);
        self.scopes.pop();
    }

    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}

    /// `std::mem::swap(&mut a, &mut b)` assigns `a` and `b` (`whole.rs`), and `g(x, &mut e)`
    /// assigns `e` (a local `f64` lent to a `&mut f64` parameter, `call.rs`).
    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        for arg in &call.args {
            if let Expr::Reference(reference) = arg
                && (reference.mutability.is_some() || super::whole::is_swap(call))
            {
                self.target(&reference.expr);
            }
        }
        syn::visit::visit_expr_call(self, call);
    }

    /// `vec![x, { q *= 2.0; q }]` inside a loop assigns `q` too.
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        for expr in super::vecs::exprs(mac) {
            let mut inner = Assigned {
                scopes: self.scopes.clone(),
                outer: BTreeSet::new(),
            };
            inner.visit_expr(&expr);
            self.outer.extend(inner.outer);
        }
    }
}

/// Whether `op` is a compound assignment (`+=`, `-=`, .., `>>=`).
fn compound(op: &syn::BinOp) -> bool {
    use syn::BinOp::*;
    matches!(
        op,
        AddAssign(_)
            | SubAssign(_)
            | MulAssign(_)
            | DivAssign(_)
            | RemAssign(_)
            | BitAndAssign(_)
            | BitOrAssign(_)
            | BitXorAssign(_)
            | ShlAssign(_)
            | ShrAssign(_)
    )
}

/// Whether `expr` writes a place, any place (`=`, a compound assignment, a `&mut` borrow):
/// `compare` lowers a comparison whose right operand writes left first, as Rust runs it.
pub fn writes(expr: &Expr) -> bool {
    struct Writes(bool);
    impl<'ast> Visit<'ast> for Writes {
        fn visit_expr_assign(&mut self, _: &'ast syn::ExprAssign) {
            self.0 = true;
        }
        fn visit_expr_reference(&mut self, reference: &'ast syn::ExprReference) {
            self.0 |= reference.mutability.is_some();
            syn::visit::visit_expr_reference(self, reference);
        }
        /// A sum of 10^5 terms without a frame per term.
        fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
            crate::spine::visit(self, binary, |found, node| found.0 |= compound(&node.op));
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut found = Writes(false);
    found.visit_expr(expr);
    found.0
}

/// The names a pattern binds: `x`, `(a, [b, c])`, `&y`.
pub fn pattern_names(pat: &Pat, names: &mut Vec<String>) {
    match pat {
        Pat::Ident(ident) => names.push(ident.ident.to_string()),
        Pat::Type(typed) => pattern_names(&typed.pat, names),
        Pat::Reference(reference) => pattern_names(&reference.pat, names),
        Pat::Paren(paren) => pattern_names(&paren.pat, names),
        Pat::Tuple(tuple) => tuple.elems.iter().for_each(|p| pattern_names(p, names)),
        Pat::Slice(slice) => slice.elems.iter().for_each(|p| pattern_names(p, names)),
        _ => {}
    }
}

/// Where a `break`, `continue` or `return` leaves a loop body for.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Escape {
    /// `break` or `break 'label`: `None` is the innermost loop.
    Break(Option<String>),
    /// `continue` or `continue 'label`.
    Continue(Option<String>),
    /// `return`.
    Return,
}

/// The exits in `stmts` that leave them for an enclosing loop or the function, in source
/// order without repeats: those of loops nested in `stmts` that target those loops are not.
pub fn escapes(stmts: &[Stmt]) -> Vec<Escape> {
    let mut scan = Escapes {
        loops: Vec::new(),
        found: Vec::new(),
    };
    for stmt in stmts {
        scan.visit_stmt(stmt);
    }
    scan.found
}

/// [`escapes`] of one expression.
pub fn escapes_of(expr: &Expr) -> Vec<Escape> {
    let mut scan = Escapes {
        loops: Vec::new(),
        found: Vec::new(),
    };
    scan.visit_expr(expr);
    scan.found
}

struct Escapes {
    /// The labels of the loops entered (`None` for an unlabelled one).
    loops: Vec<Option<String>>,
    found: Vec<Escape>,
}

impl Escapes {
    fn add(&mut self, escape: Escape) {
        if !self.found.contains(&escape) {
            self.found.push(escape);
        }
    }

    /// Whether an exit to `label` stays inside the loops entered.
    fn inside(&self, label: &Option<syn::Lifetime>) -> bool {
        match label {
            None => !self.loops.is_empty(),
            Some(label) => {
                let name = label.ident.to_string();
                self.loops.iter().any(|l| l.as_deref() == Some(&*name))
            }
        }
    }

    fn enter(&mut self, label: &Option<syn::Label>, visit: impl FnOnce(&mut Self)) {
        self.loops
            .push(label.as_ref().map(|l| l.name.ident.to_string()));
        visit(self);
        self.loops.pop();
    }
}

impl<'ast> Visit<'ast> for Escapes {
    /// Down the left spine in a loop: a sum of 10^5 terms needs no deeper stack.
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }

    fn visit_expr_break(&mut self, brk: &'ast syn::ExprBreak) {
        if let Some(value) = &brk.expr {
            self.visit_expr(value);
        }
        if !self.inside(&brk.label) {
            self.add(Escape::Break(
                brk.label.as_ref().map(|l| l.ident.to_string()),
            ));
        }
    }

    fn visit_expr_continue(&mut self, cont: &'ast syn::ExprContinue) {
        if !self.inside(&cont.label) {
            self.add(Escape::Continue(
                cont.label.as_ref().map(|l| l.ident.to_string()),
            ));
        }
    }

    fn visit_expr_return(&mut self, ret: &'ast syn::ExprReturn) {
        syn::visit::visit_expr_return(self, ret);
        self.add(Escape::Return);
    }

    fn visit_expr_for_loop(&mut self, the_loop: &'ast syn::ExprForLoop) {
        self.visit_expr(&the_loop.expr);
        self.enter(&the_loop.label, |this| this.visit_block(&the_loop.body));
    }

    fn visit_expr_while(&mut self, the_loop: &'ast syn::ExprWhile) {
        self.enter(&the_loop.label, |this| {
            this.visit_expr(&the_loop.cond);
            this.visit_block(&the_loop.body)
        });
    }

    fn visit_expr_loop(&mut self, the_loop: &'ast syn::ExprLoop) {
        self.enter(&the_loop.label, |this| this.visit_block(&the_loop.body));
    }

    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
}
