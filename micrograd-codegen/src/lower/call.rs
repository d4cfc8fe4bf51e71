//! Method calls on `f64`, calls to other `#[differentiable]` functions, and their arguments.

use super::Lowerer;
use super::expr::Value;
use super::paths::Named;
use crate::ir::{Arg, Cond, Func, Func2, Op, Operand, Origin, Stmt, Ty};
use syn::Expr;
use syn::spanned::Spanned;

const METHODS: &str = "tanh, relu, sigmoid, exp, exp2, exp_m1, ln, ln_1p, log2, log10, sqrt, cbrt, sin, cos, tan, \
     asin, acos, atan, sinh, cosh, abs, signum, recip, powi, powf, max, min, hypot, atan2";

fn func(name: &str) -> Option<Func> {
    Some(match name {
        "tanh" => Func::Tanh,
        "relu" => Func::Relu,
        "sigmoid" => Func::Sigmoid,
        "exp" => Func::Exp,
        "exp2" => Func::Exp2,
        "exp_m1" => Func::ExpM1,
        "ln" => Func::Ln,
        "ln_1p" => Func::Ln1p,
        "log2" => Func::Log2,
        "log10" => Func::Log10,
        "sqrt" => Func::Sqrt,
        "cbrt" => Func::Cbrt,
        "sin" => Func::Sin,
        "cos" => Func::Cos,
        "tan" => Func::Tan,
        "asin" => Func::Asin,
        "acos" => Func::Acos,
        "atan" => Func::Atan,
        "sinh" => Func::Sinh,
        "cosh" => Func::Cosh,
        "abs" => Func::Abs,
        "recip" => Func::Recip,
        "signum" => Func::Signum,
        _ => return None,
    })
}

fn func2(name: &str) -> Option<Func2> {
    Some(match name {
        "powf" => Func2::Powf,
        "max" => Func2::Max,
        "min" => Func2::Min,
        "hypot" => Func2::Hypot,
        "atan2" => Func2::Atan2,
        _ => return None,
    })
}

impl Lowerer<'_> {
    pub(super) fn method(&mut self, call: &syn::ExprMethodCall) -> Value {
        let name = call.method.to_string();
        let span = call.method.span();
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
            Value::F64(operand) => operand,
            Value::Unknown(path) => Operand::Extern(path),
            Value::Error => return Value::Error,
            _ => return self.error(span, format!("`{name}` is not supported here; the supported methods are `{METHODS}` on `f64` and `len` on slices")),
        };
        match (func(name), func2(name), args) {
            (Some(f), _, []) => Value::F64(self.temp(Op::Call1(f, receiver), span)),
            (_, Some(f), [arg]) => match self.f64_operand(arg) {
                Some(b) => Value::F64(self.temp(Op::Call2(f, receiver, b), span)),
                None => Value::Error,
            },
            _ if name == "powi" && args.len() == 1 => match self.int_operand(args[0]) {
                Some(n) => Value::F64(self.temp(Op::Powi(receiver, n), span)),
                None => Value::Error,
            },
            (Some(_), _, _) | (_, Some(_), _) => self.error(span, format!("wrong number of arguments to `{name}`")),
            _ => self.error(span, format!("`{name}` is not supported on `f64` in `#[differentiable]` functions; the supported methods are `{METHODS}`")),
        }
    }

    pub(super) fn call(&mut self, call: &syn::ExprCall) -> Value {
        let Expr::Path(path) = &*call.func else {
            return self.error(
                call.func.span(),
                "only functions called by name can be differentiated",
            );
        };
        let callee = match super::paths::classify(path) {
            Named::Method(name) => return self.associated(&name, path, &call.args),
            Named::Other(callee) => callee,
            Named::F64(_) | Named::Int(_) => {
                return self.error(path.span(), "a constant cannot be called");
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

    fn arg(&mut self, expr: &Expr) -> Option<Arg> {
        match self.expr(expr) {
            Value::F64(operand) => Some(Arg::Scalar(operand)),
            Value::Int(int) => Some(Arg::Int(int)),
            Value::Bool(cond) => Some(Arg::Bool(self.bool_arg(cond, expr.span()))),
            Value::Seq(view) => Some(view.arg()),
            Value::Tuple(_) => {
                self.errors.at(
                    expr.span(),
                    "tuples cannot be passed to `#[differentiable]` functions; pass their elements",
                );
                None
            }
            Value::Unknown(path) => {
                self.errors.at(path.span, "cannot tell whether this is an `f64` or an integer; bind it with `let x: f64 = ..;` first");
                None
            }
            Value::Error => None,
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
