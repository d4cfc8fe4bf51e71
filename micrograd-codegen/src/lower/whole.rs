//! Whole-array assignment and swaps of local arrays (issue 24), desugared into the entry-wise
//! writes the rest of the lowering knows: in SSA an assignment of a whole array is a new value
//! of every entry, and a swap of two arrays exchanges them entry by entry.
//!
//! Before: `h = h_new;` After: `for k in 0..h.len() { h[k] = h_new[k]; }`
//! Before: `h = g(&h);` of a `g` returning `[f64; 2]` (`lower/vector_call.rs`)
//! After: `let c = h; h[0] = g(&c)[0]; h[1] = g(&c)[1];`
//! Before: `std::mem::swap(&mut u, &mut next);`
//! After: `for k in 0..u.len() { let t = u[k]; u[k] = next[k]; next[k] = t; }`
//! Before: `std::mem::swap(&mut a, &mut b);` of two `f64`s After: `let t = a; a = b; b = t;`
//! Before: `h = [b; N];` After: `let f = b; for k in 0..h.len() { h[k] = f; }`
//! Before: `l = [[b; N]; M];` or `l = l_new;` of arrays of rows: the same, row by row.

use super::Lowerer;
use crate::ir::{Ty, VarId};
use syn::spanned::Spanned;
use syn::{Expr, parse_quote_spanned};

