//! Reverse mode on the IR: activity, the reverse sweep, and what it needs from the forward one.
//!
//! The forward sweep is the lowered body itself. [`Rev`] statements form the reverse sweep:
//! each block is reversed statement by statement, each loop runs backwards, and every adjoint
//! `d_v` is declared at its first contribution. [`needs::Plan`] then says which forward values
//! the reverse sweep reads and how they reach it (directly, exported from a branch, recorded
//! per loop iteration, or recomputed when they are integers).
//!
//! Between the two, passes tidy the sweep without changing what it computes: one `+=` per
//! shadow entry ([`merge`]), the copy pairs of reversed loop iterations ([`fold`]), each adjoint
//! written once with copies and constant factors folded ([`linear`]), and zero-adjoint skipping
//! ([`guard`]).

mod activity;
pub mod expr;
pub(crate) mod fold;
pub(crate) mod functions;
mod fuse;
mod guard;
mod linear;
pub(crate) mod merge;
pub mod needs;
pub(crate) mod remat;
mod resets;
pub(crate) mod reverse;
pub mod rules;
pub mod tangent;
mod visit;

pub use activity::{Activity, sources};
pub use expr::{Expr, Test};
pub use fuse::Fusion;
pub use visit::{each_block_mut, walk, walk_mut};

use crate::ir::{
    Arg, BranchId, Extern, Function, IntExpr, LoopId, Origin, Table, Ty, VarId, VarInfo,
};
use std::collections::{HashMap, HashSet};

/// How the generated function receives a slice's shadow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shadow {
    /// A shadow of the same length, always written.
    Always,
    /// A shadow that may be empty (`&mut []`) when the caller does not need it.
    MaybeEmpty,
}

/// A statement of the reverse sweep.
#[derive(Clone, Debug)]
pub enum Rev {
    /// `let d_v = e;` (or `let mut` when later statements add to it).
    Let {
        /// The variable whose adjoint this is.
        var: VarId,
        /// Its first contribution.
        expr: Expr,
        /// Whether later statements add to it.
        mutable: bool,
    },
    /// `let mut d_v = 0.0;`
    Zero(VarId),
    /// `d_v = e;` (a loop slot's adjoint restarting each iteration)
    Set(VarId, Expr),
    /// `d_v += e;`
    Add(VarId, Expr),
    /// `d_w[i] += e;`
    AddElem(VarId, IntExpr, Expr),
    /// `d_h[i] = 0.0;` (the entry was overwritten, so its old value has no adjoint)
    ZeroElem(VarId, IntExpr),
    /// `let mut d_h = [0.0; N];`
    ZeroArray(VarId),
    /// `if c { then } else { otherwise }` on the decision the forward sweep took.
    If {
        /// The forward `if`.
        branch: BranchId,
        /// The boolean the forward sweep stored the decision in.
        cond: VarId,
        /// Reverse of the `then` branch.
        then: Vec<Rev>,
        /// Reverse of the `else` branch.
        otherwise: Vec<Rev>,
    },
    /// The loop run backwards, its iterations last first.
    Loop {
        /// The forward loop: its header, and the key of its records.
        the_loop: LoopId,
        /// The reversed body.
        body: Vec<Rev>,
    },
    /// `if d_a != 0.0 || .. { body }`: code that adds only zeros when these adjoints are zero.
    Guard {
        /// The adjoints the body reads from before it.
        incoming: Vec<VarId>,
        /// The guarded statements.
        body: Vec<Rev>,
    },
    /// `if test { body }` (`if !(test) { body }` when `when` is false): the rest of a loop body
    /// whose one incoming adjoint is zero unless `test` is `when`, tested on forward values
    /// (`if !(h <= 0.0) { let d_z = d_h; .. }` for a ReLU that may be off).
    Gate {
        /// A test of forward values.
        test: Test,
        /// The value of `test` for which the body runs.
        when: bool,
        /// The gated statements, the adjoint's declaration first.
        body: Vec<Rev>,
    },
    /// `let (d_0, ..) = g_pullback(args, shadows, seed);`
    Pullback {
        /// The variable the forward call defines: which call this mirrors.
        call: VarId,
        /// The function called.
        callee: Extern,
        /// Its arguments as in the forward call.
        args: Vec<Arg>,
        /// The adjoint of the call's result.
        seed: Expr,
        /// One entry per scalar argument: the variable receiving its adjoint, if needed.
        outs: Vec<Option<VarId>>,
    },
}

/// The differentiated function: the reverse sweep and what it needs.
pub struct Adjoint {
    /// The reverse sweep, outermost block.
    pub rev: Vec<Rev>,
    /// The variable table, with the adjoint temporaries the reverse sweep added.
    pub vars: Vec<VarInfo>,
    /// Which scalar parameters received a contribution (the others have a zero adjoint).
    pub declared_params: HashSet<VarId>,
    /// What the forward sweep must keep for the reverse one.
    pub plan: needs::Plan,
    /// Arrays passed to a call and changed afterwards: unsupported.
    pub unstable_calls: Vec<VarId>,
    /// Values with adjoints.
    pub activity: Activity,
    /// The boolean each `if` stores its decision in, if its reverse reads it.
    pub decisions: Table<BranchId, Option<VarId>>,
    /// The loop whose iterations are reversed inside it, if one qualifies.
    pub fused: Option<Fusion>,
}

