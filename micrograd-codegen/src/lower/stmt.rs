//! Statements, branches, loops and early returns.

use super::expr::{Value, arith_op};
use super::{Binding, Lowerer, Scopes, scan};
use crate::ir::{Carried, For, If, IntExpr, IntOp, Join, Op, Operand, Stmt, Ty, VarId};
use syn::spanned::Spanned;
use syn::{BinOp, Expr, Pat};

/// The statements still to run after a block ends, with the scope depth they run at.
type Cont<'s> = Vec<(&'s [syn::Stmt], usize)>;

impl Lowerer<'_> {
    /// Lowers the function body, whose early `return`s become branches of one result.
    ///
    /// Before: `if x < 0.0 { return 0.0; } x * 2.0`
    /// After: `let t1 = if x < 0.0 { 0.0 } else { let t0 = x * 2.0; t0 };`
    pub(super) fn function_body(&mut self, block: &syn::Block) -> Option<Operand> {
        let depth = self.scopes.len();
        self.sequence(&block.stmts, &Vec::new(), depth)
    }

    fn sequence<'s>(
        &mut self,
        stmts: &'s [syn::Stmt],
        cont: &Cont<'s>,
        depth: usize,
    ) -> Option<Operand> {
        for (i, stmt) in stmts.iter().enumerate() {
            let last = i + 1 == stmts.len();
            match stmt {
                syn::Stmt::Expr(Expr::Return(ret), _) => {
                    return match &ret.expr {
                        Some(value) => self.f64_operand(value),
                        None => {
                            self.errors
                                .at(ret.return_token.span, "`return` needs an `f64` value");
                            None
                        }
                    };
                }
                syn::Stmt::Expr(Expr::If(branch), _)
                    if scan::returns(&Expr::If(branch.clone())) =>
                {
                    let mut rest = vec![(&stmts[i + 1..], self.scopes.len())];
                    rest.extend(cont.iter().copied());
                    return self.returning_if(branch, &rest);
                }
                syn::Stmt::Expr(expr, None) if last && cont.is_empty() => {
                    return self.f64_operand(expr);
                }
                other => self.stmt(other),
            }
        }
        let (next, rest) = cont.split_first()?;
        self.scopes.truncate(next.1.max(depth.min(next.1)));
        self.sequence(next.0, &rest.to_vec(), next.1)
    }

    fn returning_if<'s>(&mut self, branch: &'s syn::ExprIf, cont: &Cont<'s>) -> Option<Operand> {
        let cond = self.cond(&branch.cond);
        let saved = self.scopes.clone();
        self.depth += 1;
        let depth = self.scopes.len();
        let (then, then_value) = self.capture(|this| {
            this.scopes.push(Default::default());
            this.sequence(&branch.then_branch.stmts, cont, depth + 1)
        });
        self.scopes = saved.clone();
        let else_stmts = else_stmts(branch);
        let (otherwise, else_value) = self.capture(|this| {
            this.scopes.push(Default::default());
            this.sequence(&else_stmts, cont, depth + 1)
        });
        self.scopes = saved;
        self.depth -= 1;
        let dst = self.new_var(crate::ir::Origin::Temp, Ty::F64, branch.if_token.span);
        let join = Join {
            dst,
            then: then_value?,
            otherwise: else_value?,
        };
        let span = branch.if_token.span;
        self.emit(Stmt::If(Box::new(If {
            cond,
            span,
            then,
            otherwise,
            joins: vec![join],
        })));
        Some(Operand::Var(dst))
    }

    /// Lowers one statement that produces no value.
    pub(super) fn stmt(&mut self, stmt: &syn::Stmt) {
        match stmt {
            syn::Stmt::Local(local) => self.local(local),
            syn::Stmt::Expr(expr, _) => self.expr_stmt(expr),
            syn::Stmt::Item(item) => {
                self.errors.at(item.span(), "items inside `#[differentiable]` functions are not supported; move them outside");
            }
            syn::Stmt::Macro(mac) => {
                let name = mac
                    .mac
                    .path
                    .segments
                    .last()
                    .map(|s| s.ident.to_string())
                    .unwrap_or_default();
                self.errors.at(mac.mac.path.span(), format!("`{name}!` is not supported in `#[differentiable]` functions; they hold arithmetic only, so print or assert around the call instead"));
            }
        }
    }

    fn expr_stmt(&mut self, expr: &Expr) {
        match expr {
            Expr::Assign(assign) => self.assign(&assign.left, None, &assign.right),
            Expr::Binary(binary) if is_compound(&binary.op) => {
                self.assign(&binary.left, Some(&binary.op), &binary.right)
            }
            Expr::If(branch) => {
                self.branch(branch, false);
            }
            Expr::ForLoop(for_loop) => self.for_loop(for_loop),
            Expr::Block(block) if block.label.is_none() => {
                self.block_expr(&block.block);
            }
            Expr::Paren(_)
            | Expr::Lit(_)
            | Expr::Path(_)
            | Expr::Binary(_)
            | Expr::MethodCall(_) => {
                self.errors.at(
                    expr.span(),
                    "this value is computed and then dropped; bind it with `let` or return it",
                );
            }
            other => self.unsupported(other),
        }
    }

    fn local(&mut self, local: &syn::Local) {
        let (pat, annotation) = match &local.pat {
            Pat::Type(typed) => (&*typed.pat, Some(&*typed.ty)),
            other => (other, None),
        };
        let Pat::Ident(ident) = pat else {
            self.errors
                .at(pat.span(), "bind one name per `let`, such as `let x = ..;`");
            return;
        };
        let Some(init) = &local.init else {
            self.errors.at(
                ident.ident.span(),
                "give the variable its value where it is declared: `let x = 0.0;`",
            );
            return;
        };
        if let Some((token, _)) = &init.diverge {
            self.errors.at(
                token.span,
                "`let .. else` is not supported in `#[differentiable]` functions",
            );
            return;
        }
        let name = ident.ident.to_string();
        let span = ident.ident.span();
        if let Expr::Repeat(repeat) = &*init.expr {
            return self.array(&name, span, repeat);
        }
        let value = self.expr(&init.expr);
        let value = match (value, annotation) {
            (Value::Unknown(path), Some(ty)) if crate::signature::is_f64(ty) => {
                Value::F64(Operand::Extern(path))
            }
            (Value::Unknown(path), Some(_)) => Value::Int(IntExpr::Extern(path)),
            (value, _) => value,
        };
        self.bind_value(&name, span, value, &init.expr);
    }

    fn bind_value(&mut self, name: &str, span: proc_macro2::Span, value: Value, expr: &Expr) {
        if let Some(var) = self.value_var(name, span, value, expr) {
            self.bind(name, var);
        }
    }

    /// A new version of `name` holding `value`.
    fn value_var(
        &mut self,
        name: &str,
        span: proc_macro2::Span,
        value: Value,
        expr: &Expr,
    ) -> Option<VarId> {
        Some(match value {
            Value::F64(operand) => self.define(name, operand, span),
            Value::Int(int) => {
                let dst = self.named(name, Ty::Int, span);
                self.emit(Stmt::IntLet { dst, expr: int });
                dst
            }
            Value::Bool(cond) => {
                let dst = self.named(name, Ty::Bool, span);
                self.emit(Stmt::BoolLet { dst, cond });
                dst
            }
            Value::Seq(_) => {
                self.errors.at(
                    expr.span(),
                    "slices cannot be rebound; index the parameter directly",
                );
                return None;
            }
            Value::Unknown(path) => {
                self.errors.at(path.span, "cannot tell whether this is an `f64` or an integer; annotate it: `let x: f64 = ..;`");
                return None;
            }
            Value::Error => return None,
        })
    }

    fn array(&mut self, name: &str, span: proc_macro2::Span, repeat: &syn::ExprRepeat) {
        let fill = match self.expr(&repeat.expr) {
            Value::F64(Operand::Var(_)) | Value::Int(_) | Value::Bool(_) | Value::Seq(_) => {
                self.errors.at(
                    repeat.expr.span(),
                    "local arrays start from a constant: `[0.0; N]`",
                );
                return;
            }
            Value::F64(constant) => constant,
            Value::Unknown(path) => Operand::Extern(path),
            Value::Error => return,
        };
        let Some(len) = self.int_operand(&repeat.len) else {
            return;
        };
        let dst = self.named(name, Ty::Array { len }, span);
        self.emit(Stmt::Array { dst, fill });
        self.bind(name, dst);
    }

    fn assign(&mut self, left: &Expr, op: Option<&BinOp>, right: &Expr) {
        match left {
            Expr::Path(path) if path.path.get_ident().is_some() => {
                let ident = path
                    .path
                    .get_ident()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                self.assign_var(&ident, left, op, right);
            }
            Expr::Index(index) => self.store(index, op, right),
            other => {
                self.errors.at(
                    other.span(),
                    "assign to a variable or to an entry `h[j]` of a local array",
                );
            }
        }
    }

    fn assign_var(&mut self, name: &str, left: &Expr, op: Option<&BinOp>, right: &Expr) {
        let Some(binding) = self.lookup(name) else {
            self.errors.at(
                left.span(),
                format!("`{name}` is not a variable of this function"),
            );
            return;
        };
        let ty = self.ty(binding.var).clone();
        if ty != Ty::F64 {
            return self.assign_passive(name, binding, &ty, left, op, right);
        }
        let Some(value) = self.f64_operand(right) else {
            return;
        };
        let old = Operand::Var(binding.var);
        let value = match op.and_then(arith_op) {
            None => value,
            Some(IntOp::Add) => self.temp(Op::Add(old, value), left.span()),
            Some(IntOp::Sub) => self.temp(Op::Sub(old, value), left.span()),
            Some(IntOp::Mul) => self.temp(Op::Mul(old, value), left.span()),
            Some(IntOp::Div) => self.temp(Op::Div(old, value), left.span()),
            Some(IntOp::Rem) => {
                self.errors
                    .at(left.span(), "`%=` is not supported on `f64`");
                return;
            }
        };
        let var = self.define(name, value, left.span());
        self.rebind(name, var);
    }

    fn assign_passive(
        &mut self,
        name: &str,
        binding: Binding,
        ty: &Ty,
        left: &Expr,
        op: Option<&BinOp>,
        right: &Expr,
    ) {
        if matches!(ty, Ty::Slice { .. } | Ty::Array { .. }) {
            self.errors.at(
                left.span(),
                "arrays are updated entry by entry: `h[j] = ..`",
            );
            return;
        }
        if binding.depth < self.depth {
            self.errors.at(left.span(), format!("`{name}` is an integer or boolean declared outside this `if` or `for`; only `f64` variables can be updated there"));
            return;
        }
        let value = self.expr(right);
        let value = match (op.and_then(arith_op), value) {
            (None, value) => value,
            (Some(op), Value::Int(int)) => Value::Int(IntExpr::Binary(
                op,
                Box::new(IntExpr::Var(binding.var)),
                Box::new(int),
            )),
            (Some(_), _) => {
                self.errors.at(
                    right.span(),
                    "compound assignment to an integer takes an integer",
                );
                return;
            }
        };
        if let Some(var) = self.value_var(name, left.span(), value, right) {
            self.rebind(name, var);
        }
    }

    fn store(&mut self, index: &syn::ExprIndex, op: Option<&BinOp>, right: &Expr) {
        let array = match self.expr(&index.expr) {
            Value::Seq(array) if matches!(self.ty(array), Ty::Array { .. }) => array,
            Value::Error => return,
            _ => {
                self.errors.at(
                    index.expr.span(),
                    "only local arrays `let mut h = [0.0; N];` can be written to",
                );
                return;
            }
        };
        let Some(at) = self.int_operand(&index.index) else {
            return;
        };
        let Some(value) = self.f64_operand(right) else {
            return;
        };
        let stmt = match op.and_then(arith_op) {
            None => Stmt::Store {
                array,
                index: at,
                value,
            },
            Some(op @ (IntOp::Add | IntOp::Sub)) => Stmt::StoreAdd {
                array,
                index: at,
                value,
                negate: op == IntOp::Sub,
            },
            Some(op) => {
                let span = index.span();
                let old = self.temp(Op::Load(array, at.clone()), span);
                let new = match op {
                    IntOp::Mul => self.temp(Op::Mul(old, value), span),
                    IntOp::Div => self.temp(Op::Div(old, value), span),
                    _ => {
                        self.errors.at(span, "`%=` is not supported on `f64`");
                        return;
                    }
                };
                Stmt::Store {
                    array,
                    index: at,
                    value: new,
                }
            }
        };
        self.emit(stmt);
    }

    /// `if` as an expression: its value.
    pub(super) fn if_expr(&mut self, branch: &syn::ExprIf) -> Value {
        if branch.else_branch.is_none() {
            return self.error(
                branch.if_token.span,
                "an `if` used as a value needs an `else`",
            );
        }
        match self.branch(branch, true) {
            Some(var) => Value::F64(Operand::Var(var)),
            None => Value::Error,
        }
    }

    /// Lowers an `if`, joining every variable the branches bind differently; with `value`,
    /// also joins the branches' tail values and returns the joined variable.
    fn branch(&mut self, branch: &syn::ExprIf, value: bool) -> Option<VarId> {
        let cond = self.cond(&branch.cond);
        let before = self.scopes.clone();
        self.depth += 1;
        let (then, then_value) = self.capture(|this| {
            this.tail_block(
                &branch.then_branch.stmts,
                value.then(|| branch.then_branch.brace_token.span.close()),
            )
        });
        let after_then = std::mem::replace(&mut self.scopes, before.clone());
        let stmts = else_stmts(branch);
        let else_span = branch.else_branch.as_ref().map(|(_, e)| e.span());
        let (otherwise, else_value) =
            self.capture(|this| this.tail_block(&stmts, else_span.filter(|_| value)));
        let after_else = std::mem::replace(&mut self.scopes, before.clone());
        self.depth -= 1;
        let mut joins = self.joins(&before, &after_then, &after_else);
        let result = match (value, then_value, else_value) {
            (true, Some(a), Some(b)) => {
                let dst = self.new_var(crate::ir::Origin::Temp, Ty::F64, branch.if_token.span);
                joins.push(Join {
                    dst,
                    then: a,
                    otherwise: b,
                });
                Some(dst)
            }
            _ => None,
        };
        let span = branch.if_token.span;
        self.emit(Stmt::If(Box::new(If {
            cond,
            span,
            then,
            otherwise,
            joins,
        })));
        result
    }

    /// A block in its own scope; when `value` gives the block's span, its tail `f64`.
    fn tail_block(
        &mut self,
        stmts: &[syn::Stmt],
        value: Option<proc_macro2::Span>,
    ) -> Option<Operand> {
        self.in_scope(|this| {
            let (last, body) = match stmts.split_last() {
                Some((syn::Stmt::Expr(tail, None), body)) if value.is_some() => (Some(tail), body),
                _ => (None, stmts),
            };
            body.iter().for_each(|stmt| this.stmt(stmt));
            match (last, value) {
                (Some(tail), _) => this.f64_operand(tail),
                (None, Some(span)) => {
                    this.errors
                        .at(span, "this block needs an `f64` value at its end");
                    None
                }
                (None, None) => None,
            }
        })
    }

    pub(super) fn block_expr(&mut self, block: &syn::Block) -> Value {
        let wants = matches!(block.stmts.last(), Some(syn::Stmt::Expr(expr, None)) if !matches!(expr, Expr::ForLoop(_)));
        match self.tail_block(&block.stmts, wants.then(|| block.brace_token.span.close())) {
            Some(operand) => Value::F64(operand),
            None if wants => Value::Error,
            None => Value::F64(Operand::Const(0.0)),
        }
    }

    /// One join per `f64` name that a branch rebound.
    fn joins(&mut self, before: &Scopes, then: &Scopes, otherwise: &Scopes) -> Vec<Join> {
        let mut joins = Vec::new();
        for (level, scope) in before.iter().enumerate() {
            let mut names: Vec<&String> = scope.keys().collect();
            names.sort();
            for name in names {
                let old = scope[name].var;
                let a = then[level][name].var;
                let b = otherwise[level][name].var;
                if a == old && b == old {
                    continue;
                }
                let dst = self.named(name, Ty::F64, self.vars[old.0 as usize].span);
                joins.push(Join {
                    dst,
                    then: Operand::Var(a),
                    otherwise: Operand::Var(b),
                });
                self.rebind(name, dst);
            }
        }
        joins
    }

    fn for_loop(&mut self, for_loop: &syn::ExprForLoop) {
        let span = for_loop.for_token.span;
        if let Some(label) = &for_loop.label {
            self.errors.at(
                label.name.span(),
                "loop labels are not supported in `#[differentiable]` functions",
            );
        }
        let Expr::Range(range) = &*for_loop.expr else {
            self.errors.at(
                for_loop.expr.span(),
                "`for` loops run over integer ranges: `for i in a..b` or `a..=b`",
            );
            return;
        };
        let (Some(start), Some(end)) = (&range.start, &range.end) else {
            self.errors.at(
                range.span(),
                "give the range both bounds: `a..b` or `a..=b`",
            );
            return;
        };
        let (Some(start), Some(end)) = (self.int_operand(start), self.int_operand(end)) else {
            return;
        };
        let inclusive = matches!(range.limits, syn::RangeLimits::Closed(_));
        let index_name = match &*for_loop.pat {
            Pat::Ident(ident) => Some((ident.ident.to_string(), ident.ident.span())),
            Pat::Wild(_) => None,
            other => {
                self.errors
                    .at(other.span(), "the loop variable is a name or `_`");
                return;
            }
        };
        let carried = self.open_slots(&for_loop.body.stmts);
        self.depth += 1;
        self.loops += 1;
        let (body, index) = self.capture(|this| {
            this.in_scope(|this| {
                let index = index_name.map(|(name, span)| {
                    let var = this.named(&name, Ty::Int, span);
                    this.bind(&name, var);
                    var
                });
                for_loop.body.stmts.iter().for_each(|stmt| this.stmt(stmt));
                index
            })
        });
        self.depth -= 1;
        self.loops -= 1;
        let carried = self.close_slots(carried);
        self.emit(Stmt::For(Box::new(For {
            index,
            span,
            start,
            end,
            inclusive,
            body,
            carried,
        })));
    }

    /// Gives each `f64` the loop body updates a slot: the body reads the slot.
    fn open_slots(&mut self, stmts: &[syn::Stmt]) -> Vec<(String, VarId, Operand)> {
        let mut slots = Vec::new();
        for name in scan::assigned_outer(stmts) {
            let Some(binding) = self.lookup(&name) else {
                continue;
            };
            if self.ty(binding.var) != &Ty::F64 {
                continue;
            }
            let span = self.vars[binding.var.0 as usize].span;
            let slot = self.named(&name, Ty::F64, span);
            self.rebind(&name, slot);
            slots.push((name, slot, Operand::Var(binding.var)));
        }
        slots
    }

    /// Records each slot's value at the end of the body; after the loop the name is the slot.
    fn close_slots(&mut self, slots: Vec<(String, VarId, Operand)>) -> Vec<Carried> {
        slots
            .into_iter()
            .map(|(name, slot, init)| {
                let exit = self
                    .lookup(&name)
                    .map_or(Operand::Var(slot), |b| Operand::Var(b.var));
                self.rebind(&name, slot);
                Carried { slot, init, exit }
            })
            .collect()
    }
}

fn is_compound(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::AddAssign(_)
            | BinOp::SubAssign(_)
            | BinOp::MulAssign(_)
            | BinOp::DivAssign(_)
            | BinOp::RemAssign(_)
    )
}

/// The statements of an `else` branch; `else if` becomes a block holding one `if`.
fn else_stmts(branch: &syn::ExprIf) -> Vec<syn::Stmt> {
    match &branch.else_branch {
        None => Vec::new(),
        Some((_, expr)) => match &**expr {
            Expr::Block(block) => block.block.stmts.clone(),
            other => vec![syn::Stmt::Expr(other.clone(), None)],
        },
    }
}
