//! The bodies of the generated functions, printed from the lowered function and what the
//! driver differentiated (`crate::driver`); their signatures are `crate::header`'s.
//!
//! `f_grad` holds the forward sweep, then the reverse sweep, then returns the value and the
//! partials. `f_pullback` is the same code for every parameter at once, seeded by the caller:
//! it is what a `#[differentiable]` caller of `f` runs in its own reverse sweep.

mod bounds;
mod doc;
mod facts;
mod fields;
mod forward;
mod graph;
mod hessian;
mod jacobian;
mod lanes;
mod loops;
mod prologue;
mod reverse;
mod scalar;
mod tangent;
mod tokens;
mod views;
mod written_jacobian;

pub use hessian::hessian;
pub use tangent::tangent;
pub use written_jacobian::generate as written_jacobian;
pub use written_jacobian::parameters as written_jacobian_parameters;

use crate::attr::Options;
use crate::diff::{Adjoint, Shadow};
pub use crate::flavor::Flavor;
use crate::flavor::{Params, Returns};
use crate::ir::Signature;
use crate::ir::{Function, If, Ty, VarId};
use crate::names::Names;
use facts::{Facts, Tapes, cheap, int_lets, loops, own_tapes, reversed, saved_calls, stored};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::HashSet;

/// Everything one generated function is printed from.
struct Emitter<'a> {
    function: &'a Function,
    adjoint: &'a Adjoint,
    names: Names,
    shadow: Shadow,
    /// `seed` in a pullback; `None` in `f_grad`, whose seed is `1.0`.
    seed: Option<Ident>,
    /// The names of the tapes the forward sweep records on.
    tapes: Tapes,
    /// What the function and its sweep hold, read once.
    facts: Facts<'a>,
    /// `f_graph`'s graph and nodes.
    graph: GraphNames,
    /// The runtime crate's path (`::micrograd_runtime` unless `crate = ..` says otherwise).
    runtime: syn::Path,
    /// `show_code`: `f_grad`'s rustdoc holds a copy of its code.
    show_code: bool,
    /// What the function returns first: `f`'s results (the tangent program's results are the
    /// tangents).
    values: Vec<crate::ir::Operand>,
    /// The tangent flavours' parameters.
    tangent: TangentParams,
    /// The views of the loops being printed (`views.rs`).
    views: views::Views,
}

/// `f_graph`'s graph, and the node of each variable (none in the other flavours).
struct GraphNames {
    name: Ident,
    nodes: Vec<Ident>,
}

