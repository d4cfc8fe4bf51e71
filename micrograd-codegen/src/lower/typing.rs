//! The types of the names the function cannot see (`const K`, `static S`, `PI` from a `use`),
//! told by their uses across the whole function, by unification, before the body is lowered.
//!
//! Rust converts nothing implicitly, so every use that puts such a name beside a value of
//! known type decides it, wherever it is: `x * (K * K)` makes `K` an `f64`, and so does
//! `let pi = PI;` followed by `x * pi`, or `K1 * K2` beside `K2.sin()` far below. Each name is
//! a type variable; an expression's type is a known type or a variable; arithmetic,
//! comparisons, assignments, the arms of an `if` or `match`, a loop's `break` values, a
//! method's receiver and arguments and an annotation unify them. A name nothing decides stays
//! undecided, and the lowering's own rules (`expr::unify`: two such names are integers) apply.
//! Each guess is pinned by a type in the generated code, so a wrong one is rustc's error at
//! the name, never a wrong derivative.
//!
//! Before: `let pi = PI; let k = K1 * K2; y * pi + k.sin()`
//! After: `PI`, `K1` and `K2` are `f64`s wherever they are read (`Outside::of`).

use super::Lowerer;
use super::paths::Named;
use super::tuple_branch::is_int_type;
use crate::ir::Ty;
use std::collections::HashMap;
use syn::punctuated::Punctuated;
use syn::{BinOp, Expr, Pat, Stmt};

/// A type the function's text tells.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Known {
    Float,
    Int,
    Bool,
    /// A slice, array or range `depth` levels deep, of floats or of integers.
    Seq {
        depth: u8,
        float: bool,
    },
}

/// An expression's type: known, or a variable of the unification.
#[derive(Clone, Copy, Debug)]
enum Term {
    Known(Known),
    Var(usize),
}

/// What the whole function's uses say each name it cannot see is, by its path.
#[derive(Default)]
pub(super) struct Outside {
    floats: HashMap<String, bool>,
}

impl Outside {
    /// Whether the uses of `path` say it is a float (`Some(true)`), an integer (`Some(false)`),
    /// or nothing.
    pub(super) fn of(&self, path: &[String]) -> Option<bool> {
        self.floats.get(&path.join("::")).copied()
    }
}

impl Lowerer<'_> {
    /// Types the names `body` cannot see by their uses (its parameters already bound).
    pub(super) fn type_outside(&self, body: &syn::Block) -> Outside {
        let mut infer = Infer {
            lowerer: self,
            parent: Vec::new(),
            known: Vec::new(),
            weak: Vec::new(),
            outside: HashMap::new(),
            scopes: Vec::new(),
            closures: HashMap::new(),
            loops: Vec::new(),
            output: match self.output {
                Some(crate::ir::Output::Scalar) => Some(Term::Known(Known::Float)),
                _ => None,
            },
        };
        let tail = infer.block(body);
        let output = infer.output;
        infer.unify(tail, output);
        // Hints that decide only what nothing else did (`K as f64`: most often an integer).
        for (var, known) in std::mem::take(&mut infer.weak) {
            let root = infer.find(var);
            if infer.known[root].is_none() {
                infer.known[root] = Some(known);
            }
        }
        let mut floats = HashMap::new();
        for (path, var) in std::mem::take(&mut infer.outside) {
            let root = infer.find(var);
            match infer.known[root] {
                Some(Known::Float) => floats.insert(path, true),
                Some(Known::Int) => floats.insert(path, false),
                _ => None,
            };
        }
        Outside { floats }
    }
}

