//! A call of a function returning `[F; M]` taken whole into a local array, whatever the
//! callee's length is written as (issue 25's counted calls, issue 24's const lengths): the
//! caller's macro cannot see the callee's signature, so it reads the outputs in a counted loop,
//! each output `g(args)[k]` of a `k` it does not know (`Lowerer::call_entry`), whose pullback is
//! seeded through `calls::unit(k, seed, 0.0)`, an array whose length rustc infers from
//! `g_pullback`'s seed. Every flavour of the caller goes through `g`'s own flavours, which a
//! function returning an array has whether its length is a literal or a `const`.
//!
//! Before: `let oc = g(o, c); dot3(&oc, d)`, `let h: [f64; N] = g(a);`, `h = g(&h, x);`
//! After: `let mut oc = [0.0; __g_outputs]; for k in 0..__g_outputs { oc[k] = g(o, c)[k]; }
//! dot3(&oc, d)`, `let mut h: [f64; N] = [0.0; N]; for k in 0..N { h[k] = g(a)[k]; }`,
//! `let c = h; for k in 0..h.len() { h[k] = g(&c, x)[k]; }`
//!
//! The count is read where the caller has it, never guessed from the callee's syntax:
//! - a `let` without a type (whose name the rest of its block uses as an array: indexed, lent
//!   as `&oc`, iterated, its `len()`) reads the hidden `const __g_outputs: usize = M;` the
//!   attribute on `g` writes beside it ([`crate::counted::constant`]), an associated const for a
//!   method; paths keep their segments (`m::g` reads `m::__g_outputs`, `Self::g` and
//!   `self.g(..)` `Self::__g_outputs`). A name used as one `f64` keeps the call's value, and
//!   `&(v)` lends one `f64`.
//! - a `let` whose type is an array of a length that is not a literal (`[f64; N]`) reads that
//!   length, and a call assigned to such a local array, or to a counted one, the array's own.
//!   (A literal length is the lowering's, `vector_call.rs`, which unrolls the outputs.)
//!
//! An argument reading the array reads a copy made before it is written (`let c = h;`), in
//! closures too: the loop evaluates the arguments once per output, after the earlier outputs
//! are stored. A closure, a generic's path (`T::from`), the standard library's constructors and
//! an element's or a field's method are left alone.
//!
//! The loop costs what the unrolled form of a literal length costs: one call of `g` and of its
//! pullback per output.

mod assigned;
mod uses;

use crate::names;
use assigned::{Assigned, Renamed};
use std::collections::HashSet;
use syn::visit_mut::VisitMut;
use syn::{Expr, Pat, Stmt, Type};
use uses::{Chains, Uses};

/// What the rewrite knows of the function before it runs: the names it binds and the local
/// arrays of a length that is not a literal.
#[derive(Default)]
pub(crate) struct Context {
    /// The names the function binds (its parameters, `let`s, closures' parameters) and its
    /// generic parameters: a call of one is of a closure, and a path through one (`T::from(..)`)
    /// is a trait's function, never a `#[differentiable]` function.
    locals: HashSet<String>,
    /// The local arrays whose length is not a literal: `let mut h = [0.0; N];` or
    /// `let h: [f64; N] = ..;`.
    sized: HashSet<String>,
}

impl Context {
    /// The context of a function whose signature binds `bound` and whose body is `block`.
    pub(crate) fn of(bound: HashSet<String>, block: &syn::Block) -> Context {
        let mut locals = uses::Locals(bound);
        syn::visit::Visit::visit_block(&mut locals, block);
        let mut sized = uses::Sized(HashSet::new());
        syn::visit::Visit::visit_block(&mut sized, block);
        Context {
            locals: locals.0,
            sized: sized.0,
        }
    }
}

/// The names `sig` binds: its parameters' and its generic parameters'.
pub(crate) fn bound_by(sig: &syn::Signature) -> HashSet<String> {
    let mut locals = uses::Locals(HashSet::new());
    syn::visit::Visit::visit_signature(&mut locals, sig);
    for param in &sig.generics.params {
        match param {
            syn::GenericParam::Type(t) => locals.0.insert(names::text(&t.ident)),
            syn::GenericParam::Const(c) => locals.0.insert(names::text(&c.ident)),
            syn::GenericParam::Lifetime(_) => false,
        };
    }
    locals.0
}

