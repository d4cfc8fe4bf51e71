//! A call returning `[f64; M]` bound without a type, `let oc = sub3(o, c);`: the caller's
//! macro cannot see `sub3`'s signature, so it cannot count the outputs it unrolls a call into
//! (`lower/vector_call.rs`). The attribute on `sub3` writes the count beside it, a hidden
//! `const __sub3_outputs: usize = 3;` (an associated const for a method), and the caller reads
//! the outputs in a loop over it, each output `sub3(o, c)[k]` of a `k` the caller does not
//! know, whose pullback is seeded through `calls::unit(k, seed, 0.0)`, an array whose length
//! rustc infers from `sub3_pullback`'s seed.
//!
//! Before: `let oc = sub3(o, c); dot3(&oc, d)`
//! After (what the pipeline reads, not what is printed as `f`): `let mut oc = [0.0;
//! __sub3_outputs]; for __mg_output in 0..__sub3_outputs { oc[__mg_output] = sub3(o,
//! c)[__mg_output]; } dot3(&oc, d)`
//!
//! A name is read so where the rest of its block uses it as an array (indexed, lent as `&oc`,
//! iterated, its `len()`) and nothing but its `let` defines it; a name used as one `f64` keeps
//! the call's value. `&(v)` lends one `f64`.

use crate::names;
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::HashSet;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, ItemFn, Pat, ReturnType, Stmt, Type};

/// The hidden constant holding the output count of `item`, a function returning `[F; M]`:
/// `#[doc(hidden)] const __f_outputs: usize = M;`, with `f`'s visibility, printed beside it
/// (as an associated const in an `impl`). `None` for every other item, and for a length that
/// names the function's own generics (`fn f<const N: usize>() -> [f64; N]`), which no item
/// outside it can read.
pub fn constant(item: &TokenStream) -> Option<TokenStream> {
    if crate::nesting::too_deep(item).is_some() {
        return None;
    }
    let header = crate::returned::signature_only(item)?;
    let ReturnType::Type(_, ty) = &header.sig.output else {
        return None;
    };
    let Type::Array(array) = &**ty else {
        return None;
    };
    let generics: HashSet<String> = header
        .sig
        .generics
        .params
        .iter()
        .filter_map(|param| match param {
            syn::GenericParam::Const(c) => Some(names::text(&c.ident)),
            syn::GenericParam::Type(t) => Some(names::text(&t.ident)),
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect();
    let mut named = Named {
        names: &generics,
        found: false,
    };
    named.visit_expr(&array.len);
    if named.found {
        return None;
    }
    let f = &header.sig.ident;
    let name = names::ident(&names::outputs(&names::text(f)), f.span());
    let (vis, len) = (&header.vis, &array.len);
    Some(quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, dead_code)]
        #vis const #name: usize = #len;
    })
}

/// Whether an expression names one of `names`.
struct Named<'a> {
    names: &'a HashSet<String>,
    found: bool,
}

impl<'ast> Visit<'ast> for Named<'_> {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.found |= path
            .segments
            .iter()
            .any(|segment| self.names.contains(&names::text(&segment.ident)));
        syn::visit::visit_path(self, path);
    }
}

/// Rewrites each `let oc = g(args);` of `function` whose `oc` the rest of its block uses as an
/// array into the loop over `g`'s hidden output count (the module's Before/After). What the
/// pipeline reads, not what is printed as `f`.
pub fn calls(function: &mut ItemFn) {
    let mut locals = Locals(HashSet::new());
    locals.visit_item_fn(function);
    // A path through a generic parameter (`T::from(..)`) is no `#[differentiable]` function.
    for param in &function.sig.generics.params {
        match param {
            syn::GenericParam::Type(t) => locals.0.insert(names::text(&t.ident)),
            syn::GenericParam::Const(c) => locals.0.insert(names::text(&c.ident)),
            syn::GenericParam::Lifetime(_) => false,
        };
    }
    let mut calls = Calls {
        used: names::user_names(function),
        locals: locals.0,
    };
    calls.visit_block_mut(&mut function.block);
}

/// The names the function binds (its parameters, `let`s, closures' parameters) and its generic
/// parameters: a call of one is of a closure, and a path through one (`T::from(..)`) is a
/// trait's function, never a `#[differentiable]` function.
struct Locals(HashSet<String>);

