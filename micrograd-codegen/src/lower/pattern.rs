//! Tuples, array literals and fields (the patterns of `let` that take them apart are `bind.rs`'s).
//!
//! Before: `let (a, b) = (x * y, x + y); let v = [a, b]; let [p, q] = v;`
//! After: `let a = x * y; let b = x + y; let mut v = [0.0; 2]; v[0] = a; v[1] = b;`
//! `let p = v[0]; let q = v[1];`

use super::expr::Value;
use super::{Lowerer, View};
use crate::ir::{IntExpr, Operand, Origin, Stmt, Ty};
use syn::Expr;
use syn::spanned::Spanned;

impl Lowerer<'_> {
    /// `(a, b, ..)`: each element lowered in order.
    pub(super) fn tuple(&mut self, tuple: &syn::ExprTuple) -> Value {
        let values: Vec<Value> = tuple.elems.iter().map(|e| self.tuple_elem(e)).collect();
        if values.iter().any(|v| matches!(v, Value::Error)) {
            return Value::Error;
        }
        Value::Tuple(values)
    }

    /// A boolean with statements of its own is computed once, where the tuple is built.
    fn tuple_elem(&mut self, expr: &Expr) -> Value {
        match self.expr(expr) {
            Value::Bool(cond) if cond.has_stmts() => {
                let dst = self.new_var(Origin::Temp, Ty::Bool, expr.span());
                self.emit(Stmt::BoolLet { dst, cond });
                Value::Bool(crate::ir::Cond::Var(dst))
            }
            value => value,
        }
    }

    /// The message for `p.layers[i].b`, a field of an element of a parameter struct's field:
    /// read by a method of the element's struct, which the macro calls.
    fn element_field(&self, field: &syn::ExprField) -> Option<String> {
        let Expr::Index(index) = &*field.base else {
            return None;
        };
        let (root, path) = super::fields::chain(&index.expr)?;
        let binding = self.lookup(&root.to_string())?;
        if !self.structs.contains(&binding.var) {
            return None;
        }
        let key = super::fields::key(&root, &path);
        let member = quote::ToTokens::to_token_stream(&field.member);
        Some(format!(
            "`{key}[..].{member}` reads a field of an element of `{key}`, which the macro does not see into; read it in a `#[differentiable]` method of the element's struct and call that, `{key}[i].method(..)`"
        ))
    }

    /// `t.0` of a tuple.
    pub(super) fn field(&mut self, field: &syn::ExprField) -> Value {
        if let Some(value) = self.struct_field(field) {
            return value;
        }
        let syn::Member::Unnamed(index) = &field.member else {
            if let Some(message) = self.element_field(field) {
                return self.error(field.member.span(), message);
            }
            return self.error(
                field.member.span(),
                "named fields are read of parameter structs only (`p: &S`, with `#[derive(Differentiable)]` on `S`); pass the value as an `f64` parameter",
            );
        };
        if super::unsupported::second_order(&field.base) {
            return self.error(field.dot_token.span, second_order_message(&field.base));
        }
        if let Expr::Call(call) = &*field.base
            && let Some(value) = self.call_field(call, index.index)
        {
            return value;
        }
        let base = match &*field.base {
            // `pts[i].k` of an array of tuples: entry `k` of row `i`, read alone.
            Expr::Index(index) => match self.expr(&index.expr) {
                Value::Seq(view) if view.row.is_some() && self.tuples.contains_key(&view.base) => {
                    match self.int_operand(&index.index) {
                        Some(i) => Value::Seq(view.row_at(i)),
                        None => return Value::Error,
                    }
                }
                other => self.index_value(other, index),
            },
            other => self.expr(other),
        };
        match base {
            Value::Data(place, ty) => self.data_field(place, &ty, field),
            // `p.0` of a tuple of an array of tuples bound as a view (`for p in &pts`,
            // `pts.iter().map(|p| p.0)`): its entry.
            Value::Seq(view) if view.row.is_none() && self.tuples.contains_key(&view.base) => {
                if u128::from(index.index) >= self.tuples[&view.base] {
                    return self.error(index.span, "the tuple has no such element");
                }
                let k = IntExpr::Lit {
                    value: u128::from(index.index),
                    suffix: String::new(),
                };
                let at = self.entry(&view, k);
                Value::F64(self.temp(crate::ir::Op::Load(view.base, at), field.span()))
            }
            Value::Tuple(values) => match values.get(index.index as usize) {
                Some(value) => value.clone(),
                None => self.error(index.span, "the tuple has no such element"),
            },
            Value::Error => Value::Error,
            // `let r = pair(x);` whose name is also used otherwise (`tuple_calls.rs`).
            Value::F64(Operand::Var(var)) if self.returned_by_call(var) => {
                // Reported once: the name's other uses say nothing more.
                if let Expr::Path(path) = &*field.base
                    && let Some(name) = path.path.get_ident()
                {
                    let var = self.alias_var(&name.to_string(), Value::Error, name.span());
                    self.rebind(&name.to_string(), var);
                }
                self.error(
                    field.dot_token.span,
                    "this holds what a call returned, read as one value since it is also used whole (assigned, passed on, copied); read a tuple a call returns by its fields only (`r.0`, `r.1`), or bind them: `let (a, b) = g(..);`",
                )
            }
            _ => self.error(field.dot_token.span, "only tuples have fields `t.0` here"),
        }
    }

    /// `p.w` or `p.layer.b` of a parameter struct `p` (not shadowed by a local): the variable
    /// the field was lowered to.
    fn struct_field(&mut self, field: &syn::ExprField) -> Option<Value> {
        let (root, path) = super::fields::chain(&Expr::Field(field.clone()))?;
        let binding = self.lookup(&root.to_string())?;
        if !self.structs.contains(&binding.var) {
            return None;
        }
        let var = *self.fields.get(&super::fields::key(&root, &path))?;
        if let Some(value) = self.aliases.get(&var) {
            return Some(value.clone());
        }
        Some(match self.ty(var) {
            Ty::F64 => Value::F64(Operand::Var(var)),
            Ty::Int => Value::Int(IntExpr::Var(var)),
            Ty::Bool => Value::Bool(crate::ir::Cond::Var(var)),
            Ty::Floats { .. } => Value::Seq(View::whole(var)),
            Ty::Data(_) => Value::Error,
        })
    }

    /// `[a, b, c]`: a local array of the elements.
    ///
    /// Before: `[a, b * 2.0]` After: `let mut t = [0.0; 2]; t[0] = a; let t1 = b * 2.0; t[1] = t1;`
    pub(super) fn array_literal(&mut self, array: &syn::ExprArray, name: Option<&str>) -> Value {
        let elems: Vec<&Expr> = array.elems.iter().collect();
        if !elems.is_empty() && elems.iter().all(|e| self.int_like(e, true)) {
            return self.int_array(&elems);
        }
        if let Some(rows) = rows(&elems) {
            return self.rows_of(&rows, name, array.span(), false);
        }
        if let Some(tuples) = tuples(&elems) {
            return self.rows_of(&tuples, name, array.span(), true);
        }
        self.array_of(&elems, name, array.span(), false)
    }

    /// `[[a, b], [c, d]]`: a local array of the rows' entries one after the other, whose
    /// rows are `rows[0].len()` long. `[(a, b), (c, d)]` (`tuple`) is held the same way, its
    /// entries floats, and indexing it yields a tuple of the row's entries.
    pub(super) fn rows_of(
        &mut self,
        rows: &[(proc_macro2::Span, Vec<&Expr>)],
        name: Option<&str>,
        span: proc_macro2::Span,
        tuple: bool,
    ) -> Value {
        let width = rows[0].1.len();
        if let Some((other, elems)) = rows.iter().find(|(_, elems)| elems.len() != width) {
            let message = match tuple {
                true => format!(
                    "the tuples of an array are of one type: this one has {} elements, the first {width}",
                    elems.len()
                ),
                false => format!(
                    "the rows of an array are equally long: this one has {} entries, the first {width}",
                    elems.len()
                ),
            };
            return self.error(*other, message);
        }
        let entries: Vec<&Expr> = rows
            .iter()
            .flat_map(|(_, elems)| elems.iter().copied())
            .collect();
        if tuple && let Some(int) = entries.iter().find(|e| self.int_like(e, true)) {
            return self.error(
                int.span(),
                "an array of tuples holds floats, `[(0.0, 1.0), (1.0, 2.5)]`; keep integers in an array of their own",
            );
        }
        let value = self.array_of(&entries, name, span, false);
        if let Value::Seq(view) = &value {
            let row = IntExpr::Lit {
                value: width as u128,
                suffix: String::new(),
            };
            let row = super::view::Row::Len(row);
            self.rows.insert(view.base, row.clone());
            if tuple {
                self.tuples.insert(view.base, width as u128);
            }
            return Value::Seq(View::rows_of(view.base, Some(row)));
        }
        value
    }

    /// A local array (a `Vec` with `vec`) of the values of `elems`, bound to `name` if any.
    pub(super) fn array_of(
        &mut self,
        elems: &[&Expr],
        name: Option<&str>,
        span: proc_macro2::Span,
        vec: bool,
    ) -> Value {
        let elems: Vec<Option<Operand>> = elems.iter().map(|e| self.f64_operand(e)).collect();
        let Some(elems) = elems.into_iter().collect::<Option<Vec<_>>>() else {
            return Value::Error;
        };
        let len = IntExpr::Lit {
            value: elems.len() as u128,
            suffix: String::new(),
        };
        let origin = match name {
            Some(name) => self.next_version(name),
            None => Origin::Temp,
        };
        let dst = self.new_var(origin, Ty::local(len, vec), span);
        self.emit(Stmt::Array {
            dst,
            fill: Operand::Const(0.0),
        });
        for (i, value) in elems.into_iter().enumerate() {
            let index = IntExpr::Lit {
                value: i as u128,
                suffix: String::new(),
            };
            self.emit(Stmt::Store {
                array: dst,
                index,
                value,
            });
        }
        Value::Seq(View::whole(dst))
    }

    /// `[4, 7, 3]` or `[i, n - 1]`, whose entries are integers: a tuple of them, read where it
    /// is indexed (`[IntExpr::Pick]`), since integers are never differentiated.
    fn int_array(&mut self, elems: &[&Expr]) -> Value {
        let entries: Option<Vec<Value>> = elems
            .iter()
            .map(|e| self.int_operand(e).map(Value::Int))
            .collect();
        entries.map_or(Value::Error, Value::Tuple)
    }

    /// `t[i]` of a tuple of integers (an array of them): the entry.
    pub(super) fn int_entry(&mut self, entries: Vec<Value>, index: &syn::ExprIndex) -> Value {
        let Some(ints) = int_entries(&entries) else {
            return self.error(
                index.expr.span(),
                "this is a tuple: take its elements with `t.0` or `let (a, b) = t;`",
            );
        };
        let Some(i) = self.int_operand(&index.index) else {
            return Value::Error;
        };
        match i {
            IntExpr::Lit { value, .. } if (value as usize) < ints.len() => {
                Value::Int(ints[value as usize].clone())
            }
            i => Value::Int(IntExpr::Pick(ints, Box::new(i))),
        }
    }
}

