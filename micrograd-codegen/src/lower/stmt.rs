//! Statements, branches, loops and early returns.

use super::Lowerer;
use super::expr::Value;
use super::matching::ArmUse;
use crate::ir::{IntExpr, Operand, Stmt, Ty, VarId};
use syn::spanned::Spanned;
use syn::{BinOp, Expr, Pat};

impl Lowerer<'_> {
    /// Lowers one statement that produces no value.
    pub(super) fn stmt(&mut self, stmt: &syn::Stmt) {
        match stmt {
            syn::Stmt::Local(local) => self.local(local),
            syn::Stmt::Expr(expr, _) => self.expr_stmt(expr),
            syn::Stmt::Item(item @ (syn::Item::Const(_) | syn::Item::Static(_)))
                if super::paths::constant(item).is_some() =>
            {
                self.declare_items(std::slice::from_ref(stmt));
            }
            syn::Stmt::Item(item) => {
                self.errors.at(item.span(), "items inside `#[differentiable]` functions are not supported; move them outside");
            }
            syn::Stmt::Macro(mac) => match super::asserts::operands(&mac.mac) {
                Some(operands) => self.assert(&mac.mac, operands),
                None => self
                    .errors
                    .at(mac.mac.path.span(), super::vecs::refusal(&mac.mac)),
            },
        }
    }

    pub(super) fn expr_stmt(&mut self, expr: &Expr) {
        match expr {
            Expr::Assign(assign) => self.assign(&assign.left, None, &assign.right),
            Expr::Binary(binary) if is_compound(&binary.op) => {
                self.assign(&binary.left, Some(&binary.op), &binary.right)
            }
            Expr::Binary(binary) if super::ints::is_bit_assign(&binary.op) => {
                self.bit_assign(binary)
            }
            Expr::If(branch) => {
                self.branch(branch, false);
            }
            Expr::ForLoop(for_loop) => self.for_loop(for_loop),
            Expr::While(the_loop) => self.while_loop(the_loop),
            Expr::Loop(the_loop) => {
                self.forever(the_loop, false);
            }
            Expr::Match(expr) => {
                self.match_expr(expr, ArmUse::Stmt);
            }
            // A block statement yields nothing, even if it ends in an `if` without `;`.
            Expr::Block(block) if block.label.is_none() => {
                self.tail_block(&block.block.stmts, None);
            }
            Expr::Call(call) if self.swap(call) => {}
            Expr::Call(call) => self.call_stmt(call),
            Expr::MethodCall(call) => self.method_stmt(call),
            Expr::Paren(_) | Expr::Lit(_) | Expr::Path(_) | Expr::Binary(_) => {
                self.errors.at(
                    expr.span(),
                    "this value is computed and then dropped; bind it with `let` or return it",
                );
            }
            other => self.unsupported(other),
        }
    }

    fn local(&mut self, local: &syn::Local) {
        // Where no sequence unfolded it first (`values.rs`): in a branch or a loop body.
        if let Some(stmts) = self.unfold_tuple(local) {
            return stmts.iter().for_each(|stmt| self.stmt(stmt));
        }
        if self.bind_closure(local) {
            return;
        }
        if self.array_map(local) {
            return;
        }
        let (pat, annotation) = match &local.pat {
            Pat::Type(typed) => (&*typed.pat, Some(&*typed.ty)),
            other => (other, None),
        };
        let Some(init) = &local.init else {
            self.errors.at(
                pat.span(),
                "give the variable its value where it is declared: `let x = 0.0;`",
            );
            return self.poison(pat);
        };
        // Reported, then lowered as if it were right, so that nothing else follows from it.
        if let Some(ty) = annotation {
            self.mixes(ty);
        }
        if let Some((token, _)) = &init.diverge {
            self.errors.at(
                token.span,
                "`let .. else` is not supported in `#[differentiable]` functions",
            );
            return self.poison(pat);
        }
        if let (Expr::Call(call), Some(shape)) = (
            &*init.expr,
            super::vector_call::vector_shape(pat, annotation),
        ) {
            return self.vector_local(pat, call, shape);
        }
        // `let r = pair(x);` read as `r.0`, `r.1` only (`desugar/tuple_calls.rs`), and
        // `let (a, b, ..) = pair(x);`.
        if let (Expr::Call(call), Some(fields)) = (&*init.expr, super::desugar::tuple_fields(local))
            && self.tuple_local(pat, call, &fields)
        {
            return;
        }
        if let (Expr::Call(call), Some(n), None) =
            (&*init.expr, super::desugar::tuple_leading(pat), annotation)
            && self.tuple_local(pat, call, &(0..n).collect::<Vec<_>>())
        {
            return;
        }
        if self.array_local(pat, &init.expr, annotation) {
            return;
        }
        self.local_value(pat, &init.expr, annotation);
    }

    /// `let name = ..;` of an array: `[c; n]`, `vec![..]`, a collect, a copy, a literal
    /// `[a, b]`; `false` for every other value.
    fn array_local(&mut self, pat: &Pat, init: &Expr, annotation: Option<&syn::Type>) -> bool {
        let Pat::Ident(ident) = pat else {
            return false;
        };
        let (name, span) = (ident.ident.to_string(), ident.ident.span());
        match init {
            Expr::Repeat(repeat) => {
                let parts = (&*repeat.expr, &*repeat.len);
                self.array(&name, span, parts, false);
            }
            Expr::Macro(mac) if super::vecs::is_vec(&mac.mac) => {
                self.vec_local(&name, span, &mac.mac);
            }
            Expr::MethodCall(call) if super::collect::is_collect(call) => {
                self.collect_local(&name, span, call, annotation);
            }
            Expr::MethodCall(call) if super::collect::is_copy(call) => {
                self.copy_of(&name, span, call);
            }
            Expr::Array(array) => match self.array_literal(array, Some(&name)) {
                Value::Seq(view) => self.bind(&name, view.base),
                Value::Error => self.poison(pat),
                ints => self.bind_value(&name, span, ints),
            },
            _ => return false,
        }
        true
    }

    /// `let pat = init;` of a value that is not an array, typed by `annotation` or, for a name
    /// the function does not define, by the whole function's uses (`typing.rs`).
    fn local_value(&mut self, pat: &Pat, init: &Expr, annotation: Option<&syn::Type>) {
        // `let k = K1 * K2;` of names nothing in the function decides (`typing.rs`) is read
        // as integers, as rustc reads them.
        let float = annotation.is_some_and(|ty| self.is_scalar(ty));
        let value = match (self.in_context(float, init), annotation) {
            (Value::Unknown(path), Some(ty)) if self.is_scalar(ty) => {
                Value::F64(Operand::Extern(path))
            }
            (Value::Unknown(path), Some(_)) => Value::Int(IntExpr::Extern(path)),
            // `let mut k = K;`, where no use in the function decides what `K` is (`typing.rs`):
            // a variable that changes needs its type now.
            (Value::Unknown(path), None) if matches!(pat, Pat::Ident(ident) if ident.mutability.is_some()) =>
            {
                self.errors.at(path.span, format!("cannot tell whether this is an `{float}` or an integer; annotate it: `let x: {float} = ..;`", float = self.scalar.name()))
;
                return self.poison(pat);
            }
            (value, _) => value,
        };
        if let Some(value) = self.copied(pat, init, value) {
            self.bind_pat(pat, value);
        }
    }

    pub(super) fn bind_value(&mut self, name: &str, span: proc_macro2::Span, value: Value) {
        if let Some(var) = self.value_var(name, span, value) {
            self.bind(name, var);
        }
    }

    /// A new version of `name` holding `value`.
    pub(super) fn value_var(
        &mut self,
        name: &str,
        span: proc_macro2::Span,
        value: Value,
    ) -> Option<VarId> {
        Some(match value {
            Value::F64(operand) => self.define(name, operand, span),
            Value::Int(int) => {
                let dst = self.named(name, Ty::Int, span);
                self.emit(Stmt::IntLet { dst, expr: int });
                dst
            }
            Value::Bool(cond) => {
                let dst = self.named(name, Ty::Bool, span);
                self.emit(Stmt::BoolLet { dst, cond });
                dst
            }
            value @ (Value::Seq(_) | Value::Tuple(_) | Value::Data(..)) => {
                self.alias_var(name, value, span)
            }
            // `let pi = PI;`: the name stands for the path, typed by each use as the path is.
            value @ Value::Unknown(_) => self.alias_var(name, value, span),
            Value::Error => return None,
        })
    }

    /// After an error, binds `name` to nothing, so its uses report no more.
    pub(super) fn poison_name(&mut self, name: &str, span: proc_macro2::Span) {
        let var = self.alias_var(name, Value::Error, span);
        self.bind(name, var);
    }

    /// `let name = [fill; len];`, or `vec![fill; len]` with `vec`.
    pub(super) fn array(
        &mut self,
        name: &str,
        span: proc_macro2::Span,
        (fill, len): (&Expr, &Expr),
        vec: bool,
    ) {
        // `[[c; N]; M]`: `M` rows of `N`, held as `M * N` entries.
        let (fill, row, row_len) = match strip_parens(fill) {
            Expr::Repeat(inner) if !vec => {
                let Some(row) = self.int_operand(&inner.len) else {
                    return self.poison_name(name, span);
                };
                (&*inner.expr, Some(row), Some(&*inner.len))
            }
            _ => (fill, None, None),
        };
        if let (Expr::Tuple(tuple), None) = (strip_parens(fill), &row)
            && !tuple.elems.is_empty()
            && !vec
        {
            return self.tuple_array(name, span, len, tuple.elems.len());
        }
        if let Expr::Repeat(deeper) = strip_parens(fill) {
            self.errors.at(
                deeper.span(),
                "arrays of rows are supported two levels deep, `[[0.0; N]; M]`; hold more dimensions in one of them, indexed `l[i * K + k][j]`",
            );
            return self.poison_name(name, span);
        }
        let mut filled = None;
        let len_expr = len;
        let fill = match self.expr(fill) {
            // `[b; N]` of a float variable: zeros, then `b` stored into each entry by a loop,
            // so each entry carries its adjoint back to `b` as any store does.
            Value::F64(Operand::Var(var)) => {
                filled = Some(var);
                Operand::Const(0.0)
            }
            Value::Int(_) | Value::Bool(_) | Value::Seq(_) | Value::Tuple(_) | Value::Data(..) => {
                let message = match vec {
                    true => {
                        "a `vec!` holds floats: fill it with one, `vec![0.0; n]` or `vec![b; n]`, then write each entry: `for j in 0..n { v[j] = x; }`"
                    }
                    false => {
                        "local arrays hold floats: fill them with one, `[0.0; N]` or `[b; N]`, then write each entry: `for j in 0..N { h[j] = x; }`"
                    }
                };
                self.errors.at(fill.span(), message);
                return self.poison_name(name, span);
            }
            Value::F64(constant) => constant,
            Value::Unknown(path) => Operand::Extern(path),
            Value::Error => return self.poison_name(name, span),
        };
        let Some(len) = self.int_operand(len) else {
            return self.poison_name(name, span);
        };
        let len = if vec { self.fixed(len, span) } else { len };
        let len = match &row {
            Some(row) => super::view::mul(len, row.clone()),
            None => len,
        };
        let dst = self.named(name, Ty::local(len, vec), span);
        if let Some(row) = row {
            self.rows.insert(dst, super::view::Row::Len(row));
        }
        self.emit(Stmt::Array { dst, fill });
        self.bind(name, dst);
        if let Some(var) = filled {
            self.fill_entries(name, span, var, (len_expr, row_len));
        }
    }

    /// `let pts = [(0.0, 0.0); N];`: `N` rows of `width` entries, zeros (`Lowerer::tuples`).
    /// The desugaring pass wrote it, with a loop after it storing the user's tuple into each
    /// entry (`desugar/tuple_fills.rs`), from `let pts = [(x, y); N];`.
    fn tuple_array(&mut self, name: &str, span: proc_macro2::Span, len: &Expr, width: usize) {
        let Some(rows) = self.int_operand(len) else {
            return self.poison_name(name, span);
        };
        let row = IntExpr::Lit {
            value: width as u128,
            suffix: String::new(),
        };
        let entries = super::view::mul(rows, row.clone());
        let dst = self.named(name, Ty::local(entries, false), span);
        self.rows.insert(dst, super::view::Row::Len(row));
        self.tuples.insert(dst, width as u128);
        self.emit(Stmt::Array {
            dst,
            fill: Operand::Const(0.0),
        });
        self.bind(name, dst);
    }

    /// `let h = [b; N];` (or `[[b; N]; M]`, `vec![b; n]`) of a float variable `b`, after `h`
    /// is bound to zeros: `b` held under a fresh name and stored into every entry.
    ///
    /// Before: `let mut h = [b; 4];`
    /// After: `let mut h = [0.0; 4]; for k in 0..4 { h[k] = b; }`
    fn fill_entries(
        &mut self,
        name: &str,
        span: proc_macro2::Span,
        var: VarId,
        (len, row): (&Expr, Option<&Expr>),
    ) {
        let held = crate::names::free(&mut self.used, crate::names::lowered::FILL);
        self.bind(&held.to_string(), var);
        let array = crate::names::ident(name, span);
        let k = crate::names::free(&mut self.used, crate::names::lowered::ENTRY);
        let stmt: syn::Stmt = match row {
            Some(row) => {
                let j = crate::names::free(&mut self.used, crate::names::lowered::ENTRY);
                syn::parse_quote_spanned!(span=>
                    for #k in 0..#len {
                        for #j in 0..#row {
                            #array[#k][#j] = #held;
                        }
                    }
                )
            }
            None => syn::parse_quote_spanned!(span=>
                for #k in 0..#array.len() {
                    #array[#k] = #held;
                }
            ),
        };
        self.stmt(&stmt);
    }
}

pub(super) fn is_compound(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::AddAssign(_)
            | BinOp::SubAssign(_)
            | BinOp::MulAssign(_)
            | BinOp::DivAssign(_)
            | BinOp::RemAssign(_)
    )
}

/// `expr` without the parentheses around it.
pub(super) fn strip_parens(expr: &Expr) -> &Expr {
    match expr {
        Expr::Paren(inner) => strip_parens(&inner.expr),
        Expr::Group(inner) => strip_parens(&inner.expr),
        other => other,
    }
}
