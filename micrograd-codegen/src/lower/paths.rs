//! Paths the macro does not define: float and integer constants, float functions called by
//! their path (UFCS), and `const` / `static` items written inside the function.
//!
//! Before: `<f64>::sin(x) * core::f64::consts::PI + f64::EPSILON`
//! After: `x.sin() * ::core::f64::consts::PI + ::core::primitive::f64::EPSILON`

use super::Lowerer;
use super::expr::Value;
use crate::ir::{Extern, IntExpr, Operand, Scalar};
use syn::spanned::Spanned;

/// What a path names, by its spelling.
pub enum Named {
    /// An associated constant of `f64` or a constant of `f64::consts` (`f64::EPSILON`).
    F64(Extern),
    /// An associated constant of an integer type (`usize::MAX`).
    Int(Extern),
    /// An associated function of `f64` (`f64::sin`, `<f64>::sin`, `core::primitive::f64::sin`).
    Method(String),
    /// Something else: a user `const`, a function.
    Other(Extern),
    /// An item of the float type the function is not written in (`f32::EPSILON` in `f64`).
    Mixed(Scalar),
}

/// Classifies `path`; `f64` items get an absolute path no user item can shadow.
pub fn classify(path: &syn::ExprPath, scalar: Scalar) -> Named {
    let mut names = crate::signature::segments(&path.path);
    let span = path.span();
    if let Some(qself) = &path.qself {
        // `<f64>::name`: the type comes first.
        if let Some(float) = crate::signature::float_type(&qself.ty, scalar)
            && qself.position == 0
        {
            names.insert(0, float.name().into());
        } else {
            names.insert(0, String::new());
        }
    }
    let absolute = |tail: &[&str]| {
        let path = ["", "core"].iter().chain(tail).map(|s| s.to_string());
        Extern::new(path.collect(), span)
    };
    let all: Vec<&str> = names.iter().map(String::as_str).collect();
    let relative = match all.as_slice() {
        ["core" | "std", "primitive", rest @ ..] | ["core" | "std", rest @ ..] => rest,
        rest => rest,
    };
    let float = scalar.name();
    // The float type a path of two or more segments starts with (`f32::..`), if it names one.
    let mixed = match relative {
        [ty, _, ..] => scalar.named(ty),
        _ => None,
    };
    match (relative, mixed) {
        ([ty, "consts", name], _) if *ty == float => Named::F64(absolute(&[float, "consts", name])),
        ([ty, name], _) if *ty == float && is_constant(name) => {
            Named::F64(absolute(&["primitive", float, name]))
        }
        ([ty, name], _) if *ty == float => Named::Method(name.to_string()),
        (_, Some(found)) => Named::Mixed(found),
        ([int, name], _) if crate::signature::is_int_name(int) && is_constant(name) => {
            Named::Int(absolute(&["primitive", int, name]))
        }
        _ => {
            let mut full = names;
            if path.path.leading_colon.is_some() {
                full.insert(0, String::new());
            }
            Named::Other(Extern {
                guessed: true,
                ..Extern::new(full, span)
            })
        }
    }
}

/// Rust's convention: constants are upper case.
pub fn is_constant(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
}

/// The name, type and value of a `const` or (immutable) `static` item.
pub fn constant(item: &syn::Item) -> Option<(&syn::Ident, &syn::Type, &syn::Expr)> {
    match item {
        syn::Item::Const(item) => Some((&item.ident, &*item.ty, &*item.expr)),
        syn::Item::Static(item) if matches!(item.mutability, syn::StaticMutability::None) => {
            Some((&item.ident, &*item.ty, &*item.expr))
        }
        _ => None,
    }
}

impl Lowerer<'_> {
    /// Binds the `const` and `static` items among `stmts`, each once: called where a block
    /// starts (a Rust item is in scope in all of its block, before its declaration too) and
    /// again at each item, for blocks entered some other way.
    pub(super) fn declare_items(&mut self, stmts: &[syn::Stmt]) {
        for stmt in stmts {
            let syn::Stmt::Item(item) = stmt else {
                continue;
            };
            let Some((name, ty, value)) = constant(item) else {
                continue;
            };
            // A block's items have different names; the block is the innermost scope, whose id
            // a branch's copy of the scopes keeps.
            let block = self.scopes.last().map_or(u32::MAX, |scope| scope.id);
            if self.items.insert((block, name.to_string())) {
                self.const_item(name, ty, value);
            }
        }
    }

    /// Whether `ty` is the function's float type.
    pub(super) fn is_scalar(&self, ty: &syn::Type) -> bool {
        crate::signature::float_type(ty, self.scalar) == Some(self.scalar)
    }

    /// Reports `ty` if it holds the float type the function is not written in (`let x: f32`
    /// in an `f64` function); true if it does.
    pub(super) fn mixes(&mut self, ty: &syn::Type) -> bool {
        match crate::signature::float_in(ty, self.scalar) {
            Some((float, found)) if found != self.scalar => {
                self.errors.mixed(float.span(), self.scalar, found);
                true
            }
            _ => false,
        }
    }

    /// `const K: f64 = ..;` or `static K: usize = ..;` in the body: the name stands for its
    /// value, typed by the item, and prints as that value (a constant is inlined anyway).
    pub(super) fn const_item(&mut self, name: &syn::Ident, ty: &syn::Type, value: &syn::Expr) {
        let span = name.span();
        // A float of the other type is reported, then read as the function's own.
        let float = self.mixes(ty) || self.is_scalar(ty);
        let value = match self.expr(value) {
            Value::Unknown(path) if float => Value::F64(Operand::Extern(path)),
            Value::Unknown(path) => Value::Int(IntExpr::Extern(path)),
            value => value,
        };
        let expected_f64 = float;
        let fits = match &value {
            Value::F64(_) => expected_f64,
            Value::Int(_) => is_int_type(ty),
            Value::Bool(_) => matches!(ty, syn::Type::Path(p) if p.path.is_ident("bool")),
            Value::Error => true,
            _ => false,
        };
        if !fits {
            self.errors.at(
                ty.span(),
                format!("constants inside `#[differentiable]` functions are `{}`, integers or `bool`s, with a value of that type", self.scalar.name()),
            );
            return;
        }
        let var = self.alias_var(&name.to_string(), value, span);
        self.bind(&name.to_string(), var);
    }
}

fn is_int_type(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(path) => path
            .path
            .get_ident()
            .is_some_and(|ident| crate::signature::is_int_name(&ident.to_string())),
        _ => false,
    }
}