impl Lowerer<'_> {
    /// What the whole function's uses say `expr` is (`Some(true)` a float), where it is made
    /// of names the function cannot see (`K`, `K1 * K2`, `{ ..; -K }`).
    pub(super) fn outside_type(&self, expr: &Expr) -> Option<bool> {
        match expr {
            Expr::Paren(inner) => self.outside_type(&inner.expr),
            Expr::Group(inner) => self.outside_type(&inner.expr),
            Expr::Unary(unary) => self.outside_type(&unary.expr),
            Expr::Block(block) => match block.block.stmts.last() {
                Some(Stmt::Expr(tail, None)) => self.outside_type(tail),
                _ => None,
            },
            Expr::Binary(binary) => {
                let spine = crate::spine::spine(binary);
                let last = spine[spine.len() - 1];
                (spine.iter().map(|node| &*node.right))
                    .chain([&*last.left])
                    .find_map(|side| self.outside_type(side))
            }
            Expr::Path(path) => {
                if let Some(ident) = path.path.get_ident()
                    && self.lookup(&ident.to_string()).is_some()
                {
                    return None;
                }
                match super::paths::classify(path, self.scalar) {
                    Named::Other(outside) => self.outside.of(&outside.path),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// A local's type, or a closure bound by `let` (its parameters' and its value's).
#[derive(Clone)]
enum Local {
    Value(Option<Term>),
    Closure(Vec<Option<Term>>, Option<Term>),
}

struct Infer<'l, 'e> {
    lowerer: &'l Lowerer<'e>,
    /// The unification's variables: each one's parent, and the type of each root.
    parent: Vec<usize>,
    known: Vec<Option<Known>>,
    /// Types that apply to a variable only if nothing else decides it.
    weak: Vec<(usize, Known)>,
    /// The names the function cannot see, by path: their variables.
    outside: HashMap<String, usize>,
    /// The function's locals, innermost scope last.
    scopes: Vec<HashMap<String, Local>>,
    /// Closures bound by `let`, by name.
    closures: HashMap<String, (Vec<Option<Term>>, Option<Term>)>,
    /// The enclosing loops, innermost last: their labels and the variable of their value.
    loops: Vec<(Option<String>, usize)>,
    /// What the function returns, where it is one float.
    output: Option<Term>,
}

const FLOAT: Option<Term> = Some(Term::Known(Known::Float));
const INT: Option<Term> = Some(Term::Known(Known::Int));
const BOOL: Option<Term> = Some(Term::Known(Known::Bool));

/// Methods integers have too, whose receiver and arguments have one type.
const SHARED: &[&str] = &[
    "abs",
    "signum",
    "max",
    "min",
    "clamp",
    "rem_euclid",
    "div_euclid",
];

/// Float methods the IR has no function of (besides `crate::math`'s).
const FLOAT_ONLY: &[&str] = &[
    "powi",
    "sin_cos",
    "is_nan",
    "is_finite",
    "is_infinite",
    "is_sign_negative",
    "is_sign_positive",
    "total_cmp",
    "exp_m1",
];

impl Infer<'_, '_> {
    fn fresh(&mut self) -> usize {
        self.parent.push(self.parent.len());
        self.known.push(None);
        self.parent.len() - 1
    }

    fn find(&mut self, mut var: usize) -> usize {
        while self.parent[var] != var {
            self.parent[var] = self.parent[self.parent[var]];
            var = self.parent[var];
        }
        var
    }

    fn resolve(&mut self, term: Option<Term>) -> Option<Known> {
        match term? {
            Term::Known(known) => Some(known),
            Term::Var(var) => {
                let root = self.find(var);
                self.known[root]
            }
        }
    }

    /// Two expressions of one type: the type of both.
    fn unify(&mut self, a: Option<Term>, b: Option<Term>) -> Option<Term> {
        match (a, b) {
            (None, term) | (term, None) => term,
            (Some(Term::Known(known)), Some(Term::Var(var)))
            | (Some(Term::Var(var)), Some(Term::Known(known))) => {
                let root = self.find(var);
                if self.known[root].is_none() && matches!(known, Known::Float | Known::Int) {
                    self.known[root] = Some(known);
                }
                Some(Term::Known(known))
            }
            (Some(Term::Var(a)), Some(Term::Var(b))) => {
                let (a, b) = (self.find(a), self.find(b));
                if a != b {
                    self.parent[b] = a;
                    if self.known[a].is_none() {
                        self.known[a] = self.known[b];
                    }
                }
                Some(Term::Var(a))
            }
            (known @ Some(Term::Known(_)), Some(Term::Known(_))) => known,
        }
    }

    fn lookup(&self, name: &str) -> Option<&Local> {
        self.scopes.iter().rev().find_map(|scope| scope.get(name))
    }

    fn bind(&mut self, name: String, term: Option<Term>) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name, Local::Value(term));
        }
    }

    /// The type `ty` names: a float, an integer, a `bool`, or a sequence of them.
    fn annotation(&self, ty: &syn::Type) -> Option<Term> {
        Some(Term::Known(self.annotated(ty)?))
    }

    fn annotated(&self, ty: &syn::Type) -> Option<Known> {
        match ty {
            _ if self.lowerer.is_scalar(ty) => Some(Known::Float),
            _ if is_int_type(ty) => Some(Known::Int),
            syn::Type::Path(path) if path.path.is_ident("bool") => Some(Known::Bool),
            syn::Type::Reference(reference) => self.annotated(&reference.elem),
            syn::Type::Paren(inner) => self.annotated(&inner.elem),
            syn::Type::Array(array) => deeper(self.annotated(&array.elem)?),
            syn::Type::Slice(slice) => deeper(self.annotated(&slice.elem)?),
            syn::Type::Path(path) => {
                let last = path.path.segments.last()?;
                let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                    return None;
                };
                match args.args.first()? {
                    syn::GenericArgument::Type(inner) if last.ident == "Vec" => {
                        deeper(self.annotated(inner)?)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn block(&mut self, block: &syn::Block) -> Option<Term> {
        self.scopes.push(HashMap::new());
        // Items are visible in their whole block.
        for stmt in &block.stmts {
            if let Stmt::Item(syn::Item::Const(item)) = stmt {
                let term = self.annotation(&item.ty);
                self.bind(item.ident.to_string(), term);
            } else if let Stmt::Item(syn::Item::Static(item)) = stmt {
                let term = self.annotation(&item.ty);
                self.bind(item.ident.to_string(), term);
            }
        }
        let mut tail = None;
        for (k, stmt) in block.stmts.iter().enumerate() {
            tail = None;
            match stmt {
                Stmt::Local(local) => self.local(local),
                Stmt::Expr(expr, semi) => {
                    let term = self.expr(expr);
                    if semi.is_none() && k + 1 == block.stmts.len() {
                        tail = term;
                    }
                }
                Stmt::Macro(mac) => {
                    self.mac(&mac.mac);
                }
                Stmt::Item(_) => {}
            }
        }
        self.scopes.pop();
        tail
    }

    fn local(&mut self, local: &syn::Local) {
        let Some(init) = &local.init else {
            let var = self.fresh();
            self.pattern(&local.pat, Some(Term::Var(var)));
            return;
        };
        if let Some((_, diverge)) = &init.diverge {
            self.expr(diverge);
        }
        // `let cl = |t: f64| ..;`: its parameters' types, for its calls.
        if let (Pat::Ident(name), Expr::Closure(closure)) = (&local.pat, &*init.expr) {
            let params: Vec<Option<Term>> = (closure.inputs.iter())
                .map(|input| match input {
                    Pat::Type(typed) => self.annotation(&typed.ty),
                    _ => None,
                })
                .collect();
            let value = self.closure(closure);
            self.closures
                .insert(name.ident.to_string(), (params.clone(), value));
            if let Some(scope) = self.scopes.last_mut() {
                scope.insert(name.ident.to_string(), Local::Closure(params, value));
            }
            return;
        }
        // `let (a, b) = (x * K, K * K);`: each name as its part.
        let pat = match &local.pat {
            Pat::Type(typed) => &*typed.pat,
            other => other,
        };
        if let (Pat::Tuple(names), Expr::Tuple(parts)) = (pat, &*init.expr)
            && names.elems.len() == parts.elems.len()
        {
            let terms: Vec<Option<Term>> = parts.elems.iter().map(|e| self.expr(e)).collect();
            for (name, term) in names.elems.iter().zip(terms) {
                self.pattern(name, term);
            }
            return;
        }
        let term = self.expr(&init.expr);
        self.pattern(&local.pat, term);
    }

    /// Binds the names of `pat`, matched against a value of type `term`.
    fn pattern(&mut self, pat: &Pat, term: Option<Term>) {
        match pat {
            Pat::Ident(ident) => {
                if let Some((_, sub)) = &ident.subpat {
                    self.pattern(sub, term);
                }
                // A local without a type of its own gets a variable, so its uses decide
                // what it was bound from.
                let term = match term {
                    None => Some(Term::Var(self.fresh())),
                    term => term,
                };
                self.bind(ident.ident.to_string(), term);
            }
            Pat::Type(typed) => {
                let annotation = self.annotation(&typed.ty);
                let term = self.unify(annotation, term);
                self.pattern(&typed.pat, term);
            }
            Pat::Reference(reference) => self.pattern(&reference.pat, term),
            Pat::Paren(inner) => self.pattern(&inner.pat, term),
            Pat::Slice(slice) => {
                let entry = self.entry(term);
                for elem in &slice.elems {
                    match elem {
                        Pat::Rest(_) => {}
                        Pat::Ident(ident) if ident.subpat.is_some() => self.pattern(elem, term),
                        _ => self.pattern(elem, entry),
                    }
                }
            }
            Pat::Tuple(tuple) => {
                for elem in &tuple.elems {
                    self.pattern(elem, None);
                }
            }
            Pat::TupleStruct(tuple) => {
                for elem in &tuple.elems {
                    self.pattern(elem, None);
                }
            }
            Pat::Or(or) => {
                for case in &or.cases {
                    self.pattern(case, term);
                }
            }
            _ => {}
        }
    }

    /// The type of an entry of a sequence of type `term`.
    fn entry(&mut self, term: Option<Term>) -> Option<Term> {
        match self.resolve(term)? {
            Known::Seq { depth: 1, float } => Some(Term::Known(scalar(float))),
            Known::Seq { depth, float } => Some(Term::Known(Known::Seq {
                depth: depth - 1,
                float,
            })),
            _ => None,
        }
    }

    fn closure(&mut self, closure: &syn::ExprClosure) -> Option<Term> {
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

    fn path(&mut self, path: &syn::ExprPath) -> Option<Term> {
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
        match super::paths::classify(path, self.lowerer.scalar) {
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

    fn binary(&mut self, binary: &syn::ExprBinary) -> Option<Term> {
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

    fn expr(&mut self, expr: &Expr) -> Option<Term> {
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
            Expr::Unary(unary) => match unary.op {
                syn::UnOp::Deref(_) => {
                    let term = self.expr(&unary.expr);
                    match self.resolve(term) {
                        // `*y` of a `&mut f64`, read as a one-entry slice.
                        Some(Known::Seq { .. }) => self.entry(term),
                        _ => term,
                    }
                }
                _ => self.expr(&unary.expr),
            },
            Expr::Cast(cast) => {
                let inner = self.expr(&cast.expr);
                let target = self.annotated(&cast.ty);
                // `K as f64` is most often of an integer; a float cast to itself says little.
                if let (Some(Known::Float), Some(Term::Var(var))) = (target, inner) {
                    self.weak.push((var, Known::Int));
                }
                target.map(Term::Known)
            }
            Expr::Index(index) => {
                let base = self.expr(&index.expr);
                if let Expr::Range(range) = &*index.index {
                    self.range(range);
                    return base;
                }
                let at = self.expr(&index.index);
                self.unify(at, INT);
                self.entry(base)
            }
            Expr::Range(range) => self.range(range),
            Expr::MethodCall(call) => {
                let receiver = self.expr(&call.receiver);
                let args: Vec<Option<Term>> = call.args.iter().map(|arg| self.expr(arg)).collect();
                self.method(call, receiver, args)
            }
            Expr::Call(call) => self.call(call),
            Expr::If(branch) => self.if_expr(branch),
            Expr::Match(matching) => {
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
            Expr::Block(block) => {
                self.labelled(block.label.as_ref(), |this| this.block(&block.block))
            }
            Expr::Unsafe(block) => self.block(&block.block),
            Expr::Loop(the_loop) => {
                let var = self.fresh();
                let label = the_loop.label.as_ref().map(|l| l.name.ident.to_string());
                self.loops.push((label, var));
                self.block(&the_loop.body);
                self.loops.pop();
                Some(Term::Var(var))
            }
            Expr::While(the_loop) => {
                let var = self.fresh();
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
                let var = self.fresh();
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
            Expr::Let(binding) => {
                let term = self.expr(&binding.expr);
                self.pattern(&binding.pat, term);
                BOOL
            }
            Expr::Closure(closure) => {
                self.closure(closure);
                None
            }
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
            Expr::Assign(assign) => {
                let left = self.expr(&assign.left);
                let right = self.expr(&assign.right);
                self.unify(left, right);
                None
            }
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
            Expr::Macro(mac) => self.mac(&mac.mac),
            Expr::Tuple(tuple) => {
                for elem in &tuple.elems {
                    self.expr(elem);
                }
                None
            }
            Expr::Field(field) => {
                self.expr(&field.base);
                None
            }
            other => {
                syn::visit::visit_expr(&mut Descend(self), other);
                None
            }
        }
    }

    /// A labelled block's `break 'label value`s have its type.
    fn labelled(
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

    fn range(&mut self, range: &syn::ExprRange) -> Option<Term> {
        for end in [&range.start, &range.end].into_iter().flatten() {
            let term = self.expr(end);
            self.unify(term, INT);
        }
        Some(Term::Known(Known::Seq {
            depth: 1,
            float: false,
        }))
    }

    fn if_expr(&mut self, branch: &syn::ExprIf) -> Option<Term> {
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

    /// `assert!(c)`, `assert_eq!(a, b)` (one type), `vec![x; n]`: their expressions.
    fn mac(&mut self, mac: &syn::Macro) -> Option<Term> {
        let name = mac.path.segments.last()?.ident.to_string();
        if name == "vec" {
            let tokens = &mac.tokens;
            let array: Expr = syn::parse2(quote::quote!([#tokens])).ok()?;
            return self.expr(&array);
        }
        let args = mac
            .parse_body_with(Punctuated::<Expr, syn::Token![,]>::parse_terminated)
            .ok()?;
        let terms: Vec<Option<Term>> = args.iter().map(|arg| self.expr(arg)).collect();
        if matches!(
            name.as_str(),
            "assert_eq" | "assert_ne" | "debug_assert_eq" | "debug_assert_ne"
        ) && terms.len() >= 2
        {
            self.unify(terms[0], terms[1]);
        }
        None
    }

    fn call(&mut self, call: &syn::ExprCall) -> Option<Term> {
        let args: Vec<Option<Term>> = call.args.iter().map(|arg| self.expr(arg)).collect();
        let Expr::Path(path) = &*call.func else {
            self.expr(&call.func);
            return None;
        };
        if let Some(name) = path.path.get_ident()
            && path.qself.is_none()
            && let Some((params, value)) = self.closure_named(&name.to_string())
        {
            for (param, arg) in params.into_iter().zip(&args) {
                self.unify(param, *arg);
            }
            return value;
        }
        match super::paths::classify(path, self.lowerer.scalar) {
            // `f64::from(n)`, `T::from(c)`: anything in, a float out.
            Named::Method(name) if name == "from" => FLOAT,
            // `f64::max(a, b)`: the method on its first argument.
            Named::Method(name) if !args.is_empty() => {
                self.method_named(&name, args[0], &args[1..], None)
            }
            _ => None,
        }
    }

    fn closure_named(&self, name: &str) -> Option<(Vec<Option<Term>>, Option<Term>)> {
        match self.lookup(name) {
            Some(Local::Closure(params, value)) => Some((params.clone(), *value)),
            Some(Local::Value(_)) => None,
            None => self.closures.get(name).cloned(),
        }
    }

    fn method(
        &mut self,
        call: &syn::ExprMethodCall,
        receiver: Option<Term>,
        args: Vec<Option<Term>>,
    ) -> Option<Term> {
        let turbofish =
            call.turbofish
                .as_ref()
                .and_then(|turbofish| match turbofish.args.first()? {
                    syn::GenericArgument::Type(ty) => self.annotated(ty),
                    _ => None,
                });
        self.method_named(&call.method.to_string(), receiver, &args, turbofish)
    }

    fn method_named(
        &mut self,
        name: &str,
        receiver: Option<Term>,
        args: &[Option<Term>],
        turbofish: Option<Known>,
    ) -> Option<Term> {
        match name {
            "len" => INT,
            "is_empty" => BOOL,
            "iter" | "iter_mut" | "into_iter" | "copied" | "cloned" | "rev" | "clone"
            | "to_vec" | "as_slice" | "as_mut_slice" => receiver,
            "skip" | "take" | "step_by" => {
                for arg in args {
                    self.unify(*arg, INT);
                }
                receiver
            }
            "sum" | "product" => match turbofish {
                Some(known) => Some(Term::Known(known)),
                None => self.entry(receiver),
            },
            "fold" => args.first().copied().flatten(),
            "pow" => {
                for arg in args {
                    self.unify(*arg, INT);
                }
                receiver
            }
            "powi" => {
                for arg in args {
                    self.unify(*arg, INT);
                }
                self.unify(receiver, FLOAT)
            }
            _ if SHARED.contains(&name) => {
                let mut term = receiver;
                for arg in args {
                    term = self.unify(term, *arg);
                }
                term
            }
            _ if FLOAT_ONLY.contains(&name)
                || crate::ir::Func::from_name(name).is_some()
                || crate::ir::Func2::from_name(name).is_some()
                || crate::ir::Func3::from_name(name).is_some() =>
            {
                self.unify(receiver, FLOAT);
                if name != "sin_cos" {
                    for arg in args {
                        self.unify(*arg, FLOAT);
                    }
                }
                match name {
                    "sin_cos" | "total_cmp" => None,
                    _ if name.starts_with("is_") => BOOL,
                    _ => FLOAT,
                }
            }
            _ => None,
        }
    }
}

/// A sequence of `entry`s.
fn deeper(entry: Known) -> Option<Known> {
    match entry {
        Known::Float => Some(Known::Seq {
            depth: 1,
            float: true,
        }),
        Known::Int => Some(Known::Seq {
            depth: 1,
            float: false,
        }),
        Known::Seq { depth, float } => Some(Known::Seq {
            depth: depth.checked_add(1)?,
            float,
        }),
        Known::Bool => None,
    }
}

fn scalar(float: bool) -> Known {
    if float { Known::Float } else { Known::Int }
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