/// Rewrites the statements of `block` (whose nested blocks were rewritten already) that take a
/// call's outputs whole: the module's Before/After. Names it mints are free of `used`.
pub(crate) fn rewrite(block: &mut syn::Block, context: &Context, used: &mut HashSet<String>) {
    let mut calls = Calls { context, used };
    // One pass from the end: `after` holds the names the statements after the current one use
    // as arrays, each up to a `let` that binds it again (whose initializer still reads the
    // earlier binding).
    let mut after = HashSet::new();
    let mut counted = vec![None; block.stmts.len()];
    for (i, stmt) in block.stmts.iter().enumerate().rev() {
        let mut uses = Uses::new();
        match stmt {
            Stmt::Local(local) => {
                counted[i] = calls.counted(stmt, &after);
                let mut bound = Vec::new();
                crate::lower::scan::pattern_names(&local.pat, &mut bound);
                bound.iter().for_each(|name| {
                    after.remove(name);
                });
                syn::visit::Visit::visit_local(&mut uses, local);
            }
            stmt => syn::visit::Visit::visit_stmt(&mut uses, stmt),
        }
        after.extend(uses.arrays);
    }
    // The assignments to a local array of a length that is not a literal, in this block (those
    // of nested blocks were rewritten with them).
    let mut stmts = Vec::with_capacity(block.stmts.len());
    let mut counts = Vec::with_capacity(block.stmts.len());
    for (stmt, count) in block.stmts.drain(..).zip(counted) {
        let sized = assigned(&stmt).filter(|(name, _)| calls.context.sized.contains(name));
        match sized.and_then(|(name, _)| calls.assignment(&stmt, &name, Count::Own)) {
            Some(rewritten) => {
                counts.extend(rewritten.iter().map(|_| None));
                stmts.extend(rewritten);
            }
            None => {
                stmts.push(stmt);
                counts.push(count);
            }
        }
    }
    block.stmts = stmts;
    // From the last: each counted `let`, and the assignments of a call to its name after it
    // (`oc = g(y, x);`), which take their outputs by the same loop.
    for i in (0..block.stmts.len()).rev() {
        let Some(count) = counts[i].take() else {
            continue;
        };
        let (name, _, _) = bound_call(&block.stmts[i]).expect("counted() matched a call");
        let name = names::text(&name.ident);
        let mut tail = syn::Block {
            brace_token: block.brace_token,
            stmts: block.stmts.split_off(i + 1),
        };
        Assigned {
            name: name.clone(),
            calls: &mut calls,
        }
        .visit_block_mut(&mut tail);
        let stmt = block.stmts.pop().expect("the counted `let`");
        match calls.bound(stmt, count) {
            Ok(rewritten) => block.stmts.extend(rewritten),
            Err(stmt) => block.stmts.push(*stmt),
        }
        block.stmts.extend(tail.stmts);
    }
}

/// Where a rewritten call's outputs are counted.
#[derive(Clone)]
enum Count {
    /// The hidden count beside the callee, `__g_outputs`.
    Callee,
    /// The length a `let`'s type writes.
    Written(Expr),
    /// The array's own, `h.len()`.
    Own,
}

/// The parts of `let name = g(args);` (or `let name: ty = g(args);`) this module reads: the
/// name, the call and its callee.
fn bound_call(stmt: &Stmt) -> Option<(&syn::PatIdent, &syn::ExprCall, &syn::ExprPath)> {
    let Stmt::Local(local) = stmt else {
        return None;
    };
    let pat = match &local.pat {
        Pat::Type(typed) => &*typed.pat,
        pat => pat,
    };
    let Pat::Ident(name) = pat else {
        return None;
    };
    if name.by_ref.is_some() || name.subpat.is_some() {
        return None;
    }
    let init = local.init.as_ref().filter(|init| init.diverge.is_none())?;
    let Expr::Call(call) = &*init.expr else {
        return None;
    };
    let Expr::Path(callee) = &*call.func else {
        return None;
    };
    (callee.qself.is_none()).then_some((name, call, callee))
}