/// The entries of a tuple of integers (an array of them, `[4, 7, 3]`), or `None` for any
/// other tuple.
pub(super) fn int_entries(entries: &[Value]) -> Option<Vec<IntExpr>> {
    entries
        .iter()
        .map(|entry| match entry {
            Value::Int(int) => Some(int.clone()),
            _ => None,
        })
        .collect()
}

/// What to write instead of differentiating `g_grad(..).k`: the second-order flavours of `g`,
/// named after it, called outside the differentiated function.
fn second_order_message(base: &Expr) -> String {
    let called = match base {
        Expr::Call(call) => match &*call.func {
            Expr::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        },
        _ => None,
    };
    let called = called.unwrap_or_default();
    let g = ["_grad", "_pullback", "_graph"]
        .iter()
        .find_map(|suffix| called.strip_suffix(suffix))
        .unwrap_or(&called);
    format!(
        "`{called}(..)` is generated code, which `#[differentiable]` does not differentiate again; for second derivatives add `hvp` or `hessian` to `{g}`'s attribute, `#[differentiable(hvp)]` or `#[differentiable(hessian)]`, and call `{g}_hvp` (a Hessian-vector product) or `{g}_hessian` (the whole Hessian) instead"
    )
}

/// The rows of `[[a, b], [c, d]]`: every entry an array literal, none empty.
fn rows<'a>(elems: &[&'a Expr]) -> Option<Vec<(proc_macro2::Span, Vec<&'a Expr>)>> {
    let rows: Option<Vec<_>> = elems
        .iter()
        .map(|elem| match elem {
            Expr::Array(row) if !row.elems.is_empty() => {
                Some((row.span(), row.elems.iter().collect()))
            }
            _ => None,
        })
        .collect();
    rows.filter(|rows| !rows.is_empty())
}

/// The tuples of `[(a, b), (c, d)]`: every entry a tuple literal, none empty.
pub(super) fn tuples<'a>(elems: &[&'a Expr]) -> Option<Vec<(proc_macro2::Span, Vec<&'a Expr>)>> {
    let tuples: Option<Vec<_>> = elems
        .iter()
        .map(|elem| match elem {
            Expr::Tuple(tuple) if !tuple.elems.is_empty() => {
                Some((tuple.span(), tuple.elems.iter().collect()))
            }
            _ => None,
        })
        .collect();
    tuples.filter(|tuples| !tuples.is_empty())
}
