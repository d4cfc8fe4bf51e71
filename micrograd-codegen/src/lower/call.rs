//! Method calls on `f64`, calls to other `#[differentiable]` functions, and their arguments.

use super::Lowerer;
use super::expr::Value;
use super::paths::Named;
use crate::ir::{Arg, Cond, Func, Func2, Func3, IntExpr, Op, Operand, Origin, Stmt, Ty};
use syn::Expr;
use syn::spanned::Spanned;

/// The methods `receiver.name(..)` accepts besides those of [`Func`] and [`Func2`].
const OTHER_METHODS: [&str; 1] = ["powi"];

/// `expr` without the parentheses around it.
fn strip(expr: &Expr) -> &Expr {
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

/// Every supported method of `f64`, for error messages, without `except`.
fn methods(except: &str) -> String {
    let names = Func::ALL.iter().map(|f| f.name());
    let names = names.chain(
        Func2::ALL
            .iter()
            .filter(|f| **f != Func2::Rem)
            .map(|f| f.name()),
    );
    let names = names.chain(Func3::ALL.iter().map(|f| f.name()));
    let names: Vec<&str> = names
        .chain(OTHER_METHODS)
        .chain(super::derived::DERIVED)
        .filter(|n| *n != except)
        .collect();
    names.join(", ")
}

impl Lowerer<'_> {
    pub(super) fn method(&mut self, call: &syn::ExprMethodCall) -> Value {
        let name = call.method.to_string();
        let span = call.method.span();
        if super::iter::is_iterator_method(&name) {
            return self.iterator(call);
        }
        if super::collect::is_collect(call) {
            let float = self.scalar.name();
            return self.error(span, format!("`collect` makes a `Vec` bound by a `let` outside loops: `let v: Vec<{float}> = w.iter().map(|x| ..).collect();`, then use `v`"));
        }
        if call.turbofish.is_some() {
            return self.error(span, "turbofish `::<>` is not supported here");
        }
        if let Some(value) = self.generic_from(call) {
            return value;
        }
        // `(PI * K).tanh()`, `({ ..; cl(a) + cl(b) }).relu()`: names the function does not
        // define are floats where only a float has the method, however deep in the receiver.
        let float_only =
            !super::ints::is_int_method(&name) && !matches!(&*name, "len" | "is_empty");
        let receiver = match float_only {
            true => self.in_context(true, &call.receiver),
            false => self.expr(&call.receiver),
        };
        let args: Vec<&Expr> = call.args.iter().collect();
        self.apply(&name, span, receiver, &args)
    }

    /// `receiver.name(args)`, also reached from `f64::name(receiver, args)`.
    fn apply(
        &mut self,
        name: &str,
        span: proc_macro2::Span,
        receiver: Value,
        args: &[&Expr],
    ) -> Value {
        if self.scalar == crate::ir::Scalar::Generic
            && matches!(name, "relu" | "sigmoid" | "detach")
        {
            let float = self.scalar.name();
            return self.error(span, format!("`{name}` is micrograd_runtime's method of `f64` and `f32`, not of a generic `{float}`; write it out (`x.max({float}::zero())` for `relu`, `{float}::one() / ({float}::one() + (-x).exp())` for `sigmoid`)"));
        }
        let receiver = match receiver {
            Value::Seq(view) if name == "len" && args.is_empty() => {
                return Value::Int(view.count());
            }
            Value::Data(place, ty) if name == "len" && args.is_empty() => {
                return self.data_len(place, &ty, span);
            }
            // `a.is_empty()` is `a.len() == 0`, a condition on the length `len()` gives.
            receiver @ (Value::Seq(_) | Value::Data(..))
                if name == "is_empty" && args.is_empty() =>
            {
                return is_empty(self.apply("len", span, receiver, args));
            }
            Value::Int(a) if name == "min" && args.len() == 1 => {
                return match self.int_operand(args[0]) {
                    Some(b) => Value::Int(IntExpr::Min(Box::new(a), Box::new(b))),
                    None => Value::Error,
                };
            }
            Value::Int(a) if super::ints::is_int_method(name) => {
                return self.int_method(name, span, a, args);
            }
            Value::Tuple(entries)
                if name == "len"
                    && args.is_empty()
                    && super::pattern::int_entries(&entries).is_some() =>
            {
                return Value::Int(IntExpr::Lit {
                    value: entries.len() as u128,
                    suffix: String::new(),
                });
            }
            Value::Unknown(outside) if name == "len" && args.is_empty() => {
                return self.outside_sequence(&outside, span);
            }
            Value::F64(operand) => operand,
            Value::Unknown(path) => Operand::Extern(path),
            Value::Error => return Value::Error,
            other => return self.wrong_receiver(name, span, &other),
        };
        match (Func::from_name(name), Func2::from_name(name), args) {
            (None, None, []) if let Some(value) = self.derived(name, span, receiver.clone()) => {
                value
            }
            (Some(f), _, []) => Value::F64(self.temp(Op::Call1(f, receiver), span)),
            (_, Some(f), [arg]) => match self.f64_operand(arg) {
                Some(b) => Value::F64(self.temp(Op::Call2(f, receiver, b), span)),
                None => Value::Error,
            },
            _ if let (Some(f), [b, c]) = (Func3::from_name(name), args) => {
                match (self.f64_operand(b), self.f64_operand(c)) {
                    (Some(b), Some(c)) => Value::F64(self.temp(Op::Call3(f, receiver, b, c), span)),
                    _ => Value::Error,
                }
            }
            _ if name == "powi" && args.len() == 1 => match self.int_operand(args[0]) {
                Some(n) => Value::F64(self.temp(Op::Powi(receiver, n), span)),
                None => Value::Error,
            },
            _ if Func::from_name(name).is_some() || super::derived::DERIVED.contains(&name) => {
                self.error(span, format!("`{name}` takes no arguments: `x.{name}()`"))
            }
            (_, Some(_), _) => {
                self.error(span, format!("`{name}` takes one argument: `x.{name}(y)`"))
            }
            _ if Func3::from_name(name).is_some() => self.error(
                span,
                format!("`{name}` takes two arguments: `a.{name}(b, c)`"),
            ),
            _ if name == "powi" => {
                self.error(span, "`powi` takes one integer argument: `x.powi(n)`")
            }
            _ => {
                let (methods, float) = (methods(name), self.scalar.name());
                // In a method, a name the macro does not know is most likely a method of a
                // struct called on a value that is not a field's element (a loop's variable
                // used for more than calls, `for n in &self.neurons { n.forward(x) + n.b }`).
                let message = match self.lookup(crate::names::method::RECEIVER) {
                    Some(_) if !super::known_method(name) => format!(
                        "`{name}` is called on an `{float}` here, which has no such method; a `#[differentiable]` method of a struct is called on a field, `self.layer.{name}(..)`, on an element of one by its index, `self.layers[i].{name}(..)`, or on the variable of a loop over one that is used for nothing else, `for layer in &self.layers {{ layer.{name}(..) }}`"
                    ),
                    _ => format!(
                        "`{name}` is not supported on `{float}` in `#[differentiable]` functions; the supported methods are `{methods}`"
                    ),
                };
                self.error(span, message)
            }
        }
    }

    fn wrong_receiver(&mut self, name: &str, span: proc_macro2::Span, receiver: &Value) -> Value {
        if let Value::Data(..) = receiver {
            return self.error(span, format!("`{name}` is called on data here; data is read by index `x[i]`, element `x.0`, `x.len()`, and in `for` loops and iterator reductions"));
        }
        let kind = match receiver {
            Value::Int(_) => "an integer",
            Value::Bool(_) => "a `bool`",
            Value::Tuple(_) => "a tuple",
            _ => "a slice or array",
        };
        self.error(
            span,
            format!("`{name}` is called on {kind} here; the methods of `{float}` (`{}`) apply to `{float}` values, and slices have `len` and `is_empty`", methods(""), float = self.scalar.name()),
        )
    }

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
            Named::F64(_) if self.scalar == crate::ir::Scalar::Generic && call.args.is_empty() => {
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
            Some(args) => Value::F64(self.temp(Op::Call(callee, args), path.span())),
            None => Value::Error,
        }
    }

    /// The arguments of `call`, of which one at most is lent as `&mut` (its entries are
    /// recorded, then read back as one piece), and none for a callee returning `several`
    /// values (each output's pullback would write it again).
    pub(super) fn args(&mut self, call: &syn::ExprCall, several: bool) -> Option<Vec<Arg>> {
        let mut lent = 0;
        let mut args = Some(Vec::new());
        // A `&mut [f64]` parameter passed bare, which the macro takes as lent: the callee's
        // signature, which says whether it only reads it, is not visible here.
        let mut bare = None;
        for expr in &call.args {
            let arg = self.arg(expr);
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
                    self.errors.at(lent_span(expr), format!("a call may be lent one array as `&mut`; write the others in calls of their own, or pass them as `&h` (`{name}`, a `&mut [f64]` parameter passed as itself, is lent: if the callee only reads it, pass `&{name}[..]`)"));
                    args = None;
                    None
                } else if lent > 1 {
                    Some(
                        "a call may be lent one array as `&mut`; write the others in calls of their own, or pass them as `&h`",
                    )
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

    /// `f64::name(x, args)`: the method `x.name(args)`.
    fn associated(
        &mut self,
        name: &str,
        path: &syn::ExprPath,
        args: &syn::punctuated::Punctuated<Expr, syn::Token![,]>,
    ) -> Value {
        let args: Vec<&Expr> = args.iter().collect();
        if self.scalar == crate::ir::Scalar::Generic
            && let Some(value) = self.generic_constant(name, path, &args)
        {
            return value;
        }
        let Some((first, rest)) = args.split_first() else {
            return self.error(path.span(), format!("`f64::{name}` needs an argument"));
        };
        let receiver = self.expr(first);
        let span = path
            .path
            .segments
            .last()
            .map_or(path.span(), |s| s.ident.span());
        match receiver {
            // `f64::from(n)` of an integer is `n as f64`.
            Value::Int(n) if name == "from" && rest.is_empty() => {
                Value::F64(self.temp(Op::FromInt(n), span))
            }
            receiver => self.apply(name, span, receiver, rest),
        }
    }

    pub(super) fn arg(&mut self, expr: &Expr) -> Option<Arg> {
        let value = match strip(expr) {
            Expr::Reference(reference) if reference.mutability.is_some() => {
                return self.mut_arg(reference);
            }
            inner => self.expr(inner),
        };
        match value {
            // `&v` of what a call returned, bound without a type: the macro cannot see the
            // callee's signature, and most often it returned `[f64; M]`.
            Value::F64(Operand::Var(var))
                if let Expr::Reference(reference) = strip(expr)
                    && matches!(&*reference.expr, Expr::Path(_))
                    && self.returned_by_call(var) =>
            {
                let float = self.scalar.name();
                self.errors.at(
                    reference.expr.span(),
                    format!("this holds what a call returned, taken for one `{float}`; if the function returns `[{float}; M]`, say so where it is bound: `let v: [{float}; M] = g(..);`, and if it is one `{float}` for a `&{float}` parameter, pass `&(v)`"),
                );
                None
            }
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
            // A `y: &mut f64` is a one-entry slice to the generated code.
            Value::Seq(view) if self.scalar_muts.contains(&view.base) => {
                self.refuse_scalar_mut(expr.span());
                None
            }
            // `g(m)` of a matrix by value, a local or a `[[f64; N]; M]` parameter.
            Value::Seq(view)
                if view.row.is_some()
                    && view.is_whole()
                    && self.is_array_value(expr, view.base) =>
            {
                self.errors.spanned(expr, "a matrix is passed to a `#[differentiable]` function by reference: take `m: &[[f64; N]; M]` (or `&[[f64; N]]`) in the function and pass `&m`");
                None
            }
            // `g(a)` of `a: &[[f64; N]]`, `g(&l)` of a local matrix: rows, passed whole.
            Value::Seq(view) if view.row.is_some() && view.is_whole() => Some(view.rows_arg()),
            Value::Seq(view) if view.row.is_some() => {
                self.errors.at(expr.span(), ROWS_TO_CALLS);
                None
            }
            // `g(w)` of a `&mut [f64]` parameter lends it whole, and `g` may write it.
            Value::Seq(view)
                if view.is_whole()
                    && matches!(strip(expr), Expr::Path(_))
                    && self.ty(view.base).is_lent_mut() =>
            {
                Some(view.arg(false, true))
            }
            Value::Seq(view) => {
                let by_value = view.is_whole() && self.is_array_value(expr, view.base);
                Some(view.arg(by_value, false))
            }
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
            // `let pi = PI;` passed as `g(pi)`: what `pi`'s other uses say (the macro cannot
            // see `g`'s signature).
            Value::Unknown(path) => {
                let local = match strip(expr) {
                    Expr::Path(local) => local.path.get_ident().map(|name| name.to_string()),
                    _ => None,
                };
                match local
                    .filter(|name| self.lookup(name).is_some())
                    .map(|name| self.use_of(&name))
                {
                    Some(super::by_use::Use::Float) => {
                        Some(Arg::Scalar(Operand::Extern(path), false))
                    }
                    Some(super::by_use::Use::Int) => Some(Arg::Int(IntExpr::Extern(path))),
                    _ => {
                        self.errors.at(path.span, format!("cannot tell whether this is an `{float}` or an integer; bind it with `let x: {float} = ..;` first", float = self.scalar.name()));
                        None
                    }
                }
            }
            Value::Error => None,
        }
    }

    /// `&mut h` or `&mut h[a..b]` of a local array or a `&mut [f64]` parameter: entries the
    /// callee may write.
    fn mut_arg(&mut self, reference: &syn::ExprReference) -> Option<Arg> {
        let value = match &*reference.expr {
            Expr::Index(index) if matches!(&*index.index, Expr::Range(_)) => self.sub_slice(index),
            inner => self.expr(inner),
        };
        match value {
            Value::Seq(view) if self.scalar_muts.contains(&view.base) => {
                self.refuse_scalar_mut(reference.expr.span());
                None
            }
            Value::Seq(view) if view.row.is_some() => {
                self.errors.at(lent_span(&reference.expr), ROWS_TO_CALLS);
                None
            }
            Value::Seq(view) if self.ty(view.base).is_writable() => Some(view.arg(false, true)),
            Value::Error => None,
            // `g(x, &mut e)` of a local `f64`, to a callee writing its output into
            // `err: &mut f64`.
            Value::F64(_) => {
                let float = self.scalar.name();
                self.errors.at(lent_span(&reference.expr), format!("an `{float}` cannot be lent as `&mut` to a `#[differentiable]` function yet; let the function return what it writes (`-> {float}`) and bind it, `let e = g(..);`, or make the output a one-entry array the function takes as `&mut [{float}]`: `let mut e = [0.0]; g(.., &mut e);`"));
                None
            }
            _ => {
                self.errors.at(
                    lent_span(&reference.expr),
                    "`&mut` passes a local array (`&mut h`, `&mut h[a..b]`) or a `&mut [f64]` parameter to a `#[differentiable]` function; an `f64` is passed by value and its new value returned",
                );
                None
            }
        }
    }

    /// A `y: &mut f64` parameter passed on to a call, which the generated code holds as a
    /// one-entry slice.
    fn refuse_scalar_mut(&mut self, span: proc_macro2::Span) {
        let float = self.scalar.name();
        self.errors.at(span, format!("a `&mut {float}` parameter cannot be passed on to a `#[differentiable]` function yet; pass its value `*y` and write back what the call returns, `*y = g(*y, ..);`"));
    }

    /// Reports each call lent an array in code only the forward sweep runs (a `while` head,
    /// the right operand of `&&` / `||`): the reverse sweep would never undo what it writes.
    pub(super) fn lent_in_conditions(&mut self, body: &[Stmt]) {
        let mut calls: Vec<(crate::ir::VarId, proc_macro2::Span)> = Vec::new();
        crate::ir::forward_only(body, &mut |block| {
            crate::ir::walk(block, &mut |stmt| {
                if let Stmt::Assign {
                    dst,
                    op: Op::Call(callee, args),
                } = stmt
                    && args.iter().any(Arg::is_mut)
                    && !calls.iter().any(|(call, _)| call == dst)
                {
                    calls.push((*dst, callee.span));
                }
            })
        });
        for (_, span) in calls {
            self.errors.at(span, "a call lent an array as `&mut` cannot be part of a `while` condition or of the right side of `&&` / `||`, which the reverse sweep does not run; call it in a statement before (`let r = g(&mut h);`, or in a `loop` that `break`s on it)");
        }
    }

    /// `g(&mut h, u);`: a call made for the array it writes, its value dropped.
    pub(super) fn call_stmt(&mut self, call: &syn::ExprCall) {
        let value = self.call(call);
        let Value::F64(Operand::Var(var)) = value else {
            return;
        };
        // The call just lowered, marked dropped: its callee may return `()`.
        let lent = match self.blocks.last_mut().and_then(|block| block.last_mut()) {
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
    fn returned_by_call(&self, var: crate::ir::VarId) -> bool {
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

/// The conversions `T::name(x).unwrap()` of a generic float `T` reads: of an `f64` literal,
/// or of an integer (`n as f64` in a function written for `f64`).
const CONVERSIONS: [&str; 10] = [
    "from",
    "from_f64",
    "from_usize",
    "from_isize",
    "from_u32",
    "from_i32",
    "from_u64",
    "from_i64",
    "from_u8",
    "from_i8",
];

impl Lowerer<'_> {
    /// `T::zero()`, `T::one()` and `T::PI()` (num-traits' `FloatConst`) of a generic float `T`:
    /// constants. Other functions of `T` without arguments (`T::epsilon()`, which differs
    /// between `f32` and `f64`) are refused.
    fn generic_constant(
        &mut self,
        name: &str,
        path: &syn::ExprPath,
        args: &[&Expr],
    ) -> Option<Value> {
        if !args.is_empty() {
            return None;
        }
        let c = match name {
            "zero" => 0.0,
            "one" => 1.0,
            _ => match crate::ir::scalar::float_const(name) {
                Some(c) => c,
                None => {
                    let float = self.scalar.name();
                    return Some(self.error(path.span(), format!("`{float}::{name}()` is not supported in `#[differentiable]` functions; the constants of `{float}` they read are `{float}::zero()`, `{float}::one()`, `{float}::from(c).unwrap()` of a literal `c`, and `FloatConst`'s (`{float}::PI()`)")));
                }
            },
        };
        Some(Value::F64(Operand::Const(c)))
    }

    /// `T::from(2.0).unwrap()` (also `T::from_f64`) of a literal: the constant; `T::from(n)
    /// .unwrap()` of an integer (also `T::from_usize`, ..): `n as T`. `None` for every other
    /// call.
    fn generic_from(&mut self, call: &syn::ExprMethodCall) -> Option<Value> {
        if self.scalar != crate::ir::Scalar::Generic
            || call.method != "unwrap"
            || !call.args.is_empty()
        {
            return None;
        }
        let Expr::Call(inner) = strip(&call.receiver) else {
            return None;
        };
        let Expr::Path(path) = &*inner.func else {
            return None;
        };
        let Named::Method(name) = super::paths::classify(path, self.scalar) else {
            return None;
        };
        if !CONVERSIONS.contains(&name.as_str()) || inner.args.len() != 1 {
            return None;
        }
        let float = self.scalar.name();
        if let Some(c) = suffixed_literal(&inner.args[0]) {
            return Some(Value::F64(Operand::Const(c)));
        }
        Some(match self.expr(&inner.args[0]) {
            Value::F64(Operand::Const(c)) if name == "from" || name == "from_f64" => {
                Value::F64(Operand::Const(c))
            }
            Value::Int(n) if name != "from_f64" => Value::F64(self.temp(Op::FromInt(n), path.span())),
            // A name the function does not define (a const generic `N`, a `const`): converted
            // as written, `T::from(N).unwrap()`, whatever number type it is; a constant.
            Value::Unknown(path) if name == "from" => {
                Value::F64(self.temp(Op::FromInt(IntExpr::Extern(path)), inner.span()))
            }
            Value::Error => Value::Error,
            _ => self.error(inner.args[0].span(), format!("`{float}::{name}(..)` takes a float literal (`{float}::from(0.5).unwrap()`) or an integer (`{float}::from(n).unwrap()`) here; bind other values as `{float}`s")),
        })
    }
}

/// The value of `2.0f64`, `-0.1f32` (widened) and the like: a suffixed literal, which
/// `T::from` converts as written.
fn suffixed_literal(expr: &Expr) -> Option<f64> {
    match strip(expr) {
        Expr::Unary(unary) if matches!(unary.op, syn::UnOp::Neg(_)) => {
            suffixed_literal(&unary.expr).map(|c| -c)
        }
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Float(lit),
            ..
        }) => match lit.suffix() {
            "f64" => lit.base10_parse::<f64>().ok(),
            "f32" => lit.base10_parse::<f32>().ok().map(f64::from),
            _ => None,
        },
        _ => None,
    }
}

/// Why part of an array of rows is not passed to a call.
const ROWS_TO_CALLS: &str = "an array of rows is passed to a `#[differentiable]` function whole (`g(a)`, `g(&l)` to a `&[[f64; N]]` parameter) or row by row (`g(&l[i])` to a `&[f64]` parameter), not in part";

/// `len == 0` of a length `len()` gave (an error stays one).
fn is_empty(len: Value) -> Value {
    match len {
        Value::Int(len) => {
            let zero = IntExpr::Lit {
                value: 0,
                suffix: String::new(),
            };
            Value::Bool(crate::ir::Cond::Int(crate::ir::CmpOp::Eq, len, zero))
        }
        other => other,
    }
}