/// The length of `let`'s type, when it is an array of a length that is not a literal; `Err`
/// when it has a type that is not.
fn written_length(stmt: &Stmt) -> Result<Option<&Expr>, ()> {
    let Stmt::Local(local) = stmt else {
        return Err(());
    };
    match &local.pat {
        Pat::Type(typed) => match &*typed.ty {
            Type::Array(array) if !literal(&array.len) => Ok(Some(&array.len)),
            _ => Err(()),
        },
        _ => Ok(None),
    }
}

/// Whether `len` is an integer literal, a length the lowering counts.
pub(super) fn literal(len: &Expr) -> bool {
    matches!(
        len,
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(_),
            ..
        })
    )
}

/// The name `name = call;` assigns and the call, if `stmt` is such an assignment.
fn assigned(stmt: &Stmt) -> Option<(String, &syn::ExprCall)> {
    let Stmt::Expr(Expr::Assign(assign), Some(_)) = stmt else {
        return None;
    };
    let (Expr::Path(target), Expr::Call(call)) = (&*assign.left, &*assign.right) else {
        return None;
    };
    (target.qself.is_none())
        .then(|| target.path.get_ident())
        .flatten()
        .map(|target| (names::text(target), call))
}

struct Calls<'c> {
    context: &'c Context,
    /// Every name of the function, and those minted for it.
    used: &'c mut HashSet<String>,
}

