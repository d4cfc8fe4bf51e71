//! What `map` and `fold` apply to each element: a closure, inlined, or a path to a function of
//! `f64` (`f64::exp`, `f64::max`), which means the closure calling it.
//!
//! Before: `x.iter().copied().fold(f64::NEG_INFINITY, f64::max)`
//! After: `x.iter().copied().fold(f64::NEG_INFINITY, |acc, x| f64::max(acc, x))`

use super::Lowerer;
use super::expr::Value;
use super::paths::Named;
use syn::spanned::Spanned;
use syn::{Expr, ExprClosure, ExprPath, parse_quote_spanned};

/// The step of a `map` or a `fold`.
#[derive(Clone, Copy)]
pub(super) enum Step<'a> {
    /// `|x| ..`
    Closure(&'a ExprClosure),
    /// `f64::name`: the closure `|x, ..| f64::name(x, ..)`.
    Path(&'a ExprPath),
}

/// How many `f64`s (the receiver included) the method `name` takes, if the language knows it.
fn arity(name: &str) -> Option<usize> {
    use crate::ir::{Func, Func2, Func3};
    if Func::from_name(name).is_some() || super::derived::DERIVED.contains(&name) {
        Some(1)
    } else if Func2::from_name(name).is_some() {
        Some(2)
    } else {
        Func3::from_name(name).map(|_| 3)
    }
}

impl Lowerer<'_> {
    /// The step `expr` of `adaptor` (`map` or `fold`), or an error saying what it takes.
    pub(super) fn step_of<'a>(&mut self, expr: &'a Expr, adaptor: &str) -> Option<Step<'a>> {
        let takes = if adaptor == "fold" { 2 } else { 1 };
        let (closure, example) = match adaptor {
            "fold" => ("|acc, x| acc + x", "f64::max"),
            _ => ("|x| x * 2.0", "f64::exp"),
        };
        match expr {
            Expr::Closure(closure) => return Some(Step::Closure(closure)),
            Expr::Path(path)
                if let Named::Method(name) = super::paths::classify(path, self.scalar) =>
            {
                match arity(&name) {
                    Some(n) if n != takes => {
                        let float = self.scalar.name();
                        let count = |n: usize| match n {
                            1 => format!("one `{float}`"),
                            2 => format!("two `{float}`s"),
                            _ => format!("three `{float}`s"),
                        };
                        let (n, takes) = (count(n), count(takes));
                        self.errors.at(path.span(), format!("`{float}::{name}` takes {n}, but `{adaptor}` passes {takes}; write the closure: `{closure}`"));
                        return None;
                    }
                    // An unknown name is reported where the step is applied.
                    _ => return Some(Step::Path(path)),
                }
            }
            _ => {}
        }
        let float = self.scalar.name();
        let example = example.replace("f64", float);
        self.errors.at(
            expr.span(),
            format!("`{adaptor}` takes a closure here, `{closure}`, or a path to a method of `{float}`, `{example}`"),
        );
        None
    }

    /// The value of `step` applied to `args`, inlined.
    pub(super) fn apply_step(&mut self, step: Step, args: Vec<Value>) -> Value {
        match step {
            Step::Closure(closure) => self.inline(closure, args),
            Step::Path(path) => {
                // Its parameters live in the closure's own scope, and the path names `f64`:
                // no name of the user's can be captured.
                let span = path.span();
                let names: Vec<syn::Ident> = ["acc", "x"][2 - args.len()..]
                    .iter()
                    .map(|name| syn::Ident::new(name, span))
                    .collect();
                let closure: ExprClosure =
                    parse_quote_spanned!(span=> |#(#names),*| #path(#(#names),*));
                self.inline(&closure, args)
            }
        }
    }

    /// The value of `closure` applied to `args`, inlined.
    pub(super) fn inline(&mut self, closure: &ExprClosure, args: Vec<Value>) -> Value {
        if closure.inputs.len() != args.len() {
            return self.error(
                closure.inputs_begin.span,
                format!("this closure takes {} argument(s) here", args.len()),
            );
        }
        let body = syn::Stmt::Expr((*closure.body).clone(), None);
        if let Some(name) = super::scan::assigned_outer(std::slice::from_ref(&body))
            .into_iter()
            .next()
        {
            return self.error(
                closure.inputs_begin.span,
                format!("this closure assigns `{name}`, which lives outside it; carry it through `.fold(init, |acc, x| ..)` instead"),
            );
        }
        self.in_scope(|this| {
            for (pat, arg) in closure.inputs.iter().zip(args) {
                this.bind_pat(pat, arg);
            }
            this.expr(&closure.body)
        })
    }
}
