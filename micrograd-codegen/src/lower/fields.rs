//! Parameter structs: which fields of each `p: &S` the body reads, and as what.
//!
//! The attribute cannot see `S`'s definition, so each field's kind comes from how the body
//! uses it: `p.w[i]`, `p.w.len()`, `&p.w[a..b]`, `for x in &p.w` make a slice; `p.k as f64`,
//! `0..p.n`, `w[p.k]` an integer; `if p.on`, `!p.on` a `bool`; `&p.layer` passed to a call a
//! value handed on whole (a nested struct, or a slice); anything else an `f64`. The generated
//! code binds every field with its kind's type (`let p_b: f64 = p.b;`), so a wrong guess is a
//! compile error at the field, never a wrong gradient.
//!
//! Before: `fn f(p: &S) -> f64 { p.w[0] * p.b }`
//! After: the fields `p.w` (a slice) and `p.b` (an `f64`), lowered as parameters of their own.

mod kinds;

use crate::error::Errors;
use crate::ir::FieldKind;
use proc_macro2::Span;
use syn::visit::Visit;
use syn::{Expr, Ident};

pub(super) use kinds::is_slice_method;
use kinds::{SHARED_METHODS, SLICE_METHODS, annotated_kind, literal_kind, merge};

/// One field of a parameter struct that the body reads.
#[derive(Clone, Debug)]
pub struct FieldUse {
    /// The struct parameter's name.
    pub root: Ident,
    /// The field names from the root (`["layer", "w"]` for `p.layer.w`).
    pub path: Vec<Ident>,
    /// What the body reads it as.
    pub kind: FieldKind,
    /// Where it is first read.
    pub span: Span,
}

impl FieldUse {
    /// `p.layer.w`: the key the lowering looks fields up by.
    pub fn key(&self) -> String {
        key(&self.root, &self.path)
    }
}

/// The key of a field path.
pub fn key(root: &Ident, path: &[Ident]) -> String {
    let mut key = crate::names::text(root);
    for field in path {
        key.push('.');
        key.push_str(&crate::names::text(field));
    }
    key
}

/// The fields of the struct parameters `roots` that `block` reads, each with its kind.
pub fn scan(block: &syn::Block, roots: &[Ident], errors: &mut Errors) -> Vec<FieldUse> {
    if roots.is_empty() {
        return Vec::new();
    }
    let mut scan = Scan {
        roots,
        uses: Vec::new(),
        errors,
    };
    scan.visit_block(block);
    let Scan { uses, errors, .. } = scan;
    let fields: Vec<FieldUse> = uses.into_iter().map(|(field, _)| field).collect();
    for field in &fields {
        let inner = fields
            .iter()
            .find(|other| other.root == field.root && is_prefix(&field.path, &other.path));
        if let Some(inner) = inner
            && !field.kind.is_whole()
        {
            errors.at(
                field.span,
                format!(
                    "`{}` is read as {} here, but `{}` reads a field of it",
                    field.key(),
                    field.kind.describe(),
                    inner.key()
                ),
            );
        }
    }
    fields
}

