//! The inference's walk over blocks, `let`s and patterns (`typing.rs`).

use super::{Infer, Local, Term};
use std::collections::HashMap;
use syn::{Expr, Pat, Stmt};

impl Infer<'_, '_> {
    pub(super) fn block(&mut self, block: &syn::Block) -> Option<Term> {
        self.scopes.push(HashMap::new());
        // Items are visible in their whole block.
        for stmt in &block.stmts {
            if let Stmt::Item(syn::Item::Const(item)) = stmt {
                let term = self.annotation(&item.ty);
                self.bind(item.ident.to_string(), term);
            } else if let Stmt::Item(syn::Item::Static(item)) = stmt {
                let term = self.annotation(&item.ty);
                self.bind(item.ident.to_string(), term);
            }
        }
        let mut tail = None;
        for (k, stmt) in block.stmts.iter().enumerate() {
            tail = None;
            match stmt {
                Stmt::Local(local) => self.local(local),
                Stmt::Expr(expr, semi) => {
                    let term = self.expr(expr);
                    if semi.is_none() && k + 1 == block.stmts.len() {
                        tail = term;
                    }
                }
                Stmt::Macro(mac) => {
                    self.mac(&mac.mac);
                }
                Stmt::Item(_) => {}
            }
        }
        self.scopes.pop();
        tail
    }

    pub(super) fn local(&mut self, local: &syn::Local) {
        let Some(init) = &local.init else {
            let var = self.fresh();
            self.pattern(&local.pat, Some(Term::Var(var)));
            return;
        };
        if let Some((_, diverge)) = &init.diverge {
            self.expr(diverge);
        }
        // `let cl = |t: f64| ..;`: its parameters' types, for its calls.
        if let (Pat::Ident(name), Expr::Closure(closure)) = (&local.pat, &*init.expr) {
            let params: Vec<Option<Term>> = (closure.inputs.iter())
                .map(|input| match input {
                    Pat::Type(typed) => self.annotation(&typed.ty),
                    _ => None,
                })
                .collect();
            let value = self.closure(closure);
            self.closures
                .insert(name.ident.to_string(), (params.clone(), value));
            if let Some(scope) = self.scopes.last_mut() {
                scope.insert(name.ident.to_string(), Local::Closure(params, value));
            }
            return;
        }
        // `let (a, b) = (x * K, K * K);`: each name as its part.
        let pat = match &local.pat {
            Pat::Type(typed) => &*typed.pat,
            other => other,
        };
        if let (Pat::Tuple(names), Expr::Tuple(parts)) = (pat, &*init.expr)
            && names.elems.len() == parts.elems.len()
        {
            let terms: Vec<Option<Term>> = parts.elems.iter().map(|e| self.expr(e)).collect();
            for (name, term) in names.elems.iter().zip(terms) {
                self.pattern(name, term);
            }
            return;
        }
        let term = self.expr(&init.expr);
        // `let (s, c) = x.sin_cos();`: two floats.
        if let Pat::Tuple(names) = pat
            && super::exprs::sin_cos(&init.expr)
        {
            for name in &names.elems {
                self.pattern(name, super::FLOAT);
            }
            return;
        }
        // `let mut y = k;`: a variable that changes, whose type the lowering needs now.
        if let (Pat::Ident(ident), Some(Term::Var(var))) = (&local.pat, term)
            && ident.mutability.is_some()
            && Self::whole_name(&init.expr)
        {
            self.guesses.push((var, None));
        }
        self.pattern(&local.pat, term);
    }

    /// Binds the names of `pat`, matched against a value of type `term`.
    pub(super) fn pattern(&mut self, pat: &Pat, term: Option<Term>) {
        match pat {
            Pat::Ident(ident) => {
                if let Some((_, sub)) = &ident.subpat {
                    self.pattern(sub, term);
                }
                // A local without a type of its own gets a variable, so its uses decide
                // what it was bound from.
                let term = match term {
                    None => Some(Term::Var(self.fresh())),
                    term => term,
                };
                self.bind(ident.ident.to_string(), term);
            }
            Pat::Type(typed) => {
                let annotation = self.annotation(&typed.ty);
                let term = self.unify(annotation, term);
                self.pattern(&typed.pat, term);
            }
            Pat::Reference(reference) => self.pattern(&reference.pat, term),
            Pat::Paren(inner) => self.pattern(&inner.pat, term),
            Pat::Slice(slice) => {
                let entry = self.entry(term);
                for elem in &slice.elems {
                    match elem {
                        Pat::Rest(_) => {}
                        Pat::Ident(ident) if ident.subpat.is_some() => self.pattern(elem, term),
                        _ => self.pattern(elem, entry),
                    }
                }
            }
            Pat::Tuple(tuple) => {
                for elem in &tuple.elems {
                    self.pattern(elem, None);
                }
            }
            Pat::TupleStruct(tuple) => {
                for elem in &tuple.elems {
                    self.pattern(elem, None);
                }
            }
            Pat::Or(or) => {
                for case in &or.cases {
                    self.pattern(case, term);
                }
            }
            _ => {}
        }
    }
}