impl<'ast> Visit<'ast> for Locals {
    fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
        self.0.insert(names::text(&pat.ident));
        syn::visit::visit_pat_ident(self, pat);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}

    /// A sum of 10^5 terms without a frame per term.
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }
}

struct Calls {
    /// Every name of the function, and the loop counters bound so far.
    used: HashSet<String>,
    /// [`Locals`]' names.
    locals: HashSet<String>,
}

impl VisitMut for Calls {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        syn::visit_mut::visit_block_mut(self, block);
        // One pass from the end: `after` holds the names the statements after the current one
        // use as arrays, each up to a `let` that binds it again (whose initializer still reads
        // the earlier binding).
        let mut after = HashSet::new();
        let mut counted = vec![false; block.stmts.len()];
        for (i, stmt) in block.stmts.iter().enumerate().rev() {
            let mut uses = Uses {
                name: None,
                arrays: HashSet::new(),
                read: false,
            };
            match stmt {
                Stmt::Local(local) => {
                    counted[i] = self.counted(stmt, &after);
                    let mut bound = Vec::new();
                    crate::lower::scan::pattern_names(&local.pat, &mut bound);
                    bound.iter().for_each(|name| {
                        after.remove(name);
                    });
                    if let Some(init) = &local.init {
                        uses.visit_local_init(init);
                    }
                }
                stmt => uses.visit_stmt(stmt),
            }
            after.extend(uses.arrays);
        }
        if !counted.contains(&true) {
            return;
        }
        // From the last: each counted `let`, and the assignments of a call to its name after it
        // (`oc = g(y, x);`), which take their outputs by the same loop. Its array's length is a
        // path (`__g_outputs`), which returned/calls.rs would otherwise read as a length the
        // macro cannot count, lending the array to a `__g_into` that only a function returning
        // `[f64; M]` of a non-literal `M` has.
        for i in (0..block.stmts.len()).rev().filter(|&i| counted[i]) {
            let (name, _, _) = bound_call(&block.stmts[i]).expect("counted() matched a call");
            let name = names::text(&name.ident);
            let mut tail = syn::Block {
                brace_token: block.brace_token,
                stmts: block.stmts.split_off(i + 1),
            };
            Assigned { name, calls: self }.visit_block_mut(&mut tail);
            let stmt = block.stmts.pop().expect("the counted `let`");
            block.stmts.extend(self.rewrite(stmt));
            block.stmts.extend(tail.stmts);
        }
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}

    /// A sum of 10^5 terms without a frame per term.
    fn visit_expr_binary_mut(&mut self, binary: &mut syn::ExprBinary) {
        crate::spine::visit_mut(self, binary);
    }
}

