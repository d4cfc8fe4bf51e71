//! Expressions: each `f64` operation becomes one statement; integers and conditions stay trees.

mod operators;

use super::matching::ArmUse;
use super::paths::Named;
use super::{Lowerer, View};
use crate::ir::{Cond, Extern, IntExpr, Op, Operand, Ty};
pub(super) use operators::arith_op;
use syn::Expr;
use syn::spanned::Spanned;

/// The lowered form of an expression, by type.
#[derive(Clone, Debug)]
pub enum Value {
    /// A differentiable scalar.
    F64(Operand),
    /// An integer.
    Int(IntExpr),
    /// A boolean.
    Bool(Cond),
    /// A slice parameter, a local array, or a window of one.
    Seq(View),
    /// A tuple `(a, b)`.
    Tuple(Vec<Value>),
    /// Data that is neither a float nor an integer (`pts[i]` of `pts: &[[f64; 2]]`), and its
    /// structural type.
    Data(crate::ir::Place, crate::types::Type),
    /// A path the macro does not know (a `const`): typed by its context.
    Unknown(Extern),
    /// An error was already reported.
    Error,
}

impl Lowerer<'_> {
    /// Lowers any expression to a typed value.
    pub(super) fn expr(&mut self, expr: &Expr) -> Value {
        match expr {
            Expr::Lit(lit) => self.literal(&lit.lit),
            Expr::Path(path) => self.path(path),
            Expr::Paren(inner) => self.expr(&inner.expr),
            Expr::Group(inner) => self.expr(&inner.expr),
            Expr::Binary(binary) => self.binary(binary),
            Expr::Unary(unary) => self.unary(unary),
            Expr::MethodCall(call) => self.method(call),
            Expr::Call(call) => self.call(call),
            Expr::Cast(cast) => self.cast(cast),
            Expr::Index(index) => self.index(index),
            Expr::If(branch) => self.if_expr(branch),
            Expr::Match(_) if self.tuple_arms(expr) => Value::Error,
            Expr::Match(expr) => match self.match_expr(expr, ArmUse::Value) {
                Some(operand) => Value::F64(operand),
                None => Value::Error,
            },
            Expr::Block(block) if block.label.is_none() => self.block_expr(&block.block),
            Expr::Reference(reference) => self.reference(reference),
            Expr::Tuple(tuple) if !tuple.elems.is_empty() => self.tuple(tuple),
            Expr::Field(field) => self.field(field),
            Expr::Array(array) => self.array_literal(array, None),
            Expr::Loop(the_loop) => match self.forever(the_loop, true) {
                Some(value) => Value::F64(value),
                None => Value::Error,
            },
            other => {
                self.unsupported(other);
                Value::Error
            }
        }
    }

    /// Lowers an expression that must be an `f64`.
    pub(super) fn f64_operand(&mut self, expr: &Expr) -> Option<Operand> {
        match self.in_context(true, expr) {
            Value::F64(operand) => Some(operand),
            Value::Unknown(path) => Some(Operand::Extern(path)),
            Value::Error => None,
            Value::Tuple(_) => {
                self.errors.at(
                    expr.span(),
                    format!("expected an `{float}` here, not a tuple; take its elements with `t.0` or `let (a, b) = t;`", float = self.scalar.name()),
                );
                None
            }
            _ => {
                let float = self.scalar.name();
                self.errors.at(
                    expr.span(),
                    format!("expected an `{float}` expression here"),
                );
                None
            }
        }
    }

    /// Lowers an expression that must be an integer.
    pub(super) fn int_operand(&mut self, expr: &Expr) -> Option<IntExpr> {
        if let Some(int) = self.int_call(expr) {
            return int;
        }
        match self.in_context(false, expr) {
            Value::Int(int) => Some(int),
            Value::Unknown(path) => Some(IntExpr::Extern(path)),
            Value::Error => None,
            _ => {
                self.errors
                    .at(expr.span(), "expected an integer expression here");
                None
            }
        }
    }

    /// `g(a, ..)` where an integer must be (`0..half(N)`, `i < half(N)`): a call of a function
    /// the macro cannot see that gives an integer (a `const fn`), its arguments integers too,
    /// printed as written. `None` if `expr` is no call of a function by name (a closure bound
    /// by `let` is lowered as its body is); `Some(None)` after an error.
    pub(super) fn int_call(&mut self, expr: &Expr) -> Option<Option<IntExpr>> {
        let Expr::Call(call) = super::call::strip(expr) else {
            return None;
        };
        let Expr::Path(path) = &*call.func else {
            return None;
        };
        if let Some(ident) = path.path.get_ident()
            && (self.closures.contains_key(&ident.to_string())
                || self.lookup(&ident.to_string()).is_some())
        {
            return None;
        }
        let Named::Other(callee) = super::paths::classify(path, self.scalar) else {
            return None;
        };
        let args: Option<Vec<IntExpr>> = call.args.iter().map(|a| self.int_operand(a)).collect();
        Some(args.map(|args| IntExpr::Call(Box::new(callee), args)))
    }

    /// Lowers `expr` where it must be a float (`float`) or where it need not: names the
    /// function does not define are floats in the first, as Rust converts nothing implicitly
    /// (`let k: f64 = K * K;` makes `K` an `f64`).
    pub(super) fn in_context(&mut self, float: bool, expr: &Expr) -> Value {
        let outer = std::mem::replace(&mut self.float_context, float);
        let value = self.expr(expr);
        self.float_context = outer;
        value
    }

    /// An integer expression outside the body (an array length in the signature).
    pub(super) fn int_expr(&mut self, expr: &Expr) -> IntExpr {
        self.int_operand(expr).unwrap_or(IntExpr::Lit {
            value: 0,
            suffix: String::new(),
        })
    }

    /// A name defined outside the function (a `const` or `static` array), indexed, iterated or
    /// measured: data, never differentiated, as a parameter the function does not
    /// differentiate is (`const W: [f64; 3]`; `for w in W`, `W.iter()`, `W[i]`, `W.len()`).
    /// Its entries are what the whole function's uses of them say (`typing.rs`: `x[IDX[k]]`
    /// makes them integers, read as `usize`), else floats; the generated code reads them as
    /// the user's code does, so a wrong guess is rustc's error at the name. A path of several
    /// segments (`m::W`) is refused, saying how to hand it in.
    pub(super) fn outside_sequence(&mut self, outside: &Extern, span: proc_macro2::Span) -> Value {
        let name = outside.path.join("::");
        // `W`, or a path to it (`weights::ALL`, printed where it is read: `names::Names::root`).
        let segments = match outside.path.split_first() {
            Some((first, rest)) if first.is_empty() => rest,
            _ => outside.path.as_slice(),
        };
        if !segments.is_empty() && segments.iter().all(|segment| !segment.is_empty()) {
            let single = &name;
            let elem = Box::new(match self.outside.entries_of(&outside.path) {
                Some(false) => crate::types::Type::Int("usize".into()),
                _ => crate::types::Type::Float(self.scalar),
            });
            let ty = crate::types::Type::Slice(elem);
            let origin = crate::ir::Origin::Outside(single.clone());
            let root = self.new_var(origin, Ty::Data(ty.clone()), outside.span);
            let steps = Vec::new();
            return Value::Data(crate::ir::Place { root, steps }, ty);
        }
        let float = self.scalar.name();
        self.error(
            span,
            format!("`{name}` is defined outside the function, and `#[differentiable]` reads arrays from its parameters, its locals and `const` items named alone: pass it in as a parameter (`w: &[{float}; N]`, called with `&{name}`), or `use` it so that its name is enough"),
        )
    }

    pub(super) fn error(
        &mut self,
        span: proc_macro2::Span,
        message: impl std::fmt::Display,
    ) -> Value {
        self.errors.at(span, message);
        Value::Error
    }

    fn path(&mut self, path: &syn::ExprPath) -> Value {
        if let Some(ident) = path.path.get_ident()
            && let Some(binding) = self.lookup(&ident.to_string())
        {
            if let Some(value) = self.aliases.get(&binding.var) {
                return value.clone();
            }
            return match self.ty(binding.var) {
                Ty::F64 => Value::F64(Operand::Var(binding.var)),
                Ty::Int => Value::Int(IntExpr::Var(binding.var)),
                Ty::Bool => Value::Bool(Cond::Var(binding.var)),
                Ty::Floats { .. } => Value::Seq(self.whole(binding.var)),
                Ty::Data(ty) => {
                    let place = crate::ir::Place {
                        root: binding.var,
                        steps: Vec::new(),
                    };
                    let ty = ty.clone();
                    self.data(place, &ty, path.span())
                }
            };
        }
        match super::paths::classify(path, self.scalar) {
            Named::F64(constant) => Value::F64(Operand::Extern(constant)),
            Named::Int(constant) => Value::Int(IntExpr::Extern(constant)),
            Named::Method(name) => self.error(
                path.span(),
                format!(
                    "`{float}::{name}` is a function: call it, `{float}::{name}(x)`",
                    float = self.scalar.name()
                ),
            ),
            // Typed by the whole function's uses where they say (`typing.rs`).
            Named::Other(external) => match self.outside.of(&external.path) {
                Some(true) => Value::F64(Operand::Extern(external)),
                Some(false) => Value::Int(IntExpr::Extern(external)),
                None => Value::Unknown(external),
            },
            Named::Mixed(found) => {
                self.errors.mixed(path.span(), self.scalar, found);
                Value::Error
            }
        }
    }

    /// Lowers an expression that must be a boolean.
    pub(super) fn cond(&mut self, expr: &Expr) -> Cond {
        match self.in_context(false, expr) {
            Value::Bool(cond) => cond,
            Value::Error => Cond::Lit(true),
            _ => {
                self.errors
                    .at(expr.span(), "expected a condition such as `x > 0.0`");
                Cond::Lit(true)
            }
        }
    }

    fn index(&mut self, index: &syn::ExprIndex) -> Value {
        if let Expr::Call(call) = &*index.expr
            && !matches!(&*index.index, Expr::Range(_))
        {
            return self.call_entry(call, &index.index);
        }
        let base = self.expr(&index.expr);
        self.index_value(base, index)
    }

    /// `index` of its base, lowered to `base`.
    pub(super) fn index_value(&mut self, base: Value, index: &syn::ExprIndex) -> Value {
        let view = match base {
            Value::Seq(view) => view,
            Value::Data(place, ty) => return self.data_index(place, &ty, index),
            Value::Error => return Value::Error,
            Value::Unknown(outside) => {
                return match self.outside_sequence(&outside, index.expr.span()) {
                    Value::Data(place, ty) => self.data_index(place, &ty, index),
                    other => other,
                };
            }
            Value::Tuple(entries) if !matches!(&*index.index, Expr::Range(_)) => {
                return self.int_entry(entries, index);
            }
            // The caller cannot see how many values a call returns: `let` says so.
            Value::F64(_) => {
                // Reported once: the name's other uses say nothing more.
                if let Expr::Path(path) = &*index.expr
                    && let Some(name) = path.path.get_ident()
                {
                    let var = self.alias_var(&name.to_string(), Value::Error, name.span());
                    self.rebind(&name.to_string(), var);
                }
                return self.error(
                    index.expr.span(),
                    "this holds one `f64`, so it cannot be indexed; if it is what a call returning `[f64; M]` returned whose output count the macro cannot reach (a method of an element or of a field, `self.layers[i].g(..)`), say so where it is bound: `let r: [f64; M] = ..;` or `let [a, b] = ..;`",
                );
            }
            _ => {
                return self.error(
                    index.expr.span(),
                    "only slice parameters and local arrays can be indexed",
                );
            }
        };
        if let Expr::Range(range) = &*index.index {
            return self.error(range.span(), "a sub-slice is borrowed: write `&w[a..b]`");
        }
        if view.row.is_some() {
            // `l[i]` of a sequence of rows: the row, a view of its entries.
            return match self.int_operand(&index.index) {
                Some(i) => match self.tuples.get(&view.base) {
                    Some(&width) => self.tuple_at(&view.row_at(i), width, index.span()),
                    None => Value::Seq(view.row_at(i)),
                },
                None => Value::Error,
            };
        }
        match self.int_operand(&index.index) {
            // A view's entries are read from its base: check the index against the view.
            Some(i) => {
                let at = self.entry(&view, i);
                Value::F64(self.temp(Op::Load(view.base, at), index.span()))
            }
            None => Value::Error,
        }
    }
}

impl Lowerer<'_> {
    /// `pts[i]` of an array of tuples of `width` elements: a tuple of the row's entries, each
    /// read from the base.
    pub(super) fn tuple_at(&mut self, row: &View, width: u128, span: proc_macro2::Span) -> Value {
        let entries = (0..width)
            .map(|k| {
                let k = IntExpr::Lit {
                    value: k,
                    suffix: String::new(),
                };
                let at = self.entry(row, k);
                Value::F64(self.temp(Op::Load(row.base, at), span))
            })
            .collect();
        Value::Tuple(entries)
    }
}
