//! One driver between differentiation and emission: from the table of flavours
//! ([`crate::flavor`]) it plans which differentiations the emitted flavours need, runs each
//! once, and hands the results to the emitters. `emit` never calls `diff`, and a forward-only
//! flavour (`f_jvp`, `f_tangent`) is printed from its tangent program without a reverse sweep.

use crate::attr::Options;
use crate::diff::{self, Adjoint, tangent::Tangent};
use crate::emit;
use crate::error::Errors;
use crate::flavor::{Flavor, Needs, Params};
use crate::ir::{self, Function, Signature, Stmt, VarId};
use proc_macro2::TokenStream;
use std::collections::HashSet;

/// One differentiation, run once however many flavours are printed from it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
    /// The reverse sweep of `f` along these parameters.
    Reverse(Params),
    /// The tangent program of `f` along these parameters (forward mode).
    Tangent(Params),
    /// The reverse sweep of the tangent program along the first parameters, with respect to
    /// the second (reverse over forward).
    TangentReverse(Params, Params),
    /// `f_jacobian`'s columns in one forward sweep, or its rows by reverse sweeps.
    Jacobian,
}

/// The flavours `options` and `output` call for, in the order they are emitted, and the
/// differentiations they need, each once.
#[derive(Debug)]
pub struct Plan {
    /// The flavours to print.
    pub flavors: Vec<Flavor>,
    /// What to differentiate for them.
    pub steps: Vec<Step>,
}

/// Reads the table: which flavours are emitted for `output`, and what each needs.
#[cfg(test)]
pub fn plan(options: &Options, output: crate::ir::Output) -> Plan {
    plan_of(|flavor| flavor.emitted(options, output))
}

/// The plan of the flavours `emitted` selects.
fn plan_of(emitted: impl Fn(Flavor) -> bool) -> Plan {
    let flavors: Vec<Flavor> = Flavor::ALL
        .into_iter()
        .filter(|flavor| emitted(*flavor))
        .collect();
    let mut steps = Vec::new();
    for flavor in &flavors {
        let spec = flavor.spec();
        let needed: &[Step] = match spec.needs {
            Needs::Adjoint(params) => &[Step::Reverse(params)],
            Needs::Tangent => &[Step::Tangent(spec.tangents)],
            Needs::TangentAdjoint => &[
                Step::Tangent(spec.tangents),
                Step::TangentReverse(spec.tangents, spec.differentiates),
            ],
            // A nested row's body is composed by `nested/`, from `f`'s printed code.
            Needs::Nothing | Needs::Composed | Needs::Refused => &[],
            Needs::Columns => &[Step::Jacobian],
        };
        for step in needed {
            if !steps.contains(step) {
                steps.push(*step);
            }
        }
    }
    Plan { flavors, steps }
}

/// What the steps of a plan computed.
#[derive(Default)]
struct Results {
    /// Each reverse sweep of `f` with the parameters it differentiates: two selections of
    /// the same parameters share one.
    reverse: Vec<(HashSet<VarId>, Adjoint)>,
    tangents: Vec<(Params, Tangent)>,
    tangent_reverse: Vec<((Params, Params), Adjoint)>,
    /// `f_jacobian`'s function (every output) and its sweeps.
    jacobian: Option<(Function, emit::JacobianSweeps)>,
    /// `f_jacobian` of a function returning `()`: its tangent programs along each of
    /// `WIDTHS`' counts of directions merged, widest first, where they can be.
    lanes: Option<Vec<diff::tangent::Lanes>>,
}

impl Results {
    fn reverse(&self, function: &Function, params: Params) -> &Adjoint {
        let wrt = params.vars(function);
        let found = self.reverse.iter().find(|(w, _)| *w == wrt);
        let (_, adjoint) =
            found.expect("internal error: the plan has every reverse sweep a flavour reads");
        adjoint
    }
}

