//! Closures bound by `let` and called: each call is the closure's body inlined, its
//! parameters bound to the arguments, as the closures of iterator adaptors are.
//!
//! Before: `let sq = |t: f64| t * t; sq(a) + sq(b)`
//! After: `{ let t: f64 = a; t * t } + { let t: f64 = b; t * t }`

use super::expr::Value;
use super::{Binding, Lowerer};
use syn::visit::Visit;
use syn::{Expr, ExprClosure};

/// A closure bound by `let`, with what each name it reads from outside meant where it was
/// bound.
pub(super) struct Bound {
    closure: ExprClosure,
    captured: Vec<(String, Option<Binding>)>,
}

impl Lowerer<'_> {
    /// Binds `name` to `closure` when `let name = closure;` is what `local` is.
    pub(super) fn bind_closure(&mut self, local: &syn::Local) -> bool {
        let (syn::Pat::Ident(name), Some(init)) = (&local.pat, &local.init) else {
            return false;
        };
        let Expr::Closure(closure) = &*init.expr else {
            self.closures.remove(&name.ident.to_string());
            return false;
        };
        if name.mutability.is_some() || name.subpat.is_some() || init.diverge.is_some() {
            return false;
        }
        let mut names = Names(Vec::new());
        names.visit_expr(&closure.body);
        let captured = names
            .0
            .into_iter()
            .map(|name| {
                let binding = self.lookup(&name);
                (name, binding)
            })
            .collect();
        let bound = Bound {
            closure: closure.clone(),
            captured,
        };
        self.closures
            .insert(name.ident.to_string(), std::rc::Rc::new(bound));
        true
    }

    /// The value of `name(args)` where `name` is a closure bound by `let`, inlined; `None`
    /// when `name` is not one.
    pub(super) fn call_closure(&mut self, call: &syn::ExprCall) -> Option<Value> {
        let Expr::Path(path) = &*call.func else {
            return None;
        };
        let name = path.path.get_ident()?.to_string();
        let bound = std::rc::Rc::clone(self.closures.get(&name)?);
        let params: Vec<String> = bound.closure.inputs.iter().filter_map(param_name).collect();
        for (captured, then) in &bound.captured {
            if !params.contains(captured) && self.lookup(captured) != *then {
                return Some(self.error(path.path.segments[0].ident.span(), format!("`{captured}`, which the closure `{name}` reads, is bound again between the closure and this call; give one of them another name")));
            }
        }
        // `|t: f64| ..` called with `K`: an argument of a parameter annotated a float is one.
        let floats: Vec<bool> = (bound.closure.inputs.iter())
            .map(|input| matches!(input, syn::Pat::Type(typed) if self.is_scalar(&typed.ty)))
            .collect();
        let args: Vec<Value> = (call.args.iter().enumerate())
            .map(|(k, arg)| {
                let float = floats.get(k).copied().unwrap_or(false);
                match self.in_context(float, arg) {
                    Value::Unknown(path) if float => Value::F64(crate::ir::Operand::Extern(path)),
                    value => value,
                }
            })
            .collect();
        if args.iter().any(|arg| matches!(arg, Value::Error)) {
            return Some(Value::Error);
        }
        Some(self.inline(&bound.closure, args))
    }
}

/// The name a closure parameter binds, through a type annotation.
fn param_name(pat: &syn::Pat) -> Option<String> {
    match pat {
        syn::Pat::Ident(ident) => Some(ident.ident.to_string()),
        syn::Pat::Type(typed) => param_name(&typed.pat),
        _ => None,
    }
}

/// The single names a closure body reads.
struct Names(Vec<String>);

impl<'ast> Visit<'ast> for Names {
    fn visit_expr_path(&mut self, path: &'ast syn::ExprPath) {
        if let Some(ident) = path.path.get_ident() {
            self.0.push(ident.to_string());
        }
    }

    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }
}

impl Lowerer<'_> {
    /// `let y = w.map(|x| ..);` of an array `w` as the `Vec` collected from its iterator,
    /// which the language has: the closure is inlined entry by entry either way. `true` if
    /// `local` was such a `let`, lowered (or reported).
    ///
    /// Before: `let y = p.map(|x| 4.0 * x - 2.0);`
    /// As: `let y: Vec<f64> = p.iter().map(|x| 4.0 * x - 2.0).collect();`
    pub(super) fn array_map(&mut self, local: &syn::Local) -> bool {
        let Some(init) = local.init.as_ref().filter(|init| init.diverge.is_none()) else {
            return false;
        };
        let Expr::MethodCall(call) = &*init.expr else {
            return false;
        };
        let is_closure = matches!(call.args.first(), Some(Expr::Closure(_)));
        if call.method != "map" || call.args.len() != 1 || !is_closure {
            return false;
        }
        let name = match &*call.receiver {
            Expr::Path(receiver) => receiver.path.get_ident().map(ToString::to_string),
            // An array literal, `[x, y].map(|t| ..)`: its entries' iterator, as a name's.
            Expr::Array(_) => {
                let pat = match &local.pat {
                    syn::Pat::Type(typed) => &*typed.pat,
                    other => other,
                };
                self.collect_map(pat, &call.receiver, (&call.args[0], call.method.span()));
                return true;
            }
            _ => None,
        };
        let Some(binding) = name.and_then(|name| self.lookup(&name)) else {
            return false;
        };
        let array = self.ty(binding.var).is_floats()
            || matches!(self.aliases.get(&binding.var), Some(Value::Seq(_)));
        if !array {
            return false;
        }
        let pat = match &local.pat {
            syn::Pat::Type(typed) => &*typed.pat,
            other => other,
        };
        self.collect_map(pat, &call.receiver, (&call.args[0], call.method.span()));
        true
    }
}