/// The parts of `let name = g(args);` this module reads: the name and the call.
fn bound_call(stmt: &Stmt) -> Option<(&syn::PatIdent, &syn::ExprCall, &syn::ExprPath)> {
    let Stmt::Local(local) = stmt else {
        return None;
    };
    let Pat::Ident(name) = &local.pat else {
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

impl Calls {
    /// Whether `stmt` is `let name = g(args);` of a `g` that may be `#[differentiable]`, whose
    /// `name` the rest of its block uses as an array (`after` holds those names) and its
    /// arguments do not read.
    fn counted(&self, stmt: &Stmt, after: &HashSet<String>) -> bool {
        let Some((name, call, callee)) = bound_call(stmt) else {
            return false;
        };
        let name = names::text(&name.ident);
        if !after.contains(&name) || !self.reachable(callee) {
            return false;
        }
        let mut reads = Uses {
            name: Some(&name),
            arrays: HashSet::new(),
            read: false,
        };
        call.args.iter().for_each(|arg| reads.visit_expr(arg));
        !reads.read && short(call)
    }

    /// Whether `callee` is a path that may name a `#[differentiable]` function, whose output
    /// count a path reaches.
    fn reachable(&self, callee: &syn::ExprPath) -> bool {
        if callee.qself.is_some() {
            return false;
        }
        let segments = &callee.path.segments;
        let first = segments.first().map(|s| names::text(&s.ident));
        // A closure's call, or an element's or a field's method (`self.layers[0].g(x)`), whose
        // count no path reaches.
        let unreachable = match first.as_deref() {
            None => true,
            Some(names::method::PATH | names::method::ELEMENT) => true,
            Some(first) if segments.len() == 1 => self.locals.contains(first),
            // The standard library's constructors (`Vec::with_capacity(n)`,
            // `std::array::from_fn(..)`), and paths through a generic parameter.
            Some(first) => STANDARD.contains(&first) || self.locals.contains(first),
        };
        !(unreachable || callee.path.leading_colon.is_some() && segments.len() < 2)
    }

    /// The loop storing each output `g(args)[k]` into `target[k]` (`k` below `g`'s hidden
    /// output count).
    fn outputs(&mut self, target: &syn::Ident, callee: &syn::ExprPath, call: &Expr) -> Stmt {
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
        let k = names::free(&mut self.used, names::lowered::OUTPUT);
        syn::parse_quote!(for #k in 0..#count { #target[#k] = #call[#k]; })
    }

    /// `let oc = g(args);` as `let mut oc = [0.0; __g_outputs];` and the loop storing each
    /// output `g(args)[k]` into `oc[k]`.
    fn rewrite(&mut self, stmt: Stmt) -> Vec<Stmt> {
        let Stmt::Local(local) = stmt else {
            unreachable!("counted() matched a `let`")
        };
        let Pat::Ident(name) = local.pat else {
            unreachable!("counted() matched a name")
        };
        let Some(init) = local.init else {
            unreachable!("counted() matched an initializer")
        };
        let Expr::Call(call) = *init.expr else {
            unreachable!("counted() matched a call")
        };
        let Expr::Path(callee) = &*call.func else {
            unreachable!("counted() matched a path")
        };
        let ident = &name.ident;
        let count = self.outputs(ident, callee, &Expr::Call(call.clone()));
        let Stmt::Expr(Expr::ForLoop(ref for_loop), _) = count else {
            unreachable!("outputs() is a loop")
        };
        let Expr::Range(range) = &*for_loop.expr else {
            unreachable!("outputs() loops over a range")
        };
        let len = range.end.as_ref().expect("outputs() loops up to the count");
        vec![syn::parse_quote!(let mut #ident = [0.0; #len];), count]
    }
}

/// Whether the call's arguments are short enough to print and parse again: the rewrite prints
/// the call and parses it again, with syn's recursions, a frame per term of a chain
/// (`g(a + b + ..)`).
fn short(call: &syn::ExprCall) -> bool {
    let mut chains = Chains(0);
    call.args.iter().for_each(|arg| chains.visit_expr(arg));
    chains.0 <= MAX_TERMS
}

/// Whether `stmt` is a `let` binding `name` again.
fn binds(stmt: &Stmt, name: &str) -> bool {
    let Stmt::Local(local) = stmt else {
        return false;
    };
    let mut bound = Vec::new();
    crate::lower::scan::pattern_names(&local.pat, &mut bound);
    bound.iter().any(|bound| bound == name)
}

/// Rewrites `name = g(args);` of a counted `name` (up to a `let` binding it again, in its block
/// or a nested one) into the loop storing `g`'s outputs, after `let c = name;` when an argument
/// reads `name` (which it then reads as `c`, in a closure too).
struct Assigned<'a> {
    name: String,
    calls: &'a mut Calls,
}

impl Assigned<'_> {
    /// The statements replacing `stmt`, if it is such an assignment.
    fn assignment(&mut self, stmt: &Stmt) -> Option<Vec<Stmt>> {
        let Stmt::Expr(Expr::Assign(assign), Some(_)) = stmt else {
            return None;
        };
        let (Expr::Path(target), Expr::Call(call)) = (&*assign.left, &*assign.right) else {
            return None;
        };
        let target = target.path.get_ident()?;
        let Expr::Path(callee) = &*call.func else {
            return None;
        };
        if names::text(target) != self.name || !self.calls.reachable(callee) || !short(call) {
            return None;
        }
        let copy = names::free(&mut self.calls.used, names::lowered::COPIED);
        let mut reads = Renamed {
            name: &self.name,
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
        let mut stmts: Vec<Stmt> = Vec::new();
        if reads.read {
            stmts.push(syn::parse_quote!(let #copy = #target;));
        }
        let callee = callee.clone();
        stmts.push(self.calls.outputs(target, &callee, &Expr::Call(call)));
        Some(stmts)
    }
}

/// Renames `name` to `copy` in the arguments of a call assigned to `name`, closures' bodies
/// included (the loop evaluates the arguments once per output, after the earlier outputs are
/// stored), recording whether they read `name` and whether they bind it again (then the
/// assignment is left as it is).
struct Renamed<'a> {
    name: &'a str,
    copy: &'a syn::Ident,
    read: bool,
    bound: bool,
}

impl VisitMut for Renamed<'_> {
    fn visit_expr_path_mut(&mut self, path: &mut syn::ExprPath) {
        let named = path.path.get_ident().map(names::text);
        if path.qself.is_none() && named.as_deref() == Some(self.name) {
            self.read = true;
            path.path = self.copy.clone().into();
        }
    }

    fn visit_pat_ident_mut(&mut self, pat: &mut syn::PatIdent) {
        self.bound |= names::text(&pat.ident) == self.name;
        syn::visit_mut::visit_pat_ident_mut(self, pat);
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

impl VisitMut for Assigned<'_> {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        let mut stmts = Vec::with_capacity(block.stmts.len());
        let mut bound = false;
        for mut stmt in block.stmts.drain(..) {
            bound |= binds(&stmt, &self.name);
            if bound {
                stmts.push(stmt);
                continue;
            }
            match self.assignment(&stmt) {
                Some(lent) => stmts.extend(lent),
                None => {
                    self.visit_stmt_mut(&mut stmt);
                    stmts.push(stmt);
                }
            }
        }
        block.stmts = stmts;
    }

    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}

    /// A sum of 10^5 terms without a frame per term.
    fn visit_expr_binary_mut(&mut self, binary: &mut syn::ExprBinary) {
        crate::spine::visit_mut(self, binary);
    }
}

/// The names an expression or statement uses as arrays (`oc[i]`, `&oc`, `oc.iter()`,
/// `oc.len()`, `for v in oc`), and whether it reads `name` at all.
struct Uses<'a> {
    name: Option<&'a str>,
    arrays: HashSet<String>,
    read: bool,
}

/// The name `expr` is, alone.
fn bare(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Path(path) if path.qself.is_none() => path.path.get_ident().map(names::text),
        _ => None,
    }
}

/// The longest chain of binary operators (`a + b + ..`) [`Calls::counted`] prints again.
const MAX_TERMS: usize = 1000;

/// The longest chain of binary operators an expression holds.
struct Chains(usize);

impl<'ast> Visit<'ast> for Chains {
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        self.0 = self.0.max(crate::spine::spine(binary).len() + 1);
        crate::spine::visit(self, binary, |_, _| {});
    }
}