/// The flavours of `lowered` that `options` and `output` call for, printed from the
/// differentiations they need; `None` after an error (an array changed after a call reads it).
pub fn run(
    sig: &Signature,
    lowered: &Function,
    options: &Options,
    errors: &mut Errors,
) -> Option<TokenStream> {
    // By the signature: `f_grad` of a function returning `()` whose one output is
    // `err: &mut f64` too (`Flavor::emitted_for`).
    let plan = plan_of(|flavor| flavor.emitted_for(options, sig));
    let mut results = Results::default();
    // The reverse sweeps first: they find the arrays a call's pullback would read changed.
    reverse_sweeps(&plan, lowered, &mut results, errors);
    if !errors.is_empty() {
        return None;
    }
    for step in &plan.steps {
        results.run(*step, sig, lowered);
    }
    let chosen: Vec<bool> = lowered.params.iter().map(|p| p.wrt).collect();
    let print = |flavor: Flavor| results.print(flavor, (sig, &chosen), lowered, options);
    Some(plan.flavors.into_iter().map(print).collect())
}

/// The reverse sweeps of `lowered` the plan needs, each once, and the arrays a call's
/// pullback would read changed, reported into `errors`.
fn reverse_sweeps(plan: &Plan, lowered: &Function, results: &mut Results, errors: &mut Errors) {
    for step in &plan.steps {
        if let Step::Reverse(params) = *step {
            let wrt = params.vars(lowered);
            if !results.reverse.iter().any(|(w, _)| *w == wrt) {
                let adjoint = diff::differentiate(lowered, &wrt);
                results.reverse.push((wrt, adjoint));
            }
        }
    }
    let unstable = results
        .reverse
        .first()
        .map(|(_, adjoint)| &adjoint.unstable_calls);
    for array in unstable.into_iter().flatten() {
        errors.at(
            lowered.var(*array).span,
            "this array changes after it is passed to a `#[differentiable]` function, so its pullback would read the wrong values; make the last change before the call",
        );
    }
}

impl Results {
    /// Runs `step` (the reverse sweeps of `f` are [`reverse_sweeps`]'s).
    fn run(&mut self, step: Step, sig: &Signature, lowered: &Function) {
        match step {
            Step::Reverse(_) => {}
            Step::Tangent(params) => {
                let mut tangent = diff::tangent::transform(lowered, &params.vars(lowered));
                // A caller's tangent program calls `f_tangent` instead of `f` where `f`
                // writes an array it lends: then it returns the value too.
                if params == Params::All && crate::header::returns_pair(sig) {
                    tangent = tangent.with_value();
                }
                self.tangents.push((params, tangent));
            }
            Step::TangentReverse(along, wrt) => {
                let tangent = tangent(self, along);
                let adjoint = diff::differentiate(&tangent.function, &wrt.vars(&tangent.function));
                self.tangent_reverse.push(((along, wrt), adjoint));
            }
            // A function returning `()`: `f_jacobian` calls its `f_jvp`.
            Step::Jacobian if lowered.results.is_empty() => {
                let varying = Params::Chosen.vars(lowered);
                self.lanes = (diff::tangent::WIDTHS.iter())
                    .map(|&k| diff::tangent::lanes(lowered, &varying, k))
                    .collect();
            }
            Step::Jacobian => self.jacobian = Some(jacobian_sweeps(sig, lowered)),
        }
    }

