//! The right side of a forward assignment as tokens: arithmetic on operands, calls (of
//! another differentiable function, of a rule of `derivative(..)`) and reads of data.

use super::super::Emitter;
use super::{call, external};
use crate::diff::Expr;
use crate::ir::{Extern, IntExpr, Op, Operand};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

impl Emitter<'_> {
    /// The right side of a forward assignment.
    pub(in crate::emit) fn op(&self, op: &Op) -> TokenStream {
        let e = |o: &Operand| Expr::from(o);
        let binary = |f: fn(Box<Expr>, Box<Expr>) -> Expr, a: &Operand, b: &Operand| {
            let expr = f(Box::new(e(a)), Box::new(e(b)));
            match (a, b) {
                // Two literals (`1.0 + 0.5`) make an ambiguous `{float}`, on which a later
                // `t0.sqrt()` would not compile: the first one carries the type.
                (Operand::Const(_), Operand::Const(_) | Operand::Extern(_)) => {
                    let (a, b) = (self.bound(a), self.operand(b));
                    let op = match expr {
                        Expr::Add(..) => quote!(+),
                        Expr::Sub(..) => quote!(-),
                        Expr::Mul(..) => quote!(*),
                        Expr::Call2(..) => quote!(%),
                        _ => quote!(/),
                    };
                    quote!(#a #op #b)
                }
                _ => self.expr(&expr),
            }
        };
        match op {
            Op::Copy(a) => self.bound(a),
            Op::Add(a, b) => binary(Expr::Add, a, b),
            Op::Sub(a, b) => binary(Expr::Sub, a, b),
            Op::Mul(a, b) => binary(Expr::Mul, a, b),
            Op::Div(a, b) => binary(Expr::Div, a, b),
            Op::Neg(a) => self.expr(&-e(a)),
            Op::Powi(a, n) => self.expr(&e(a).powi(n.clone())),
            Op::Call1(f, a) => self.expr(&e(a).call(*f)),
            // `%` is an operator too: `-2.75 % -2.25` alone is an ambiguous `{float}`.
            Op::Call2(crate::ir::Func2::Rem, a, b) => {
                binary(|a, b| Expr::Call2(crate::ir::Func2::Rem, a, b), a, b)
            }
            Op::Call2(f, a, b) => self.expr(&e(a).call2(*f, e(b))),
            Op::Call3(f, a, b, c) => self.expr(&e(a).call3(*f, e(b), e(c))),
            Op::FromInt(n) => self.cast(n),
            Op::Data(place) => self.data(place),
            Op::Load(w, i) => self.expr(&Expr::Load(*w, i.clone())),
            Op::Custom(custom) => {
                let args = custom.args.iter().map(|arg| self.arg(arg));
                let body = &custom.body;
                quote!(#body(#(#args),*))
            }
            Op::Call(callee, args) => {
                let (entry, span) = (&callee.entry, callee.span);
                let at = callee.args_at().to_vec();
                let callee = self.callee(callee);
                let args = args.iter().enumerate().map(|(k, arg)| {
                    let arg = self.arg(arg);
                    at.get(k)
                        .map_or(arg.clone(), |span| super::located(arg, *span))
                });
                let call = call(callee, quote!(#(#args),*), span);
                match entry.as_ref().map(|entry| (&*entry.k, entry.tuple)) {
                    Some((IntExpr::Lit { value, .. }, true)) => {
                        let k = syn::Index::from(*value as usize);
                        quote!(#call.#k)
                    }
                    Some((IntExpr::Lit { value, .. }, false)) => {
                        let k = Literal::usize_unsuffixed(*value as usize);
                        quote!(#call[#k])
                    }
                    Some((k, _)) => {
                        let k = self.int(k);
                        quote!(#call[#k])
                    }
                    None => call,
                }
            }
        }
    }

    /// The function a forward call calls: its path, or for a rule of `derivative(..)` the
    /// path through a binding of the checked type, `({ let rule: fn(f64) -> f64 = erf_dx; rule })`.
    fn callee(&self, callee: &Extern) -> TokenStream {
        let path = external(callee);
        match callee.rule.as_ref().map(|rule| &rule.pointer) {
            Some(pointer) => {
                let rule = self.names.local("rule");
                quote!(({ let #rule: #pointer = #path; #rule }))
            }
            None => path,
        }
    }

    /// A read of data, as `f` reads it: `pts[i][0]`, `data[i].1`, `rows[i].len()`.
    pub(in crate::emit) fn data(&self, place: &crate::ir::Place) -> TokenStream {
        use crate::ir::Step;
        let mut tokens = self.names.root(place.root);
        for step in &place.steps {
            tokens = match step {
                Step::Index(i) => {
                    let i = self.int(i);
                    quote!(#tokens[#i])
                }
                Step::Field(k) => {
                    let k = syn::Index::from(*k as usize);
                    quote!(#tokens.#k)
                }
                Step::Len => quote!(#tokens.len()),
                Step::Deref => quote!((*#tokens)),
            };
        }
        tokens
    }
}
