//! The bodies of the generated functions, printed from the lowered function and what the
//! driver differentiated (`crate::driver`); their signatures are `crate::header`'s.
//!
//! `f_grad` holds the forward sweep, then the reverse sweep, then returns the value and the
//! partials. `f_pullback` is the same code for every parameter at once, seeded by the caller:
//! it is what a `#[differentiable]` caller of `f` runs in its own reverse sweep.

mod bounds;
mod doc;
mod fields;
mod forward;
mod graph;
mod hessian;
mod jacobian;
mod loops;
mod reverse;
mod scalar;
mod tangent;
mod tokens;

pub use hessian::hessian;
pub use tangent::tangent;

use crate::attr::Options;
use crate::diff::{Adjoint, Shadow};
pub use crate::flavor::Flavor;
use crate::flavor::{Params, Returns, Seed};
use crate::ir::{Function, If, IntExpr, Loop, LoopId, Op, Stmt, Table, Ty, VarId};
use crate::ir::{ParamSpec, Signature};
use crate::names::Names;
use crate::types::Kind;
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::{HashMap, HashSet};

/// Everything one generated function is printed from.
struct Emitter<'a> {
    function: &'a Function,
    adjoint: &'a Adjoint,
    names: Names,
    shadow: Shadow,
    /// `seed` in a pullback; `None` in `f_grad`, whose seed is `1.0`.
    seed: Option<Ident>,
    tape: Ident,
    branches: Ident,
    /// The tape of the entries of arrays lent to calls as `&mut` (`saved_calls`).
    saved: Ident,
    /// The calls whose `&mut` arrays' entry values are recorded: those the reverse sweep
    /// reverses, by the variable each defines.
    saved_calls: HashSet<VarId>,
    /// The tapes of recorded arrays and counters (see `own_tapes`).
    own_tapes: HashMap<VarId, Ident>,
    int_lets: HashMap<VarId, IntExpr>,
    /// The scalar operations a reversed loop body may compute again (`needs::Plan::recompute`).
    cheap: HashMap<VarId, Op>,
    stored: HashSet<VarId>,
    /// Each loop of the function, by id.
    loops: Table<LoopId, Option<&'a Loop>>,
    /// Whether each loop is run backwards in the reverse sweep (then it counts its trips).
    reversed: Table<LoopId, bool>,
    /// The tape of the trip counts of loops inside loops.
    counts: Ident,
    /// `f_graph`'s graph, and the node of each variable.
    graph: Ident,
    nodes: Vec<Ident>,
    /// The runtime crate's path (`::micrograd_runtime` unless `crate = ..` says otherwise).
    runtime: syn::Path,
    /// `show_code`: `f_grad`'s rustdoc holds a copy of its code.
    show_code: bool,
    /// The array parameters taken by value: their shadows are locals, never empty.
    by_value: HashSet<VarId>,
    /// What the function returns first: `f`'s results (the tangent program's results are the
    /// tangents).
    values: Vec<crate::ir::Operand>,
    /// Tangent slices a caller may pass empty (`&[]`, for a constant argument): read as zeros.
    maybe_empty: HashSet<VarId>,
    /// Each parameter with a tangent, and the tangent.
    tangent_pairs: Vec<(VarId, VarId)>,
    /// Tangent parameters the tangent program never reads.
    unread: Vec<VarId>,
}

pub use jacobian::{Sweeps as JacobianSweeps, generate as jacobian};

/// Prints `f_grad`, `f_pullback` or `f_graph` for `function` from its reverse sweep
/// `adjoint`, computed with respect to [`wrt`]`(function, flavor)`, as the attribute's
/// `options` ask (the runtime's path, `show_code`).
pub fn generate(
    sig: &Signature,
    function: &Function,
    adjoint: &Adjoint,
    flavor: Flavor,
    options: &Options,
) -> TokenStream {
    let specs = &sig.params;
    let wrt = wrt(function, flavor);
    let params: Vec<(VarId, Ident)> = function
        .params
        .iter()
        .zip(specs)
        .map(|(p, s)| (p.var, s.ident.clone()))
        .collect();
    let mut emitter = Emitter::new(
        function,
        adjoint,
        Names::new(&adjoint.vars, &params, &sig.user_names),
        flavor,
        options,
    );
    emitter.by_value = function
        .params
        .iter()
        .zip(specs)
        .filter(|(_, spec)| matches!(spec.kind(), Kind::Array(_)))
        .map(|(param, _)| param.var)
        .collect();
    emitter.function_tokens(sig, &wrt, flavor)
}