impl Calls<'_> {
    /// Where `stmt`'s outputs are counted, if it is `let name = g(args);` of a `g` that may be
    /// `#[differentiable]`, whose `name` the rest of its block uses as an array (`after` holds
    /// those names), or `let name: [F; N] = g(args);` of a length that is not a literal.
    fn counted(&self, stmt: &Stmt, after: &HashSet<String>) -> Option<Count> {
        let (name, call, callee) = bound_call(stmt)?;
        let count = match written_length(stmt).ok()? {
            Some(len) => Count::Written(len.clone()),
            None if after.contains(&names::text(&name.ident)) => Count::Callee,
            None => return None,
        };
        (self.reachable(callee) && short(call)).then_some(count)
    }

    /// Whether `callee` is a path that may name a `#[differentiable]` function, whose output
    /// count a path reaches.
    fn reachable(&self, callee: &syn::ExprPath) -> bool {
        if callee.qself.is_some() {
            return false;
        }
        let segments = &callee.path.segments;
        let first = segments.first().map(|s| names::text(&s.ident));
        let locals = &self.context.locals;
        // A closure's call, or an element's or a field's method (`self.layers[0].g(x)`), whose
        // count no path reaches.
        let unreachable = match first.as_deref() {
            None => true,
            Some(names::method::PATH | names::method::ELEMENT) => true,
            Some(first) if segments.len() == 1 => locals.contains(first),
            // The standard library's constructors (`Vec::with_capacity(n)`,
            // `std::array::from_fn(..)`), and paths through a generic parameter.
            Some(first) => uses::STANDARD.contains(&first) || locals.contains(first),
        };
        !(unreachable || callee.path.leading_colon.is_some() && segments.len() < 2)
    }

    /// The count of `call`'s outputs stored into `target`.
    fn count(target: &syn::Ident, call: &syn::ExprCall, count: &Count) -> Expr {
        match count {
            Count::Callee => {
                let Expr::Path(callee) = &*call.func else {
                    unreachable!("a rewritten call is of a path")
                };
                let mut count = callee.path.clone();
                let last = count
                    .segments
                    .last_mut()
                    .expect("a callee's path has one segment or more");
                last.ident = names::ident(
                    &names::outputs(&names::text(&last.ident)),
                    last.ident.span(),
                );
                last.arguments = syn::PathArguments::None;
                syn::parse_quote!(#count)
            }
            Count::Written(len) => len.clone(),
            Count::Own => syn::parse_quote!(#target.len()),
        }
    }

    /// The loop storing each output `g(args)[k]` into `target[k]`, `k` below `count`.
    fn outputs(&mut self, target: &syn::Ident, call: &syn::ExprCall, count: &Count) -> Stmt {
        let count = Calls::count(target, call, count);
        let k = names::free(self.used, names::lowered::OUTPUT);
        syn::parse_quote!(for #k in 0..#count { #target[#k] = #call[#k]; })
    }

    /// `let oc = g(args);` as `let mut oc = [0.0; count];` and the loop storing each output
    /// `g(args)[k]` into `oc[k]` (a `let` with a type keeps it), after `let c = oc;` when an
    /// argument reads an earlier `oc`. `Err(stmt)` where an argument binds `oc` again.
    fn bound(&mut self, stmt: Stmt, count: Count) -> Result<Vec<Stmt>, Box<Stmt>> {
        let Some((name, call, _)) = bound_call(&stmt) else {
            unreachable!("counted() matched a call")
        };
        let ident = name.ident.clone();
        let Some((copy, call)) = self.renamed(&ident, call) else {
            return Err(Box::new(stmt));
        };
        let len = Calls::count(&ident, &call, &count);
        let Stmt::Local(local) = &stmt else {
            unreachable!("counted() matched a `let`")
        };
        let declared: Stmt = match &local.pat {
            Pat::Type(typed) => {
                let ty = &typed.ty;
                syn::parse_quote!(let mut #ident: #ty = [0.0; #len];)
            }
            _ => syn::parse_quote!(let mut #ident = [0.0; #len];),
        };
        let mut stmts: Vec<Stmt> = copy.into_iter().collect();
        stmts.push(declared);
        stmts.push(self.outputs(&ident, &call, &count));
        Ok(stmts)
    }

    /// `name = g(args);` as the loop storing `g`'s outputs, counted by `count`, after
    /// `let c = name;` when an argument reads `name`; `None` if `stmt` is no such assignment of
    /// a reachable callee, or an argument binds `name` again.
    fn assignment(&mut self, stmt: &Stmt, name: &str, count: Count) -> Option<Vec<Stmt>> {
        let (target, call) = assigned(stmt)?;
        let Expr::Path(callee) = &*call.func else {
            return None;
        };
        if target != name || !self.reachable(callee) || !short(call) {
            return None;
        }
        let Stmt::Expr(Expr::Assign(assign), _) = stmt else {
            return None;
        };
        let Expr::Path(target) = &*assign.left else {
            return None;
        };
        let target = target.path.get_ident()?.clone();
        let (copy, call) = self.renamed(&target, call)?;
        let mut stmts: Vec<Stmt> = copy.into_iter().collect();
        stmts.push(self.outputs(&target, &call, &count));
        Some(stmts)
    }

    /// `call` with its arguments reading `name` through a copy, and the `let` binding the copy
    /// (if they read it); `None` where an argument binds `name` again.
    fn renamed(
        &mut self,
        name: &syn::Ident,
        call: &syn::ExprCall,
    ) -> Option<(Option<Stmt>, syn::ExprCall)> {
        let copy = names::free(self.used, names::lowered::COPIED);
        let text = names::text(name);
        let mut reads = Renamed {
            name: &text,
            copy: &copy,
            read: false,
            bound: false,
        };
        let mut call = call.clone();
        call.args
            .iter_mut()
            .for_each(|arg| reads.visit_expr_mut(arg));
        if reads.bound {
            return None;
        }
        let copied = reads.read.then(|| syn::parse_quote!(let #copy = #name;));
        Some((copied, call))
    }
}

/// Whether the call's arguments are short enough to print and parse again: the rewrite prints
/// the call and parses it again, with syn's recursions, a frame per term of a chain
/// (`g(a + b + ..)`).
fn short(call: &syn::ExprCall) -> bool {
    let mut chains = Chains(0);
    call.args
        .iter()
        .for_each(|arg| syn::visit::Visit::visit_expr(&mut chains, arg));
    chains.0 <= uses::MAX_TERMS
}
