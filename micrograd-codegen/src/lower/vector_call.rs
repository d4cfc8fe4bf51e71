//! Calls of `#[differentiable]` functions that return several values, taken apart by `let`:
//! the pattern (or the annotation) says how many, which the caller cannot otherwise see.
//!
//! Before: `let [a, b] = g(x, y);` or `let r: [f64; 2] = g(x, y);` or `let (u, v) = h(x);`
//! After: `let a = g(x, y)[0]; let b = g(x, y)[1];`: one call per output, each differentiated
//! by the callee's pullback seeded at its entry (`g_pullback(x, y, [0.0, d_b])`) and by its
//! tangent (`g_tangent(x, v_x, y, v_y)[1]`). The outputs a caller never reads cost nothing.

use super::Lowerer;
use super::expr::Value;
use super::paths::Named;
use crate::ir::{Arg, Entry, IntExpr, Op, Operand, Stmt, Ty, VarId};
use syn::spanned::Spanned;
use syn::{Expr, Pat, Type};

/// How many values `let pat: annotation = g(..)` takes apart, and whether as a tuple: from an
/// array or tuple pattern, else from an annotation `[f64; M]` or `(f64, ..)`.
pub(super) fn vector_shape(pat: &Pat, annotation: Option<&Type>) -> Option<(usize, bool)> {
    let rest = |pats: &[&Pat]| pats.iter().any(|p| matches!(p, Pat::Rest(_)));
    match pat {
        Pat::Slice(slice) if !rest(&slice.elems.iter().collect::<Vec<_>>()) => {
            Some((slice.elems.len(), false))
        }
        Pat::Tuple(tuple) if !rest(&tuple.elems.iter().collect::<Vec<_>>()) => {
            Some((tuple.elems.len(), true))
        }
        Pat::Ident(_) => match annotation? {
            Type::Array(array) => match &array.len {
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(len),
                    ..
                }) => Some((len.base10_parse().ok()?, false)),
                _ => None,
            },
            Type::Tuple(tuple) if tuple.elems.len() > 1 => Some((tuple.elems.len(), true)),
            _ => None,
        },
        _ => None,
    }
}

