//! `let v: Vec<f64> = chain.collect();`: the chain's elements stored, in order, in a `Vec` of
//! the chain's length, allocated where `f` allocates it. It lowers as `vec![0.0; n]` followed
//! by the index loop that writes each entry, the IR a user writing that loop would get, so the
//! `Vec` is then read, iterated and passed on like any local `Vec` (`vecs.rs`). Copies
//! (`let mut q = p;`, `let y = x.to_vec();`, `let g = h;` of a local array) lower the same way
//! over the source's entries, into a local array where the length is a constant.
//!
//! Before: `let e: Vec<f64> = x.iter().map(|v| (v - m).exp()).collect();`
//! After: `let n = x.len(); let mut e = vec![0.0; n]; for i in 0..n { let v = x[i];`
//! `e[i] = (v - m).exp(); }`

use super::expr::Value;
use super::iter::Chain;
use super::{Lowerer, View};
use crate::ir::{IntExpr, Loop, LoopKind, Operand, Stmt, Ty};
use syn::{Expr, ExprMethodCall, GenericArgument, Pat, Type};

/// Whether `ty` is `Vec<..>` (`Vec<f64>`, `Vec<_>`, `std::vec::Vec<f64>`).
fn is_vec_type(ty: &Type) -> bool {
    matches!(ty, Type::Path(path) if path.qself.is_none()
        && path.path.segments.last().is_some_and(|s| s.ident == "Vec"))
}

/// Whether `call` is `.collect()` or `.collect::<Vec<..>>()`.
pub(super) fn is_collect(call: &ExprMethodCall) -> bool {
    call.method == "collect" && call.args.is_empty()
}

/// What to write instead of a `Vec` that grows: the language's `Vec`s have their length from
/// the start.
pub(super) const GROWING: &str = "a `Vec` that grows with `push` is not supported in `#[differentiable]` functions; collect it whole, `let v: Vec<f64> = w.iter().map(|x| ..).collect();`, or allocate it with its length and write its entries, `let mut v = vec![0.0; n]; for i in 0..n { v[i] = ..; }`";

/// The error for `Vec::new()`, `Vec::with_capacity(n)` or `Vec::default()`, if `path` is one.
pub(super) fn growing(path: &syn::ExprPath) -> Option<&'static str> {
    let names: Vec<String> = path
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    match names.as_slice() {
        [.., ty, new]
            if ty == "Vec" && ["new", "with_capacity", "default"].contains(&new.as_str()) =>
        {
            Some(GROWING)
        }
        _ => None,
    }
}

/// Whether `name` is a method that changes a `Vec`'s length (`v.push(x)`).
pub(super) fn is_growing_method(name: &str) -> bool {
    matches!(
        name,
        "push"
            | "pop"
            | "extend"
            | "extend_from_slice"
            | "insert"
            | "remove"
            | "truncate"
            | "clear"
            | "resize"
    )
}

/// Whether `call` copies its receiver: `.to_vec()`, `.to_owned()`, `.clone()`.
pub(super) fn is_copy(call: &ExprMethodCall) -> bool {
    call.args.is_empty()
        && ["to_vec", "to_owned", "clone"]
            .iter()
            .any(|m| call.method == m)
}

