//! The inference's walk over expressions (`typing.rs`).

use super::{BOOL, FLOAT, INT, Infer, Known, Local, Term, deeper};
use crate::ir::Ty;
use crate::lower::paths::Named;
use std::collections::HashMap;
use syn::{BinOp, Expr};

impl Infer<'_, '_> {
    pub(super) fn closure(&mut self, closure: &syn::ExprClosure) -> Option<Term> {
        self.scopes.push(HashMap::new());
        for input in &closure.inputs {
            self.pattern(input, None);
        }
        let loops = std::mem::take(&mut self.loops);
        let output = self.output.take();
        let value = self.expr(&closure.body);
        self.loops = loops;
        self.output = output;
        self.scopes.pop();
        match &closure.output {
            syn::ReturnType::Type(_, ty) => {
                let annotation = self.annotation(ty);
                self.unify(annotation, value)
            }
            syn::ReturnType::Default => value,
        }
    }

    pub(super) fn path(&mut self, path: &syn::ExprPath) -> Option<Term> {
        if path.qself.is_none()
            && let Some(ident) = path.path.get_ident()
        {
            let name = ident.to_string();
            if let Some(local) = self.lookup(&name) {
                return match local {
                    Local::Value(term) => *term,
                    Local::Closure(..) => None,
                };
            }
            if let Some(binding) = self.lowerer.lookup(&name) {
                let var = binding.var;
                // Data (`labels: &[usize]`) is what its type in the signature says.
                if let Some(ty) = self.lowerer.data_type(&Expr::Path(path.clone())) {
                    return super::of_type(&ty).map(Term::Known);
                }
                return match self.lowerer.ty(var) {
                    Ty::F64 => FLOAT,
                    Ty::Int => INT,
                    Ty::Bool => BOOL,
                    ty if ty.is_floats() && !self.lowerer.aliases.contains_key(&var) => {
                        let depth = if self.lowerer.rows.contains_key(&var) {
                            2
                        } else {
                            1
                        };
                        Some(Term::Known(Known::Seq { depth, float: true }))
                    }
                    _ => None,
                };
            }
        }
        match crate::lower::paths::classify(path, self.lowerer.scalar) {
            Named::F64(_) => FLOAT,
            Named::Int(_) => INT,
            Named::Other(outside) => {
                let key = outside.path.join("::");
                let var = match self.outside.get(&key) {
                    Some(&var) => var,
                    None => {
                        let var = self.fresh();
                        self.outside.insert(key, var);
                        var
                    }
                };
                Some(Term::Var(var))
            }
            Named::Method(_) | Named::Mixed(_) => None,
        }
    }

    pub(super) fn binary(&mut self, binary: &syn::ExprBinary) -> Option<Term> {
        // Down the left spine in a loop: a sum of 10^5 terms needs no deeper stack.
        let spine = crate::spine::spine(binary);
        let mut left = self.expr(&spine[spine.len() - 1].left);
        for node in spine.into_iter().rev() {
            let right = self.expr(&node.right);
            left = match node.op {
                BinOp::Lt(_)
                | BinOp::Le(_)
                | BinOp::Gt(_)
                | BinOp::Ge(_)
                | BinOp::Eq(_)
                | BinOp::Ne(_) => {
                    self.unify(left, right);
                    BOOL
                }
                BinOp::And(_) | BinOp::Or(_) => BOOL,
                BinOp::Shl(_) | BinOp::Shr(_) | BinOp::ShlAssign(_) | BinOp::ShrAssign(_) => left,
                _ => self.unify(left, right),
            };
        }
        left
    }

