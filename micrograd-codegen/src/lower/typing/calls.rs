//! What calls, method calls and macros say of their arguments' types (`typing.rs`).

use super::{BOOL, FLOAT, INT, Infer, Known, Local, Term};
use crate::lower::paths::Named;
use syn::Expr;
use syn::punctuated::Punctuated;

/// Methods integers have too, whose receiver and arguments have one type.
const SHARED: &[&str] = &[
    "abs",
    "signum",
    "max",
    "min",
    "clamp",
    "rem_euclid",
    "div_euclid",
];

/// Float methods the IR has no function of (besides `crate::math`'s).
const FLOAT_ONLY: &[&str] = &[
    "powi",
    "sin_cos",
    "is_nan",
    "is_finite",
    "is_infinite",
    "is_sign_negative",
    "is_sign_positive",
    "total_cmp",
    "exp_m1",
];

impl Infer<'_, '_> {
    /// `assert!(c)`, `assert_eq!(a, b)` (one type), `vec![x; n]`: their expressions.
    pub(super) fn mac(&mut self, mac: &syn::Macro) -> Option<Term> {
        let name = mac.path.segments.last()?.ident.to_string();
        if name == "vec" {
            let tokens = &mac.tokens;
            let array: Expr = syn::parse2(quote::quote!([#tokens])).ok()?;
            return self.expr(&array);
        }
        let args = mac
            .parse_body_with(Punctuated::<Expr, syn::Token![,]>::parse_terminated)
            .ok()?;
        let terms: Vec<Option<Term>> = args.iter().map(|arg| self.expr(arg)).collect();
        if matches!(
            name.as_str(),
            "assert_eq" | "assert_ne" | "debug_assert_eq" | "debug_assert_ne"
        ) && terms.len() >= 2
        {
            self.unify(terms[0], terms[1]);
        }
        None
    }

    pub(super) fn call(&mut self, call: &syn::ExprCall) -> Option<Term> {
        let args: Vec<Option<Term>> = call.args.iter().map(|arg| self.expr(arg)).collect();
        let Expr::Path(path) = &*call.func else {
            self.expr(&call.func);
            return None;
        };
        if let Some(name) = path.path.get_ident()
            && path.qself.is_none()
            && let Some((params, value)) = self.closure_named(&name.to_string())
        {
            for (param, arg) in params.into_iter().zip(&args) {
                self.unify(param, *arg);
            }
            return value;
        }
        match crate::lower::paths::classify(path, self.lowerer.scalar) {
            // `f64::from(n)`, `T::from(c)`: anything in, a float out.
            Named::Method(name) if name == "from" => FLOAT,
            // `f64::max(a, b)`: the method on its first argument.
            Named::Method(name) if !args.is_empty() => {
                self.method_named(&name, args[0], &args[1..], None)
            }
            // `g(x)`, `Self::g(x)`: a `#[differentiable]` helper, whose value the lowering
            // reads as a float (`call::call`), as `g(x) >= S1` says `S1` is. A name passed
            // whole that nothing decides is a float beside a float argument (`Infer::guess`).
            Named::Other(_) => {
                for (k, arg) in call.args.iter().enumerate() {
                    if let Some(Term::Var(var)) = args[k]
                        && Self::whole_name(arg)
                    {
                        let others = (args.iter().enumerate())
                            .filter(|&(j, _)| j != k)
                            .map(|(_, other)| *other);
                        self.guesses.push((var, Some(others.collect())));
                    }
                }
                FLOAT
            }
            _ => None,
        }
    }

    pub(super) fn closure_named(&self, name: &str) -> Option<(Vec<Option<Term>>, Option<Term>)> {
        match self.lookup(name) {
            Some(Local::Closure(params, value)) => Some((params.clone(), *value)),
            Some(Local::Value(_)) => None,
            None => self.closures.get(name).cloned(),
        }
    }

    pub(super) fn method(
        &mut self,
        call: &syn::ExprMethodCall,
        receiver: Option<Term>,
        args: Vec<Option<Term>>,
    ) -> Option<Term> {
        let turbofish =
            call.turbofish
                .as_ref()
                .and_then(|turbofish| match turbofish.args.first()? {
                    syn::GenericArgument::Type(ty) => self.annotated(ty),
                    _ => None,
                });
        self.method_named(&call.method.to_string(), receiver, &args, turbofish)
    }

    pub(super) fn method_named(
        &mut self,
        name: &str,
        receiver: Option<Term>,
        args: &[Option<Term>],
        turbofish: Option<Known>,
    ) -> Option<Term> {
        match name {
            "len" => INT,
            "is_empty" => BOOL,
            "iter" | "iter_mut" | "into_iter" | "copied" | "cloned" | "rev" | "clone"
            | "to_vec" | "as_slice" | "as_mut_slice" => receiver,
            "skip" | "take" | "step_by" => {
                for arg in args {
                    self.unify(*arg, INT);
                }
                receiver
            }
            "sum" | "product" => match turbofish {
                Some(known) => Some(Term::Known(known)),
                None => self.entry(receiver),
            },
            "fold" => args.first().copied().flatten(),
            "pow" => {
                for arg in args {
                    self.unify(*arg, INT);
                }
                receiver
            }
            "powi" => {
                for arg in args {
                    self.unify(*arg, INT);
                }
                self.unify(receiver, FLOAT)
            }
            _ if SHARED.contains(&name) => {
                let mut term = receiver;
                for arg in args {
                    term = self.unify(term, *arg);
                }
                term
            }
            _ if FLOAT_ONLY.contains(&name)
                || crate::ir::Func::from_name(name).is_some()
                || crate::ir::Func2::from_name(name).is_some()
                || crate::ir::Func3::from_name(name).is_some() =>
            {
                self.unify(receiver, FLOAT);
                if name != "sin_cos" {
                    for arg in args {
                        self.unify(*arg, FLOAT);
                    }
                }
                match name {
                    "sin_cos" | "total_cmp" => None,
                    _ if name.starts_with("is_") => BOOL,
                    _ => FLOAT,
                }
            }
            _ => None,
        }
    }
}