impl Lowerer<'_> {
    /// A method called for what it does (`v.push(x);`, `h.copy_from_slice(x);`): the language
    /// writes arrays entry by entry only.
    pub(super) fn method_stmt(&mut self, call: &ExprMethodCall) {
        let name = call.method.to_string();
        let on_name = matches!(&*call.receiver, Expr::Path(_) | Expr::Field(_));
        let growing = is_growing_method(&name);
        let receiver = (on_name || growing).then(|| self.expr(&call.receiver));
        let message = match receiver {
            // A `Vec::new()` was reported where it was made.
            Some(Value::Error) => return,
            _ if growing => GROWING.to_string(),
            Some(Value::Seq(_)) => format!(
                "`{name}` on a slice or an array is not supported in `#[differentiable]` functions; write its entries one by one: `for i in 0..h.len() {{ h[i] = x[i]; }}`"
            ),
            _ => {
                let span = syn::spanned::Spanned::span(call);
                return self.errors.at(
                    span,
                    "this value is computed and then dropped; bind it with `let` or return it",
                );
            }
        };
        self.errors.at(call.method.span(), message);
    }

    /// `let name = x.to_vec();` (or `to_owned`, `clone`): a copy of a slice or an array; the
    /// value itself for a number or a tuple.
    pub(super) fn copy_of(&mut self, name: &str, span: proc_macro2::Span, call: &ExprMethodCall) {
        match self.expr(&call.receiver) {
            Value::Seq(view) => self.copy_local(name, span, view),
            Value::Error => self.poison_name(name, span),
            value if call.method != "to_vec" => self.bind_value(name, span, value),
            _ => {
                let float = self.scalar.name();
                self.errors.at(call.method.span(), format!("`to_vec` copies a slice or an array; an `{float}` is copied by `let y = x;`"));
                self.poison_name(name, span);
            }
        }
    }

    /// `let name: Vec<f64> = chain.collect();`, `annotation` the type after `name`, if any.
    pub(super) fn collect_local(
        &mut self,
        name: &str,
        span: proc_macro2::Span,
        call: &ExprMethodCall,
        annotation: Option<&Type>,
    ) {
        let target = call.turbofish.as_ref().and_then(|t| match t.args.first() {
            Some(GenericArgument::Type(ty)) => Some(ty),
            _ => None,
        });
        let refused = if target.or(annotation).is_some_and(|ty| !is_vec_type(ty)) {
            Some(format!(
                "an iterator is collected into a `Vec` here: `let v: Vec<{}> = ..collect();`",
                self.scalar.name()
            ))
        } else {
            self.collect_in_loop()
        };
        if let Some(message) = refused {
            self.errors.at(call.method.span(), message);
            return self.poison_name(name, span);
        }
        match self.chain(&call.receiver) {
            Some(chain) => self.collect(name, (span, call.method.span()), &chain),
            None => self.poison_name(name, span),
        }
    }

    /// Why a `collect` here is refused: in a loop, each iteration would have its own `Vec`,
    /// which the reverse sweep would record.
    fn collect_in_loop(&self) -> Option<String> {
        (self.loops > 0 || !self.frames.is_empty()).then(|| format!(
            "`collect` into a `Vec` is supported outside loops; collect before the loop, or reduce the iterator here with `.sum::<{}>()` or `.fold(init, |acc, x| ..)`",
            self.scalar.name()
        ))
    }

    /// `let pat = array.map(closure);` of a float array `array` (`array_map`): the `Vec` of
    /// `array.iter().map(closure)`, as `collect_local` binds it; errors at `method`, the
    /// `map`'s span, as they would at the `collect`'s.
    pub(super) fn collect_map(
        &mut self,
        pat: &Pat,
        array: &Expr,
        (closure, method): (&Expr, proc_macro2::Span),
    ) {
        let Pat::Ident(ident) = pat else {
            // A `collect` bound to a pattern: what `method` reports of it anywhere but a `let`.
            let float = self.scalar.name();
            self.errors.at(method, format!("`collect` makes a `Vec` bound by a `let` outside loops: `let v: Vec<{float}> = w.iter().map(|x| ..).collect();`, then use `v`"));
            return self.poison(pat);
        };
        let (name, span) = (ident.ident.to_string(), ident.ident.span());
        if let Some(message) = self.collect_in_loop() {
            self.errors.at(method, message);
            return self.poison_name(&name, span);
        }
        let chain = match self.chain(array) {
            Some(source) => self
                .step_of(closure, "map")
                .map(|step| Chain::Map(Box::new(source), step)),
            None => None,
        };
        match chain {
            Some(chain) => self.collect(&name, (span, method), &chain),
            None => self.poison_name(&name, span),
        }
    }

    /// `span`: the name's, and the `collect` method's, which any error points at.
    fn collect(&mut self, name: &str, span: (proc_macro2::Span, proc_macro2::Span), chain: &Chain) {
        let len = self.fixed(chain.count(), span.0);
        self.store_all(name, span, chain, (len, true));
    }

    /// `let mut q = p;` (`p` an array), `let y = x.to_vec();`: a local array of `view`'s
    /// entries, of its constant length, or else a `Vec` (outside loops).
    pub(super) fn copy_local(&mut self, name: &str, span: proc_macro2::Span, view: View) {
        let len = match self.constant_len(&view) {
            Some(len) => (len, false),
            None if self.loops > 0 || !self.frames.is_empty() => {
                self.errors.at(span, "a copy of a slice of a run-time length is a `Vec`, which is supported outside loops; copy it before the loop, `let mut v = w.to_vec();`, and overwrite its entries there");
                return self.poison_name(name, span);
            }
            None => (self.fixed(view.len(), span), true),
        };
        if view.row == Some(super::view::Row::Own) {
            self.errors.at(span, "a copy of rows of their own lengths is not supported; read the rows in place, `w[i][j]`");
            return self.poison_name(name, span);
        }
        let row = view.row.clone();
        let tuple = self
            .tuples
            .get(&view.base)
            .copied()
            .filter(|_| row.is_some());
        self.store_all(
            name,
            (span, span),
            &Chain::Slice(View { row: None, ..view }),
            len,
        );
        if let (Some(row), Some(binding)) = (row, self.lookup(name)) {
            self.rows.insert(binding.var, row);
            if let Some(width) = tuple {
                self.tuples.insert(binding.var, width);
            }
        }
    }

    /// `let g = h;` with `h` a local array: `g` is a copy, which writes to `h` afterwards do
    /// not reach (a view of `h` would see them). `None` once bound; else `value` to bind.
    pub(super) fn copied(&mut self, pat: &Pat, init: &Expr, value: Value) -> Option<Value> {
        match (pat, init, value) {
            (Pat::Ident(ident), Expr::Path(_), Value::Seq(view))
                if ident.subpat.is_none()
                    && view.is_whole()
                    && self.ty(view.base).array_len().is_some() =>
            {
                self.copy_local(&ident.ident.to_string(), ident.ident.span(), view);
                None
            }
            // `let r = l[i];` of a sequence of rows copies the row, as `f` does.
            (Pat::Ident(ident), Expr::Index(index), Value::Seq(view))
                if ident.subpat.is_none() && !matches!(&*index.index, Expr::Range(_)) =>
            {
                self.copy_local(&ident.ident.to_string(), ident.ident.span(), view);
                None
            }
            (_, _, value) => Some(value),
        }
    }

    /// `let held = array;` of `array` a path, bound as [`local`](Self::local) binds it: a copy
    /// of a local array, any other value as it is.
    pub(super) fn copy_value(&mut self, held: &syn::Ident, array: &Expr) {
        let (name, span) = (held.to_string(), held.span());
        match self.in_context(false, array) {
            Value::Seq(view) if view.is_whole() && self.ty(view.base).array_len().is_some() => {
                self.copy_local(&name, span, view)
            }
            Value::Error => self.poison_name(&name, span),
            value => self.bind_value(&name, span, value),
        }
    }

    /// The length of `view` if it is a constant: an array's `N`, or a literal.
    fn constant_len(&self, view: &View) -> Option<IntExpr> {
        // A row of rows, `N` long whatever the number of rows.
        if let Some(row) = self.rows.get(&view.base).and_then(super::view::Row::len)
            && matches!(view.len(), IntExpr::Lit { .. } | IntExpr::Extern(_))
            && view.len() == *row
        {
            return Some(row.clone());
        }
        let len = self.ty(view.base).fixed_len()?.clone();
        match view.len() {
            _ if view.is_whole() => Some(len),
            literal @ IntExpr::Lit { .. } => Some(literal),
            _ => None,
        }
    }

    /// Binds `name` to a new local array (a `Vec` with `vec`) of length `len` holding the
    /// elements of `chain`, written by a counted loop; an error points at `at`.
    fn store_all(
        &mut self,
        name: &str,
        (span, at): (proc_macro2::Span, proc_macro2::Span),
        chain: &Chain,
        (len, vec): (IntExpr, bool),
    ) {
        self.loops += 1;
        let (body, (index, stored)) = self.capture(|this| {
            this.in_scope(|this| {
                let index = this.named("i", Ty::Int, span);
                let value = match this.element(chain, IntExpr::Var(index), span) {
                    Value::F64(operand) => Some(operand),
                    Value::Unknown(path) => Some(Operand::Extern(path)),
                    Value::Error => None,
                    _ => {
                        let float = this.scalar.name();
                        this.errors.at(at, format!("the elements collected here must be `{float}`s; `.map(|x| ..)` them to `{float}` first"));
                        None
                    }
                };
                (index, value)
            })
        });
        self.loops -= 1;
        let Some(value) = stored else {
            return self.poison_name(name, span);
        };
        let dst = self.named(name, Ty::local(len.clone(), vec), span);
        self.emit(Stmt::Array {
            dst,
            fill: Operand::Const(0.0),
        });
        let mut body = body;
        body.push(Stmt::Store {
            array: dst,
            index: IntExpr::Var(index),
            value,
        });
        let id = self.loop_id();
        self.emit(Stmt::Loop(Box::new(Loop {
            id,
            span,
            kind: LoopKind::Range {
                index: Some(index),
                start: IntExpr::Lit {
                    value: 0,
                    suffix: String::new(),
                },
                end: len,
                inclusive: false,
            },
            body,
            carried: Vec::new(),
            exit: None,
            count: None,
        })));
        self.bind(name, dst);
    }
}
