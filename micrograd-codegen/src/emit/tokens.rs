//! Expressions as tokens, with exactly the parentheses precedence needs.

mod ints;
mod ops;

use super::Emitter;
use crate::diff::{Expr, Test};
use crate::ir::{Entry, Extern, IntExpr, Operand, Scalar, Shape, VarId};
use ints::cmp;
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
            Expr::Extern(path) if path.limit => {
                let name = path.path.last().map_or("", String::as_str);
                (self.function.scalar.limit(name, path.span), Prec::Postfix)
            }
            Expr::Extern(path) => (external(path), Prec::Postfix),
            Expr::Consts(name) => (self.function.scalar.consts(name), Prec::Postfix),
            Expr::Int(n) => (self.cast(n), Prec::Select),
            Expr::Load(w, i) => self.load(*w, i),
            Expr::AdjLoad(w, i) => {
                let (w, i) = (self.names.adjoint(*w), self.subscript(i));
                (quote!(#w #i), Prec::Postfix)
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
            let (w, i) = (self.names.var(array), self.subscript(index));
            let zero = self.function.scalar.zero();
            return (
                quote!(if #w.is_empty() { #zero } else { #w #i }),
                Prec::Select,
            );
        }
        match self.viewed(array, index, false) {
            Some(viewed) => (viewed, Prec::Postfix),
            None => {
                let (w, i) = (self.names.var(array), self.subscript(index));
                (quote!(#w #i), Prec::Postfix)
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
    emitter: &Emitter,
    callee: &Extern,
    seed: TokenStream,
    zero: &TokenStream,
) -> TokenStream {
    let seed = entry_value(emitter, callee, seed, zero);
    let runtime = &emitter.runtime;
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
/// Where the caller cannot count the outputs, `calls::unit(k, seed, zero)` (`calls::tuple_unit`
/// of a tuple), whose length rustc infers from the pullback.
pub(super) fn entry_value(
    emitter: &Emitter,
    callee: &Extern,
    seed: TokenStream,
    zero: &TokenStream,
) -> TokenStream {
    match &callee.entry {
        None => seed,
        Some(Entry {
            k,
            m: Some(m),
            tuple,
        }) if matches!(**k, IntExpr::Lit { .. }) => {
            let IntExpr::Lit { value: k, .. } = **k else {
                unreachable!("matched a literal")
            };
            let (k, tuple) = (k as usize, *tuple);
            let items = (0..*m).map(|i| if i == k { seed.clone() } else { zero.clone() });
            if tuple {
                quote!((#(#items,)*))
            } else {
                quote!([#(#items),*])
            }
        }
        Some(Entry { k, tuple, .. }) => {
            let (runtime, k) = (&emitter.runtime, emitter.int(k));
            match tuple {
                true => quote!(#runtime::calls::tuple_unit(#k, #seed, #zero)),
                false => quote!(#runtime::calls::unit(#k, #seed, #zero)),
            }
        }
    }
}

/// `callee(args)` with its parentheses at `span`, the user's call: an error about the call as a
/// whole (a bound of the callee not met) points there, not at the attribute, and so does one
/// about an argument the user did not write (one too many), its operators and delimiters
/// located there ([`located_ops`]); the caller locates each argument the user wrote at it
/// (`Extern::args_at`).
pub(super) fn call(callee: TokenStream, args: TokenStream, span: proc_macro2::Span) -> TokenStream {
    let mut args =
        proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, located_ops(args, span));
    args.set_span(span);
    quote!(#callee #args)
}

/// `tokens` with their operators, literals and delimiters located at `span` (the user's
/// expression), their names where they are (a variable where the user wrote it, `names.rs`; a
/// guessed constant at its name): `let t0 = y * 2.0;` of a `y` that is no number is an error at
/// the user's `y * 2.0`, never at the attribute.
pub(super) fn located_ops(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|tree| match tree {
            proc_macro2::TokenTree::Group(group) => {
                let inner = located_ops(group.stream(), span);
                let mut moved = proc_macro2::Group::new(group.delimiter(), inner);
                moved.set_span(group.span().located_at(span));
                moved.into()
            }
            proc_macro2::TokenTree::Ident(ident) => ident.into(),
            mut tree => {
                tree.set_span(tree.span().located_at(span));
                tree
            }
        })
        .collect()
}

/// `tokens`, each located at `span` (the user's token) and resolved as before
/// (`Span::located_at`: a generated name keeps its hygiene, a user's path its meaning).
pub(super) fn located(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|tree| match tree {
            proc_macro2::TokenTree::Group(group) => {
                let inner = located(group.stream(), span);
                let mut moved = proc_macro2::Group::new(group.delimiter(), inner);
                moved.set_span(group.span().located_at(span));
                moved.into()
            }
            mut tree => {
                tree.set_span(tree.span().located_at(span));
                tree
            }
        })
        .collect()
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
