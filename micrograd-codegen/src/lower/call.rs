//! Calls to other `#[differentiable]` functions and their arguments (methods are
//! [`apply`](super::apply)'s).

mod lent;

use super::Lowerer;
use super::expr::Value;
use super::paths::Named;
use crate::ir::{Arg, Cond, Op, Operand, Origin, Stmt, Ty};
use syn::Expr;
use syn::spanned::Spanned;

/// `expr` without the parentheses around it.
pub(super) fn strip(expr: &Expr) -> &Expr {
    match expr {
        Expr::Paren(inner) => strip(&inner.expr),
        Expr::Group(inner) => strip(&inner.expr),
        other => other,
    }
}

/// Where an argument lent as `&mut` is named: `h` of `&mut h` (a span cannot cover two tokens).
fn lent_span(expr: &Expr) -> proc_macro2::Span {
    match strip(expr) {
        Expr::Reference(reference) => lent_span(&reference.expr),
        Expr::Index(index) => lent_span(&index.expr),
        other => other.span(),
    }
}

impl Lowerer<'_> {
    pub(super) fn call(&mut self, call: &syn::ExprCall) -> Value {
        if let Some(value) = self.call_closure(call) {
            return value;
        }
        let Expr::Path(path) = &*call.func else {
            return self.error(
                call.func.span(),
                "only functions called by name can be differentiated",
            );
        };
        if let Some(message) = super::collect::growing(path) {
            return self.error(path.span(), message);
        }
        let callee = match super::paths::classify(path, self.scalar) {
            Named::Method(name) => return self.associated(&name, path, &call.args),
            Named::Other(callee) => callee,
            // `T::PI()`: a generic float's `FloatConst` constants are functions.
            Named::F64(_) if self.scalar.is_generic() && call.args.is_empty() => {
                let name = path.path.segments.last().map(|s| s.ident.to_string());
                let name = name.unwrap_or_default();
                return self
                    .generic_constant(&name, path, &[])
                    .unwrap_or(Value::Error);
            }
            Named::F64(_) | Named::Int(_) => {
                return self.error(path.span(), "a constant cannot be called");
            }
            Named::Mixed(found) => {
                self.errors.mixed(path.span(), self.scalar, found);
                return Value::Error;
            }
        };
        match self.args(call, false) {
            Some(args) => {
                let callee =
                    callee.with_args_at(call.args.iter().map(crate::spine::first_span).collect());
                let value = self.temp(Op::Call(callee, args), path.span());
                self.write_back();
                Value::F64(value)
            }
            None => {
                self.written_back.clear();
                Value::Error
            }
        }
    }

    /// The arguments of `call`, of which any may be lent as `&mut` (their entries are
    /// recorded, then read back in the order they were), and none for a callee returning
    /// `several` values (each output's pullback would write it again).
    pub(super) fn args(&mut self, call: &syn::ExprCall, several: bool) -> Option<Vec<Arg>> {
        let mut lent = 0;
        let mut args = Some(Vec::new());
        // A `&mut [f64]` parameter passed bare, which the macro takes as lent: the callee's
        // signature, which says whether it only reads it, is not visible here.
        let mut bare = None;
        // Rows of their own lengths passed whole, once per call (a second shadow of their
        // shape cannot borrow `d_w` again).
        let mut whole_rows = Vec::new();
        for expr in &call.args {
            let arg = self.arg(expr);
            if let Some(Arg::Slice {
                array,
                lo: None,
                hi: None,
                ..
            }) = &arg
                && self.rows.get(array) == Some(&super::view::Row::Own)
            {
                if whole_rows.contains(array) {
                    self.errors.spanned(expr, "rows of their own lengths are passed whole once per call; pass them once and read them twice in the callee");
                    args = None;
                }
                whole_rows.push(*array);
            }
            if arg.as_ref().is_some_and(Arg::is_mut) {
                lent += 1;
                if let Expr::Path(path) = strip(expr)
                    && let Some(name) = path.path.get_ident()
                {
                    bare.get_or_insert_with(|| name.to_string());
                }
                let refused = if several {
                    Some(
                        "a function returning several values cannot be lent an array as `&mut` (each output's pullback would write it again); return one `f64` from the function that writes it",
                    )
                } else if lent > 1
                    && let Some(name) = &bare
                {
                    self.errors.at(lent_span(expr), format!("`{name}`, a `&mut [f64]` parameter passed as itself, is taken as lent, and beside another lent array the macro cannot tell whether the callee writes it: pass `&{name}[..]` if it only reads it, `&mut {name}[..]` if it writes it"));
                    args = None;
                    None
                } else {
                    None
                };
                if let Some(message) = refused {
                    self.errors.at(lent_span(expr), message);
                    args = None;
                }
            }
            args = args.zip(arg).map(|(mut args, arg)| {
                args.push(arg);
                args
            });
        }
        args
    }

    pub(super) fn arg(&mut self, expr: &Expr) -> Option<Arg> {
        let value = match strip(expr) {
            Expr::Reference(reference) if reference.mutability.is_some() => {
                return self.mut_arg(reference);
            }
            inner => self.expr(inner),
        };
        // `&v` of what a call returned, bound without a type: the macro cannot see the
        // callee's signature, and most often it returned `[f64; M]`.
        if let Value::F64(Operand::Var(var)) = &value
            && let Expr::Reference(reference) = strip(expr)
            && matches!(&*reference.expr, Expr::Path(_))
            && self.returned_by_call(*var)
        {
            let float = self.scalar.name();
            self.errors.at(
                reference.expr.span(),
                format!("this holds what a call returned, taken for one `{float}`; if it returns `[{float}; M]` and the macro cannot reach its output count (a method of an element or of a field, `self.layers[i].g(..)`), say so where it is bound: `let v: [{float}; M] = ..;`, and if it is one `{float}` for a `&{float}` parameter, pass `&(v)`"),
            );
            return None;
        }
        match value {
            // `&y` or `&(expr)` to a `&f64` parameter, or a `&f64` parameter passed on by its
            // name: passed as an `f64` is, borrowed.
            Value::F64(operand) => {
                let reference = match strip(expr) {
                    Expr::Reference(_) => true,
                    Expr::Path(_) => {
                        matches!(operand, Operand::Var(var) if self.scalar_refs.contains(&var))
                    }
                    _ => false,
                };
                Some(Arg::Scalar(operand, reference))
            }
            Value::Int(int) => Some(Arg::Int(int)),
            Value::Bool(cond) => Some(Arg::Bool(self.bool_arg(cond, expr.span()))),
            Value::Seq(view) => self.seq_arg(expr, view),
            // A callee would differentiate an `&[f64]`, and its flavours take a shadow for it.
            Value::Data(_, ty) if ty.is_float_sequence() => {
                self.errors.spanned(expr, "this is data, but a `#[differentiable]` function differentiates the floats it is handed; copy them into a local array first, `let p = [pts[i][0], pts[i][1]];`, and pass that");
                None
            }
            Value::Data(place, ty) => {
                let reference = matches!(strip(expr), Expr::Reference(_));
                Some(Arg::Data {
                    place,
                    reference,
                    clone: !reference && !ty.is_copy(),
                })
            }
            Value::Tuple(_) => {
                self.errors.at(
                    expr.span(),
                    "tuples cannot be passed to `#[differentiable]` functions; pass their elements",
                );
                None
            }
            Value::Unknown(path) => self.outside_arg(path),
            Value::Error => None,
        }
    }

    /// A slice, array or view argument: lent whole where it is a `&mut [f64]` parameter
    /// passed by name, by value where it is an array, rows passed whole.
    fn seq_arg(&mut self, expr: &Expr, view: super::View) -> Option<Arg> {
        // A `y: &mut f64` is a one-entry slice to the generated code.
        if self.scalar_muts.contains(&view.base) {
            self.refuse_scalar_mut(expr.span());
            return None;
        }
        if self.tuples.contains_key(&view.base) {
            self.errors.spanned(expr, "an array of tuples is not passed to `#[differentiable]` functions; pass the floats of its tuples, `g(pts[i].0, pts[i].1)`, or hold them as rows, `[[x, y], ..]`, and pass `&rows`");
            return None;
        }
        if view.row == Some(super::view::Row::Own) {
            // `g(w)` of `w: &[Vec<f64>]`, the rows whole (a part of them is refused where it
            // is taken, `view::sub_slice`), passed as they came with their shadow and tangent.
            return Some(view.arg(false, false));
        }
        if view.row.is_some() {
            // `g(m)` of a matrix by value, a local or a `[[f64; N]; M]` parameter.
            if view.is_whole() && self.is_array_value(expr, view.base) {
                self.errors.spanned(expr, "a matrix is passed to a `#[differentiable]` function by reference: take `m: &[[f64; N]; M]` (or `&[[f64; N]]`) in the function and pass `&m`");
                return None;
            }
            // `g(a)` of `a: &[[f64; N]]`, `g(&l)` of a local matrix: rows, passed whole.
            if view.is_whole() {
                return Some(view.rows_arg());
            }
            self.errors.at(expr.span(), ROWS_TO_CALLS);
            return None;
        }
        // `g(w)` of a `&mut [f64]` parameter lends it whole, and `g` may write it.
        let lent = view.is_whole()
            && matches!(strip(expr), Expr::Path(_))
            && self.ty(view.base).is_lent_mut();
        let by_value = !lent && view.is_whole() && self.is_array_value(expr, view.base);
        Some(view.arg(by_value, lent))
    }

    /// `let pi = PI;` passed as `g(pi)`, where no use in the function decides what `PI` is
    /// (`typing.rs`; the macro cannot see `g`'s signature).
    fn outside_arg(&mut self, path: crate::ir::Extern) -> Option<Arg> {
        self.errors.at(path.span, format!("cannot tell whether this is an `{float}` or an integer; bind it with `let x: {float} = ..;` first", float = self.scalar.name()));
        None
    }

    /// `g(&mut h, u);`: a call made for the array it writes, its value dropped.
    pub(super) fn call_stmt(&mut self, call: &syn::ExprCall) {
        let value = self.call(call);
        let Value::F64(Operand::Var(var)) = value else {
            return;
        };
        // The call just lowered, marked dropped: its callee may return `()`. (What it wrote
        // into a local `f64` lent as `&mut e` is read back after it.)
        let block = self.blocks.last_mut();
        let lowered = block.and_then(|block| {
            let at = block.iter().rposition(
                |stmt| matches!(stmt, Stmt::Assign { dst, op: Op::Call(..) } if *dst == var),
            );
            at.map(|at| &mut block[at])
        });
        let lent = match lowered {
            Some(Stmt::Assign {
                dst,
                op: Op::Call(callee, args),
            }) if *dst == var && args.iter().any(Arg::is_mut) => {
                callee.dropped = true;
                true
            }
            _ => false,
        };
        if !lent {
            self.errors.at(
                call.span(),
                "this value is computed and then dropped; bind it with `let` or return it (a call made for the array it writes passes it as `&mut h`)",
            );
            return;
        }
        self.vars[var.0 as usize].origin = self.next_version("_discarded");
    }

    /// Whether the argument `expr`, a whole array or slice `base`, is passed by value: `a` of
    /// a local array or of an array parameter taken by value, `*r`, a literal `[x, y]`. A
    /// reference `&a`, or the name of a reference parameter, is passed by reference.
    fn is_array_value(&self, expr: &Expr, base: crate::ir::VarId) -> bool {
        match expr {
            Expr::Paren(inner) => self.is_array_value(&inner.expr, base),
            Expr::Group(inner) => self.is_array_value(&inner.expr, base),
            Expr::Unary(unary) => matches!(unary.op, syn::UnOp::Deref(_)),
            Expr::Array(_) | Expr::Repeat(_) => true,
            Expr::Path(path) => {
                let own = path
                    .path
                    .get_ident()
                    .and_then(|ident| self.lookup(&ident.to_string()))
                    .is_some_and(|binding| binding.var == base);
                own && (self.ty(base).is_local() || self.ty(base).is_given())
            }
            _ => false,
        }
    }

    /// Whether `var` is the value of a call to another function, in the blocks being lowered.
    pub(super) fn returned_by_call(&self, var: crate::ir::VarId) -> bool {
        self.blocks
            .iter()
            .flatten()
            .any(|stmt| matches!(stmt, Stmt::Assign { dst, op: Op::Call(..) } if *dst == var))
    }

    /// A boolean argument. The reverse sweep passes the arguments again to the pullback, so
    /// a condition with statements of its own (`a || { let t = x.hypot(b); t < 1.0 }`) is
    /// evaluated once into a variable, which the reverse sweep reads like any other.
    fn bool_arg(&mut self, cond: Cond, span: proc_macro2::Span) -> Cond {
        if !cond.has_stmts() {
            return cond;
        }
        let dst = self.new_var(Origin::Temp, Ty::Bool, span);
        self.emit(Stmt::BoolLet { dst, cond });
        Cond::Var(dst)
    }
}

/// Why part of an array of rows is not passed to a call.
const ROWS_TO_CALLS: &str = "an array of rows is passed to a `#[differentiable]` function whole (`g(a)`, `g(&l)` to a `&[[f64; N]]` parameter) or row by row (`g(&l[i])` to a `&[f64]` parameter), not in part";