impl Lowerer<'_> {
    /// `h = h_new;` of two local arrays of one length: `true` if it was lowered (or reported).
    pub(super) fn whole_assign(&mut self, target: VarId, left: &Expr, right: &Expr) -> bool {
        // `h = g(..)` of a call returning `[f64; M]`, `M` being `h`'s length.
        if let Expr::Call(call) = right
            && self.vector_assign(target, left, call)
        {
            return true;
        }
        if matches!(right, Expr::Repeat(_) | Expr::Array(_)) && self.local_array(left).is_some() {
            return self.assign_literal(left, right);
        }
        if self.local_rows(left).is_some() {
            return self.assign_rows(left, right);
        }
        let Some(source) = self.local_array(right) else {
            return false;
        };
        self.same_length(left, right, (target, source));
        let span = left.span();
        let k = crate::names::free(&mut self.used, crate::names::lowered::ENTRY);
        let copy: syn::Stmt = parse_quote_spanned!(span=>
            for #k in 0..#left.len() {
                #left[#k] = #right[#k];
            }
        );
        self.stmt(&copy);
        true
    }

    /// `h = [b; N];` or `h = [a, b, c];` of a local array `h` (issue 24): the values first,
    /// each under a fresh name (`h = [h[1], h[0]];` reads both before it writes), then stored.
    ///
    /// Before: `h = [b; 3];` After: `let f = b; for k in 0..h.len() { h[k] = f; }`
    /// Before: `h = [h[1], h[0]];` After: `let f = h[1]; let f_ = h[0]; h[0] = f; h[1] = f_;`
    fn assign_literal(&mut self, left: &Expr, right: &Expr) -> bool {
        let span = right.span();
        let mut stmts: Vec<syn::Stmt> = Vec::new();
        match right {
            Expr::Repeat(repeat) => {
                let fill = crate::names::free(&mut self.used, crate::names::lowered::FILL);
                let value = &repeat.expr;
                let k = crate::names::free(&mut self.used, crate::names::lowered::ENTRY);
                stmts.push(parse_quote_spanned!(span=> let #fill = #value;));
                stmts.push(parse_quote_spanned!(span=>
                    for #k in 0..#left.len() {
                        #left[#k] = #fill;
                    }
                ));
            }
            Expr::Array(array) => {
                let names: Vec<syn::Ident> = array
                    .elems
                    .iter()
                    .map(|_| crate::names::free(&mut self.used, crate::names::lowered::FILL))
                    .collect();
                for (name, value) in names.iter().zip(&array.elems) {
                    stmts.push(parse_quote_spanned!(value.span()=> let #name = #value;));
                }
                for (k, name) in names.iter().enumerate() {
                    let k = proc_macro2::Literal::usize_unsuffixed(k);
                    stmts.push(parse_quote_spanned!(span=> #left[#k] = #name;));
                }
            }
            _ => return false,
        }
        for stmt in &stmts {
            self.stmt(stmt);
        }
        true
    }

    /// `l = ..;` of a local array of rows `l` (`[[f64; N]; M]`, held flat in row-major order),
    /// from another array of rows, a fill or a literal of rows: the values first, each under a
    /// fresh name (a literal may read `l`), then stored entry by entry, as `assign_literal`
    /// stores a flat array's. `false` for any other right side (the caller's error).
    ///
    /// Before: `l = [[0.0; 2]; 2];`
    /// After: `let f = 0.0; for k in 0..l.len() { for e in 0..l[k].len() { l[k][e] = f; } }`
    /// Before: `l = [[a, b], [c, d]];`
    /// After: `let f = a; let f_ = b; ..; l[0][0] = f; l[0][1] = f_; ..`
    /// Before: `l = l_new;` After: `for k in 0..l.len() { for e in 0..l[k].len() { l[k][e] =
    /// l_new[k][e]; } }`
    fn assign_rows(&mut self, left: &Expr, right: &Expr) -> bool {
        let span = right.span();
        let fresh = |this: &mut Self, base: &str| crate::names::free(&mut this.used, base);
        let (k, e) = (
            fresh(self, crate::names::lowered::ENTRY),
            fresh(self, crate::names::lowered::ENTRY),
        );
        let every = |value: &syn::Expr| -> syn::Stmt {
            parse_quote_spanned!(span=>
                for #k in 0..#left.len() {
                    for #e in 0..#left[#k].len() {
                        #left[#k][#e] = #value;
                    }
                }
            )
        };
        let mut stmts: Vec<syn::Stmt> = Vec::new();
        match right {
            // `[[b; N]; M]`: every entry `b`.
            Expr::Repeat(outer) if matches!(&*outer.expr, Expr::Repeat(_)) => {
                let Expr::Repeat(inner) = &*outer.expr else {
                    return false;
                };
                let fill = fresh(self, crate::names::lowered::FILL);
                let value = &inner.expr;
                stmts.push(parse_quote_spanned!(span=> let #fill = #value;));
                stmts.push(every(&parse_quote_spanned!(span=> #fill)));
            }
            // `[[a, b], [c, d]]`: a literal of rows, entry by entry.
            Expr::Array(rows) if rows.elems.iter().all(|row| matches!(row, Expr::Array(_))) => {
                let mut stores = Vec::new();
                for (i, row) in rows.elems.iter().enumerate() {
                    let Expr::Array(row) = row else {
                        return false;
                    };
                    for (j, value) in row.elems.iter().enumerate() {
                        let name = fresh(self, crate::names::lowered::FILL);
                        stmts.push(parse_quote_spanned!(value.span()=> let #name = #value;));
                        let (i, j) = (
                            proc_macro2::Literal::usize_unsuffixed(i),
                            proc_macro2::Literal::usize_unsuffixed(j),
                        );
                        stores.push(parse_quote_spanned!(span=> #left[#i][#j] = #name;));
                    }
                }
                stmts.extend(stores);
            }
            // `l_new`, another local array of rows (rustc checks that the shapes agree).
            Expr::Path(_) if self.local_rows(right).is_some() => {
                stmts.push(every(&parse_quote_spanned!(span=> #right[#k][#e])));
            }
            _ => return false,
        }
        for stmt in &stmts {
            self.stmt(stmt);
        }
        true
    }

    /// `std::mem::swap(&mut a, &mut b)` (or `core::mem::swap`, `mem::swap`) of two local
    /// arrays of one length, or of two `f64` variables; `false` for any other call.
    pub(super) fn swap(&mut self, call: &syn::ExprCall) -> bool {
        if !is_swap(call) {
            return false;
        }
        let span = call.span();
        let operands: Vec<&Expr> = call
            .args
            .iter()
            .filter_map(|arg| match arg {
                Expr::Reference(reference) if reference.mutability.is_some() => {
                    Some(&*reference.expr)
                }
                _ => None,
            })
            .collect();
        let [a, b] = operands.as_slice() else {
            self.errors.at(span, "`std::mem::swap` takes two local arrays or two `f64` variables as `&mut a, &mut b`");
            return true;
        };
        let t = crate::names::free(&mut self.used, crate::names::lowered::SWAPPED);
        let arrays = (self.local_array(a), self.local_array(b));
        match arrays {
            (Some(first), Some(second)) => {
                self.same_length(a, b, (first, second));
                let k = crate::names::free(&mut self.used, crate::names::lowered::ENTRY);
                let entries: syn::Stmt = parse_quote_spanned!(span=>
                    for #k in 0..#a.len() {
                        let #t = #a[#k];
                        #a[#k] = #b[#k];
                        #b[#k] = #t;
                    }
                );
                self.stmt(&entries);
            }
            (None, None) if self.is_f64_var(a) && self.is_f64_var(b) => self.swap_floats(&t, a, b),
            _ => {
                self.errors.at(span, "`std::mem::swap` exchanges two local arrays of the same length (`let mut u = [0.0; N];`) or two `f64` variables; swap other values entry by entry");
            }
        }
        true
    }

    /// `std::mem::swap(&mut a, &mut b)` of two `f64` variables, lowered as `let t = a; a = b;
    /// b = t;` would be: `t` bound to `a`'s value, then new versions of `a` and `b`.
    fn swap_floats(&mut self, t: &syn::Ident, a: &Expr, b: &Expr) {
        self.copy_value(t, a);
        self.assign(a, None, b);
        let (Some(held), Expr::Path(path)) = (self.lookup(&t.to_string()), b) else {
            return;
        };
        let Some(name) = path.path.get_ident().map(ToString::to_string) else {
            return;
        };
        let var = self.define(&name, crate::ir::Operand::Var(held.var), b.span());
        self.rebind(&name, var);
    }

    /// The local array (`[c; N]`, `vec![c; n]`, not an array of rows) that `expr` names.
    fn local_array(&mut self, expr: &Expr) -> Option<VarId> {
        let Expr::Path(path) = expr else {
            return None;
        };
        let name = path.path.get_ident()?.to_string();
        let var = self.lookup(&name)?.var;
        let flat = !self.rows.contains_key(&var) && !self.aliases.contains_key(&var);
        (self.ty(var).is_local() && flat).then_some(var)
    }

    /// The local array of rows (`[[f64; N]; M]`, `[[0.0; N]; M]`) that `expr` names.
    fn local_rows(&mut self, expr: &Expr) -> Option<VarId> {
        let Expr::Path(path) = expr else {
            return None;
        };
        let name = path.path.get_ident()?.to_string();
        let var = self.lookup(&name)?.var;
        let rows = self.rows.contains_key(&var) && !self.aliases.contains_key(&var);
        (self.ty(var).is_local() && rows).then_some(var)
    }

    fn is_f64_var(&self, expr: &Expr) -> bool {
        let Expr::Path(path) = expr else {
            return false;
        };
        let binding = path
            .path
            .get_ident()
            .and_then(|ident| self.lookup(&ident.to_string()));
        binding.is_some_and(|binding| {
            *self.ty(binding.var) == Ty::F64 && !self.aliases.contains_key(&binding.var)
        })
    }

    /// Two arrays have one length: rustc checks it of arrays (`[f64; N]` is a type), a `Vec`'s
    /// is checked when the function runs, unless both were written with one length
    /// (`vec![0.0; n]` twice): a `Vec` keeps its length in the IR, so assigning one of another
    /// length, which `f` may do, is refused there with a message.
    fn same_length(&mut self, a: &Expr, b: &Expr, vars: (VarId, VarId)) {
        let (first, second) = (self.ty(vars.0), self.ty(vars.1));
        if !first.is_vec() || !second.is_local() || first.known_len() == second.known_len() {
            return;
        }
        let message = format!(
            "`#[differentiable]` assigns or swaps whole `Vec`s of one length only: `{}` and `{}` differ",
            quote::ToTokens::to_token_stream(a),
            quote::ToTokens::to_token_stream(b)
        );
        // `assert_eq!(a.len(), b.len(), "..")`, kept in the forward sweep (`asserts.rs`).
        let lens = [vars.0, vars.1].map(|var| crate::ir::Arg::Int(self.whole(var).count()));
        let format = syn::LitStr::new(&message, b.span()).token().to_string();
        self.emit(crate::ir::Stmt::Assert(Box::new(crate::ir::Assert {
            name: "assert_eq".to_string(),
            args: lens.into(),
            format: Some(format),
            operands: 2,
            span: b.span(),
        })));
    }
}

/// Whether `call` is `std::mem::swap(..)`, `core::mem::swap(..)` or `mem::swap(..)`.
pub(super) fn is_swap(call: &syn::ExprCall) -> bool {
    let Expr::Path(path) = &*call.func else {
        return false;
    };
    let names = crate::signature::segments(&path.path);
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    path.qself.is_none()
        && matches!(
            names.as_slice(),
            ["std" | "core", "mem", "swap"] | ["mem", "swap"]
        )
}
