//! Expressions as tokens, with exactly the parentheses precedence needs.

use super::Emitter;
use crate::diff::{Expr, Test};
use crate::ir::{
    BitOp, CmpOp, Cond, Entry, Extern, IntExpr, IntOp, Op, Operand, Scalar, Shape, VarId,
};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, quote};

/// Binding strength, weakest first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Prec {
    /// `if .. { } else { }`, `a as T` operands are never weaker than this.
    Select,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `&`
    BitAnd,
    /// `<< >>`
    Shift,
    /// `+ -`
    Sum,
    /// `* / %`
    Product,
    /// `-a`, `!a`
    Unary,
    /// `a.f()`, `a[i]`, atoms
    Postfix,
}

impl Emitter<'_> {
    /// Output `k` of `outputs`, a value shaped as the function's result: `outputs` itself for
    /// one `f64`, `outputs[k]` for an array, `outputs.k` for a tuple.
    pub(super) fn output_of(&self, outputs: &Ident, k: usize) -> TokenStream {
        match self.function.shape {
            Shape::Scalar => outputs.to_token_stream(),
            Shape::Array => {
                let k = Literal::usize_unsuffixed(k);
                quote!(#outputs[#k])
            }
            Shape::Tuple => {
                let k = syn::Index::from(k);
                quote!(#outputs.#k)
            }
        }
    }

    /// `items`, one per output, packed as the function returns its result.
    pub(super) fn outputs(&self, items: &[TokenStream]) -> TokenStream {
        match self.function.shape {
            Shape::Scalar => {
                let [item] = items else {
                    unreachable!("internal error: a scalar function has one result")
                };
                item.clone()
            }
            Shape::Array => quote!([#(#items),*]),
            Shape::Tuple => quote!((#(#items),*)),
        }
    }

    /// `place += value` (`-=` with `negate`); for a generic float, which `Float` gives no
    /// `AddAssign`, `place = place + value`, the same sum.
    pub(super) fn accumulate(&self, place: TokenStream, value: &Expr, negate: bool) -> TokenStream {
        if self.function.scalar.is_generic() {
            let value = self.expr_at(value, Prec::Product);
            return match negate {
                true => quote!(#place = #place - #value;),
                false => quote!(#place = #place + #value;),
            };
        }
        let value = self.expr(value);
        match negate {
            true => quote!(#place -= #value;),
            false => quote!(#place += #value;),
        }
    }

    /// A scalar expression of the reverse sweep.
    pub(super) fn expr(&self, expr: &Expr) -> TokenStream {
        self.expr_at(expr, Prec::Select)
    }

    fn expr_at(&self, expr: &Expr, need: Prec) -> TokenStream {
        let (tokens, prec) = match expr {
            Expr::Var(v) => (self.names.var(*v).to_token_stream(), Prec::Postfix),
            Expr::Adj(v) => (self.names.adjoint(*v).to_token_stream(), Prec::Postfix),
            Expr::Const(c) => return constant(self.function.scalar, *c, need),
            Expr::Seed(k) => match &self.seed {
                Some(seed) => (self.output_of(seed, *k), Prec::Postfix),
                // `f_grad`'s seed, typed (`1.0_f64`): what flows from it into a callee's
                // `ByCaller(..)` then has the type `f_pullback`'s seed has, and a hand-written
                // pullback is one error, not two.
                None => return constant(self.function.scalar, 1.0, Prec::Postfix),
            },
            Expr::Extern(path) if path.guessed => (self.guessed(path), Prec::Postfix),
            Expr::Extern(path) => (external(path), Prec::Postfix),
            Expr::Consts(name) => (self.function.scalar.consts(name), Prec::Postfix),
            Expr::Int(n) => (self.cast(n), Prec::Select),
            Expr::Load(w, i) => self.load(*w, i),
            Expr::AdjLoad(w, i) => {
                let (w, i) = (self.names.adjoint(*w), self.int(i));
                (quote!(#w[#i]), Prec::Postfix)
            }
            Expr::Add(a, b) => (self.infix(a, quote!(+), b, Prec::Sum), Prec::Sum),
            Expr::Sub(a, b) => (self.infix(a, quote!(-), b, Prec::Sum), Prec::Sum),
            Expr::Mul(a, b) => (self.infix(a, quote!(*), b, Prec::Product), Prec::Product),
            Expr::Div(a, b) => (self.infix(a, quote!(/), b, Prec::Product), Prec::Product),
            Expr::Neg(a) => {
                let a = self.expr_at(a, Prec::Unary);
                (quote!(-#a), Prec::Unary)
            }
            Expr::Call1(f, a) => (
                self.method(self.expr_at(a, Prec::Postfix), f.name(), quote!()),
                Prec::Postfix,
            ),
            Expr::Call2(crate::ir::Func2::Rem, a, b) => {
                (self.infix(a, quote!(%), b, Prec::Product), Prec::Product)
            }
            Expr::Call2(f, a, b) => {
                let receiver = self.expr_at(a, Prec::Postfix);
                (self.method(receiver, f.name(), self.expr(b)), Prec::Postfix)
            }
            Expr::Call3(f, a, b, c) => {
                let receiver = self.expr_at(a, Prec::Postfix);
                let (b, c) = (self.expr(b), self.expr(c));
                (
                    self.method(receiver, f.name(), quote!(#b, #c)),
                    Prec::Postfix,
                )
            }
            Expr::Powi(a, n) => (
                self.method(self.expr_at(a, Prec::Postfix), "powi", self.int(n)),
                Prec::Postfix,
            ),
            Expr::Select(test, a, b) => {
                let (test, a, b) = (self.test(test), self.expr(a), self.expr(b));
                (quote!(if #test { #a } else { #b }), Prec::Select)
            }
            Expr::Pair(a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                (quote!((#a, #b)), Prec::Postfix)
            }
        };
        parenthesize(tokens, prec, need)
    }

    /// An outside constant whose type was guessed to be the float (`PI` of a `use`d path),
    /// held to that type so that a wrong guess is one error at its use.
    fn guessed(&self, path: &Extern) -> TokenStream {
        let mut float = self.function.scalar.ty();
        float = float
            .into_iter()
            .map(|mut token| {
                token.set_span(path.span);
                token
            })
            .collect();
        let path = external(path);
        quote!(::core::convert::identity::<#float>(#path))
    }

    /// The entry `index` of `array`: through its view where one is open, else indexed, and a
    /// zero where a tangent array may be empty (a constant's).
    fn load(&self, array: VarId, index: &IntExpr) -> (TokenStream, Prec) {
        if self.tangent.maybe_empty.contains(&array) {
            let (w, i) = (self.names.var(array), self.int(index));
            let zero = self.function.scalar.zero();
            return (
                quote!(if #w.is_empty() { #zero } else { #w[#i] }),
                Prec::Select,
            );
        }
        match self.viewed(array, index, false) {
            Some(viewed) => (viewed, Prec::Postfix),
            None => {
                let (w, i) = (self.names.var(array), self.int(index));
                (quote!(#w[#i]), Prec::Postfix)
            }
        }
    }

    fn infix(&self, a: &Expr, op: TokenStream, b: &Expr, prec: Prec) -> TokenStream {
        let a = self.expr_at(a, prec);
        let b = self.expr_at(b, next(prec));
        quote!(#a #op #b)
    }

    fn method(&self, receiver: TokenStream, name: &str, args: TokenStream) -> TokenStream {
        let name = Ident::new(name, Span::mixed_site());
        quote!(#receiver.#name(#args))
    }

    pub(super) fn test(&self, test: &Test) -> TokenStream {
        match test {
            Test::Cmp(op, a, b) => {
                let (a, b, op) = (
                    self.expr_at(a, Prec::Sum),
                    self.expr_at(b, Prec::Sum),
                    cmp(*op),
                );
                quote!(#a #op #b)
            }
            Test::IntEq(a, b) => {
                let (a, b) = (self.int(a), self.int(b));
                quote!(#a == #b)
            }
            Test::And(a, b) => {
                let (a, b) = (self.test(a), self.test(b));
                quote!(#a && #b)
            }
            Test::Or(a, b) => {
                let (a, b) = (self.test(a), self.test(b));
                quote!(#a || #b)
            }
            Test::IsNan(a) => {
                let a = self.expr_at(a, Prec::Postfix);
                quote!(#a.is_nan())
            }
        }
    }

    /// A forward operand.
    pub(super) fn operand(&self, operand: &Operand) -> TokenStream {
        self.expr(&Expr::from(operand))
    }

    /// An operand bound to a variable: a literal gets its type, so that `let two = 2.0_f64;`
    /// can later call `two.powf(..)` (a bare `2.0` would be an ambiguous `{float}` there).
    pub(super) fn bound(&self, operand: &Operand) -> TokenStream {
        match operand {
            Operand::Const(c) => constant(self.function.scalar, *c, Prec::Postfix),
            other => self.operand(other),
        }
    }

    /// The right side of a forward assignment.
    pub(super) fn op(&self, op: &Op) -> TokenStream {
        let e = |o: &Operand| Expr::from(o);
        let binary = |f: fn(Box<Expr>, Box<Expr>) -> Expr, a: &Operand, b: &Operand| {
            let expr = f(Box::new(e(a)), Box::new(e(b)));
            match (a, b) {
                // Two literals (`1.0 + 0.5`) make an ambiguous `{float}`, on which a later
                // `t0.sqrt()` would not compile: the first one carries the type.
                (Operand::Const(_), Operand::Const(_) | Operand::Extern(_)) => {
                    let (a, b) = (self.bound(a), self.operand(b));
                    let op = match expr {
                        Expr::Add(..) => quote!(+),
                        Expr::Sub(..) => quote!(-),
                        Expr::Mul(..) => quote!(*),
                        Expr::Call2(..) => quote!(%),
                        _ => quote!(/),
                    };
                    quote!(#a #op #b)
                }
                _ => self.expr(&expr),
            }
        };
        match op {
            Op::Copy(a) => self.bound(a),
            Op::Add(a, b) => binary(Expr::Add, a, b),
            Op::Sub(a, b) => binary(Expr::Sub, a, b),
            Op::Mul(a, b) => binary(Expr::Mul, a, b),
            Op::Div(a, b) => binary(Expr::Div, a, b),
            Op::Neg(a) => self.expr(&-e(a)),
            Op::Powi(a, n) => self.expr(&e(a).powi(n.clone())),
            Op::Call1(f, a) => self.expr(&e(a).call(*f)),
            // `%` is an operator too: `-2.75 % -2.25` alone is an ambiguous `{float}`.
            Op::Call2(crate::ir::Func2::Rem, a, b) => {
                binary(|a, b| Expr::Call2(crate::ir::Func2::Rem, a, b), a, b)
            }
            Op::Call2(f, a, b) => self.expr(&e(a).call2(*f, e(b))),
            Op::Call3(f, a, b, c) => self.expr(&e(a).call3(*f, e(b), e(c))),
            Op::FromInt(n) => self.cast(n),
            Op::Data(place) => self.data(place),
            Op::Load(w, i) => self.expr(&Expr::Load(*w, i.clone())),
            Op::Custom(custom) => {
                let args = custom.args.iter().map(|arg| self.arg(arg));
                let body = &custom.body;
                quote!(#body(#(#args),*))
            }
            Op::Call(callee, args) => {
                let (entry, span) = (callee.entry, callee.span);
                let callee = self.callee(callee);
                let args = args.iter().map(|arg| self.arg(arg));
                let call = call(callee, quote!(#(#args),*), span);
                match entry {
                    Some(Entry { k, tuple: true, .. }) => {
                        let k = syn::Index::from(k);
                        quote!(#call.#k)
                    }
                    Some(Entry { k, .. }) => {
                        let k = Literal::usize_unsuffixed(k);
                        quote!(#call[#k])
                    }
                    None => call,
                }
            }
        }
    }

    /// The function a forward call calls: its path, or for a rule of `derivative(..)` the
    /// path through a binding of the checked type, `({ let rule: fn(f64) -> f64 = erf_dx; rule })`.
    fn callee(&self, callee: &Extern) -> TokenStream {
        let path = external(callee);
        match callee.rule.as_ref().map(|rule| &rule.pointer) {
            Some(pointer) => {
                let rule = self.names.local("rule");
                quote!(({ let #rule: #pointer = #path; #rule }))
            }
            None => path,
        }
    }

    /// A read of data, as `f` reads it: `pts[i][0]`, `data[i].1`, `rows[i].len()`.
    pub(super) fn data(&self, place: &crate::ir::Place) -> TokenStream {
        use crate::ir::Step;
        let mut tokens = self.names.var(place.root).to_token_stream();
        for step in &place.steps {
            tokens = match step {
                Step::Index(i) => {
                    let i = self.int(i);
                    quote!(#tokens[#i])
                }
                Step::Field(k) => {
                    let k = syn::Index::from(*k as usize);
                    quote!(#tokens.#k)
                }
                Step::Len => quote!(#tokens.len()),
                Step::Deref => quote!((*#tokens)),
            };
        }
        tokens
    }

    fn cast(&self, n: &IntExpr) -> TokenStream {
        let n = self.int_at(n, Prec::Postfix);
        self.function.scalar.from_int(n)
    }

    /// An integer expression.
    pub(super) fn int(&self, n: &IntExpr) -> TokenStream {
        self.int_at(n, Prec::Select)
    }

    fn int_at(&self, n: &IntExpr, need: Prec) -> TokenStream {
        let (tokens, prec) = match n {
            IntExpr::Lit { value, suffix } => (int_literal(*value, suffix), Prec::Postfix),
            IntExpr::Var(v) => (self.names.var(*v).to_token_stream(), Prec::Postfix),
            IntExpr::Extern(path) => (external(path), Prec::Postfix),
            IntExpr::Len(v) => {
                let v = self.names.var(*v);
                (quote!(#v.len()), Prec::Postfix)
            }
            IntExpr::Data(place) => (self.data(place), Prec::Postfix),
            IntExpr::Binary(op, a, b) => self.int_binary(*op, a, b),
            IntExpr::Bits(op, a, b) => self.bits(*op, a, b),
            IntExpr::Method(method, a, b) => {
                let a = self.int_at(a, Prec::Postfix);
                let name = Ident::new(method.name(), Span::mixed_site());
                let b = b.as_ref().map(|b| self.int(b));
                (quote!(#a.#name(#b)), Prec::Postfix)
            }
            IntExpr::Neg(a) => {
                let a = self.int_at(a, Prec::Unary);
                (quote!(-#a), Prec::Unary)
            }
            IntExpr::Min(a, b) => {
                let (a, b) = (self.int(a), self.int(b));
                (quote!(::core::cmp::min(#a, #b)), Prec::Postfix)
            }
            IntExpr::Checked(index, len) => {
                let (index, len, runtime) = (self.int(index), self.int(len), &self.runtime);
                (quote!(#runtime::ops::index_in(#index, #len)), Prec::Postfix)
            }
            IntExpr::Pick(entries, i) => {
                let (entries, i) = (entries.iter().map(|e| self.int(e)), self.int(i));
                (quote!([#(#entries),*][#i]), Prec::Postfix)
            }
            IntExpr::ViewLen { lo, hi, len } => {
                let (lo, hi) = (lo.as_deref(), hi.as_deref());
                let (lo, hi) = (lo.map(|lo| self.int(lo)), hi.map(|hi| self.int(hi)));
                let (len, runtime) = (self.int(len), &self.runtime);
                (
                    quote!(#runtime::ops::view_len(#lo..#hi, #len)),
                    Prec::Postfix,
                )
            }
            IntExpr::FromFloat(a, ty) => {
                let a = self.expr_at(&(&**a).into(), Prec::Postfix);
                let ty = Ident::new(ty, Span::mixed_site());
                (quote!(#a as ::core::primitive::#ty), Prec::Select)
            }
            IntExpr::Cast(a, ty) => {
                let a = self.int_at(a, Prec::Postfix);
                let ty = Ident::new(ty, Span::mixed_site());
                (quote!(#a as ::core::primitive::#ty), Prec::Select)
            }
        };
        parenthesize(tokens, prec, need)
    }

    /// An integer arithmetic `a op b`.
    fn int_binary(&self, op: IntOp, a: &IntExpr, b: &IntExpr) -> (TokenStream, Prec) {
        let prec = if matches!(op, IntOp::Add | IntOp::Sub) {
            Prec::Sum
        } else {
            Prec::Product
        };
        let (a, b) = (self.int_at(a, prec), self.int_at(b, next(prec)));
        let op = match op {
            IntOp::Add => quote!(+),
            IntOp::Sub => quote!(-),
            IntOp::Mul => quote!(*),
            IntOp::Div => quote!(/),
            IntOp::Rem => quote!(%),
        };
        (quote!(#a #op #b), prec)
    }

    /// A bitwise `a op b` or a shift.
    fn bits(&self, op: BitOp, a: &IntExpr, b: &IntExpr) -> (TokenStream, Prec) {
        let (op, prec) = match op {
            BitOp::Or => (quote!(|), Prec::BitOr),
            BitOp::Xor => (quote!(^), Prec::BitXor),
            BitOp::And => (quote!(&), Prec::BitAnd),
            BitOp::Shl => (quote!(<<), Prec::Shift),
            BitOp::Shr => (quote!(>>), Prec::Shift),
        };
        // Operands of other operators in parentheses, as clippy asks of shifts and masks.
        let (a, b) = (self.int_at(a, Prec::Unary), self.int_at(b, Prec::Unary));
        (quote!(#a #op #b), prec)
    }

    /// A condition of the forward sweep.
    pub(super) fn cond(&self, cond: &Cond) -> TokenStream {
        match cond {
            Cond::F64(op, a, b) => {
                let (a, b, op) = (
                    self.expr_at(&a.into(), Prec::Sum),
                    self.expr_at(&b.into(), Prec::Sum),
                    cmp(*op),
                );
                quote!(#a #op #b)
            }
            Cond::Int(op, a, b) => {
                let (a, b, op) = (
                    self.int_at(a, Prec::Sum),
                    self.int_at(b, Prec::Sum),
                    cmp(*op),
                );
                quote!(#a #op #b)
            }
            Cond::Multiple(a, b) => {
                let (a, b) = (self.int_at(a, Prec::Postfix), self.int(b));
                quote!(#a.is_multiple_of(#b))
            }
            Cond::Var(v) => self.names.var(*v).to_token_stream(),
            Cond::Lit(b) => quote!(#b),
            Cond::Data(place) => self.data(place),
            Cond::Not(c) => {
                let c = self.cond(c);
                quote!(!(#c))
            }
            Cond::And(a, b) | Cond::Or(a, b) => {
                let op = if matches!(cond, Cond::And(..)) {
                    quote!(&&)
                } else {
                    quote!(||)
                };
                let a = self.cond(a);
                let right = self.cond(&b.cond);
                let right = if b.stmts.is_empty() {
                    quote!((#right))
                } else {
                    let stmts = self.forward_block(&b.stmts);
                    quote!({ #stmts #right })
                };
                quote!((#a) #op #right)
            }
        }
    }
}

/// An integer literal `value`, with its `suffix` (`3usize`) where it had one.
fn int_literal(value: u128, suffix: &str) -> TokenStream {
    let literal = Literal::u128_unsuffixed(value);
    let suffix = (!suffix.is_empty()).then(|| Ident::new(suffix, Span::mixed_site()));
    match suffix {
        Some(suffix) => format!("{literal}{suffix}")
            .parse()
            .unwrap_or_else(|_| literal.to_token_stream()),
        None => literal.to_token_stream(),
    }
}

fn next(prec: Prec) -> Prec {
    match prec {
        Prec::Select => Prec::Sum,
        Prec::BitOr => Prec::BitXor,
        Prec::BitXor => Prec::BitAnd,
        Prec::BitAnd => Prec::Shift,
        Prec::Shift => Prec::Sum,
        Prec::Sum => Prec::Product,
        Prec::Product => Prec::Unary,
        Prec::Unary | Prec::Postfix => Prec::Postfix,
    }
}

fn parenthesize(tokens: TokenStream, prec: Prec, need: Prec) -> TokenStream {
    if prec < need {
        quote!((#tokens))
    } else {
        tokens
    }
}

/// A float literal, typed where a method is called on it.
pub(super) fn constant(scalar: Scalar, c: f64, need: Prec) -> TokenStream {
    let literal = scalar.literal(c, need == Prec::Postfix);
    if !c.is_finite() || !c.is_sign_negative() {
        return literal;
    }
    match need {
        Prec::Postfix => quote!((-#literal)),
        _ => parenthesize(quote!(-#literal), Prec::Unary, need),
    }
}

/// The seed argument of a callee's pullback: `ByCaller(seed)`, or for output `k` of several,
/// `seed` at `k` and `zero` elsewhere, shaped as the callee returns (`ByCaller([0.0, seed])`).
/// `ByCaller` is what makes a caller go through generated pullbacks only: a hand-written
/// `g_pullback` beside a plain `g` takes the bare seed, so the call does not build
/// (micrograd_runtime::calls).
pub(super) fn entry_seed(
    callee: &Extern,
    seed: TokenStream,
    zero: &TokenStream,
    runtime: &syn::Path,
) -> TokenStream {
    let seed = entry_value(callee, seed, zero);
    // Spanned at the user's call, so "expected `f64`, found `ByCaller<f64>`" points there.
    let by_caller = quote!(#runtime::calls::ByCaller)
        .into_iter()
        .map(|mut tree| {
            tree.set_span(callee.span);
            tree
        })
        .collect();
    call(by_caller, seed, callee.span)
}

/// The seed of a callee's pullback, unwrapped: `seed`, or for output `k` of several, `seed` at
/// `k` and `zero` elsewhere, shaped as the callee returns (`[0.0, seed]`, `(0.0, seed)`).
pub(super) fn entry_value(callee: &Extern, seed: TokenStream, zero: &TokenStream) -> TokenStream {
    match callee.entry {
        None => seed,
        Some(Entry { k, m, tuple }) => {
            let items = (0..m).map(|i| if i == k { seed.clone() } else { zero.clone() });
            if tuple {
                quote!((#(#items,)*))
            } else {
                quote!([#(#items),*])
            }
        }
    }
}

/// `callee(args)` with its parentheses at `span`, the user's call: an error about the call as a
/// whole (a bound of the callee not met) points there, not at the attribute.
pub(super) fn call(callee: TokenStream, args: TokenStream, span: proc_macro2::Span) -> TokenStream {
    let mut args = proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, args);
    args.set_span(span);
    quote!(#callee #args)
}

/// A path the user wrote, resolving where they wrote it.
pub(super) fn external(path: &Extern) -> TokenStream {
    let mut tokens = TokenStream::new();
    for (i, segment) in path.path.iter().enumerate() {
        if segment.is_empty() {
            tokens.extend(quote!(::));
            continue;
        }
        if i > 0 && !path.path[i - 1].is_empty() {
            tokens.extend(quote!(::));
        }
        // Path keywords (`Self::g` in an `impl`, `crate::`, `super::`) stay keywords.
        match segment.as_str() {
            "Self" | "self" | "super" | "crate" => {
                proc_macro2::Ident::new(segment, path.span).to_tokens(&mut tokens);
            }
            _ => crate::names::ident(segment, path.span).to_tokens(&mut tokens),
        }
        // `rule::<f64>` as written, after `rule` or its suffixed name.
        if let Some(arguments) = path.rule.as_ref().and_then(|rule| rule.arguments.get(i)) {
            tokens.extend(arguments.clone());
        }
    }
    tokens
}

fn cmp(op: CmpOp) -> TokenStream {
    match op {
        CmpOp::Lt => quote!(<),
        CmpOp::Le => quote!(<=),
        CmpOp::Gt => quote!(>),
        CmpOp::Ge => quote!(>=),
        CmpOp::Eq => quote!(==),
        CmpOp::Ne => quote!(!=),
    }
}