/// Differentiates `function` with respect to the parameters `wrt` (`f64`s and slices).
pub fn differentiate(function: &Function, wrt: &HashSet<VarId>) -> Adjoint {
    adjoint(function, wrt, true)
}

impl Adjoint {
    /// No reverse sweep at all: what a forward-only flavour (`f_jvp`, `f_tangent`,
    /// `f_jacobian`'s columns) is printed with, built without differentiating. It is what
    /// [`differentiate`] with respect to nothing gives (the unit test
    /// `no_sweep_is_differentiating_nothing`).
    pub fn none(function: &Function) -> Adjoint {
        let nothing = HashSet::new();
        Adjoint {
            rev: Vec::new(),
            vars: function.vars.clone(),
            declared_params: HashSet::new(),
            plan: needs::Plan {
                exports: Table::new(function.branches),
                records: Table::new(function.loops),
                recompute: HashMap::new(),
            },
            unstable_calls: Vec::new(),
            activity: Activity::of(function, &nothing),
            decisions: Table::new(function.branches),
            fused: None,
        }
    }
}

/// [`differentiate`] without reversing a loop's iterations inside it ([`fuse`]), for a
/// reverse sweep whose seed is set only after the forward sweep: `f_jacobian`'s rows, which
/// share one forward sweep and seed each output in turn.
pub fn differentiate_unfused(function: &Function, wrt: &HashSet<VarId>) -> Adjoint {
    adjoint(function, wrt, false)
}

fn adjoint(function: &Function, wrt: &HashSet<VarId>, fusing: bool) -> Adjoint {
    let activity = Activity::of(function, wrt);
    let remat = remat::analyze(function);
    let mut vars = function.vars.clone();
    let (mut rev, declared_params, decisions) =
        reverse::sweep(function, &activity, &remat.values, &mut vars);
    merge::merge_adds(&mut rev);
    fold::fold_copies(&mut rev);
    linear::fold_linear(&mut rev, &declared_params, function.scalar);
    let fused = fusing
        .then(|| fuse::fuse(function, &vars, &mut rev))
        .flatten();
    let fused_loop = fused.as_ref().map(|f| f.the_loop);
    resets::drop_dead_resets(&mut rev, &function.body);
    let rereadable = remat.values.keys().copied().collect();
    let plan = needs::plan(function, &rev, &vars, &decisions, fused_loop, &rereadable);
    guard::insert_guards(&mut rev, &plan, fused_loop);
    fold::settle_mutability(&mut rev);
    Adjoint {
        rev,
        vars,
        declared_params,
        plan,
        unstable_calls: remat.unstable_calls,
        activity,
        decisions,
        fused,
    }
}

/// A fresh variable in `vars` for something only the reverse sweep has.
fn synthetic(vars: &mut Vec<VarInfo>, ty: Ty) -> VarId {
    let id = VarId(vars.len() as u32);
    vars.push(VarInfo {
        origin: Origin::Temp,
        ty,
        span: proc_macro2::Span::mixed_site(),
    });
    id
}

/// The expression a statement evaluates, if any.
pub(crate) fn evaluated(stmt: &Rev) -> Option<&Expr> {
    match stmt {
        Rev::Let { expr, .. }
        | Rev::Set(_, expr)
        | Rev::Add(_, expr)
        | Rev::AddElem(_, _, expr) => Some(expr),
        Rev::Pullback { seed, .. } => Some(seed),
        _ => None,
    }
}

/// Calls `f` on each scalar adjoint that `code` (nested statements included) declares or
/// writes.
pub(crate) fn written_adjoints(code: &[Rev], f: &mut dyn FnMut(VarId)) {
    walk(code, &mut |s| match s {
        Rev::Let { var, .. } | Rev::Zero(var) | Rev::Set(var, _) | Rev::Add(var, _) => f(*var),
        Rev::Pullback { outs, .. } => outs.iter().flatten().for_each(|v| f(*v)),
        _ => {}
    });
}

/// Calls `f` on each scalar adjoint and `g` on each adjoint array that `code` (nested
/// statements included) reads.
pub(crate) fn read_adjoints(code: &[Rev], f: &mut dyn FnMut(VarId), g: &mut dyn FnMut(VarId)) {
    walk(code, &mut |s| {
        if let Some(expr) = evaluated(s) {
            expr.visit_adjoints(f);
            expr.visit_adjoint_arrays(g);
        }
        if let Rev::Guard { incoming, .. } = s {
            incoming.iter().for_each(|v| f(*v));
        }
    });
}
