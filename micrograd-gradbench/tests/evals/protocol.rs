//! The protocol, replayed from a recorded GradBench session.
//!
//! `tests/data/lse-manual.jsonl` is the log GradBench's intermediary wrote while the `lse` eval
//! ran against `manual`, the hand-written C++ tool every eval validates against
//! (`../shared/gradbench/run.sh lse manual -- -n 3 5 --min-runs 2 --min-seconds 0`, at GradBench
//! f26651a7). Each message the eval sent is fed to this tool, and its answer is
//! checked against manual's: the same ids and success, the same outputs (to rounding), one
//! `"evaluate"` timing per run asked for, and a bare `{"id": ..}` for `start`'s peers.

use micrograd_gradbench::protocol::respond;
use serde_json::Value;

const SESSION: &str = include_str!("../data/lse-manual.jsonl");

/// The recorded (message, response) pairs, in order.
fn rounds() -> Vec<(Value, Value)> {
    let lines: Vec<Value> = SESSION
        .lines()
        .map(|l| serde_json::from_str(l).expect("the recorded log is JSON"))
        .collect();
    let messages = lines.iter().filter_map(|l| l.get("message").cloned());
    let responses = lines.iter().filter_map(|l| l.get("response").cloned());
    messages.zip(responses).collect()
}

fn assert_json_close(path: &str, got: &Value, want: &Value) {
    match (got, want) {
        (Value::Number(g), Value::Number(w)) => {
            let (g, w) = (g.as_f64().unwrap(), w.as_f64().unwrap());
            assert!(
                (g - w).abs() <= 1e-12 * w.abs().max(1.0),
                "{path}: {g} vs {w}"
            );
        }
        (Value::Array(g), Value::Array(w)) => {
            assert_eq!(g.len(), w.len(), "{path}: lengths");
            for (i, (g, w)) in g.iter().zip(w).enumerate() {
                assert_json_close(&format!("{path}[{i}]"), g, w);
            }
        }
        _ => assert_eq!(got, want, "{path}"),
    }
}

#[test]
fn a_recorded_lse_session_is_answered_as_manual_answered_it() {
    let rounds = rounds();
    let kinds: Vec<&str> = rounds
        .iter()
        .map(|(m, _)| m["kind"].as_str().unwrap())
        .collect();
    assert_eq!(&kinds[..3], ["start", "define", "evaluate"]);
    assert!(kinds.contains(&"analysis"));
    for (message, recorded) in &rounds {
        let answer: Value = serde_json::from_str(&respond(&message.to_string())).unwrap();
        assert_eq!(answer["id"], message["id"]);
        match message["kind"].as_str().unwrap() {
            "start" => assert_eq!(
                answer,
                serde_json::json!({"id": message["id"], "tool": "micrograd"})
            ),
            "define" => assert_eq!(answer, *recorded),
            "evaluate" => {
                assert_eq!(answer["success"], true);
                assert_json_close("output", &answer["output"], &recorded["output"]);
                let timings = answer["timings"].as_array().unwrap();
                let min_runs = message["input"]["min_runs"].as_u64().unwrap();
                assert!(timings.len() as u64 >= min_runs);
                assert!(
                    timings
                        .iter()
                        .all(|t| t["name"] == "evaluate" && t["nanoseconds"].is_u64())
                );
            }
            _ => assert_eq!(answer, serde_json::json!({"id": message["id"]})),
        }
    }
}

#[test]
fn unknown_modules_functions_and_kinds_are_answered() {
    let define = respond(r#"{"id": 7, "kind": "define", "module": "tensor"}"#);
    assert_eq!(
        define,
        r#"{"id":7,"success":false,"error":"micrograd-rs has no module `tensor`"}"#
    );
    // The twelve evals are all defined, particle and saddle included.
    for module in ["particle", "saddle"] {
        let define = respond(&format!(
            r#"{{"id": 9, "kind": "define", "module": "{module}"}}"#
        ));
        assert_eq!(define, r#"{"id":9,"success":true}"#, "{module}");
    }
    let evaluate = respond(
        r#"{"id": 8, "kind": "evaluate", "module": "lse", "function": "hessian", "input": {"x": [1.0]}}"#,
    );
    assert_eq!(
        evaluate,
        r#"{"id":8,"success":false,"error":"the `lse` module has no function `hessian`"}"#
    );
    assert_eq!(respond(r#"{"id": 9, "kind": "end"}"#), r#"{"id":9}"#);
    let garbled: Value = serde_json::from_str(&respond(r#"{"id": 10}"#)).unwrap();
    assert_eq!(
        (garbled["id"].as_u64(), garbled["success"].as_bool()),
        (Some(10), Some(false))
    );
}

#[test]
fn hello_needs_no_runs() {
    let square = respond(
        r#"{"id": 2, "kind": "evaluate", "module": "hello", "function": "square", "input": 3.0}"#,
    );
    let square: Value = serde_json::from_str(&square).unwrap();
    assert_eq!(square["output"], 9.0);
    assert_eq!(square["timings"].as_array().unwrap().len(), 1);
}

#[test]
fn every_eval_is_defined() {
    for (id, module) in [
        "hello", "lse", "llsq", "det", "ode", "gmm", "kmeans", "lstm", "ba", "ht",
    ]
    .into_iter()
    .enumerate()
    {
        let message = serde_json::json!({"id": id, "kind": "define", "module": module});
        let answer: Value = serde_json::from_str(&respond(&message.to_string())).unwrap();
        assert_eq!(
            answer,
            serde_json::json!({"id": id, "success": true}),
            "{module}"
        );
    }
}
