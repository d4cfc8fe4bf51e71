//! The type of a value the function cannot see the type of, told by how the function uses
//! it: `let v = if n > 2 { K } else { J };` is a float where `x * v` reads it, an integer
//! where `0..v`, `w[v]` or `v as f64` does. Rust converts nothing implicitly, so one such use
//! decides.

use super::Lowerer;
use super::tuple_branch::is_int_type;
use syn::visit::Visit;
use syn::{BinOp, Expr};

/// What the uses of one name say it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Use {
    /// Combined with a float (`x * v`, `v.sin()`, `let y: f64 = v;`).
    Float,
    /// An index, a range bound, or combined with an integer (`w[v]`, `0..v`, `v + n`).
    Int,
    /// Nothing says.
    Undecided,
}

impl Lowerer<'_> {
    /// What the function body's uses of `name` say it is; the first use that decides, in
    /// the order of the source.
    pub(super) fn use_of(&self, name: &str) -> Use {
        let mut finder = Finder {
            lowerer: self,
            name,
            found: Use::Undecided,
            locals: Default::default(),
        };
        finder.visit_block(self.body);
        finder.found
    }
}

/// Whether `expr` is the name, through parentheses.
fn is_name(expr: &Expr, name: &str) -> bool {
    match expr {
        Expr::Path(path) => path.qself.is_none() && path.path.is_ident(name),
        Expr::Paren(inner) => is_name(&inner.expr, name),
        _ => false,
    }
}

/// Whether `expr` has the type of the name: the name itself, or arithmetic with it as an
/// operand (`(v - x3) * 2.0` says what `v` is as `v * 2.0` does).
fn has_its_type(expr: &Expr, name: &str) -> bool {
    match expr {
        Expr::Path(_) => is_name(expr, name),
        Expr::Paren(inner) => has_its_type(&inner.expr, name),
        Expr::Unary(unary) => {
            matches!(unary.op, syn::UnOp::Neg(_)) && has_its_type(&unary.expr, name)
        }
        Expr::Binary(binary) => {
            let spine = crate::spine::spine(binary);
            spine
                .iter()
                .all(|node| super::expr::arith_op(&node.op).is_some())
                && (spine.iter().any(|node| has_its_type(&node.right, name))
                    || has_its_type(&spine[spine.len() - 1].left, name))
        }
        _ => false,
    }
}

/// The tail expression of a block, if it has one.
fn block_tail(block: &syn::Block) -> Option<&Expr> {
    match block.stmts.last() {
        Some(syn::Stmt::Expr(tail, None)) => Some(tail),
        _ => None,
    }
}

/// Operators whose two sides have one type.
fn same_type(op: &BinOp) -> bool {
    !matches!(
        op,
        BinOp::And(_) | BinOp::Or(_) | BinOp::Shl(_) | BinOp::Shr(_)
    )
}

struct Finder<'l, 'e, 'n> {
    lowerer: &'l Lowerer<'e>,
    name: &'n str,
    found: Use,
    /// What the `let`s seen so far bind, by name: a float, an integer, or unknown.
    locals: std::collections::HashMap<String, Option<bool>>,
}

impl Finder<'_, '_, '_> {
    /// Whether `expr`, beside a use of the name, is a float (`Some(true)`), an integer
    /// (`Some(false)`), or cannot be told apart yet (a name bound later, a constant).
    fn side(&self, expr: &Expr) -> Option<bool> {
        match expr {
            Expr::Lit(lit) => match &lit.lit {
                syn::Lit::Float(_) => Some(true),
                syn::Lit::Int(_) => Some(false),
                _ => None,
            },
            Expr::Path(path) => {
                let name = path.path.get_ident()?.to_string();
                if let Some(float) = self.locals.get(&name) {
                    return *float;
                }
                let binding = self.lowerer.lookup(&name)?;
                match self.lowerer.ty(binding.var) {
                    crate::ir::Ty::F64 => Some(true),
                    crate::ir::Ty::Int => Some(false),
                    _ => None,
                }
            }
            Expr::Paren(inner) => self.side(&inner.expr),
            Expr::Unary(unary) => self.side(&unary.expr),
            // `{ ..; 2.375 }` and `if c { a } else { b }`: their value's.
            Expr::Block(block) => block_tail(&block.block).and_then(|tail| self.side(tail)),
            Expr::If(branch) => block_tail(&branch.then_branch).and_then(|tail| self.side(tail)),
            // `w[i]` of a slice or array of floats.
            Expr::Index(index) => {
                let Expr::Path(path) = &*index.expr else {
                    return None;
                };
                let name = path.path.get_ident()?.to_string();
                let binding = self.lowerer.lookup(&name)?;
                let floats = self.lowerer.ty(binding.var).is_floats();
                (floats && !self.lowerer.aliases.contains_key(&binding.var)).then_some(true)
            }
            Expr::Cast(cast) => Some(!is_int_type(&cast.ty)),
            Expr::MethodCall(call) if call.method == "len" => Some(false),
            Expr::MethodCall(call) => self.side(&call.receiver),
            Expr::Binary(binary) => {
                let spine = crate::spine::spine(binary);
                let sides = spine.iter().map(|node| &*node.right);
                let mut sides = sides.chain([&*spine[spine.len() - 1].left]);
                sides.find_map(|side| self.side(side))
            }
            _ => None,
        }
    }

    /// Arms of one value, one of them the name: what the others are.
    fn arms(&mut self, arms: &[&Expr]) {
        if arms.iter().any(|arm| has_its_type(arm, self.name)) {
            let other = arms.iter().filter(|arm| !has_its_type(arm, self.name));
            let float = other.filter_map(|arm| self.side(arm)).next();
            self.decide(float);
        }
    }

    fn decide(&mut self, float: Option<bool>) {
        if self.found == Use::Undecided {
            self.found = match float {
                Some(true) => Use::Float,
                Some(false) => Use::Int,
                None => Use::Undecided,
            };
        }
    }
}