/// Whether `a` is a proper prefix of `b`.
fn is_prefix(a: &[Ident], b: &[Ident]) -> bool {
    a.len() < b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// `p`, `p.w`, `p.layer.w` (with parentheses): the root and path, if `expr` is one.
pub fn chain(expr: &Expr) -> Option<(Ident, Vec<Ident>)> {
    match expr {
        Expr::Path(path) if path.qself.is_none() => {
            path.path.get_ident().map(|root| (root.clone(), Vec::new()))
        }
        Expr::Field(field) => {
            let syn::Member::Named(name) = &field.member else {
                return None;
            };
            let (root, mut path) = chain(&field.base)?;
            path.push(name.clone());
            Some((root, path))
        }
        Expr::Paren(inner) => chain(&inner.expr),
        _ => None,
    }
}

struct Scan<'a, 'e> {
    roots: &'a [Ident],
    /// Each field read so far, and whether a use showed its kind.
    uses: Vec<(FieldUse, bool)>,
    errors: &'e mut Errors,
}

impl Scan<'_, '_> {
    /// The struct path of `expr` if it is rooted at a struct parameter.
    fn field(&self, expr: &Expr) -> Option<(Ident, Vec<Ident>, Span)> {
        let (root, path) = chain(expr)?;
        let span = match expr {
            Expr::Field(field) => quote::ToTokens::to_token_stream(&field.member)
                .into_iter()
                .next()
                .map_or(root.span(), |t| t.span()),
            _ => root.span(),
        };
        self.roots.contains(&root).then_some((root, path, span))
    }

    /// Visits `expr`, which the enclosing expression reads as `kind` (if it knows).
    fn operand(&mut self, expr: &Expr, kind: Option<FieldKind>) {
        match self.field(expr) {
            Some((root, path, span)) => self.note(root, path, span, kind),
            None => self.visit_expr(expr),
        }
    }

    fn note(&mut self, root: Ident, path: Vec<Ident>, span: Span, kind: Option<FieldKind>) {
        if path.is_empty() && kind != Some(FieldKind::Whole) {
            self.errors.at(
                span,
                format!("`{root}` is a parameter struct: read its fields (`{root}.w[i]`, `{root}.b`), or pass it whole to a `#[differentiable]` function"),
            );
            return;
        }
        let key = key(&root, &path);
        let Some(k) = self.uses.iter().position(|(u, _)| u.key() == key) else {
            // Read where its kind does not show (`let y = p.b;`): an `f64` unless a later
            // use says otherwise.
            let field = FieldUse {
                root,
                path,
                kind: kind.unwrap_or(FieldKind::Scalar),
                span,
            };
            self.uses.push((field, kind.is_some()));
            return;
        };
        let Some(kind) = kind else { return };
        let (seen, known) = &mut self.uses[k];
        if !*known {
            (seen.kind, *known) = (kind, true);
            return;
        }
        match merge(seen.kind, kind) {
            Some(merged) => seen.kind = merged,
            None => self.errors.at(
                span,
                format!(
                    "`{key}` is read as {} here but as {} before; a field has one type",
                    kind.describe(),
                    seen.kind.describe()
                ),
            ),
        }
    }
}

impl<'ast> Visit<'ast> for Scan<'_, '_> {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        if let Some((root, path, span)) = self.field(expr) {
            return self.note(root, path, span, None);
        }
        match expr {
            Expr::Index(index) => {
                self.operand(&index.expr, Some(FieldKind::Slice));
                self.operand(&index.index, Some(FieldKind::Int));
            }
            Expr::Range(range) => {
                for end in [&range.start, &range.end].into_iter().flatten() {
                    self.operand(end, Some(FieldKind::Int));
                }
            }
            Expr::Reference(reference) => self.operand(&reference.expr, Some(FieldKind::Slice)),
            Expr::Cast(cast) => self.operand(&cast.expr, Some(FieldKind::Int)),
            Expr::MethodCall(call) => self.method(call),
            Expr::Call(call) => self.call(call),
            Expr::Binary(binary) => self.binary(binary),
            Expr::Unary(syn::ExprUnary {
                op: syn::UnOp::Not(_),
                expr,
                ..
            }) => self.operand(expr, Some(FieldKind::Bool)),
            Expr::If(branch) => {
                self.operand(&branch.cond, Some(FieldKind::Bool));
                self.visit_block(&branch.then_branch);
                if let Some((_, otherwise)) = &branch.else_branch {
                    self.visit_expr(otherwise);
                }
            }
            Expr::While(the_loop) => {
                self.operand(&the_loop.cond, Some(FieldKind::Bool));
                self.visit_block(&the_loop.body);
            }
            Expr::ForLoop(the_loop) => {
                self.operand(&the_loop.expr, Some(FieldKind::Slice));
                self.visit_block(&the_loop.body);
            }
            Expr::Match(matching) => {
                let bools = matching.arms.iter().any(|arm| {
                    matches!(&arm.pat, syn::Pat::Lit(lit) if matches!(lit.lit, syn::Lit::Bool(_)))
                });
                let kind = if bools {
                    FieldKind::Bool
                } else {
                    FieldKind::Int
                };
                self.operand(&matching.expr, Some(kind));
                for arm in &matching.arms {
                    self.visit_arm(arm);
                }
            }
            _ => syn::visit::visit_expr(self, expr),
        }
    }

    /// A `vec!` holds expressions that `syn` leaves as tokens: its entries are read like
    /// the elements of an array literal, its length like an index.
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if !super::vecs::is_vec(mac) {
            return;
        }
        match mac.parse_body_with(super::vecs::body) {
            Ok(super::vecs::Body::Repeat(parts)) => {
                self.operand(&parts.0, None);
                self.operand(&parts.1, Some(FieldKind::Int));
            }
            Ok(super::vecs::Body::List(elems)) => {
                for elem in &elems {
                    self.operand(elem, None);
                }
            }
            // The lowering reports the syntax error.
            Err(_) => {}
        }
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let (syn::Pat::Type(typed), Some(init)) = (&local.pat, &local.init) {
            self.operand(&init.expr, annotated_kind(&typed.ty));
            if let Some((_, diverge)) = &init.diverge {
                self.visit_expr(diverge);
            }
            return;
        }
        syn::visit::visit_local(self, local);
    }
}