    pub(super) fn expr(&mut self, expr: &Expr) -> Option<Term> {
        match expr {
            Expr::Lit(lit) => match &lit.lit {
                syn::Lit::Float(_) => FLOAT,
                syn::Lit::Int(int) if crate::ir::Scalar::from_name(int.suffix()).is_some() => FLOAT,
                syn::Lit::Int(_) => INT,
                syn::Lit::Bool(_) => BOOL,
                _ => None,
            },
            Expr::Path(path) => self.path(path),
            Expr::Paren(inner) => self.expr(&inner.expr),
            Expr::Group(inner) => self.expr(&inner.expr),
            Expr::Reference(reference) => self.expr(&reference.expr),
            Expr::Binary(binary) => self.binary(binary),
            Expr::Unary(unary) => self.unary(unary),
            Expr::Cast(cast) => self.cast(cast),
            Expr::Index(index) => self.index(index),
            Expr::Range(range) => self.range(range),
            Expr::MethodCall(call) => {
                let receiver = self.expr(&call.receiver);
                let args: Vec<Option<Term>> = call.args.iter().map(|arg| self.expr(arg)).collect();
                self.method(call, receiver, args)
            }
            Expr::Call(call) => self.call(call),
            Expr::If(branch) => self.if_expr(branch),
            Expr::Match(matching) => self.match_expr(matching),
            Expr::Block(block) => {
                self.labelled(block.label.as_ref(), |this| this.block(&block.block))
            }
            Expr::Unsafe(block) => self.block(&block.block),
            Expr::Loop(_) | Expr::While(_) | Expr::ForLoop(_) => self.loop_expr(expr),
            Expr::Let(binding) => {
                let term = self.expr(&binding.expr);
                self.pattern(&binding.pat, term);
                BOOL
            }
            Expr::Closure(closure) => {
                self.closure(closure);
                None
            }
            Expr::Return(_) | Expr::Break(_) => self.exit(expr),
            Expr::Assign(assign) => {
                let left = self.expr(&assign.left);
                let right = self.expr(&assign.right);
                self.unify(left, right);
                None
            }
            Expr::Array(_) | Expr::Repeat(_) => self.array(expr),
            Expr::Macro(mac) => self.mac(&mac.mac),
            Expr::Tuple(tuple) => {
                for elem in &tuple.elems {
                    self.expr(elem);
                }
                None
            }
            Expr::Field(field) => {
                self.expr(&field.base);
                // `x.sin_cos().1`: either half of the pair is a float.
                match sin_cos(&field.base) {
                    true => FLOAT,
                    false => None,
                }
            }
            other => {
                syn::visit::visit_expr(&mut Descend(self), other);
                None
            }
        }
    }

    pub(super) fn unary(&mut self, unary: &syn::ExprUnary) -> Option<Term> {
        match unary.op {
            syn::UnOp::Deref(_) => {
                let term = self.expr(&unary.expr);
                match self.resolve(term) {
                    // `*y` of a `&mut f64`, read as a one-entry slice.
                    Some(Known::Seq { .. }) => self.entry(term),
                    _ => term,
                }
            }
            _ => self.expr(&unary.expr),
        }
    }

    pub(super) fn cast(&mut self, cast: &syn::ExprCast) -> Option<Term> {
        let inner = self.expr(&cast.expr);
        let target = self.annotated(&cast.ty);
        // `K as f64` is most often of an integer; a float cast to itself says little.
        if let (Some(Known::Float), Some(Term::Var(var))) = (target, inner) {
            self.weak.push((var, Known::Int));
        }
        target.map(Term::Known)
    }

    pub(super) fn index(&mut self, index: &syn::ExprIndex) -> Option<Term> {
        let base = self.expr(&index.expr);
        if let Expr::Range(range) = &*index.index {
            self.range(range);
            return base;
        }
        let at = self.expr(&index.index);
        self.unify(at, INT);
        self.entry(base)
    }

    pub(super) fn match_expr(&mut self, matching: &syn::ExprMatch) -> Option<Term> {
        let scrutinee = self.expr(&matching.expr);
        let mut value = None;
        for arm in &matching.arms {
            self.scopes.push(HashMap::new());
            self.pattern(&arm.pat, scrutinee);
            let body = self.expr(&arm.body);
            value = self.unify(value, body);
            self.scopes.pop();
        }
        value
    }