impl<'ast> Visit<'ast> for Finder<'_, '_, '_> {
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |this, node| {
            if !same_type(&node.op) {
                return;
            }
            if has_its_type(&node.right, this.name) {
                this.decide(this.side(&node.left));
            } else if has_its_type(&node.left, this.name) {
                this.decide(this.side(&node.right));
            }
        });
    }

    /// `match n { 0 => v, _ => x }`: the arms have one type.
    fn visit_expr_match(&mut self, matching: &'ast syn::ExprMatch) {
        let bodies: Vec<&Expr> = matching.arms.iter().map(|arm| &*arm.body).collect();
        self.arms(&bodies);
        syn::visit::visit_expr_match(self, matching);
    }

    /// `if c { v } else { x }`: the branches have one type.
    fn visit_expr_if(&mut self, branch: &'ast syn::ExprIf) {
        let mut tails: Vec<&Expr> = Vec::new();
        let mut next = Some(branch);
        while let Some(branch) = next {
            tails.extend(block_tail(&branch.then_branch));
            next = None;
            match branch.else_branch.as_ref().map(|(_, e)| &**e) {
                Some(Expr::If(inner)) => next = Some(inner),
                Some(Expr::Block(block)) => tails.extend(block_tail(&block.block)),
                Some(other) => tails.push(other),
                None => {}
            }
        }
        self.arms(&tails);
        syn::visit::visit_expr_if(self, branch);
    }

    /// `f64::min(v, x)`: a float's associated function takes floats.
    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        if let Expr::Path(path) = &*call.func
            && path.path.segments.len() == 2
            && ["f64", "f32"]
                .iter()
                .any(|float| path.path.segments[0].ident == float)
            && call.args.iter().any(|arg| is_name(arg, self.name))
        {
            self.decide(Some(true));
        }
        syn::visit::visit_expr_call(self, call);
    }

    /// `v = x;` or `x = v;`: both sides have one type.
    fn visit_expr_assign(&mut self, assign: &'ast syn::ExprAssign) {
        if is_name(&assign.left, self.name) {
            self.decide(self.side(&assign.right));
        } else if is_name(&assign.right, self.name) {
            self.decide(self.side(&assign.left));
        }
        syn::visit::visit_expr_assign(self, assign);
    }

    fn visit_expr_range(&mut self, range: &'ast syn::ExprRange) {
        let ends = [&range.start, &range.end];
        if ends
            .into_iter()
            .flatten()
            .any(|end| is_name(end, self.name))
        {
            self.decide(Some(false));
        }
        syn::visit::visit_expr_range(self, range);
    }

    /// `v as f64`: a cast to a float is of an integer (a float cast to itself says nothing a
    /// reader would write).
    fn visit_expr_cast(&mut self, cast: &'ast syn::ExprCast) {
        if is_name(&cast.expr, self.name) && !is_int_type(&cast.ty) {
            self.decide(Some(false));
        }
        syn::visit::visit_expr_cast(self, cast);
    }

    fn visit_expr_index(&mut self, index: &'ast syn::ExprIndex) {
        if is_name(&index.index, self.name) {
            self.decide(Some(false));
        }
        syn::visit::visit_expr_index(self, index);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        if is_name(&call.receiver, self.name) {
            let arg = call.args.first().and_then(|arg| self.side(arg));
            // `v.powi(2)`: its argument is an `i32` whatever `v` is.
            self.decide(match call.method.to_string().as_str() {
                "powi" => Some(true),
                "pow" => Some(false),
                _ => arg.or(Some(true)),
            });
        }
        syn::visit::visit_expr_method_call(self, call);
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let (syn::Pat::Type(typed), Some(init)) = (&local.pat, &local.init)
            && is_name(&init.expr, self.name)
        {
            self.decide(Some(!is_int_type(&typed.ty)));
        }
        syn::visit::visit_local(self, local);
        let (pat, ty) = match &local.pat {
            syn::Pat::Type(typed) => (&*typed.pat, Some(&*typed.ty)),
            other => (other, None),
        };
        // `let (a, b) = (x * K, K * K);`: each name as its part.
        if let (syn::Pat::Tuple(names), Some(init)) = (pat, &local.init)
            && let Expr::Tuple(parts) = &*init.expr
        {
            for (name, part) in names.elems.iter().zip(&parts.elems) {
                if let syn::Pat::Ident(ident) = name {
                    let float = self.side(part);
                    self.locals.insert(ident.ident.to_string(), float);
                }
            }
        }
        if let syn::Pat::Ident(ident) = pat {
            let float = match (ty, &local.init) {
                (Some(ty), _) => Some(!is_int_type(ty)),
                (None, Some(init)) => self.side(&init.expr),
                (None, None) => None,
            };
            self.locals.insert(ident.ident.to_string(), float);
        }
    }
}
