//! `assert!` and its kin as statements: kept where `f` runs them (the forward sweep of every
//! flavour), with each operand lowered, and never differentiated.
//!
//! Before: `assert_eq!(n, w.len(), "{} entries", n);`
//! After: `::core::assert_eq!(n, w_len, "{} entries", n);` (`Stmt::Assert`)

use super::Lowerer;
use super::expr::Value;
use crate::ir::{Arg, Assert, IntExpr, Operand, Stmt};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Token};

/// The macros kept, with the number of operands before the message.
const ASSERTS: [(&str, usize); 6] = [
    ("assert", 1),
    ("assert_eq", 2),
    ("assert_ne", 2),
    ("debug_assert", 1),
    ("debug_assert_eq", 2),
    ("debug_assert_ne", 2),
];

/// The number of operands of `mac` when it is one of the assertions kept.
pub(super) fn operands(mac: &syn::Macro) -> Option<usize> {
    let name = mac.path.segments.last()?.ident.to_string();
    let std = mac.path.segments.len() == 1
        || matches!(
            mac.path.segments[0].ident.to_string().as_str(),
            "std" | "core"
        );
    let (_, operands) = ASSERTS.iter().find(|(known, _)| *known == name)?;
    std.then_some(*operands)
}

impl Lowerer<'_> {
    /// Lowers `assert!(..)` (or a kin of `operands` operands) as a statement.
    pub(super) fn assert(&mut self, mac: &syn::Macro, operands: usize) {
        let span = mac.path.span();
        let parser = Punctuated::<Expr, Token![,]>::parse_terminated;
        let Ok(args) = mac.parse_body_with(parser) else {
            return self.errors.at(mac.span(), "write the assertion's operands as expressions separated by commas: `assert!(x > 0.0, \"x = {}\", x);`");
        };
        let args: Vec<&Expr> = args.iter().collect();
        if args.len() < operands {
            return self.errors.at(
                mac.span(),
                format!(
                    "this assertion takes {operands} operand{s} before its message",
                    s = if operands == 1 { "" } else { "s" }
                ),
            );
        }
        let mut lowered = match operands {
            1 => vec![Arg::Bool(self.cond(args[0]))],
            _ => match self.compared(args[0], args[1]) {
                Some(pair) => pair,
                None => return,
            },
        };
        let format = match args.get(operands) {
            None => None,
            Some(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            })) if !captures(&text.value()) => Some(text.token().to_string()),
            Some(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            })) => {
                return self.errors.at(text.span(), "name the message's values after the format string, `\"x = {}\", x`, rather than inside it, `\"{x}\"`");
            }
            Some(other) => {
                return self.errors.at(
                    other.span(),
                    "an assertion's message begins with a format string literal: `\"x = {}\", x`",
                );
            }
        };
        for arg in args.iter().skip(operands + 1) {
            match self.value_arg(arg) {
                Some(arg) => lowered.push(arg),
                None => return,
            }
        }
        self.emit(Stmt::Assert(Box::new(Assert {
            name: mac
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default(),
            args: lowered,
            format,
            operands,
            span,
        })));
    }

    /// The two sides of `assert_eq!(a, b)`, a name the function does not define taking the
    /// type of the other side (two of them are integers), and a call beside an integer an
    /// integer call (`assert_eq!(half(6), 3)` of a `const fn`), as in a comparison.
    fn compared(&mut self, a: &Expr, b: &Expr) -> Option<Vec<Arg>> {
        let call = |side: &Expr| matches!(super::call::strip(side), Expr::Call(_));
        let (left, right) = match (call(a), call(b)) {
            (true, false) => {
                let right = self.expr(b);
                (self.beside(a, &right), right)
            }
            (false, true) => {
                let left = self.expr(a);
                let right = self.beside(b, &left);
                (left, right)
            }
            _ => (self.expr(a), self.expr(b)),
        };
        let float = matches!(left, Value::F64(_)) || matches!(right, Value::F64(_));
        let side = |value: Value, this: &mut Self, expr: &Expr| -> Option<Arg> {
            match value {
                Value::Unknown(path) if float => Some(Arg::Scalar(Operand::Extern(path), false)),
                Value::Unknown(path) => Some(Arg::Int(IntExpr::Extern(path))),
                other => this.message_arg(other, expr),
            }
        };
        let left = side(left, self, a)?;
        let right = side(right, self, b)?;
        Some(vec![left, right])
    }

    /// A value printed by an assertion's message.
    fn value_arg(&mut self, expr: &Expr) -> Option<Arg> {
        match self.expr(expr) {
            Value::Unknown(path) => Some(Arg::Int(IntExpr::Extern(path))),
            other => self.message_arg(other, expr),
        }
    }

    /// An operand or a message's value, lowered.
    fn message_arg(&mut self, value: Value, expr: &Expr) -> Option<Arg> {
        match value {
            Value::F64(operand) => Some(Arg::Scalar(operand, false)),
            Value::Int(int) => Some(Arg::Int(int)),
            Value::Bool(cond) => Some(Arg::Bool(cond)),
            Value::Error => None,
            _ => {
                self.errors.at(expr.span(), "an assertion reads numbers and booleans; compare arrays entry by entry, `assert_eq!(a[0], b[0])`");
                None
            }
        }
    }
}

/// Whether a format string names a value inside it (`"{x}"`), which would read the user's
/// variable by its name where the generated code has renamed it.
fn captures(format: &str) -> bool {
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
            }
            '{' if chars.peek().is_some_and(|c| c.is_alphabetic() || *c == '_') => return true,
            _ => {}
        }
    }
    false
}
