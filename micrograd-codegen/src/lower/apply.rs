//! Methods: of floats (`x.sin()`, `a.max(b)`, `x.powi(2)`, also written `f64::sin(x)`),
//! of integers, the length of sequences and data (`w.len()`, `w.is_empty()`), and the
//! constants and conversions of a generic float (`T::one()`, `T::from(0.5).unwrap()`).

use super::Lowerer;
use super::call::strip;
use super::expr::Value;
use super::paths::Named;
use crate::ir::{Func, Func2, Func3, IntExpr, Op, Operand};
use syn::Expr;
use syn::spanned::Spanned;

/// The methods `receiver.name(..)` accepts besides those of [`Func`] and [`Func2`].
const OTHER_METHODS: [&str; 1] = ["powi"];

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
        if self.scalar.is_generic() && matches!(name, "relu" | "sigmoid" | "detach") {
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
                return match self.outside_sequence(&outside, span) {
                    Value::Data(mut place, _) => {
                        place.steps.push(crate::ir::Step::Len);
                        Value::Int(IntExpr::Data(Box::new(place)))
                    }
                    other => other,
                };
            }
            Value::F64(operand) => operand,
            Value::Unknown(path) => Operand::Extern(path),
            Value::Error => return Value::Error,
            other => return self.wrong_receiver(name, span, &other),
        };
        self.float_method(name, span, receiver, args)
    }

    /// `receiver.name(args)` of a float: a call of [`Func`], [`Func2`], [`Func3`], `powi`
    /// or a derived function (`relu`, `sigmoid`, ...).
    fn float_method(
        &mut self,
        name: &str,
        span: proc_macro2::Span,
        receiver: Operand,
        args: &[&Expr],
    ) -> Value {
        let (func, func2) = (Func::from_name(name), Func2::from_name(name));
        if func.is_none()
            && func2.is_none()
            && args.is_empty()
            && let Some(value) = self.derived(name, span, receiver.clone())
        {
            return value;
        }
        match (func, func2, Func3::from_name(name), args) {
            (Some(f), _, _, []) => Value::F64(self.temp(Op::Call1(f, receiver), span)),
            (_, Some(f), _, [arg]) => match self.f64_operand(arg) {
                Some(b) => Value::F64(self.temp(Op::Call2(f, receiver, b), span)),
                None => Value::Error,
            },
            (_, _, Some(f), [b, c]) => match (self.f64_operand(b), self.f64_operand(c)) {
                (Some(b), Some(c)) => Value::F64(self.temp(Op::Call3(f, receiver, b, c), span)),
                _ => Value::Error,
            },
            _ if name == "powi" && args.len() == 1 => match self.int_operand(args[0]) {
                Some(n) => Value::F64(self.temp(Op::Powi(receiver, n), span)),
                None => Value::Error,
            },
            _ if Func::from_name(name).is_some() || super::derived::DERIVED.contains(&name) => {
                self.error(span, format!("`{name}` takes no arguments: `x.{name}()`"))
            }
            (_, Some(_), _, _) => {
                self.error(span, format!("`{name}` takes one argument: `x.{name}(y)`"))
            }
            _ if Func3::from_name(name).is_some() => self.error(
                span,
                format!("`{name}` takes two arguments: `a.{name}(b, c)`"),
            ),
            _ if name == "powi" => {
                self.error(span, "`powi` takes one integer argument: `x.powi(n)`")
            }
            _ => self.unknown_method(name, span),
        }
    }

    /// `x.name(..)` of a float, where the float has no method `name`.
    fn unknown_method(&mut self, name: &str, span: proc_macro2::Span) -> Value {
        let (methods, float) = (methods(name), self.scalar.name());
        // In a method, a name the macro does not know is most likely a method of a struct
        // called on a value that is not a field's element (a loop's variable used for more
        // than calls, `for n in &self.neurons { n.forward(x) + n.b }`).
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

    /// `f64::name(x, args)`: the method `x.name(args)`.
    pub(super) fn associated(
        &mut self,
        name: &str,
        path: &syn::ExprPath,
        args: &syn::punctuated::Punctuated<Expr, syn::Token![,]>,
    ) -> Value {
        let args: Vec<&Expr> = args.iter().collect();
        if self.scalar.is_generic()
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
    /// `T::zero()`, `T::one()`, `T::infinity()`, `T::neg_infinity()`, `T::nan()` and `T::PI()`
    /// (num-traits' `FloatConst`) of a generic float `T`: constants; so are `T::epsilon()`,
    /// `T::max_value()`, `T::min_value()` and `T::min_positive_value()`, which differ between
    /// `f32` and `f64` and are printed as the call (`Extern::limit`). Other functions of `T`
    /// without arguments are refused.
    pub(super) fn generic_constant(
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
            // The same in every float type: printed `T::infinity()`, `T::nan()` (`emit/scalar.rs`).
            "infinity" => f64::INFINITY,
            "neg_infinity" => f64::NEG_INFINITY,
            "nan" => f64::NAN,
            "neg_zero" => -0.0,
            // Constants too, whose values differ between `f32` and `f64`: printed as the call.
            "epsilon" | "max_value" | "min_value" | "min_positive_value" => {
                return Some(Value::F64(Operand::Extern(crate::ir::Extern {
                    limit: true,
                    ..crate::ir::Extern::new(vec![name.to_string()], path.span())
                })));
            }
            _ => match crate::ir::scalar::float_const(name) {
                Some(c) => c,
                None => {
                    let float = self.scalar.name();
                    return Some(self.error(path.span(), format!("`{float}::{name}()` is not supported in `#[differentiable]` functions; the constants of `{float}` they read are `{float}::zero()`, `{float}::one()`, `{float}::infinity()`, `{float}::neg_infinity()`, `{float}::nan()`, `{float}::neg_zero()`, `{float}::epsilon()`, `{float}::max_value()`, `{float}::min_value()`, `{float}::min_positive_value()`, `{float}::from(c).unwrap()` of a literal `c`, and `FloatConst`'s (`{float}::PI()`); pass any other in as a parameter")));
                }
            },
        };
        Some(Value::F64(Operand::Const(c)))
    }

    /// `T::from(2.0).unwrap()` (also `T::from_f64`) of a literal: the constant; `T::from(n)
    /// .unwrap()` of an integer (also `T::from_usize`, ..): `n as T`. `None` for every other
    /// call.
    fn generic_from(&mut self, call: &syn::ExprMethodCall) -> Option<Value> {
        if !self.scalar.is_generic() || call.method != "unwrap" || !call.args.is_empty() {
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