    /// A loop: its `break value`s have the type of a `loop`'s value; a `while` or `for` has none.
    pub(super) fn loop_expr(&mut self, expr: &Expr) -> Option<Term> {
        let var = self.fresh();
        match expr {
            Expr::Loop(the_loop) => {
                let label = the_loop.label.as_ref().map(|l| l.name.ident.to_string());
                self.loops.push((label, var));
                self.block(&the_loop.body);
                self.loops.pop();
                Some(Term::Var(var))
            }
            Expr::While(the_loop) => {
                let label = the_loop.label.as_ref().map(|l| l.name.ident.to_string());
                self.scopes.push(HashMap::new());
                self.expr(&the_loop.cond);
                self.loops.push((label, var));
                self.block(&the_loop.body);
                self.loops.pop();
                self.scopes.pop();
                None
            }
            Expr::ForLoop(the_loop) => {
                let label = the_loop.label.as_ref().map(|l| l.name.ident.to_string());
                let items = self.expr(&the_loop.expr);
                let item = self.entry(items);
                self.scopes.push(HashMap::new());
                self.pattern(&the_loop.pat, item);
                self.loops.push((label, var));
                self.block(&the_loop.body);
                self.loops.pop();
                self.scopes.pop();
                None
            }
            _ => None,
        }
    }

    /// `return value` has the function's type, `break value` its loop's.
    pub(super) fn exit(&mut self, expr: &Expr) -> Option<Term> {
        match expr {
            Expr::Return(ret) => {
                if let Some(value) = &ret.expr {
                    let term = self.expr(value);
                    let output = self.output;
                    self.unify(term, output);
                }
                None
            }
            Expr::Break(exit) => {
                let term = exit.expr.as_ref().and_then(|value| self.expr(value));
                let label = exit.label.as_ref().map(|l| l.ident.to_string());
                let target = match &label {
                    Some(label) => (self.loops.iter().rev())
                        .find(|(name, _)| name.as_deref() == Some(label.as_str())),
                    None => self.loops.last(),
                };
                if let Some(&(_, var)) = target {
                    self.unify(term, Some(Term::Var(var)));
                }
                None
            }
            _ => None,
        }
    }

    /// `[a, b]` and `[x; n]`: a sequence of their entries' type.
    pub(super) fn array(&mut self, expr: &Expr) -> Option<Term> {
        match expr {
            Expr::Array(array) => {
                let mut entry = None;
                for elem in &array.elems {
                    let term = self.expr(elem);
                    entry = self.unify(entry, term);
                }
                let entry = self.resolve(entry)?;
                Some(Term::Known(deeper(entry)?))
            }
            Expr::Repeat(repeat) => {
                let entry = self.expr(&repeat.expr);
                let len = self.expr(&repeat.len);
                self.unify(len, INT);
                let entry = self.resolve(entry)?;
                Some(Term::Known(deeper(entry)?))
            }
            _ => None,
        }
    }

    /// A labelled block's `break 'label value`s have its type.
    pub(super) fn labelled(
        &mut self,
        label: Option<&syn::Label>,
        f: impl FnOnce(&mut Self) -> Option<Term>,
    ) -> Option<Term> {
        let Some(label) = label else {
            return f(self);
        };
        let var = self.fresh();
        self.loops.push((Some(label.name.ident.to_string()), var));
        let tail = f(self);
        self.loops.pop();
        self.unify(tail, Some(Term::Var(var)))
    }

    pub(super) fn range(&mut self, range: &syn::ExprRange) -> Option<Term> {
        for end in [&range.start, &range.end].into_iter().flatten() {
            let term = self.expr(end);
            self.unify(term, INT);
        }
        Some(Term::Known(Known::Seq {
            depth: 1,
            float: false,
        }))
    }

    pub(super) fn if_expr(&mut self, branch: &syn::ExprIf) -> Option<Term> {
        self.scopes.push(HashMap::new());
        self.expr(&branch.cond);
        let then = self.block(&branch.then_branch);
        self.scopes.pop();
        match &branch.else_branch {
            Some((_, other)) => {
                let other = self.expr(other);
                self.unify(then, other)
            }
            None => None,
        }
    }
}

/// Whether `expr` is `x.sin_cos()` (in parentheses or not): a pair of floats.
pub(super) fn sin_cos(expr: &Expr) -> bool {
    match expr {
        Expr::Paren(inner) => sin_cos(&inner.expr),
        Expr::Group(inner) => sin_cos(&inner.expr),
        Expr::MethodCall(call) => call.method == "sin_cos" && call.args.is_empty(),
        _ => false,
    }
}

/// Walks an expression the inference has no rule for, inferring each one inside it.
struct Descend<'a, 'l, 'e>(&'a mut Infer<'l, 'e>);

impl<'ast> syn::visit::Visit<'ast> for Descend<'_, '_, '_> {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        self.0.expr(expr);
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        self.0.block(block);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}