impl Scan<'_, '_> {
    fn method(&mut self, call: &syn::ExprMethodCall) {
        let name = call.method.to_string();
        let arg_kind = call.args.first().and_then(literal_kind);
        let receiver = if SLICE_METHODS.contains(&name.as_str()) {
            Some(FieldKind::Slice)
        } else if SHARED_METHODS.contains(&name.as_str()) {
            arg_kind
        } else if crate::math::Func::from_name(&name).is_some()
            || crate::math::Func2::from_name(&name).is_some()
            || ["powi", "clamp"].contains(&name.as_str())
        {
            Some(FieldKind::Scalar)
        } else {
            None
        };
        self.operand(&call.receiver, receiver);
        for arg in &call.args {
            let kind = (name == "powi").then_some(FieldKind::Int);
            self.operand(arg, kind);
        }
    }

    /// Arguments of a call: `&p.layer` and `p` are handed on whole; two such arguments of
    /// one call may not overlap (their shadows would be borrowed twice).
    fn call(&mut self, call: &syn::ExprCall) {
        self.visit_expr(&call.func);
        // `__micrograd_element::g(i, &p.layers, ..)`: a method of `p.layers[i]` (`methods`).
        let element = matches!(&*call.func, Expr::Path(path)
            if path.path.segments.first().is_some_and(|s| s.ident == crate::names::method::ELEMENT));
        let whole_kind = match element {
            true => FieldKind::Elements,
            false => FieldKind::Whole,
        };
        let mut wholes: Vec<(Ident, Vec<Ident>)> = Vec::new();
        let mut args = call.args.iter();
        // `__micrograd_element::neurons::g(i, j, &p.layers, ..)`: of `p.layers[i].neurons[j]`.
        let indices = match &*call.func {
            Expr::Path(path) if element && path.path.segments.len() == 3 => 2,
            _ if element => 1,
            _ => 0,
        };
        for index in args.by_ref().take(indices) {
            self.operand(index, Some(FieldKind::Int));
        }
        for arg in args {
            let inner = match arg {
                Expr::Reference(reference) if reference.mutability.is_none() => &*reference.expr,
                other => other,
            };
            let whole = matches!(arg, Expr::Reference(_))
                || chain(inner).is_some_and(|(_, path)| path.is_empty());
            let Some((root, path, span)) = self.field(inner).filter(|_| whole) else {
                self.operand(arg, None);
                continue;
            };
            let overlaps = wholes
                .iter()
                .any(|(r, p)| *r == root && (p.starts_with(&path) || path.starts_with(p)));
            if overlaps {
                self.errors.at(span, format!("`{}` overlaps another argument of this call, so their shadows would be borrowed twice; pass each part of a parameter struct once per call", key(&root, &path)));
            }
            wholes.push((root.clone(), path.clone()));
            self.note(root, path, span, Some(whole_kind));
        }
    }

    fn binary(&mut self, binary: &syn::ExprBinary) {
        use syn::BinOp;
        if matches!(binary.op, BinOp::And(_) | BinOp::Or(_)) {
            self.operand(&binary.left, Some(FieldKind::Bool));
            self.operand(&binary.right, Some(FieldKind::Bool));
            return;
        }
        self.operand(&binary.left, literal_kind(&binary.right));
        self.operand(&binary.right, literal_kind(&binary.left));
    }
}
