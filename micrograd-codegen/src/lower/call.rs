//! Method calls on `f64`, calls to other `#[differentiable]` functions, and their arguments.

use super::Lowerer;
use super::expr::Value;
use super::paths::Named;
use crate::ir::{Arg, Cond, Func, Func2, Func3, IntExpr, Op, Operand, Origin, Stmt, Ty};
use syn::Expr;
use syn::spanned::Spanned;

/// The methods `receiver.name(..)` accepts besides those of [`Func`] and [`Func2`].
const OTHER_METHODS: [&str; 1] = ["powi"];

/// Every supported method of `f64`, for error messages, without `except`.
fn methods(except: &str) -> String {
    let names = Func::ALL.iter().map(|f| f.name());
    let names = names.chain(Func2::ALL.iter().map(|f| f.name()));
    let names = names.chain(Func3::ALL.iter().map(|f| f.name()));
    let names: Vec<&str> = names
        .chain(OTHER_METHODS)
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
        if call.turbofish.is_some() {
            return self.error(span, "turbofish `::<>` is not supported here");
        }
        let receiver = self.expr(&call.receiver);
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
        let receiver = match receiver {
            Value::Seq(view) if name == "len" && args.is_empty() => return Value::Int(view.len()),
            Value::Int(a) if name == "min" && args.len() == 1 => {
                return match self.int_operand(args[0]) {
                    Some(b) => Value::Int(IntExpr::Min(Box::new(a), Box::new(b))),
                    None => Value::Error,
                };
            }
            Value::F64(operand) => operand,
            Value::Unknown(path) => Operand::Extern(path),
            Value::Error => return Value::Error,
            other => return self.wrong_receiver(name, span, &other),
        };
        match (Func::from_name(name), Func2::from_name(name), args) {
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
            (Some(_), _, _) => {
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
                self.error(span, format!("`{name}` is not supported on `{float}` in `#[differentiable]` functions; the supported methods are `{methods}`"))
            }
        }
    }

    fn wrong_receiver(&mut self, name: &str, span: proc_macro2::Span, receiver: &Value) -> Value {
        let kind = match receiver {
            Value::Int(_) => "an integer",
            Value::Bool(_) => "a `bool`",
            Value::Tuple(_) => "a tuple",
            _ => "a slice or array",
        };
        self.error(
            span,
            format!("`{name}` is called on {kind} here; the methods of `{float}` (`{}`) apply to `{float}` values, and slices have `len`", methods(""), float = self.scalar.name()),
        )
    }

    pub(super) fn call(&mut self, call: &syn::ExprCall) -> Value {
        let Expr::Path(path) = &*call.func else {
            return self.error(
                call.func.span(),
                "only functions called by name can be differentiated",
            );
        };
        let callee = match super::paths::classify(path, self.scalar) {
            Named::Method(name) => return self.associated(&name, path, &call.args),
            Named::Other(callee) => callee,
            Named::F64(_) | Named::Int(_) => {
                return self.error(path.span(), "a constant cannot be called");
            }
            Named::Mixed(found) => {
                self.errors.mixed(path.span(), self.scalar, found);
                return Value::Error;
            }
        };
        let args: Option<Vec<Arg>> = call.args.iter().map(|arg| self.arg(arg)).collect();
        match args {
            Some(args) => Value::F64(self.temp(Op::Call(callee, args), path.span())),
            None => Value::Error,
        }
    }

    /// `f64::name(x, args)`: the method `x.name(args)`.
    fn associated(
        &mut self,
        name: &str,
        path: &syn::ExprPath,
        args: &syn::punctuated::Punctuated<Expr, syn::Token![,]>,
    ) -> Value {
        let args: Vec<&Expr> = args.iter().collect();
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
        match self.expr(expr) {
            Value::F64(operand) => Some(Arg::Scalar(operand)),
            Value::Int(int) => Some(Arg::Int(int)),
            Value::Bool(cond) => Some(Arg::Bool(self.bool_arg(cond, expr.span()))),
            Value::Seq(view) if matches!(self.ty(view.base), Ty::Slice { mutable: true, .. }) => {
                // Its pullback would read the values it holds then, which later writes change.
                self.errors.at(
                    expr.span(),
                    "a `&mut [f64]` parameter cannot be passed to another `#[differentiable]` function yet; copy the entries it needs into a local array `let mut h = [0.0; N];` and pass that",
                );
                None
            }
            Value::Seq(view) => {
                let by_value = view.is_whole() && self.is_array_value(expr, view.base);
                Some(view.arg(by_value))
            }
            Value::Tuple(_) => {
                self.errors.at(
                    expr.span(),
                    "tuples cannot be passed to `#[differentiable]` functions; pass their elements",
                );
                None
            }
            Value::Unknown(path) => {
                self.errors.at(path.span, format!("cannot tell whether this is an `{float}` or an integer; bind it with `let x: {float} = ..;` first", float = self.scalar.name()));
                None
            }
            Value::Error => None,
        }
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
                own && (matches!(self.ty(base), Ty::Array { .. }) || self.by_value.contains(&base))
            }
            _ => false,
        }
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
