//! Every generated function as data: one row of [`TABLE`] per flavour says which parameters it
//! differentiates and takes tangents of, whether it takes a seed, what it returns, which
//! option asks for it, for which outputs, whether it is a calling convention hidden from users,
//! and what it needs from differentiation. The header, the emitter, the stubs and the driver
//! (`driver.rs`) read the row; none of them matches on the flavour for these facts.
//!
//! A new flavour is a variant, a row, and the code that prints its body (`emit/`).
//!
//! The rows of `f` come first; after them the nested flavours (`nested/`), whose rows are of
//! `f_grad` or `f_jvp` (column `of`): each is a row of `f` (column `like`) applied to the
//! signature of the function it is of, `g_grad_pullback` the row `Pullback` of `g_grad`.
//!
//! This module is on the lowest floor with `ir` and `types`: it imports neither `emit` nor
//! `header`, and `attr` does not import it.

mod table;

pub use table::TABLE;
use table::{NESTED, OWN};

use crate::attr::Options;
use crate::ir::{Function, Output, ParamSpec, Signature, Ty, VarId};
use std::collections::HashSet;

/// Which generated function to print.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Flavor {
    /// `f_grad`: the public contract.
    Grad,
    /// `f_pullback`: the calling convention between `#[differentiable]` functions.
    Pullback,
    /// `f_graph`: the computation as a drawable graph.
    Graph,
    /// `f_jvp`: the value and the directional derivative, in one forward sweep.
    Jvp,
    /// `f_tangent`: the directional derivative alone, along every `f64` and slice; what a
    /// caller's tangent program calls.
    Tangent,
    /// `f_hvp`: the value and the Hessian-vector product, reverse over forward.
    Hvp,
    /// `f_tangent_pullback`: the pullback of `f_tangent`, what a caller's `f_hvp` calls.
    TangentPullback,
    /// `f_hessian`: the value and the dense Hessian, one `f_hvp` per row.
    Hessian,
    /// `f_jacobian`: the dense Jacobian of a function with several outputs.
    Jacobian,
    /// `f_grad_pullback`: the pullback of `f_grad`, what a caller's gradient of a call of
    /// `f_grad` goes through.
    GradPullback,
    /// `__f_grad_tangent`: the tangent of `f_grad`.
    GradTangent,
    /// `__f_grad_tangent_pullback`: a third derivative, refused.
    GradTangentPullback,
    /// `f_jvp_pullback`: the pullback of `f_jvp`.
    JvpPullback,
    /// `__f_jvp_tangent`: the tangent of `f_jvp`.
    JvpTangent,
    /// `__f_jvp_tangent_pullback`: a third derivative, refused.
    JvpTangentPullback,
}

/// Which parameters a flavour differentiates (a shadow `d_w` or a partial each), or takes a
/// tangent `v_x` of.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Params {
    /// None.
    None,
    /// Those `wrt(..)` selects (all the differentiable ones without it).
    Chosen,
    /// Those `wrt(..)` selects and, of a function returning `()`, its written outputs whatever
    /// `wrt(..)` says: `f_grad` differentiates its one output `err: &mut f64`, whose shadow is
    /// the seed `1.0`, a local ([`Signature::written_scalar`], `header::grad_output`).
    ChosenWithOutput,
    /// Every differentiable one, whatever `wrt(..)` says: what a caller's sweep passes on.
    All,
    /// Those `wrt(..)` selects that fill a Jacobian's rows: `f64`s and read-only slices.
    ChosenInJacobian,
}

/// Whether a flavour takes a `seed` shaped as `f`'s value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Seed {
    /// Never (its seed is `1.0`, or it has none).
    Never,
    /// Always: the pullbacks.
    Always,
    /// Only for several outputs: `f_hvp` then gives the Hessian-vector product of `seed · f`.
    Several,
}

/// What a flavour returns, given `f`'s value and the partials it differentiates.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Returns {
    /// `(f, ∂f/∂x₁, ..)`, or `f` alone without partials (the others go into shadows).
    ValueAndPartials,
    /// `(∂f/∂x₁, ..)`, one without parentheses.
    Partials,
    /// `(f, ∇f · v)`, the tangent shaped as the value.
    ValueAndTangent,
    /// `∇f · v` alone (or `(f, ∇f · v)` where `f` writes an array, `header::returns_pair`).
    Tangent,
    /// A `Graph` of the computation.
    Graph,
    /// `(f, [[∂²f/∂xᵢ∂xⱼ; n]; n])`, or `f` with the Hessian written into `hess`.
    Hessian,
    /// `(f, [[∂fᵢ/∂xⱼ; n]; m])`.
    Jacobian,
}

/// The attribute's option that asks for a flavour. Each implies those before it in
/// `Jvp`, `Hvp`, `Hessian`: the Hessian calls `f_hvp`, which is the reverse of `f_jvp`'s
/// tangent program.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Request {
    /// None: always generated.
    Always,
    /// `graph`.
    Graph,
    /// `jvp`, `hvp` or `hessian`.
    Jvp,
    /// `hvp` or `hessian`.
    Hvp,
    /// `hessian`.
    Hessian,
    /// `jacobian`.
    Jacobian,
}

