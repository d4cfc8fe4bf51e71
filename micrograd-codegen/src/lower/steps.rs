//! What `map` and `fold` apply to each element: a closure, inlined. A path to a function of
//! `f64` (`f64::exp`, `f64::max`) means the closure calling it, which the desugaring pass
//! writes in its place ([`rewrite`], `desugar.rs`), so the lowering sees closures only.
//!
//! Before: `x.iter().copied().fold(f64::NEG_INFINITY, f64::max)`
//! After: `x.iter().copied().fold(f64::NEG_INFINITY, |acc, x| f64::max(acc, x))`

use super::Lowerer;
use super::expr::Value;
use super::paths::Named;
use crate::ir::Scalar;
use syn::spanned::Spanned;
use syn::{Expr, ExprClosure, parse_quote_spanned};

/// How many `f64`s the step of `adaptor` takes: a `fold`'s two, a `map`'s one.
fn takes(adaptor: &str) -> usize {
    if adaptor == "fold" { 2 } else { 1 }
}

/// `call`, a `.map(step)` or `.fold(init, step)`, with a step that is a path to a method of
/// `scalar` taking as many floats as the adaptor passes, or one the language does not know
/// (reported where its call is lowered), rewritten into the closure calling it:
/// `f64::max` into `|acc, x| f64::max(acc, x)`. Its parameters live in the closure's own
/// scope, and the path names the float type: no name of the user's can be captured. A path
/// of another arity is left for [`Lowerer::step_of`] to refuse.
pub(super) fn rewrite(call: &mut syn::ExprMethodCall, scalar: Scalar) {
    let adaptor = call.method.to_string();
    let step = match (adaptor.as_str(), call.args.len()) {
        ("map", 1) => 0,
        ("fold", 2) => 1,
        _ => return,
    };
    let Expr::Path(path) = &call.args[step] else {
        return;
    };
    let Named::Method(name) = super::paths::classify(path, scalar) else {
        return;
    };
    let takes = takes(&adaptor);
    if arity(&name).is_some_and(|n| n != takes) {
        return;
    }
    let span = path.span();
    let names: Vec<syn::Ident> = ["acc", "x"][2 - takes..]
        .iter()
        .map(|name| syn::Ident::new(name, span))
        .collect();
    call.args[step] = parse_quote_spanned!(span=> |#(#names),*| #path(#(#names),*));
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
    pub(super) fn step_of<'a>(&mut self, expr: &'a Expr, adaptor: &str) -> Option<&'a ExprClosure> {
        let takes = takes(adaptor);
        let (closure, example) = match adaptor {
            "fold" => ("|acc, x| acc + x", "f64::max"),
            _ => ("|x| x * 2.0", "f64::exp"),
        };
        match expr {
            Expr::Closure(closure) => return Some(closure),
            Expr::Path(path) => {
                // The pass rewrote every other path to a method into its closure.
                if let Named::Method(name) = super::paths::classify(path, self.scalar)
                    && let Some(n) = arity(&name)
                    && n != takes
                {
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

    /// The value of `closure` applied to `args`, inlined.
    pub(super) fn inline(&mut self, closure: &ExprClosure, args: Vec<Value>) -> Value {
        if closure.inputs.len() != args.len() {
            return self.error(
                closure.inputs_begin.span,
                format!("this closure takes {} argument(s) here", args.len()),
            );
        }
        if let Some(name) = self.assigned_by(closure).into_iter().next() {
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