impl Lowerer<'_> {
    /// `let pat = call;` where `call` returns `m` values: binds `pat`'s names to them, or a
    /// name annotated `[f64; m]` to a local array of them.
    pub(super) fn vector_local(
        &mut self,
        pat: &Pat,
        call: &syn::ExprCall,
        (m, tuple): (usize, bool),
    ) {
        // An output bound to `_` is not computed.
        let wild: Vec<bool> = match pat {
            Pat::Slice(slice) => slice
                .elems
                .iter()
                .map(|p| matches!(p, Pat::Wild(_)))
                .collect(),
            Pat::Tuple(tuple) => tuple
                .elems
                .iter()
                .map(|p| matches!(p, Pat::Wild(_)))
                .collect(),
            _ => vec![false; m],
        };
        let Some(entries) = self.vector_call(call, (m, tuple), &wild, true) else {
            return self.poison(pat);
        };
        match pat {
            Pat::Ident(ident) if !tuple => {
                let name = ident.ident.to_string();
                let len = lit(m);
                let dst = self.named(&name, Ty::local(len, false), ident.ident.span());
                let fill = Operand::Const(0.0);
                self.emit(Stmt::Array { dst, fill });
                for (k, value) in entries.into_iter().enumerate() {
                    let index = lit(k);
                    self.emit(Stmt::Store {
                        array: dst,
                        index,
                        value,
                    });
                }
                self.bind(&name, dst);
            }
            _ => {
                let values = entries.into_iter().map(Value::F64).collect();
                self.bind_pat(pat, Value::Tuple(values));
            }
        }
    }

    /// `h = g(args);` of a local array `h` of a literal length `m` (`let mut h = [0.0; 3];`),
    /// where `g` returns `[f64; m]`: the call's `m` values stored into `h`'s entries. Arguments
    /// that read `h` itself (`h = layer.forward(&h);`) read a copy made before the call, since
    /// the call's pullback reads what it was passed and `h` changes after it. `false` if `h`
    /// is not such an array (its length a `Vec`'s, or not a literal).
    pub(super) fn vector_assign(
        &mut self,
        target: VarId,
        left: &Expr,
        call: &syn::ExprCall,
    ) -> bool {
        let len = self.ty(target).array_len().cloned();
        let Some(IntExpr::Lit { value, .. }) = len else {
            return false;
        };
        let Ok(m) = usize::try_from(value) else {
            return false;
        };
        // `h` read by the arguments is the copy: in a scope of their own, `h` names it.
        let mut copy = None;
        if let Expr::Path(path) = left
            && let Some(name) = path.path.get_ident()
        {
            let held = crate::names::free(&mut self.used, crate::names::lowered::ARGUMENT);
            if call.args.iter().any(|arg| reads(arg, name)) {
                self.copy_value(&held, left);
                copy = self
                    .lookup(&held.to_string())
                    .map(|held| (name.to_string(), held));
            }
        }
        let entries = self.in_scope(|this| {
            if let Some((name, held)) = copy {
                this.bind(&name, held.var);
            }
            this.vector_call(call, (m, false), &vec![false; m], true)
        });
        let Some(entries) = entries else {
            return true;
        };
        for (k, value) in entries.into_iter().enumerate() {
            let index = lit(k);
            self.emit(Stmt::Store {
                array: target,
                index,
                value,
            });
        }
        true
    }

    /// `g(args)[k]`, output `k` of a `#[differentiable]` function returning `[f64; M]`, `k` any
    /// integer: its pullback is seeded through `calls::unit(k, seed, 0.0)`, whose length rustc
    /// infers, so the caller need not count the outputs (what `let oc = sub3(o, c);` is read
    /// as, `lower/desugar/array_calls.rs`, and what a user may write).
    pub(super) fn call_entry(&mut self, call: &syn::ExprCall, k: &Expr) -> Value {
        let Some(callee) = self.vector_callee(call) else {
            return self.error(
                call.func.span(),
                "only a `#[differentiable]` function called by name returns several values here",
            );
        };
        let Some(args) = self.args(call, true) else {
            return Value::Error;
        };
        let Some(k) = self.int_operand(k) else {
            return Value::Error;
        };
        self.output(callee, args, k, false, call.func.span())
    }

    /// `g(args).k`, output `k` of a `#[differentiable]` function returning a tuple, whose width
    /// the caller need not see: its pullback is seeded through `calls::tuple_unit(k, seed,
    /// 0.0)`, whose width rustc infers. `None` where `g` is no function called by name (a
    /// method of `f64`, `f64::sin_cos(x).1`), which the caller reads as any other value.
    pub(super) fn call_field(&mut self, call: &syn::ExprCall, k: u32) -> Option<Value> {
        let callee = self.vector_callee(call)?;
        let Some(args) = self.args(call, true) else {
            return Some(Value::Error);
        };
        let span = call.func.span();
        Some(self.output(callee, args, lit(k as usize), true, span))
    }

    /// The callee of a call of a function by name (`g`, `m::g`, `Self::g`), which may return
    /// several values.
    fn vector_callee(&self, call: &syn::ExprCall) -> Option<crate::ir::Extern> {
        match &*call.func {
            Expr::Path(path) => match super::paths::classify(path, self.scalar) {
                Named::Other(callee) => Some(
                    callee.with_args_at(call.args.iter().map(crate::spine::first_span).collect()),
                ),
                _ => None,
            },
            _ => None,
        }
    }

    /// Output `k` of `callee(args)`, of a count the caller does not see.
    fn output(
        &mut self,
        mut callee: crate::ir::Extern,
        args: Vec<Arg>,
        k: IntExpr,
        tuple: bool,
        span: proc_macro2::Span,
    ) -> Value {
        callee.entry = Some(Entry {
            k: Box::new(k),
            m: None,
            tuple,
        });
        Value::F64(self.temp(Op::Call(callee, args), span))
    }

    /// `let r = pair(x);` whose name is read as the `fields` `r.k` only: `r` the tuple of the
    /// call's outputs up to the last field read, whose own width the caller does not see (its
    /// seeds `calls::tuple_unit`). An output no field reads is not computed.
    /// `false` (nothing lowered) where the callee is no function called by name
    /// (`f64::sin_cos(x)`).
    pub(super) fn tuple_local(
        &mut self,
        pat: &Pat,
        call: &syn::ExprCall,
        fields: &[usize],
    ) -> bool {
        if self.vector_callee(call).is_none() {
            return false;
        }
        let width = fields.last().map_or(0, |k| k + 1);
        // An output bound to `_` (`let (a, _, c, ..) = g(x);`) is not computed either.
        let wild = |k: usize| match pat {
            Pat::Tuple(tuple) => matches!(tuple.elems.iter().nth(k), Some(Pat::Wild(_))),
            _ => false,
        };
        let skipped: Vec<bool> = (0..width)
            .map(|k| !fields.contains(&k) || wild(k))
            .collect();
        match self.vector_call(call, (width, true), &skipped, false) {
            Some(entries) => {
                let values = entries.into_iter().map(Value::F64).collect();
                self.bind_pat(pat, Value::Tuple(values));
            }
            None => self.poison(pat),
        }
        true
    }

    /// `g(args)[k]` for each of the `m` outputs but the `skipped` ones (a zero stands for
    /// those), the arguments lowered once; `counted` where the callee returns `m` outputs,
    /// else `m` is how many the caller reads of a count it cannot see.
    fn vector_call(
        &mut self,
        call: &syn::ExprCall,
        (m, tuple): (usize, bool),
        skipped: &[bool],
        counted: bool,
    ) -> Option<Vec<Operand>> {
        let Some(callee) = self.vector_callee(call) else {
            let message =
                "only a `#[differentiable]` function called by name returns several values here";
            self.errors.at(call.func.span(), message);
            return None;
        };
        let args: Vec<Arg> = self.args(call, true)?;
        let span = call.func.span();
        let outputs = (0..m).map(|k| {
            let mut callee = callee.clone();
            callee.entry = Some(Entry {
                k: Box::new(lit(k)),
                m: counted.then_some(m),
                tuple,
            });
            Op::Call(callee, args.clone())
        });
        let outputs: Vec<Op> = outputs.collect();
        let entries = outputs
            .into_iter()
            .zip(skipped)
            .map(|(op, skipped)| match skipped {
                true => Operand::Const(0.0),
                false => self.temp(op, span),
            });
        Some(entries.collect())
    }
}

/// The integer literal `k`.
fn lit(k: usize) -> IntExpr {
    IntExpr::Lit {
        value: k as u128,
        suffix: String::new(),
    }
}

/// Whether `expr` reads `name` (a path of `name` alone).
fn reads(expr: &Expr, name: &syn::Ident) -> bool {
    struct Reads<'a> {
        name: &'a syn::Ident,
        found: bool,
    }
    impl syn::visit::Visit<'_> for Reads<'_> {
        fn visit_expr_path(&mut self, path: &syn::ExprPath) {
            self.found |= path.qself.is_none() && path.path.get_ident() == Some(self.name);
        }
    }
    let mut reads = Reads { name, found: false };
    syn::visit::Visit::visit_expr(&mut reads, expr);
    reads.found
}