impl Request {
    /// The option's word in the attribute, the least that asks for it.
    pub fn option(self) -> &'static str {
        match self {
            Request::Always => "",
            Request::Graph => "graph",
            Request::Jvp => "jvp",
            Request::Hvp => "hvp",
            Request::Hessian => "hessian",
            Request::Jacobian => "jacobian",
        }
    }
}

/// The outputs a flavour is generated for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outputs {
    /// One `f64` or several.
    Any,
    /// One `f64`: a vector's gradient is its Jacobian, its Hessian a tensor.
    One,
    /// Several.
    Several,
}

/// What a flavour is printed from: what the driver (`crate::driver`) differentiates for it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Needs {
    /// The reverse sweep of the function with respect to these parameters.
    Adjoint(Params),
    /// The tangent program along its tangents alone (forward mode): no reverse sweep.
    Tangent,
    /// The tangent program along its tangents and its reverse sweep with respect to the
    /// parameters it differentiates (reverse over forward).
    TangentAdjoint,
    /// Nothing: its body calls another flavour (`f_hessian` calls `f_hvp`).
    Nothing,
    /// A tangent per differentiated `f64` in one forward sweep, or a reverse sweep per output:
    /// `f_jacobian` by the count of each.
    Columns,
    /// No differentiation of the IR, which has no function `f_grad` or `f_jvp`: the body is
    /// composed from the printed body of `f`'s own `__f_tangent_pullback` (`nested/`).
    Composed,
    /// Nothing: always a refusing stub (a third derivative).
    Refused,
}

/// What stands in for a flavour that is not built (its option not given, or a
/// [`Needs::Refused`] row).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Missing {
    /// Nothing: no generated caller calls it.
    Absent,
    /// A stub of its signature whose unmet bound `micrograd_runtime::calls::NAME` is one error
    /// at a caller's call, naming the option to add.
    Refuses(&'static str),
}

/// One flavour as data.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The flavour this row describes (the rows are in the order of [`Flavor`]).
    pub flavor: Flavor,
    /// What follows `f_` in the generated function's name.
    pub suffix: &'static str,
    /// A calling convention between `#[differentiable]` functions rather than an interface:
    /// named `__f_..`, out of the way of a user's `f_tangent`, and `#[doc(hidden)]`.
    pub callee: bool,
    /// The parameters it differentiates.
    pub differentiates: Params,
    /// The parameters followed by a tangent.
    pub tangents: Params,
    /// Whether it takes a seed.
    pub seed: Seed,
    /// Whether the caller passes every shadow whole: `&mut [f64; N]` for an array, never
    /// empty. Else a shadow is a slice a caller may pass empty (`&mut []`) or a part of its own.
    pub whole_shadows: bool,
    /// What it returns.
    pub returns: Returns,
    /// The option that asks for it.
    pub request: Request,
    /// The outputs it is generated for.
    pub outputs: Outputs,
    /// What it is printed from.
    pub needs: Needs,
    /// The flavour of `f` whose function this row is of (`f_grad` for `g_grad_pullback`), or
    /// `None` for `f` itself.
    pub of: Option<Flavor>,
    /// The row of `f` this row is, applied to the signature of the function it is of: itself
    /// for the rows of `f`, `Pullback` for `g_grad_pullback`.
    pub like: Flavor,
    /// What stands in where it is not built.
    pub missing: Missing,
}

/// The flavours of rows `start..start + N` of [`TABLE`].
const fn rows<const N: usize>(start: usize) -> [Flavor; N] {
    let mut all = [Flavor::Grad; N];
    let mut k = 0;
    while k < N {
        all[k] = TABLE[start + k].flavor;
        k += 1;
    }
    all
}

impl Flavor {
    /// Every flavour of `f` itself, in the order they are emitted: [`TABLE`]'s rows with
    /// `of: None`, which the driver and the stubs iterate.
    pub const ALL: [Flavor; OWN.len()] = rows(0);

    /// The nested flavours, of `f_grad` and `f_jvp` (`nested/`): the rest of [`TABLE`].
    pub const NESTED: [Flavor; NESTED.len()] = rows(OWN.len());

