//! Reads of data: parameters that are never differentiated (`pts: &[[f64; 2]]`,
//! `labels: &[usize]`), of any type. A read is a [`Place`] typed by its structural type
//! (`crate::types`): a float at its end is a constant to differentiation, an integer an
//! [`IntExpr`], a `bool` a condition, anything else stays a place that later steps go on from.
//!
//! Before: `let p = pts[i]; s += w[labels[i]] * p[0];`
//! After: `let t0 = pts[i][0]; let t1 = w[labels[i]]; let t2 = t1 * t0; let s_1 = s + t2;`

use super::Lowerer;
use super::expr::Value;
use crate::ir::{IntExpr, Op, Place, Step};
use crate::types::Type;
use proc_macro2::Span;
use syn::spanned::Spanned;

impl Lowerer<'_> {
    /// The value at `place`, of type `ty`: a float, an integer or a `bool` is read (through
    /// any references to it), other values stay places.
    pub(super) fn data(&mut self, mut place: Place, ty: &Type, span: Span) -> Value {
        let mut behind = ty;
        while let Type::Ref { elem, .. } = behind {
            if matches!(elem.referent(), Type::Float(_) | Type::Int(_) | Type::Bool) {
                place.steps.push(Step::Deref);
            }
            behind = elem;
        }
        match ty.referent() {
            Type::Float(scalar) if *scalar == self.scalar => {
                Value::F64(self.temp(Op::Data(place), span))
            }
            Type::Float(found) => {
                self.errors.mixed(span, self.scalar, *found);
                Value::Error
            }
            Type::Int(_) => Value::Int(IntExpr::Data(Box::new(place))),
            Type::Bool => Value::Bool(crate::ir::Cond::Data(Box::new(place))),
            other => Value::Data(place, other.clone()),
        }
    }

    /// `x[i]` of data.
    pub(super) fn data_index(
        &mut self,
        mut place: Place,
        ty: &Type,
        index: &syn::ExprIndex,
    ) -> Value {
        let Some(elem) = ty.elem() else {
            return self.error(index.expr.span(), not_indexable(ty));
        };
        if let syn::Expr::Range(range) = &*index.index {
            return self.error(
                range.span(),
                "sub-slices of data are not supported yet; index the entries, `x[i]`",
            );
        }
        let Some(i) = self.int_operand(&index.index) else {
            return Value::Error;
        };
        place.steps.push(Step::Index(i));
        self.data(place, &elem.clone(), index.span())
    }

    /// `x.k` of data.
    pub(super) fn data_field(
        &mut self,
        mut place: Place,
        ty: &Type,
        field: &syn::ExprField,
    ) -> Value {
        let syn::Member::Unnamed(index) = &field.member else {
            return self.error(
                field.member.span(),
                "named fields of data are not read yet; pass the field as a parameter of its own",
            );
        };
        let Some(elem) = ty.field(index.index as usize) else {
            return self.error(index.span, "the data has no such element here");
        };
        place.steps.push(Step::Field(index.index));
        self.data(place, &elem.clone(), field.span())
    }

    /// `x.len()` of data.
    pub(super) fn data_len(&mut self, place: Place, ty: &Type, span: Span) -> Value {
        if !ty.has_len() {
            return self.error(
                span,
                "`len()` is read of arrays, slices, `Vec`s and `str`s of data",
            );
        }
        Value::Int(len(place))
    }

    /// What `let (a, b) = x;` (`tuple`) or `let [a, b] = x;` binds of data: its parts, read;
    /// `None` when the pattern is not of the data's kind.
    pub(super) fn data_parts(
        &mut self,
        place: &Place,
        ty: &Type,
        (tuple, span): (bool, Span),
    ) -> Option<Vec<Value>> {
        if tuple != matches!(ty.referent(), Type::Tuple(_)) {
            return None;
        }
        let parts: Vec<Type> = ty.parts()?.into_iter().cloned().collect();
        let values = parts.iter().enumerate().map(|(k, part)| {
            let step = if tuple {
                Step::Field(k as u32)
            } else {
                Step::Index(IntExpr::Lit {
                    value: k as u128,
                    suffix: String::new(),
                })
            };
            let mut place = place.clone();
            place.steps.push(step);
            self.data(place, part, span)
        });
        Some(values.collect())
    }
}

/// `x.len()` of the sequence at `place`.
pub(super) fn len(mut place: Place) -> IntExpr {
    if place.steps.is_empty() {
        return IntExpr::Len(place.root);
    }
    place.steps.push(Step::Len);
    IntExpr::Data(Box::new(place))
}

fn not_indexable(ty: &Type) -> &'static str {
    match ty.referent() {
        Type::Opaque(_) => {
            "this data is of a type `#[differentiable]` does not look into; only arrays, slices, `Vec`s and tuples of data are read"
        }
        _ => "this data cannot be indexed; arrays, slices and `Vec`s can",
    }
}
