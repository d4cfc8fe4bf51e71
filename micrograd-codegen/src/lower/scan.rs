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
        use syn::BinOp::*;
        if matches!(
            binary.op,
            AddAssign(_) | SubAssign(_) | MulAssign(_) | DivAssign(_) | RemAssign(_)
        ) {
            self.target(&binary.left);
        }
        syn::visit::visit_expr_binary(self, binary);
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

/// Whether `expr` contains a `return` outside closures.
pub fn returns(expr: &Expr) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr_return(&mut self, _: &'ast syn::ExprReturn) {
            self.0 = true;
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
    }
    let mut finder = Finder(false);
    finder.visit_expr(expr);
    finder.0
}