    /// This flavour's row of [`TABLE`].
    pub fn spec(self) -> &'static Spec {
        &TABLE[self as usize]
    }

    /// The flavour a caller calls before this one where this one is the pullback of a tangent
    /// program: the tangent row of the same function (`__f_tangent` before
    /// `__f_tangent_pullback`). Where that one is a refusing stub this one's refuses nothing,
    /// so a caller missing one option gets one error.
    pub fn after(self) -> Option<Flavor> {
        let spec = self.spec();
        let tangent = |row: &&Spec| row.of == spec.of && row.like == Flavor::Tangent;
        let row = (spec.like == Flavor::TangentPullback).then(|| TABLE.iter().find(tangent));
        row.flatten().map(|row| row.flavor)
    }

    /// What follows `f_` in the generated function's name.
    pub fn suffix(self) -> &'static str {
        self.spec().suffix
    }

    /// Whether this flavor differentiates parameter `spec`; `chosen` is `wrt(..)`'s verdict.
    pub fn differentiates(self, spec: &ParamSpec, chosen: bool) -> bool {
        self.spec().differentiates.has(spec, chosen)
    }

    /// Whether parameter `spec` has a tangent in this flavor: `wrt(..)`'s in the public ones,
    /// every `f64` and slice in those a caller's tangent program calls.
    pub fn has_tangent(self, spec: &ParamSpec, chosen: bool) -> bool {
        self.spec().tangents.has(spec, chosen)
    }

    /// Whether the attribute's `options` ask for this flavor, whatever the output.
    pub fn requested(self, options: &Options) -> bool {
        let hessian = options.hessian;
        let hvp = options.hvp || hessian;
        match self.spec().request {
            Request::Always => true,
            Request::Graph => options.graph,
            Request::Jvp => options.jvp || hvp,
            Request::Hvp => hvp,
            Request::Hessian => hessian,
            Request::Jacobian => options.jacobian,
        }
    }

    /// Whether `options` and the function's `output` call for this flavor.
    pub fn emitted(self, options: &Options, output: Output) -> bool {
        let vector = output.is_vector();
        let fits = match self.spec().outputs {
            Outputs::Any => true,
            Outputs::One => !vector,
            Outputs::Several => vector,
        };
        fits && self.requested(options)
    }

    /// Whether `options` and the signature `sig` call for this flavor: [`Flavor::emitted`] for
    /// its output, and `f_grad` (the row differentiating a written output,
    /// [`Params::ChosenWithOutput`]) of a function returning `()` whose one output is
    /// `err: &mut f64`, the gradient of that output ([`Signature::written_scalar`]).
    pub fn emitted_for(self, options: &Options, sig: &Signature) -> bool {
        let output = sig.output.unwrap_or(Output::Scalar);
        let of_output = self.spec().differentiates == Params::ChosenWithOutput;
        let written_scalar = of_output && sig.written_scalar().is_some();
        // `f_jacobian` of a function returning `()` is made of its `f_jvp`'s columns.
        let columns = self == Flavor::Jvp && options.jacobian && output.is_unit();
        (written_scalar && self.requested(options)) || columns || self.emitted(options, output)
    }

    /// Whether this flavor takes a `seed` shaped as `f`'s value; `vector` says whether `f`
    /// returns several values.
    pub fn seeded(self, vector: bool) -> bool {
        match self.spec().seed {
            Seed::Never => false,
            Seed::Always => true,
            Seed::Several => vector,
        }
    }

    /// The parameters of the lowered `function` this flavor differentiates, by variable.
    pub fn wrt(self, function: &Function) -> HashSet<VarId> {
        self.spec().differentiates.vars(function)
    }
}

impl Params {
    /// These parameters of the lowered `function`, by variable.
    pub fn vars(self, function: &Function) -> HashSet<VarId> {
        let params = function.params.iter();
        let differentiable = |v: VarId| {
            let ty = &function.var(v).ty;
            *ty == Ty::F64 || ty.is_lent()
        };
        match self {
            Params::None => HashSet::new(),
            // A function returning `()`: `f_grad` differentiates its one output
            // `err: &mut f64` (`header::grad_output`), whatever `wrt(..)` says.
            Params::ChosenWithOutput if function.results.is_empty() => params
                .filter(|p| p.wrt || function.var(p.var).ty.is_lent_mut())
                .map(|p| p.var)
                .collect(),
            Params::Chosen | Params::ChosenWithOutput => {
                params.filter(|p| p.wrt).map(|p| p.var).collect()
            }
            Params::All => params
                .map(|p| p.var)
                .filter(|v| differentiable(*v))
                .collect(),
            Params::ChosenInJacobian => params
                .filter(|p| {
                    let ty = &function.var(p.var).ty;
                    p.wrt && (*ty == Ty::F64 || ty.is_read_only())
                })
                .map(|p| p.var)
                .collect(),
        }
    }

    /// Whether parameter `spec` is among these; `chosen` is `wrt(..)`'s verdict.
    pub fn has(self, spec: &ParamSpec, chosen: bool) -> bool {
        let differentiable = spec.kind().is_differentiable();
        match self {
            Params::None => false,
            Params::Chosen | Params::ChosenWithOutput => differentiable && chosen,
            Params::All => differentiable,
            // The `f64`s' partials fill fixed-size rows; a read-only slice's fill a block
            // `d_w` (`m × w.len()`, row-major) after it.
            Params::ChosenInJacobian => spec.kind().in_jacobian() && chosen,
        }
    }
}