/// The parameters `flavor` differentiates ([`Flavor::wrt`]).
pub fn wrt(function: &Function, flavor: Flavor) -> HashSet<VarId> {
    flavor.wrt(function)
}

impl<'a> Emitter<'a> {
    fn new(
        function: &'a Function,
        adjoint: &'a Adjoint,
        mut names: Names,
        flavor: Flavor,
        options: &Options,
    ) -> Emitter<'a> {
        let vector = function.shape != crate::ir::Shape::Scalar;
        let seed = flavor.seeded(vector).then(|| names.fresh("seed"));
        let nodes = match flavor.spec().returns {
            Returns::Graph => (0..adjoint.vars.len())
                .map(|v| {
                    let base = format!("{}_node", names.var(VarId(v as u32)));
                    names.fresh(&base)
                })
                .collect(),
            _ => Vec::new(),
        };
        Emitter {
            function,
            adjoint,
            tape: names.fresh("tape"),
            branches: names.fresh("branches"),
            saved: names.fresh("saved"),
            saved_calls: saved_calls(adjoint),
            graph: names.fresh("graph"),
            counts: names.fresh("counts"),
            own_tapes: own_tapes(function, adjoint, &mut names),
            shadow: if flavor.spec().whole_shadows {
                Shadow::Always
            } else {
                Shadow::MaybeEmpty
            },
            seed,
            nodes,
            names,
            int_lets: int_lets(&function.body),
            cheap: cheap(&function.body),
            stored: stored(&function.body),
            runtime: options.runtime(),
            show_code: options.show_code,
            loops: loops(function),
            reversed: reversed(function, adjoint),
            by_value: HashSet::new(),
            values: function.results.clone(),
            maybe_empty: HashSet::new(),
            tangent_pairs: Vec::new(),
            unread: Vec::new(),
        }
    }
}