/// The parameters of the tangent flavours.
#[derive(Default)]
struct TangentParams {
    /// Tangent slices a caller may pass empty (`&[]`, for a constant argument): read as zeros.
    maybe_empty: HashSet<VarId>,
    /// Each parameter with a tangent, and the tangent.
    pairs: Vec<(VarId, VarId)>,
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
    let emitter = Emitter::new(
        function,
        adjoint,
        Names::new(&adjoint.vars, &params, &sig.user_names),
        flavor,
        options,
    );
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
        // A function returning `()` has no seed: its outputs' adjoints are its shadows.
        let seeded = flavor.seeded(vector) && !function.results.is_empty();
        let seed = seeded.then(|| names.fresh("seed"));
        let nodes = match flavor.spec().returns {
            Returns::Graph => (0..adjoint.vars.len())
                .map(|v| {
                    let base = format!("{}_node", names.var(VarId(v as u32)));
                    names.fresh(&base)
                })
                .collect(),
            _ => Vec::new(),
        };
        let (tape, branches, saved) = (
            names.fresh("tape"),
            names.fresh("branches"),
            names.fresh("saved"),
        );
        let graph = names.fresh("graph");
        let counts = names.fresh("counts");
        let (region, at) = (names.fresh("region"), names.fresh("at"));
        let own = own_tapes(function, adjoint, &mut names);
        Emitter {
            function,
            adjoint,
            tapes: Tapes {
                tape,
                branches,
                saved,
                counts,
                own,
                region,
                at,
            },
            facts: Facts {
                saved_calls: saved_calls(adjoint),
                int_lets: int_lets(&function.body),
                cheap: cheap(&function.body),
                stored: stored(&function.body),
                loops: loops(function),
                reversed: reversed(function, adjoint),
            },
            graph: GraphNames { name: graph, nodes },
            shadow: if flavor.spec().whole_shadows {
                Shadow::Always
            } else {
                Shadow::MaybeEmpty
            },
            seed,
            names,
            runtime: options.runtime(),
            show_code: options.show_code,
            values: function.results.clone(),
            tangent: TangentParams::default(),
            views: views::Views::default(),
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
        let name = crate::header::name(sig, flavor);
        let function = self.function_code(sig, wrt, flavor, signature, &name);
        let doc = self.doc(sig, wrt, flavor, &function);
        // The callee flavors are a calling convention, as `f_pullback` is, not an interface.
        let hidden = flavor.spec().callee.then(|| quote!(#[doc(hidden)]));
        quote!(#doc #hidden #function)
    }

    /// The function of `flavor` under `signature`, without its rustdoc; `name` is what its
    /// messages call it.
    fn function_code(
        &self,
        sig: &Signature,
        wrt: &HashSet<VarId>,
        flavor: Flavor,
        signature: TokenStream,
        name: &Ident,
    ) -> TokenStream {
        let specs = &sig.params;
        // The parameters whose partials are returned: `f64`s and arrays by value, in order.
        // The fields of parameter structs come after the signature's own parameters.
        let own = &self.function.params[..specs.len()];
        let returned: Vec<VarId> = own
            .iter()
            .zip(specs)
            .filter(|(p, s)| wrt.contains(&p.var) && s.kind().has_partial())
            .map(|(p, _)| p.var)
            .collect();
        // Rows by value, whose partials are their local shadow of their shape.
        let rows: HashSet<VarId> = own
            .iter()
            .zip(specs)
            .filter(|(_, s)| matches!(s.kind(), crate::types::Kind::Rows { by_value: true, .. }))
            .map(|(p, _)| p.var)
            .collect();
        let mut checks = self.one_entry_params(specs, wrt, flavor);
        checks.extend(self.flattened(specs, wrt));
        checks.extend(self.seed_value(flavor));
        checks.extend(self.shadow_checks(specs, wrt, name));
        checks.extend(self.tangent_prelude(specs, name));
        let mut arrays = self.array_params(specs, wrt);
        // `f_hvp`'s tangent `v_w` of a `&mut [f64]` is written and read back as `w` is.
        if matches!(
            flavor.spec().differentiates,
            Params::Chosen | Params::ChosenWithOutput
        ) {
            arrays.extend(self.written_constants(specs, wrt));
        }
        let fields = self.struct_prologue(specs, wrt, name);
        let body = match flavor.spec().returns {
            Returns::Graph => self.graph_body(),
            _ => self.body((&returned, &rows), wrt, flavor),
        };
        quote! {
            #[allow(dead_code, unused_parens, clippy::all)]
            #signature {
                #checks
                #arrays
                #fields
                #body
            }
        }
    }

    fn body(
        &self,
        (returned, rows): (&[VarId], &HashSet<VarId>),
        wrt: &HashSet<VarId>,
        flavor: Flavor,
    ) -> TokenStream {
        let tapes = self.tape_declarations();
        let (forward, reverse) = match &self.adjoint.fused {
            Some(fusion) => self.fused_sweeps(fusion),
            None => (
                self.forward_sweep(flavor.spec().returns),
                self.reverse_block(&self.adjoint.rev, None),
            ),
        };
        let values: Vec<TokenStream> = self.values.iter().map(|r| self.operand(r)).collect();
        let value = self.outputs(&values);
        let fields = self.struct_epilogue(wrt);
        let partials = returned.iter().map(|v| {
            if rows.contains(v) {
                let d = self.rows_partial(*v);
                quote!(*#d)
            } else if self.function.var(*v).ty != Ty::F64 {
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
        let unit = self.function.results.is_empty();
        let result = match (flavor.spec().returns, returned.len()) {
            // `()`: its outputs are written, so only the partials are returned.
            (Returns::ValueAndPartials | Returns::ValueAndTangent, 0) if unit => quote!(),
            (Returns::ValueAndPartials, _) if unit => quote!((#(#partials),*)),
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

    fn decision(&self, branch: &If) -> Option<&Ident> {
        self.adjoint.decisions[branch.id].map(|v| self.names.var(v))
    }
}
