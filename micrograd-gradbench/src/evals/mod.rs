//! The evals, one module each, and the dispatch from a module's name to its functions.

use crate::timing::Timing;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

pub mod ba;
pub mod descent;
pub mod det;
pub mod gmm;
pub mod hello;
pub mod ht;
pub mod kmeans;
pub mod llsq;
pub mod lse;
pub mod lstm;
pub mod ode;
pub mod particle;
pub mod saddle;

/// One eval's entry point: a function's name and its input to the output and timings.
pub type Evaluate = fn(&str, Value) -> Result<Evaluated, String>;

/// Every module this tool has, by the name GradBench defines it under: the one list that both
/// `define` and `evaluate` read.
pub const MODULES: &[(&str, Evaluate)] = &[
    ("hello", hello::evaluate),
    ("lse", lse::evaluate),
    ("llsq", llsq::evaluate),
    ("det", det::evaluate),
    ("ode", ode::evaluate),
    ("gmm", gmm::evaluate),
    ("kmeans", kmeans::evaluate),
    ("lstm", lstm::evaluate),
    ("ba", ba::evaluate),
    ("ht", ht::evaluate),
    ("particle", particle::evaluate),
    ("saddle", saddle::evaluate),
];

/// Whether this tool has `module`.
pub fn has(module: &str) -> bool {
    MODULES.iter().any(|(name, _)| *name == module)
}

/// What an evaluation gives back: the function's output and one timing per run.
#[derive(Debug)]
pub struct Evaluated {
    /// The output, in the layout the eval's specification gives.
    pub output: Value,
    /// One `"evaluate"` timing per run.
    pub timings: Vec<Timing>,
}

/// Evaluates `function` of `module` at `input`, or says why it cannot.
pub fn evaluate(module: &str, function: &str, input: Value) -> Result<Evaluated, String> {
    match MODULES.iter().find(|(name, _)| *name == module) {
        Some((_, evaluate)) => evaluate(function, input),
        None => Err(format!("micrograd-rs has no module `{module}`")),
    }
}

/// Reads an eval's input into its Rust type.
fn parse<T: DeserializeOwned>(input: Value) -> Result<T, String> {
    serde_json::from_value(input).map_err(|e| format!("unexpected input: {e}"))
}

/// Pairs an output with its timings.
fn done<T: Serialize>(output: T, timings: Vec<Timing>) -> Result<Evaluated, String> {
    let output = serde_json::to_value(output).map_err(|e| e.to_string())?;
    Ok(Evaluated { output, timings })
}

/// The error for a function the module does not have.
fn unknown(module: &str, function: &str) -> Result<Evaluated, String> {
    Err(format!(
        "the `{module}` module has no function `{function}`"
    ))
}
