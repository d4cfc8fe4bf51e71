//! `lstm`: ADBench's LSTM (diagonal weight matrices) run over a character sequence, its loss
//! the cross-entropy of each next character's prediction, and the loss's gradient.

use super::{Evaluated, done, parse, unknown};
use crate::timing::{Runs, repeat};
use micrograd_runtime::prelude::*;
use serde::Deserialize;
use serde_json::Value;

/// The eval's input, each matrix a list of rows, and how many runs to time.
#[derive(Debug, Deserialize)]
pub struct Input {
    /// Two rows per layer: the four gates' weights, then their biases, each row 4b long.
    pub main_params: Vec<Vec<f64>>,
    /// The input weights, the output weights and the output biases, b each.
    pub extra_params: Vec<Vec<f64>>,
    /// Two rows per layer: the hidden state, then the cell state.
    pub state: Vec<Vec<f64>>,
    /// The characters, one row of b each.
    pub sequence: Vec<Vec<f64>>,
    /// How many runs to time.
    #[serde(flatten)]
    pub runs: Runs,
}

/// The loss of an LSTM of `layers` layers over `sequence` (data, one row of b =
/// `extra_params.len() / 3` entries per character). The parameters and the state are their
/// rows laid end to end (a differentiated `&[Vec<f64>]` is not taken yet); layer k's
/// parameters are the gates' weights (forget, input, output, change) then their biases, and
/// its state the hidden values then the cell's.
#[differentiable(wrt(main_params, extra_params))]
pub fn lstm_objective(
    main_params: &[f64],
    extra_params: &[f64],
    state: &[f64],
    sequence: &[Vec<f64>],
    layers: usize,
) -> f64 {
    let b = extra_params.len() / 3;
    let characters = sequence.len();
    let mut state = state.to_vec();
    let mut prediction = vec![0.0; b];
    let mut total = 0.0;
    for t in 0..characters - 1 {
        for i in 0..b {
            prediction[i] = sequence[t][i] * extra_params[i];
        }
        for layer in 0..layers {
            let p = 8 * b * layer;
            let s = 2 * b * layer;
            for i in 0..b {
                // the layer's input: the scaled character, or the previous layer's hidden value
                let x = if layer == 0 {
                    prediction[i]
                } else {
                    state[s - 2 * b + i]
                };
                let hidden = state[s + i];
                let forget = (x * main_params[p + i] + main_params[p + 4 * b + i]).sigmoid();
                let ingate =
                    (hidden * main_params[p + b + i] + main_params[p + 5 * b + i]).sigmoid();
                let outgate =
                    (x * main_params[p + 2 * b + i] + main_params[p + 6 * b + i]).sigmoid();
                let change =
                    (hidden * main_params[p + 3 * b + i] + main_params[p + 7 * b + i]).tanh();
                let cell = state[s + b + i] * forget + ingate * change;
                state[s + b + i] = cell;
                state[s + i] = outgate * cell.tanh();
            }
        }
        let last = 2 * b * (layers - 1);
        for i in 0..b {
            prediction[i] = state[last + i] * extra_params[b + i] + extra_params[2 * b + i];
        }
        // log(Σ exp(prediction) + 2), ADBench's normalization
        let normalizer = (prediction.iter().map(|y| y.exp()).sum::<f64>() + 2.0).ln();
        for i in 0..b {
            total += sequence[t + 1][i] * (prediction[i] - normalizer);
        }
    }
    -total / ((characters - 1) * b) as f64
}

/// `objective` (the loss) or `jacobian` (its gradient from `lstm_objective_grad`, the main
/// parameters' rows then the extra parameters', laid end to end) at `input`.
pub fn evaluate(function: &str, input: Value) -> Result<Evaluated, String> {
    let input: Input = parse(input)?;
    let layers = input.main_params.len() / 2;
    let b = input.extra_params.first().map_or(0, Vec::len);
    let main_params = input.main_params.concat();
    let extra_params = input.extra_params.concat();
    let state = input.state.concat();
    let sequence = input.sequence;
    if layers == 0
        || b == 0
        || main_params.len() != 8 * b * layers
        || extra_params.len() != 3 * b
        || state.len() != 2 * b * layers
        || sequence.iter().any(|row| row.len() != b)
        || sequence.len() < 2
    {
        return Err("the LSTM's parameters, state and sequence do not fit together".into());
    }
    match function {
        "objective" => {
            let (loss, timings) = repeat(input.runs, || {
                lstm_objective(&main_params, &extra_params, &state, &sequence, layers)
            });
            done(loss, timings)
        }
        "jacobian" => {
            let mut d_main = vec![0.0; main_params.len()];
            let mut d_extra = vec![0.0; extra_params.len()];
            let (_, timings) = repeat(input.runs, || {
                d_main.fill(0.0);
                d_extra.fill(0.0);
                lstm_objective_grad(
                    &main_params,
                    &mut d_main,
                    &extra_params,
                    &mut d_extra,
                    &state,
                    &sequence,
                    layers,
                )
            });
            d_main.extend_from_slice(&d_extra);
            done(d_main, timings)
        }
        _ => unknown("lstm", function),
    }
}