/// `function` pretty-printed for reading: `f64` rather than `::core::primitive::f64`, `Tape`
/// rather than `::micrograd_runtime::Tape`.
fn source(function: &TokenStream, runtime: &syn::Path) -> String {
    let runtime = format!("{}::", quote!(#runtime)).replace(' ', "");
    match syn::parse2::<syn::File>(function.clone()) {
        Ok(file) => prettyplease::unparse(&file)
            .replace("::core::primitive::", "")
            .replace(&runtime, "")
            .lines()
            .filter(|line| !line.starts_with("#[allow"))
            .map(|line| format!("{line}\n"))
            .collect(),
        Err(_) => String::new(),
    }
}

/// A tape for each recorded local array and each recorded integer other than a trip count:
/// an array's tape holds whole arrays, and an integer's takes the integer's own type, which
/// the user's code decides (`i32`, `usize`, ..).
fn own_tapes(function: &Function, adjoint: &Adjoint, names: &mut Names) -> HashMap<VarId, Ident> {
    let counts = trip_counts(function);
    let mut arrays: Vec<VarId> = adjoint
        .plan
        .records
        .values()
        .flatten()
        .copied()
        .filter(|v| match adjoint.vars[v.0 as usize].ty {
            Ty::Array { .. } => true,
            Ty::Int => !counts.contains(v),
            _ => false,
        })
        .collect();
    arrays.sort();
    arrays.dedup();
    arrays
        .into_iter()
        .map(|v| (v, names.fresh(&format!("{}_tape", names.var(v)))))
        .collect()
}

fn saved_calls(adjoint: &Adjoint) -> HashSet<VarId> {
    let mut calls = HashSet::new();
    crate::diff::walk(&adjoint.rev, &mut |rev| {
        if let crate::diff::Rev::Pullback { call, args, .. } = rev
            && args.iter().any(crate::ir::Arg::is_mut)
        {
            calls.insert(*call);
        }
    });
    calls
}

fn trip_counts(function: &Function) -> HashSet<VarId> {
    let mut counts = HashSet::new();
    crate::ir::walk(&function.body, &mut |stmt| {
        if let Stmt::Loop(the_loop) = stmt {
            counts.extend(the_loop.count);
        }
    });
    counts
}

fn int_lets(block: &[Stmt]) -> HashMap<VarId, IntExpr> {
    let mut lets = HashMap::new();
    crate::ir::walk(block, &mut |stmt| {
        if let Stmt::IntLet { dst, expr } = stmt {
            lets.insert(*dst, expr.clone());
        }
    });
    lets
}

fn cheap(block: &[Stmt]) -> HashMap<VarId, Op> {
    let mut ops = HashMap::new();
    crate::ir::walk(block, &mut |stmt| {
        if let Stmt::Assign { dst, op } = stmt
            && matches!(op, Op::Add(..) | Op::Sub(..) | Op::Mul(..) | Op::Neg(_))
        {
            ops.insert(*dst, op.clone());
        }
    });
    ops
}

fn loops(function: &Function) -> Table<LoopId, Option<&Loop>> {
    let mut loops = Table::new(function.loops);
    crate::ir::walk(&function.body, &mut |stmt| {
        if let Stmt::Loop(the_loop) = stmt {
            loops[the_loop.id] = Some(&**the_loop);
        }
    });
    loops
}

fn reversed(function: &Function, adjoint: &Adjoint) -> Table<LoopId, bool> {
    let mut reversed = Table::new(function.loops);
    crate::diff::walk(&adjoint.rev, &mut |rev| {
        if let crate::diff::Rev::Loop { the_loop, .. } = rev {
            reversed[*the_loop] = true;
        }
    });
    reversed
}

/// The arrays the function writes: by a store, or by lending them to a call as `&mut` (an
/// array only a call writes, `let mut h = [0.0; 2]; g(&mut h, x);`, is `mut` too).
fn stored(block: &[Stmt]) -> HashSet<VarId> {
    let mut arrays = HashSet::new();
    crate::ir::walk(block, &mut |stmt| match stmt {
        Stmt::Store { array, .. } | Stmt::StoreAdd { array, .. } => {
            arrays.insert(*array);
        }
        Stmt::Assign {
            op: Op::Call(_, args),
            ..
        } => arrays.extend(args.iter().filter_map(|arg| match arg {
            crate::ir::Arg::Slice {
                array,
                mutable: true,
                ..
            } => Some(*array),
            _ => None,
        })),
        _ => {}
    });
    arrays
}

impl Emitter<'_> {
    fn function_tokens(
        &self,
        sig: &Signature,
        wrt: &HashSet<VarId>,
        flavor: Flavor,
    ) -> TokenStream {
        let specs = &sig.params;
        // The fields of parameter structs come after the signature's own parameters.
        let own = &self.function.params[..specs.len()];
        let chosen: Vec<bool> = own.iter().map(|p| p.wrt).collect();
        let signature =
            crate::header::signature(sig, &chosen, flavor, self.seed.as_ref(), &self.runtime);
        self.function_with(sig, wrt, flavor, signature)
    }

    /// The function of `flavor` under `signature`; `specs` are its parameters but shadows.
    fn function_with(
        &self,
        sig: &Signature,
        wrt: &HashSet<VarId>,
        flavor: Flavor,
        signature: TokenStream,
    ) -> TokenStream {
        let specs = &sig.params;
        let name = crate::header::name(sig, flavor);
        // The parameters whose partials are returned: `f64`s and arrays by value, in order.
        // The fields of parameter structs come after the signature's own parameters.
        let own = &self.function.params[..specs.len()];
        let returned: Vec<VarId> = own
            .iter()
            .zip(specs)
            .filter(|(p, s)| wrt.contains(&p.var) && s.kind().has_partial())
            .map(|(p, _)| p.var)
            .collect();
        let mut checks = self.flattened(specs, wrt);
        checks.extend(self.seed_value(flavor));
        checks.extend(self.shadow_checks(specs, wrt, &name));
        checks.extend(self.tangent_prelude(&name));
        let mut arrays = self.array_params(specs, wrt);
        // `f_hvp`'s tangent `v_w` of a `&mut [f64]` is written and read back as `w` is.
        if flavor.spec().differentiates == Params::Chosen {
            arrays.extend(self.written_constants(specs, wrt));
        }
        let fields = self.struct_prologue(specs, wrt, &name);
        let body = match flavor.spec().returns {
            Returns::Graph => self.graph_body(),
            _ => self.body(&returned, wrt, flavor),
        };
        let function = quote! {
            #[allow(dead_code, unused_parens, clippy::all)]
            #signature {
                #checks
                #arrays
                #fields
                #body
            }
        };
        let doc = self.doc(sig, wrt, flavor, &function);
        // The callee flavors are a calling convention, as `f_pullback` is, not an interface.
        let hidden = flavor.spec().callee.then(|| quote!(#[doc(hidden)]));
        quote!(#doc #hidden #function)
    }

    /// `let seed = Seed::value(seed);`: a pullback's seed comes as itself or, from a
    /// `#[differentiable]` caller, as `ByCaller(seed)` (micrograd_runtime::calls).
    fn seed_value(&self, flavor: Flavor) -> TokenStream {
        let runtime = &self.runtime;
        match (&self.seed, flavor.spec().seed) {
            (Some(seed), Seed::Always) => {
                quote!(let #seed = #runtime::calls::Seed::value(#seed);)
            }
            _ => TokenStream::new(),
        }
    }

    /// `let w = w.as_flattened();` for each parameter of rows (`&[[f64; N]]`, and its tangent)
    /// and `let d_w = d_w.as_flattened_mut();` for its shadow: the body reads and writes them
    /// as row-major slices of floats (`Kind::Rows`).
    pub(super) fn flattened(&self, specs: &[ParamSpec], wrt: &HashSet<VarId>) -> TokenStream {
        let mut tokens = TokenStream::new();
        for (param, spec) in self.function.params.iter().zip(specs) {
            if spec.kind().row().is_none() {
                continue;
            }
            let w = self.names.var(param.var);
            tokens.extend(quote!(let #w = #w.as_flattened();));
            if wrt.contains(&param.var) {
                let d_w = self.names.adjoint(param.var);
                tokens.extend(quote!(let #d_w = #d_w.as_flattened_mut();));
            }
        }
        tokens
    }

    /// A shadow of the wrong length is a caller's mistake: say which one.
    fn shadow_checks(
        &self,
        specs: &[ParamSpec],
        wrt: &HashSet<VarId>,
        name: &Ident,
    ) -> TokenStream {
        let mut checks = TokenStream::new();
        for (param, spec) in self.function.params.iter().zip(specs) {
            // `&mut [f64; N]` has its length checked by its type, in `f_grad` only; a
            // struct's shadow has the struct's type, its slice fields checked where they are
            // bound (`emit/fields.rs`).
            let sized = self.shadow == Shadow::Always;
            if !spec.kind().shadow_has_len(sized) || !wrt.contains(&param.var) {
                continue;
            }
            // The reverse sweep reads the shadow of a written slice, so it is never skipped.
            let shadow = if spec.kind().is_written() {
                Shadow::Always
            } else {
                self.shadow
            };
            let (w, d_w) = (self.names.var(param.var), self.names.adjoint(param.var));
            let message = format!(
                "{name}: the shadow `{d_w}` has {{}} entries but `{w}` has {{}}; they must have the same length"
            );
            let wrong = match shadow {
                Shadow::MaybeEmpty => quote!(!#d_w.is_empty() && #d_w.len() != #w.len()),
                _ => quote!(#d_w.len() != #w.len()),
            };
            checks.extend(quote! {
                if #wrong {
                    ::core::panic!(#message, #d_w.len(), #w.len());
                }
            });
        }
        checks
    }

    /// An array taken by value is read through a reference, as `&[f64; N]` is, so the code
    /// that follows is the same for both; its shadow is a local returned at the end. A `&f64`
    /// is read once into an `f64`, so the code that follows is an `f64`'s.
    fn array_params(&self, specs: &[ParamSpec], wrt: &HashSet<VarId>) -> TokenStream {
        let mut tokens = TokenStream::new();
        for (param, spec) in self.function.params.iter().zip(specs) {
            if matches!(spec.kind(), Kind::Scalar)
                && matches!(spec.value, crate::types::Type::Ref { .. })
            {
                let x = self.names.var(param.var);
                tokens.extend(quote!(let #x = *#x;));
                continue;
            }
            let Kind::Array(len) = &spec.kind() else {
                continue;
            };
            let w = self.names.var(param.var);
            tokens.extend(quote!(let #w = &#w;));
            if wrt.contains(&param.var) {
                let d_w = self.names.adjoint(param.var);
                let zero = self.function.scalar.zero();
                tokens.extend(quote!(let #d_w = &mut [#zero; #len];));
            }
        }
        tokens
    }

    /// A `&mut [f64]` left out by `wrt(..)` still carries gradient from the values written
    /// into it to the values read back: its adjoint is then a local.
    fn written_constants(&self, specs: &[ParamSpec], wrt: &HashSet<VarId>) -> TokenStream {
        let mut tokens = TokenStream::new();
        for (param, spec) in self.function.params.iter().zip(specs) {
            let active = self.adjoint.activity.is_active(param.var);
            if !spec.kind().is_written() || wrt.contains(&param.var) || !active {
                continue;
            }
            let (w, d_w) = (self.names.var(param.var), self.names.adjoint(param.var));
            let buffer = self.names.local("constant_shadow");
            let zero = self.function.scalar.zero();
            tokens.extend(quote! {
                let mut #buffer = ::std::vec![#zero; #w.len()];
                let #d_w = &mut #buffer[..];
            });
        }
        tokens
    }

    fn body(&self, returned: &[VarId], wrt: &HashSet<VarId>, flavor: Flavor) -> TokenStream {
        let tapes = self.tape_declarations();
        let (forward, reverse) = match &self.adjoint.fused {
            Some(fusion) => self.fused_sweeps(fusion),
            None => (
                self.forward_block(&self.function.body),
                self.reverse_block(&self.adjoint.rev, None),
            ),
        };
        let values: Vec<TokenStream> = self.values.iter().map(|r| self.operand(r)).collect();
        let value = self.outputs(&values);
        let fields = self.struct_epilogue(wrt);
        let partials = returned.iter().map(|v| {
            if self.function.var(*v).ty != Ty::F64 {
                let d = self.names.adjoint(*v);
                quote!(*#d)
            } else if self.adjoint.declared_params.contains(v) {
                let d = self.names.adjoint(*v);
                quote!(#d)
            } else {
                self.function.scalar.zero()
            }
        });
        let tangents: Vec<TokenStream> = self
            .function
            .results
            .iter()
            .map(|r| self.operand(r))
            .collect();
        let tangent = self.outputs(&tangents);
        let result = match (flavor.spec().returns, returned.len()) {
            (Returns::ValueAndPartials, 0) => quote!(#value),
            (Returns::ValueAndPartials, _) => quote!((#value, #(#partials),*)),
            (Returns::ValueAndTangent, _) => quote!((#value, #tangent)),
            (Returns::Tangent, _) => tangent,
            (Returns::Partials, 1) => quote!(#(#partials)*),
            (Returns::Partials | Returns::Graph | Returns::Hessian | Returns::Jacobian, _) => {
                quote!((#(#partials),*))
            }
        };
        quote! {
            #tapes
            #forward
            #reverse
            #fields
            #result
        }
    }

    fn tape_declarations(&self) -> TokenStream {
        let runtime = &self.runtime;
        self.tapes()
            .into_iter()
            .map(|(name, element, inline)| quote!(let mut #name = #runtime::Tape::<#element #inline>::new();))
            .collect()
    }

    /// Each tape the forward sweep records on: its name, its element type, and `, 0` for
    /// arrays, which stay off the stack.
    fn tapes(&self) -> Vec<(&Ident, TokenStream, TokenStream)> {
        let records: Vec<VarId> = self
            .adjoint
            .plan
            .records
            .values()
            .flatten()
            .copied()
            .collect();
        let ty = |v: &VarId| &self.adjoint.vars[v.0 as usize].ty;
        let any = |wanted: Ty| records.iter().any(|v| *ty(v) == wanted);
        let scalar = self.function.scalar.ty();
        let mut tapes = Vec::new();
        if any(Ty::F64) {
            tapes.push((&self.tape, scalar.clone(), quote!()));
        }
        if any(Ty::Bool) {
            tapes.push((&self.branches, quote!(::core::primitive::bool), quote!()));
        }
        if !self.saved_calls.is_empty() {
            tapes.push((&self.saved, scalar.clone(), quote!()));
        }
        if records
            .iter()
            .any(|v| *ty(v) == Ty::Int && !self.own_tapes.contains_key(v))
        {
            tapes.push((&self.counts, quote!(::core::primitive::usize), quote!()));
        }
        let mut own: Vec<(&VarId, &Ident)> = self.own_tapes.iter().collect();
        own.sort();
        for (var, name) in own {
            match &self.adjoint.vars[var.0 as usize].ty {
                // A `Vec` is never recorded: lowering keeps `vec!` out of loops.
                Ty::Array { len, vec: false } => {
                    let len = self.int(len);
                    tapes.push((name, quote!([#scalar; #len]), quote!(, 0)));
                }
                _ => tapes.push((name, quote!(_), quote!())),
            }
        }
        tapes
    }

    /// The tape that records `var`.
    fn tape_of(&self, var: VarId) -> &Ident {
        match self.adjoint.vars[var.0 as usize].ty {
            Ty::Bool => &self.branches,
            Ty::Int => self.own_tapes.get(&var).unwrap_or(&self.counts),
            Ty::Array { .. } => self
                .own_tapes
                .get(&var)
                .expect("internal error: every recorded array has its own tape"),
            _ => &self.tape,
        }
    }

    fn decision(&self, branch: &If) -> Option<&Ident> {
        self.adjoint.decisions[branch.id].map(|v| self.names.var(v))
    }
}
