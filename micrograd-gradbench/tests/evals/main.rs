//! The tool's tests, one binary of modules (a binary each links the runtime and num-dual
//! again): the derivatives of every eval against central differences and num-dual twins, and
//! the protocol replayed from a recorded GradBench session. A new test goes in the module of its
//! eval's kind, or a new module listed here.

// Central differences, dual-number gradients, a tolerant comparison, deterministic inputs.
#[path = "../common/mod.rs"]
mod common;

mod hand_tracking;
mod model_evals;
mod nested_evals;
mod protocol;
mod scalar_evals;
