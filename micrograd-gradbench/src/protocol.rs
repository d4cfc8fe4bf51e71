//! GradBench's protocol: one message in, one response out, both a line of JSON.
//!
//! The eval sends `start`, then `define` for its module, then `evaluate` messages, each
//! followed by an `analysis` of the output (upstream `CONTRIBUTING.md`, "Protocol"). Only
//! `define` and `evaluate` get a substantive answer; every other kind, known or not, is
//! acknowledged with its `id` alone, as the protocol requires.

use crate::evals;
use crate::timing::Timing;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The name this tool gives in its answer to `start`.
pub const TOOL: &str = "micrograd";

/// A message from the eval: the fields every kind may carry, the unused ones absent.
#[derive(Debug, Deserialize)]
pub struct Message {
    /// The message's id, echoed in the response.
    pub id: Value,
    /// `start`, `define`, `evaluate`, `analysis`, or a kind this tool does not know.
    pub kind: String,
    /// The module to define or evaluate in.
    #[serde(default)]
    pub module: Option<String>,
    /// The function of the module to evaluate.
    #[serde(default)]
    pub function: Option<String>,
    /// The function's input, whose shape each eval defines.
    #[serde(default)]
    pub input: Option<Value>,
}

/// A response to the eval: the `id` and, for `start`, `define` and `evaluate`, what they ask.
#[derive(Debug, Default, Serialize)]
pub struct Response {
    /// The id of the message answered.
    pub id: Value,
    /// The tool's name, in the answer to `start`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<&'static str>,
    /// Whether the module is known (`define`) or the function ran (`evaluate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success: Option<bool>,
    /// The function's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// One `"evaluate"` timing per run of the function.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timings: Option<Vec<Timing>>,
    /// Why `define` or `evaluate` failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Answers one line of the eval's output with one line of JSON (without the newline).
///
/// A line that is not a message is answered with `success: false` and the reason, under the
/// line's `id` where it has one, so that the eval reports the problem instead of waiting.
pub fn respond(line: &str) -> String {
    let response = match serde_json::from_str::<Message>(line) {
        Ok(message) => answer(message),
        Err(error) => Response {
            id: serde_json::from_str::<Value>(line)
                .ok()
                .and_then(|v| v.get("id").cloned())
                .unwrap_or(Value::Null),
            success: Some(false),
            error: Some(format!("not a GradBench message: {error}")),
            ..Response::default()
        },
    };
    serde_json::to_string(&response).expect("a response is always valid JSON")
}

/// The response to one message.
pub fn answer(message: Message) -> Response {
    let id = message.id;
    match message.kind.as_str() {
        "start" => Response {
            id,
            tool: Some(TOOL),
            ..Response::default()
        },
        "define" => define(id, message.module.as_deref().unwrap_or_default()),
        "evaluate" => {
            let module = message.module.as_deref().unwrap_or_default();
            let function = message.function.as_deref().unwrap_or_default();
            let input = message.input.unwrap_or(Value::Null);
            match evals::evaluate(module, function, input) {
                Ok(evaluated) => Response {
                    id,
                    success: Some(true),
                    output: Some(evaluated.output),
                    timings: Some(evaluated.timings),
                    ..Response::default()
                },
                Err(error) => failure(id, error),
            }
        }
        // `analysis`, and any kind added to the protocol later: acknowledged by id.
        _ => Response {
            id,
            ..Response::default()
        },
    }
}

fn define(id: Value, module: &str) -> Response {
    if evals::has(module) {
        Response {
            id,
            success: Some(true),
            ..Response::default()
        }
    } else {
        failure(id, format!("micrograd-rs has no module `{module}`"))
    }
}

fn failure(id: Value, error: String) -> Response {
    Response {
        id,
        success: Some(false),
        error: Some(error),
        ..Response::default()
    }
}