    /// `flavor` of `lowered`, from what its row of the table says it needs; `chosen[k]` says
    /// whether `wrt(..)` selects parameter `k`.
    fn print(
        &self,
        flavor: Flavor,
        (sig, chosen): (&Signature, &[bool]),
        lowered: &Function,
        options: &Options,
    ) -> TokenStream {
        let spec = flavor.spec();
        match spec.needs {
            Needs::Adjoint(params) => {
                let adjoint = self.reverse(lowered, params);
                emit::generate(sig, lowered, adjoint, flavor, options)
            }
            Needs::Tangent => {
                let tangent = tangent(self, spec.tangents);
                let none = Adjoint::none(&tangent.function);
                emit::tangent(sig, chosen, tangent, &none, flavor, options)
            }
            Needs::TangentAdjoint => {
                let key = (spec.tangents, spec.differentiates);
                let (_, adjoint) = self
                    .tangent_reverse
                    .iter()
                    .find(|(k, _)| *k == key)
                    .expect("internal error: the plan has every reverse sweep a flavour reads");
                let tangent = tangent(self, spec.tangents);
                emit::tangent(sig, chosen, tangent, adjoint, flavor, options)
            }
            Needs::Nothing => emit::hessian(sig, chosen, options),
            Needs::Composed | Needs::Refused => {
                unreachable!("internal error: {flavor:?} is printed by `nested/`")
            }
            Needs::Columns if lowered.results.is_empty() => {
                emit::written_jacobian(sig, chosen, self.lanes.as_deref(), options)
            }
            Needs::Columns => {
                let (all, sweeps) = self
                    .jacobian
                    .as_ref()
                    .expect("internal error: the plan has f_jacobian's sweeps");
                emit::jacobian(sig, all, sweeps, options)
            }
        }
    }
}

/// The tangent program along `params` that the plan computed.
fn tangent(results: &Results, params: Params) -> &Tangent {
    let (_, tangent) = results
        .tangents
        .iter()
        .find(|(p, _)| *p == params)
        .expect("internal error: the plan has every tangent program a flavour reads");
    tangent
}

/// `f_jacobian`'s function (every output, seeded as an array) and its sweeps: with fewer
/// differentiated `f64`s than outputs (and no slice), one forward sweep carrying a tangent per
/// `f64`; else a reverse sweep per output, and one of every output seeded, for when the rows
/// cannot share one forward sweep. Neither reverses a loop inside the forward sweep: the rows'
/// seeds come after it.
fn jacobian_sweeps(sig: &Signature, lowered: &Function) -> (Function, emit::JacobianSweeps) {
    let all = Function {
        shape: ir::Shape::Array,
        ..lowered.clone()
    };
    let wrt = Flavor::Jacobian.wrt(&all);
    let scalars: Vec<VarId> = all
        .params
        .iter()
        .map(|p| p.var)
        .filter(|v| wrt.contains(v))
        .filter(|v| all.var(*v).ty == ir::Ty::F64)
        .collect();
    if scalars.len() == wrt.len() && forward_mode(&all, scalars.len()) {
        let directions: Vec<(VarId, String)> = all
            .params
            .iter()
            .zip(&sig.params)
            .filter(|(p, _)| scalars.contains(&p.var))
            .map(|(p, spec)| (p.var, crate::names::text(&spec.ident)))
            .collect();
        let columns = diff::tangent::columns(&all, &directions);
        let adjoint = Adjoint::none(&columns.function);
        return (all, emit::JacobianSweeps::Columns(columns, adjoint));
    }
    let rows = (0..lowered.results.len())
        .map(|k| {
            let row = lowered.output(k);
            let adjoint = diff::differentiate_unfused(&row, &wrt);
            (row, adjoint)
        })
        .collect();
    let seeded = diff::differentiate_unfused(&all, &wrt);
    (all, emit::JacobianSweeps::Rows { rows, seeded })
}

/// Whether `f_jacobian` of `function` with `n` differentiated `f64`s is forward mode: `n`
/// tangents in one sweep beat one reverse sweep per output when `n` is the smaller. Not
/// through calls: a callee's tangent exists only where it asks for `jvp`.
fn forward_mode(function: &Function, n: usize) -> bool {
    let mut calls = false;
    ir::walk(&function.body, &mut |stmt| {
        calls |= matches!(
            stmt,
            Stmt::Assign {
                op: ir::Op::Call(..),
                ..
            }
        );
    });
    n < function.results.len() && !calls
}
