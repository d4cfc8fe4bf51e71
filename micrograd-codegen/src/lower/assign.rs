//! Assignments: `x = ..` and `x += ..` of a name, `w[i] = ..` and `w[i] += ..` of an entry,
//! `p.field = ..` of a struct's.

use super::expr::{Value, arith_op};
use super::view::View;
use super::{Binding, Lowerer};
use crate::ir::{IntExpr, IntOp, Op, Operand, Stmt, Ty, VarId};
use syn::spanned::Spanned;
use syn::{BinOp, Expr};

impl Lowerer<'_> {
    pub(super) fn assign(&mut self, left: &Expr, op: Option<&BinOp>, right: &Expr) {
        if self.struct_write(left) {
            return;
        }
        match left {
            Expr::Path(path) if path.path.get_ident().is_some() => {
                let ident = path
                    .path
                    .get_ident()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                self.assign_var(&ident, left, op, right);
            }
            Expr::Index(index) => self.store(index, op, right),
            // `pts[i].0 = ..` of an array of tuples: entry 0 of row `i`.
            Expr::Field(syn::ExprField {
                member: syn::Member::Unnamed(k),
                base,
                ..
            }) if matches!(&**base, Expr::Index(_)) => {
                if let Expr::Index(index) = &**base {
                    self.store_tuple_field(index, k, op, right);
                }
            }
            other => {
                self.errors.at(
                    other.span(),
                    "assign to a variable or to an entry `h[j]` of a local array",
                );
            }
        }
    }

    /// Whether `left` (`p.w`, `p.w[i]`, `self.n`) is a field of a parameter struct, which the
    /// function reads and never writes: one error at it saying so.
    fn struct_write(&mut self, left: &Expr) -> bool {
        let mut target = left;
        while let Expr::Index(index) = target {
            target = &index.expr;
        }
        let Some((root, path)) = super::fields::chain(target).filter(|(_, path)| !path.is_empty())
        else {
            return false;
        };
        let is_struct = self
            .lookup(&root.to_string())
            .is_some_and(|binding| self.structs.contains(&binding.var));
        if is_struct {
            let key = super::fields::key(&root, &path);
            let last = crate::names::text(path.last().expect("a field"));
            self.errors.at(
                target.span(),
                format!("`{key}` is a field of a parameter struct, which `#[differentiable]` reads and never writes; compute into a local (`let mut {last} = {key};`) and return the new value for the caller to store"),
            );
        }
        is_struct
    }

    fn assign_var(&mut self, name: &str, left: &Expr, op: Option<&BinOp>, right: &Expr) {
        let Some(binding) = self.lookup(name) else {
            self.errors.at(
                left.span(),
                format!("`{name}` is not a variable of this function"),
            );
            return;
        };
        match self.aliases.get(&binding.var) {
            Some(Value::Error) => return,
            Some(_) => {
                self.errors.at(left.span(), format!("`{name}` names a view or a tuple, which cannot be assigned; bind a new one with `let`"));
                return;
            }
            None => {}
        }
        let ty = self.ty(binding.var).clone();
        if ty != Ty::F64 {
            return self.assign_passive(name, binding, &ty, left, op, right);
        }
        let Some(value) = self.f64_operand(right) else {
            return;
        };
        // For primitives Rust evaluates the right side of `x op= value` first: read `x` after it.
        let old = Operand::Var(self.lookup(name).map_or(binding.var, |b| b.var));
        let value = match op.and_then(arith_op) {
            None => value,
            Some(IntOp::Add) => self.temp(Op::Add(old, value), left.span()),
            Some(IntOp::Sub) => self.temp(Op::Sub(old, value), left.span()),
            Some(IntOp::Mul) => self.temp(Op::Mul(old, value), left.span()),
            Some(IntOp::Div) => self.temp(Op::Div(old, value), left.span()),
            Some(IntOp::Rem) => {
                self.temp(Op::Call2(crate::ir::Func2::Rem, old, value), left.span())
            }
        };
        let var = self.define(name, value, left.span());
        self.rebind(name, var);
    }

    fn assign_passive(
        &mut self,
        name: &str,
        binding: Binding,
        ty: &Ty,
        left: &Expr,
        op: Option<&BinOp>,
        right: &Expr,
    ) {
        if ty.is_local() && op.is_none() && self.whole_assign(binding.var, left, right) {
            return;
        }
        if ty.is_floats() && matches!(right, Expr::Call(_)) && op.is_none() {
            // `h = g(..)` takes the call's outputs apart by `h`'s length (`vector_call.rs`).
            let float = self.scalar.name();
            self.errors.at(left.span(), format!("a call returning several values is assigned to a local array of a literal length, `let mut h = [0.0; M];`, which says how many; bind this one to a new one instead, `let r: [{float}; M] = g(..);`"));
            return;
        }
        if ty.is_floats() {
            self.errors.at(
                left.span(),
                "this array is updated entry by entry, `h[j] = ..` (`l[i][j] = ..` of rows); a local array of floats is assigned whole from another of its length, a fill or a literal: `h = h_new;`, `h = [0.0; N];`, `h = [a, b];` (of rows `l = [[0.0; N]; M];`, `l = [[a, b], [c, d]];`)",
            );
            return;
        }
        let value = self.expr(right);
        let value = match (op.and_then(arith_op), value) {
            // A name the function does not define, assigned to an integer, is one.
            (None, Value::Unknown(path)) if *ty == Ty::Int => Value::Int(IntExpr::Extern(path)),
            (None, value) => value,
            (Some(op), Value::Int(int)) => Value::Int(IntExpr::Binary(
                op,
                Box::new(IntExpr::Var(binding.var)),
                Box::new(int),
            )),
            // Reported where the value went wrong.
            (Some(_), Value::Error) => return,
            (Some(_), _) => {
                self.errors.at(
                    right.span(),
                    "compound assignment to an integer takes an integer",
                );
                return;
            }
        };
        if let Some(var) = self.value_var(name, left.span(), value) {
            self.rebind(name, var);
        }
    }

    fn store(&mut self, index: &syn::ExprIndex, op: Option<&BinOp>, right: &Expr) {
        let array = match self.expr(&index.expr) {
            // `l[i][j] = ..` writes entry `j` of the view of row `i`.
            Value::Seq(view) if view.row.is_none() && self.ty(view.base).is_writable() => view,
            Value::Seq(view) if self.tuples.contains_key(&view.base) => {
                let width = self.tuples[&view.base];
                return self.store_tuple(&view, width, index, op, right);
            }
            Value::Seq(view) if view.row.is_some() => {
                self.errors.at(
                    index.expr.span(),
                    "rows are written entry by entry: `l[i][j] = ..`",
                );
                return;
            }
            Value::Error => return,
            _ => {
                self.errors.at(
                    index.expr.span(),
                    "only local arrays `let mut h = [0.0; N];` and `w: &mut [f64]` parameters can be written to, entry by entry",
                );
                return;
            }
        };
        let Some(at) = self.int_operand(&index.index) else {
            return;
        };
        let (at, array) = (self.entry(&array, at), array.base);
        let Some(value) = self.f64_operand(right) else {
            return;
        };
        self.store_value((array, at), op, value, index.span());
    }

    /// `pts[i] = (x, y);` of an array of tuples of `width` elements (`pts` lowered to `view`):
    /// each element stored into its entry of row `i`.
    fn store_tuple(
        &mut self,
        view: &View,
        width: u128,
        index: &syn::ExprIndex,
        op: Option<&BinOp>,
        right: &Expr,
    ) {
        if op.is_some() {
            self.errors.at(
                index.span(),
                "a tuple is assigned whole, `pts[i] = (x, y);`, or element by element, `pts[i].0 += x;`",
            );
            return;
        }
        let Some(i) = self.int_operand(&index.index) else {
            return;
        };
        let row = view.row_at(i);
        let values = match self.expr(right) {
            Value::Tuple(values) if values.len() as u128 == width => values,
            Value::Error => return,
            _ => {
                self.errors.at(
                    right.span(),
                    format!(
                        "an entry of this array is a tuple of {width} floats: assign one, `(x, y)`"
                    ),
                );
                return;
            }
        };
        let mut operands = Vec::new();
        for value in values {
            match value {
                Value::F64(operand) => operands.push(operand),
                Value::Unknown(path) => operands.push(Operand::Extern(path)),
                Value::Error => return,
                _ => {
                    self.errors
                        .at(right.span(), "an array of tuples holds floats");
                    return;
                }
            }
        }
        for (k, value) in operands.into_iter().enumerate() {
            let at = self.entry(&row, int_lit(k as u128));
            self.store_value((row.base, at), None, value, index.span());
        }
    }

    /// `pts[i].k = ..` (or `+=`, ...) of an array of tuples: entry `k` of row `i`.
    fn store_tuple_field(
        &mut self,
        index: &syn::ExprIndex,
        k: &syn::Index,
        op: Option<&BinOp>,
        right: &Expr,
    ) {
        let (view, width) = match self.expr(&index.expr) {
            Value::Seq(view) if self.tuples.contains_key(&view.base) => {
                let width = self.tuples[&view.base];
                (view, width)
            }
            Value::Error => return,
            _ => {
                self.errors.at(
                    index.span(),
                    "assign to a variable, to an entry `h[j]` of a local array or to an element `pts[i].0` of an array of tuples",
                );
                return;
            }
        };
        if u128::from(k.index) >= width {
            self.errors.at(k.span, "the tuple has no such element");
            return;
        }
        let Some(i) = self.int_operand(&index.index) else {
            return;
        };
        let row = view.row_at(i);
        let at = self.entry(&row, int_lit(u128::from(k.index)));
        let Some(value) = self.f64_operand(right) else {
            return;
        };
        self.store_value((row.base, at), op, value, index.span());
    }

    /// Stores `value` into entry `at` of `array`, or adds it (`op`, `+=`, ...).
    fn store_value(
        &mut self,
        (array, at): (VarId, IntExpr),
        op: Option<&BinOp>,
        value: Operand,
        span: proc_macro2::Span,
    ) {
        let stmt = match op.and_then(arith_op) {
            None => Stmt::Store {
                array,
                index: at,
                value,
            },
            Some(op @ (IntOp::Add | IntOp::Sub)) => Stmt::StoreAdd {
                array,
                index: at,
                value,
                negate: op == IntOp::Sub,
            },
            Some(op) => {
                let old = self.temp(Op::Load(array, at.clone()), span);
                let new = match op {
                    IntOp::Mul => self.temp(Op::Mul(old, value), span),
                    IntOp::Div => self.temp(Op::Div(old, value), span),
                    _ => {
                        self.errors.at(
                            span,
                            format!(
                                "`%=` is not supported on `{float}`",
                                float = self.scalar.name()
                            ),
                        );
                        return;
                    }
                };
                Stmt::Store {
                    array,
                    index: at,
                    value: new,
                }
            }
        };
        self.emit(stmt);
    }
}

fn int_lit(value: u128) -> IntExpr {
    IntExpr::Lit {
        value,
        suffix: String::new(),
    }
}
