//! Integer expressions and conditions as tokens: indices, lengths, trip counts, and the
//! comparisons and boolean operators of the forward sweep's conditions.

use super::super::Emitter;
use super::{Prec, call, external, next, parenthesize};
use crate::ir::{BitOp, CmpOp, Cond, IntExpr, IntOp};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, quote};

impl Emitter<'_> {
    pub(super) fn cast(&self, n: &IntExpr) -> TokenStream {
        let n = self.int_at(n, Prec::Postfix);
        self.function.scalar.from_int(n)
    }

    /// An integer expression.
    pub(in crate::emit) fn int(&self, n: &IntExpr) -> TokenStream {
        self.int_at(n, Prec::Select)
    }

    /// The subscript of an entry: `[i]`, or `[i][j]` for entry `j` of row `i` of rows of their
    /// own lengths (`IntExpr::Entry`), as the user wrote it (`micrograd_runtime::ragged`'s
    /// wrappers index a row by `usize`).
    pub(in crate::emit) fn subscript(&self, index: &IntExpr) -> TokenStream {
        match index {
            IntExpr::Entry(i, j) => {
                let (i, j) = (self.int(i), self.int(j));
                quote!([#i][#j])
            }
            _ => {
                let i = self.int(index);
                quote!([#i])
            }
        }
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
            IntExpr::Entry(i, j) => {
                let (i, j) = (self.int(i), self.int(j));
                (quote!((#i, #j)), Prec::Postfix)
            }
            IntExpr::RowLen(v, i) => {
                let (v, i) = (self.names.var(*v), self.int(i));
                (quote!(#v[#i].len()), Prec::Postfix)
            }
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
            IntExpr::Call(callee, args) => {
                let args = args.iter().map(|arg| self.int(arg));
                let printed = call(external(callee), quote!(#(#args),*), callee.span);
                (printed, Prec::Postfix)
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
    pub(in crate::emit) fn cond(&self, cond: &Cond) -> TokenStream {
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

pub(super) fn cmp(op: CmpOp) -> TokenStream {
    match op {
        CmpOp::Lt => quote!(<),
        CmpOp::Le => quote!(<=),
        CmpOp::Gt => quote!(>),
        CmpOp::Ge => quote!(>=),
        CmpOp::Eq => quote!(==),
        CmpOp::Ne => quote!(!=),
    }
}
