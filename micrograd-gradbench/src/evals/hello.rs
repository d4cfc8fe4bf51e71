//! `hello`: the square of a number, and its derivative. It tests the protocol; its input is
//! the bare number, with no `min_runs`, so each function runs once.

use super::{Evaluated, done, parse, unknown};
use crate::timing::{Runs, repeat};
use micrograd_runtime::prelude::*;
use serde_json::Value;

/// x².
#[differentiable]
pub fn square(x: f64) -> f64 {
    x * x
}

/// `square` or `double` (the derivative of `square`, from `square_grad`) at `input`.
pub fn evaluate(function: &str, input: Value) -> Result<Evaluated, String> {
    let x: f64 = parse(input)?;
    let (output, timings) = match function {
        "square" => repeat(Runs::default(), || square(x)),
        "double" => repeat(Runs::default(), || square_grad(x).1),
        _ => return unknown("hello", function),
    };
    done(output, timings)
}
