//! Random `#[differentiable]` functions in the whole language of SPEC.md, for
//! tests/random_programs.rs.
//!
//! A [`Program`] is one to three functions, each calling the earlier ones; the last is the entry
//! the checker calls. Every program is printed three ways ([`Mode`]):
//! - `Plain`: the macro's input, `f64` code under `#[differentiable]`;
//! - `Trace`: the same code over the dual number `T` of tests/random/harness.rs, which gives the
//!   forward-mode derivative (an oracle independent of the macro) and records every branch
//!   decision and kink, so that the checker can keep its points away from them;
//! - `Value`: the same code over micrograd's run-time engine `micrograd_runtime::Value`, for the
//!   programs that use only the operations it has (a second oracle).
//!
//! Generation keeps every program valid by construction: indices in bounds, logarithms and roots
//! of positive expressions, `return` only outside loops, arrays never changed after they are
//! passed to a call, integers never below zero. Whatever the generator cannot rule out (overflow,
//! a pole of `tan` or of a division) the checker rejects at run time from the trace.
//!
//! Layout, one subject a file: rng.rs (the PRNG), ast.rs (the program as data), state.rs (what is
//! in scope), ints.rs, exprs.rs, methods.rs, branches.rs, calls.rs, stmts.rs, loops.rs (drawing
//! each kind of construct), program.rs (whole programs), print.rs and print_stmt.rs (the three
//! printings), source.rs (the files the test writes), outputs.rs (the adapters of an entry
//! returning several values). A new construct is a new file registered in `constructs!` below;
//! ext.rs says how. Functions returning several values and their calls are vec_calls.rs; arrays
//! lent to calls as `&mut`, lend.rs (and lend_source.rs, the checker's side); matrix
//! parameters of the entry (`&[[f64; C]]`, in `wrt(..)` or data), matrix_params.rs. Issue 25's
//! code as written: tail_draws.rs (outside names, integer `if`s, `assert!`s, closures bound by
//! `let`), generic_fns.rs (a first function generic over `T: Float`, called at `f64` and, by
//! the twin, `f32`), and programs of methods ([`Program::methods`]: `&self` methods of
//! `#[derive(Differentiable)] struct Prog` calling each other, printed by
//! `Printer::funcs`). Session 13's data forms: filled.rs (`[b; N]` of a float variable, arrays
//! of float tuples), steps.rs (`h = fstep(&h, a);`, a helper returning `[f64; M]`), pairs.rs
//! (data `&[(f64, f64)]`, indexed by a label). Session 15: const_loops.rs (`for w in W1` over
//! the `const` array), matrices.rs's rows assigned whole, generic_fns.rs's `T::epsilon()`.

#[macro_use]
mod ext;

mod ast;
mod branches;
mod calls;
mod exprs;
mod generic_fns;
mod hygiene;
mod ints;
mod lend_source;
mod loops;
mod methods;
mod outputs;
mod print;
mod print_stmt;
mod program;
mod rng;
mod single;
mod source;
mod state;
mod stmts;

pub use ast::*;
pub use exprs::*;
pub use ext::*;
pub use outputs::*;
pub use print::*;
pub use program::*;
pub use rng::*;
pub use single::*;
pub use source::*;
pub use state::*;

// Constructs added since the split: `file => [expression constructs], [statement constructs];`.
constructs! {
    idioms => [Match, Destructure], [];
    loop_exits => [], [WhileLoop, LoopValue];
    iter_chains => [IterChain], [];
    counters => [], [CounterWhile, ItemLoop];
    exit_values => [], [ExitValue];
    std_idioms => [StdMethod, ClassTest, PathStep], [];
    lend => [], [LentCall];
    vec_calls => [], [VecCall];
    drafts => [Collected, VecLiteral], [];
    matrices => [], [MatrixLocal];
    matrix_params => [], [];
    swaps => [Swap], [];
    tail_draws => [BoundClosure, OutsideConst], [IntIf, Assert, LetOutside];
    filled => [Filled], [];
    steps => [], [];
    pairs => [], [];
    const_loops => [], [ConstLoop];
}