/// The first segments of the standard library's paths a body calls: no `#[differentiable]`
/// function is reached through them.
const STANDARD: &[&str] = &[
    "std",
    "core",
    "alloc",
    "Vec",
    "Box",
    "String",
    "Option",
    "Result",
    "Default",
    "array",
    "iter",
    "mem",
    "f32",
    "f64",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "Float",
    "FromPrimitive",
    "NumCast",
];

/// The methods of an array that say a name holds one.
const ARRAY_METHODS: &[&str] = &["iter", "len", "into_iter", "map", "as_slice", "to_vec"];

impl<'ast> Visit<'ast> for Uses<'_> {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        let array = match expr {
            Expr::Index(index) => bare(&index.expr),
            Expr::Reference(reference) => bare(&reference.expr),
            Expr::MethodCall(call)
                if ARRAY_METHODS.contains(&names::text(&call.method).as_str()) =>
            {
                bare(&call.receiver)
            }
            Expr::ForLoop(for_loop) => bare(&for_loop.expr),
            Expr::Path(_) => {
                self.read |= self.name.is_some() && bare(expr).as_deref() == self.name;
                None
            }
            _ => None,
        };
        self.arrays.extend(array);
        syn::visit::visit_expr(self, expr);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}

    /// A sum of 10^5 terms without a frame per term.
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }
}
