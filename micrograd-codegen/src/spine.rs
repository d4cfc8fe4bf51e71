//! Left-nested binary chains, walked in a loop: `a + b + c + ..` nests to the left as deep as
//! it is long, so a recursion over it (syn's own visitors included) needs a frame per term,
//! and a sum of 10^4 terms overflowed rustc's 8 MiB stack.

use syn::visit::Visit;
use syn::{Expr, ExprBinary};

/// The binary nodes down the left side of `binary`, outermost first: for `a + b + c`,
/// `(a + b) + c` then `a + b`.
pub fn spine(binary: &ExprBinary) -> Vec<&ExprBinary> {
    let mut nodes = vec![binary];
    while let Expr::Binary(inner) = &*nodes[nodes.len() - 1].left {
        nodes.push(inner);
    }
    nodes
}

/// What `syn::visit::visit_expr_binary` does, in the same order (each left side before its
/// operator and right side), with `each` called on every node of the spine first, outermost
/// first; the recursion is as deep as the deepest right side, not as the chain is long.
pub fn visit<'ast, V: Visit<'ast> + ?Sized>(
    visitor: &mut V,
    binary: &'ast ExprBinary,
    mut each: impl FnMut(&mut V, &'ast ExprBinary),
) {
    let nodes = spine(binary);
    for node in &nodes {
        each(visitor, node);
        for attr in &node.attrs {
            visitor.visit_attribute(attr);
        }
    }
    visitor.visit_expr(&nodes[nodes.len() - 1].left);
    for node in nodes.into_iter().rev() {
        visitor.visit_bin_op(&node.op);
        visitor.visit_expr(&node.right);
    }
}

/// Visits `binary`'s operands down its left spine in a loop, right sides first: a `VisitMut`
/// that rewrites statements or expressions (not the chain's own nodes) walks a sum of 10^5 terms
/// with no deeper stack than its deepest right side.
pub fn visit_mut<V: syn::visit_mut::VisitMut + ?Sized>(visitor: &mut V, binary: &mut ExprBinary) {
    let mut node = binary;
    loop {
        visitor.visit_expr_mut(&mut node.right);
        match &mut *node.left {
            Expr::Binary(inner) => node = inner,
            left => return visitor.visit_expr_mut(left),
        }
    }
}

/// Drops `block` with a loop over its expressions, not by recursion: `syn`'s own drop of
/// `a + b + ..` recurses once per term, and 10^5 terms overflowed rustc's 8 MiB stack.
pub fn drop_block(block: &mut syn::Block) {
    let mut stack: Vec<Expr> = Vec::new();
    let mut stmts = std::mem::take(&mut block.stmts);
    loop {
        for stmt in stmts.drain(..) {
            match stmt {
                syn::Stmt::Expr(expr, _) => stack.push(expr),
                syn::Stmt::Local(local) => stack.extend(local.init.map(|init| *init.expr)),
                _ => {}
            }
        }
        let Some(expr) = stack.pop() else {
            return;
        };
        match expr {
            Expr::Binary(binary) => stack.extend([*binary.left, *binary.right]),
            Expr::Unary(unary) => stack.push(*unary.expr),
            Expr::Paren(paren) => stack.push(*paren.expr),
            Expr::Cast(cast) => stack.push(*cast.expr),
            Expr::MethodCall(call) => {
                stack.push(*call.receiver);
                stack.extend(call.args);
            }
            Expr::Call(call) => stack.extend(call.args),
            Expr::Block(mut inner) => stmts = std::mem::take(&mut inner.block.stmts),
            Expr::If(mut branch) => {
                stack.push(*branch.cond);
                stack.extend(branch.else_branch.take().map(|(_, otherwise)| *otherwise));
                stmts = std::mem::take(&mut branch.then_branch.stmts);
            }
            _ => {}
        }
    }
}

/// A copy of `block` whose binary chains are copied in a loop, not by recursion: `syn`'s own
/// clone of `a + b + ..` recurses once per term, as its drop does ([`drop_block`]).
pub fn clone_block(block: &syn::Block) -> syn::Block {
    syn::Block {
        brace_token: block.brace_token,
        stmts: block.stmts.iter().map(clone_stmt).collect(),
    }
}

fn clone_stmt(stmt: &syn::Stmt) -> syn::Stmt {
    match stmt {
        syn::Stmt::Expr(expr, semi) => syn::Stmt::Expr(clone_expr(expr), *semi),
        syn::Stmt::Local(local) => syn::Stmt::Local(syn::Local {
            attrs: local.attrs.clone(),
            modifiers: local.modifiers.clone(),
            let_token: local.let_token,
            pat: local.pat.clone(),
            init: local.init.as_ref().map(|init| syn::LocalInit {
                eq_token: init.eq_token,
                expr: Box::new(clone_expr(&init.expr)),
                diverge: (init.diverge.as_ref())
                    .map(|(token, other)| (*token, Box::new(clone_expr(other)))),
            }),
            semi_token: local.semi_token,
        }),
        other => other.clone(),
    }
}

/// A copy of `expr`, through the expressions [`drop_block`] walks.
fn clone_expr(expr: &Expr) -> Expr {
    match expr {
        Expr::Binary(binary) => {
            let nodes = spine(binary);
            let mut left = clone_expr(&nodes[nodes.len() - 1].left);
            for node in nodes.into_iter().rev() {
                left = Expr::Binary(ExprBinary {
                    attrs: node.attrs.clone(),
                    left: Box::new(left),
                    op: node.op,
                    right: Box::new(clone_expr(&node.right)),
                });
            }
            left
        }
        Expr::Paren(paren) => Expr::Paren(syn::ExprParen {
            attrs: paren.attrs.clone(),
            paren_token: paren.paren_token,
            expr: Box::new(clone_expr(&paren.expr)),
        }),
        Expr::Unary(unary) => Expr::Unary(syn::ExprUnary {
            attrs: unary.attrs.clone(),
            op: unary.op,
            expr: Box::new(clone_expr(&unary.expr)),
        }),
        Expr::Block(block) => Expr::Block(syn::ExprBlock {
            attrs: block.attrs.clone(),
            label: block.label.clone(),
            block: clone_block(&block.block),
        }),
        // A call's arguments (`g(a + b + ..)`), as `drop_block` walks them.
        Expr::Call(call) => Expr::Call(syn::ExprCall {
            attrs: call.attrs.clone(),
            func: call.func.clone(),
            paren_token: call.paren_token,
            args: call.args.pairs().map(clone_pair).collect(),
        }),
        Expr::MethodCall(call) => Expr::MethodCall(syn::ExprMethodCall {
            attrs: call.attrs.clone(),
            receiver: Box::new(clone_expr(&call.receiver)),
            dot_token: call.dot_token,
            method: call.method.clone(),
            turbofish: call.turbofish.clone(),
            paren_token: call.paren_token,
            args: call.args.pairs().map(clone_pair).collect(),
        }),
        Expr::Cast(cast) => Expr::Cast(syn::ExprCast {
            attrs: cast.attrs.clone(),
            expr: Box::new(clone_expr(&cast.expr)),
            as_token: cast.as_token,
            ty: cast.ty.clone(),
        }),
        other => other.clone(),
    }
}

/// One argument of a call and its comma, copied by [`clone_expr`].
fn clone_pair(
    pair: syn::punctuated::Pair<&Expr, &syn::Token![,]>,
) -> syn::punctuated::Pair<Expr, syn::Token![,]> {
    match pair {
        syn::punctuated::Pair::Punctuated(arg, comma) => {
            syn::punctuated::Pair::Punctuated(clone_expr(arg), *comma)
        }
        syn::punctuated::Pair::End(arg) => syn::punctuated::Pair::End(clone_expr(arg)),
    }
}

/// Where `expr` starts: the span of its first token, which is what `Spanned::span` gives on
/// stable Rust (a proc macro cannot join spans there), found without printing the expression,
/// which `Spanned::span` does a frame per term (a call's argument summing 2 * 10^4 terms
/// overflowed rustc's stack; tests/fuzz_expand `a_deep_sum_as_a_calls_argument`).
pub fn first_span(mut expr: &Expr) -> proc_macro2::Span {
    use syn::spanned::Spanned;
    loop {
        expr = match expr {
            Expr::Binary(binary) => &binary.left,
            Expr::MethodCall(call) => &call.receiver,
            Expr::Field(field) => &field.base,
            Expr::Index(index) => &index.expr,
            Expr::Cast(cast) => &cast.expr,
            Expr::Try(question) => &question.expr,
            Expr::Call(call) => &call.func,
            Expr::Range(syn::ExprRange {
                start: Some(start), ..
            }) => start,
            Expr::Paren(paren) => return paren.paren_token.span.open(),
            Expr::Tuple(tuple) => return tuple.paren_token.span.open(),
            Expr::Array(array) => return array.bracket_token.span.open(),
            Expr::Reference(reference) => return reference.and_token.span,
            Expr::Unary(unary) => return unary.op.span(),
            Expr::If(branch) => return branch.if_token.span,
            Expr::Match(branch) => return branch.match_token.span,
            Expr::Block(block) if block.label.is_none() => {
                return block.block.brace_token.span.open();
            }
            Expr::Closure(closure) => {
                return closure
                    .capture
                    .map_or(closure.inputs_begin.span, |c| c.span);
            }
            expr => return expr.span(),
        };
    }
}
