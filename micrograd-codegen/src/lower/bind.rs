//! The patterns of `let`, `for` and `match` arms: each name bound to its part of the value.
//!
//! Before: `let [p, .., q] = g(x);` After: `p` and `q` are the first and last outputs.

use super::Lowerer;
use super::View;
use super::expr::Value;
use crate::ir::{IntExpr, Op, Operand, Origin};
use syn::Pat;
use syn::spanned::Spanned;

impl Lowerer<'_> {
    /// Binds the names of `pat` to the parts of `value`.
    pub(super) fn bind_pat(&mut self, pat: &Pat, value: Value) {
        match (pat, value) {
            (_, Value::Error) => self.poison(pat),
            (Pat::Wild(_), _) => {}
            // A part computed just for this pattern takes the name it is bound to, rather than
            // being copied: a load stays a load, which the reverse sweep reads again.
            (Pat::Ident(ident), Value::F64(Operand::Var(var)))
                if ident.subpat.is_none() && self.vars[var.0 as usize].origin == Origin::Temp =>
            {
                let name = ident.ident.to_string();
                self.vars[var.0 as usize].origin = self.next_version(&name);
                self.vars[var.0 as usize].span = ident.ident.span();
                self.bind(&name, var);
            }
            (Pat::Ident(ident), value) if ident.subpat.is_none() => {
                let name = ident.ident.to_string();
                match value {
                    Value::Seq(view) if ident.mutability.is_some() => {
                        self.copy_local(&name, ident.ident.span(), view)
                    }
                    value => self.bind_value(&name, ident.ident.span(), value),
                }
            }
            (Pat::Type(typed), value) => self.bind_pat(&typed.pat, value),
            (Pat::Reference(reference), value) => self.bind_pat(&reference.pat, value),
            (Pat::Paren(paren), value) => self.bind_pat(&paren.pat, value),
            // A tuple of an array of tuples bound as a view (`|&(x, y)|` over `pts.iter()`).
            (Pat::Tuple(_), Value::Seq(view))
                if view.row.is_none() && self.tuples.contains_key(&view.base) =>
            {
                let width = self.tuples[&view.base];
                let parts = self.tuple_at(&view, width, pat.span());
                self.bind_pat(pat, parts);
            }
            (Pat::Tuple(tuple), Value::Tuple(values)) if tuple.elems.len() == values.len() => {
                for (pat, value) in tuple.elems.iter().zip(values) {
                    self.bind_pat(pat, value);
                }
            }
            // `(a, b, ..)`: the names before a trailing rest (the outputs of a call read so,
            // `vector_call.rs`, are those the names need).
            (Pat::Tuple(tuple), Value::Tuple(values))
                if crate::lower::desugar::tuple_leading(pat)
                    .is_some_and(|n| n < tuple.elems.len() && n <= values.len()) =>
            {
                for (pat, value) in tuple.elems.iter().zip(values) {
                    if !matches!(pat, Pat::Rest(_)) {
                        self.bind_pat(pat, value);
                    }
                }
            }
            // The outputs of a call returning an array (`vector_call.rs`).
            (Pat::Slice(slice), Value::Tuple(values))
                if slice.elems.len() == values.len() && rest(slice).is_none() =>
            {
                for (pat, value) in slice.elems.iter().zip(values) {
                    self.bind_pat(pat, value);
                }
            }
            (Pat::Slice(slice), Value::Seq(view)) if view.row.is_some() => {
                self.errors.at(
                    slice.span(),
                    "the rows of an array are bound one by one here: `let r = &l[i];`",
                );
                self.poison(pat);
            }
            (Pat::Slice(slice), Value::Seq(view)) => self.bind_entries(slice, &view),
            (Pat::Slice(slice), Value::Tuple(values)) => match rest(slice) {
                Some(r) => self.bind_around_rest(pat, slice, r, &values),
                None => self.wrong_shape(pat),
            },
            (Pat::Tuple(_) | Pat::Slice(_), Value::Data(place, ty)) => {
                match self.data_parts(&place, &ty, (matches!(pat, Pat::Tuple(_)), pat.span())) {
                    Some(parts) => self.bind_pat(pat, Value::Tuple(parts)),
                    None => self.wrong_shape(pat),
                }
            }
            // A call's outputs the macro cannot count (`let (.., c) = triple(x);`, or `let [a,
            // b] = r;` of a name also used whole).
            (Pat::Tuple(_) | Pat::Slice(_), Value::F64(Operand::Var(var)))
                if self.returned_by_call(var) =>
            {
                let message = match pat {
                    Pat::Tuple(_) => "the macro cannot see how many values this call returns, so it binds them from the first: `let (a, b, ..) = g(..);`, or all of them, `let (a, b, c) = g(..);`".to_string(),
                    _ => format!("the macro cannot see how many values this call returns; bind them where it is called, `let [a, b, c] = g(..);`, or say how many: `let r: [{}; 3] = g(..);`", self.scalar.name()),
                };
                self.errors.at(pat.span(), message);
                self.poison(pat);
            }
            (Pat::Tuple(_) | Pat::Slice(_), _) => self.wrong_shape(pat),
            (other, _) => {
                self.errors.at(
                    other.span(),
                    "bind a name, a tuple `(a, b)` or an array `[a, b]` here",
                );
                self.poison(pat);
            }
        }
    }

    /// A tuple or array pattern that does not fit its value.
    fn wrong_shape(&mut self, pat: &Pat) {
        self.errors.at(pat.span(), "this pattern does not match the value's shape; destructure a tuple with `(a, b)` and an array with `[a, b]`");
        self.poison(pat);
    }

    /// `let [a, .., z] = g(..);` of the outputs of a call, the rest `..` at `r`: each name its
    /// output, counted from the end after the rest.
    fn bind_around_rest(&mut self, pat: &Pat, slice: &syn::PatSlice, r: usize, values: &[Value]) {
        let after = slice.elems.len() - r - 1;
        if values.len() < r + after || r_named(&slice.elems[r]) {
            self.errors.at(slice.elems[r].span(), "the outputs of a call are bound one by one here: `[a, .., b]`, without a name for the rest");
            return self.poison(pat);
        }
        let tail = values.len() - after;
        for (i, pat) in slice.elems.iter().enumerate() {
            match i.cmp(&r) {
                std::cmp::Ordering::Less => self.bind_pat(pat, values[i].clone()),
                std::cmp::Ordering::Greater => self.bind_pat(pat, values[tail + i - r - 1].clone()),
                std::cmp::Ordering::Equal => {}
            }
        }
    }

    /// `let [a, b, .., z] = v;` of an array: each name its entry, counted from the end after
    /// the rest `..`, which `rest @ ..` binds as a view of the entries between.
    fn bind_entries(&mut self, slice: &syn::PatSlice, view: &View) {
        let lit = |value: usize| IntExpr::Lit {
            value: value as u128,
            suffix: String::new(),
        };
        let rest = rest(slice);
        let after = rest.map_or(0, |r| slice.elems.len() - r - 1);
        // Entry `i` of the pattern: `i` before the rest, `len - (elems - i)` after it.
        let from_end = |i: usize| {
            let back = lit(slice.elems.len() - i);
            IntExpr::Binary(crate::ir::IntOp::Sub, Box::new(view.len()), Box::new(back))
        };
        for (i, pat) in slice.elems.iter().enumerate() {
            let index = match rest {
                Some(r) if i == r => {
                    if let Pat::Ident(ident) = pat {
                        let hi = IntExpr::Binary(
                            crate::ir::IntOp::Sub,
                            Box::new(view.len()),
                            Box::new(lit(after)),
                        );
                        let part = view.sub(Some(lit(r)), Some(hi));
                        let name = ident.ident.to_string();
                        self.bind_value(&name, ident.ident.span(), Value::Seq(part));
                    }
                    continue;
                }
                Some(r) if i > r => from_end(i),
                _ => lit(i),
            };
            let value = self.temp(Op::Load(view.base, view.at(index)), pat.span());
            self.bind_pat(pat, Value::F64(value));
        }
    }

    /// After an error, binds the names of `pat` to nothing, so their uses report no more.
    pub(super) fn poison(&mut self, pat: &Pat) {
        let mut names = Vec::new();
        super::scan::pattern_names(pat, &mut names);
        for name in names {
            let var = self.alias_var(&name, Value::Error, pat.span());
            self.bind(&name, var);
        }
    }
}

/// The position of the rest `..` (or `name @ ..`) in a slice pattern.
fn rest(slice: &syn::PatSlice) -> Option<usize> {
    slice.elems.iter().position(|pat| match pat {
        Pat::Rest(_) => true,
        Pat::Ident(ident) => {
            matches!(&ident.subpat, Some((_, sub)) if matches!(**sub, Pat::Rest(_)))
        }
        _ => false,
    })
}

/// Whether the rest of a slice pattern is named (`rest @ ..`).
fn r_named(pat: &Pat) -> bool {
    matches!(pat, Pat::Ident(_))
}
