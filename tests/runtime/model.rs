//! An `Mlp` as a value: what `Debug` shows, what `==` compares, and saving it through a path, a
//! writer and serde.

#![allow(missing_docs)]

use micrograd_runtime::data::make_moons;
use micrograd_runtime::loss::Loss;
use micrograd_runtime::nn::{Activation, Mlp, Module};
use serde::{Deserialize, Serialize};

/// A network after a training step on `points` points: gradients set, buffers full.
fn trained(points: usize, activation: Activation) -> Mlp {
    let moons = make_moons(points, 0.1, 3);
    let mut model = Mlp::new(2, &[16, 16, 1], activation, 3);
    model.zero_grad();
    model.train_loss(&moons.points, &moons.labels, Loss::Hinge, 1e-4);
    let view = model.parameters_mut();
    for (p, g) in view.values.iter_mut().zip(view.grads) {
        *p -= 0.1 * g;
    }
    assert!(model.grads().iter().any(|g| *g != 0.0));
    model
}

fn bits(values: &[f64]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits()).collect()
}

fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("micrograd-rs-model-{}-{name}", std::process::id()))
}

#[test]
fn debug_shows_the_shape_in_a_short_line() {
    let demo = Mlp::new(2, &[16, 16, 1], Activation::Relu, 1337);
    assert_eq!(
        format!("{demo:?}"),
        "Mlp { shape: 2-16-16-1, activations: relu-relu-linear, parameters: 337 }"
    );
    // The buffers of a step over 10⁴ points are not shown.
    let model = trained(10_000, Activation::Tanh);
    let line = format!("{model:?}");
    assert_eq!(
        line,
        "Mlp { shape: 2-16-16-1, activations: tanh-tanh-linear, parameters: 337 }"
    );
    // However deep the network, the line stays short.
    let deep = Mlp::new(123_456, &[1; 30], Activation::Tanh, 1);
    let line = format!("{deep:?}");
    assert!(line.len() <= 160, "{} characters: {line}", line.len());
    assert_eq!(
        line,
        "Mlp { shape: 123456-1-1-1-..(23 more)..-1-1-1-1, \
         activations: tanh-tanh-tanh-tanh-..(22 more)..-tanh-tanh-tanh-linear, parameters: 123515 }"
    );
    // `{:#?}` is the same fields, one a line.
    assert_eq!(format!("{demo:#?}").lines().count(), 5);
}

#[test]
fn equality_is_the_shape_and_the_parameters_not_the_gradients() {
    let mut model = Mlp::new(2, &[8, 1], Activation::Relu, 5);
    let fresh = model.clone();
    model.backward(&[0.5, -0.5], &[1.0]);
    let moons = make_moons(600, 0.1, 1);
    model.train_loss(&moons.points, &moons.labels, Loss::Hinge, 1e-4);
    assert_eq!(model, fresh, "gradients and buffers are not the model");

    let mut p = model.parameters();
    p[3] += 1e-12;
    model.set_parameters(&p);
    assert_ne!(model, fresh, "a parameter is");
    assert_ne!(
        Mlp::new(2, &[8, 1], Activation::Tanh, 5),
        fresh,
        "an activation is"
    );
    let mut wider = Mlp::new(2, &[8, 1], Activation::Relu, 5);
    assert_eq!(wider, fresh);
    wider = Mlp::new(2, &[8, 2], Activation::Relu, 5);
    assert_ne!(wider, fresh, "a size is");
}

#[test]
fn a_model_round_trips_through_a_path() {
    for activation in [Activation::Relu, Activation::Tanh] {
        let model = trained(300, activation);
        let path = temp_path(&format!("{}.json", activation.name()));
        model.save(&path).expect("save");
        let loaded = Mlp::load(&path).expect("load");
        assert_eq!(loaded, model, "{activation:?}");
        assert_eq!(bits(&loaded.parameters()), bits(&model.parameters()));
        std::fs::remove_file(&path).expect("remove");
    }
}

#[test]
fn a_model_round_trips_through_a_writer_and_a_reader() {
    let model = trained(300, Activation::Relu);
    let mut bytes = Vec::new();
    model.to_writer(&mut bytes).expect("to_writer");
    let loaded = Mlp::from_reader(&bytes[..]).expect("from_reader");
    assert_eq!(loaded, model);
    assert_eq!(bits(&loaded.parameters()), bits(&model.parameters()));

    // The same format as a file: what `save` writes, `from_reader` reads, and back.
    let path = temp_path("writer.json");
    model.save(&path).expect("save");
    let file = std::io::BufReader::new(std::fs::File::open(&path).expect("open"));
    assert_eq!(Mlp::from_reader(file).expect("from a file"), model);
    std::fs::write(&path, &bytes).expect("write");
    assert_eq!(Mlp::load(&path).expect("load what to_writer wrote"), model);
    std::fs::remove_file(&path).expect("remove");
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Checkpoint {
    step: usize,
    models: Vec<Mlp>,
}

#[test]
fn a_model_round_trips_through_serde_inside_a_users_struct() {
    let checkpoint = Checkpoint {
        step: 7,
        models: vec![
            trained(300, Activation::Relu),
            Mlp::new(3, &[2], Activation::Linear, 1),
        ],
    };
    let text = serde_json::to_string(&checkpoint).expect("serialize");
    let back: Checkpoint = serde_json::from_str(&text).expect("deserialize");
    assert_eq!(back, checkpoint);
    for (a, b) in back.models.iter().zip(&checkpoint.models) {
        assert_eq!(bits(&a.parameters()), bits(&b.parameters()));
    }
    // Through serde's data model too, not only JSON text.
    let value = serde_json::to_value(&checkpoint.models[0]).expect("to_value");
    assert_eq!(value["sizes"], serde_json::json!([16, 16, 1]));
    let model: Mlp = serde_json::from_value(value).expect("from_value");
    assert_eq!(model, checkpoint.models[0]);
}

#[test]
fn what_load_refuses_serde_and_the_streams_refuse() {
    let mut model = Mlp::new(2, &[2, 1], Activation::Relu, 1);
    let mut p = model.parameters();
    p[4] = f64::NAN;
    model.set_parameters(&p);
    let error = model.to_writer(Vec::new()).unwrap_err();
    assert!(error.is_data(), "{error}");
    assert!(error.to_string().contains("parameter 4 is NaN"), "{error}");
    assert!(serde_json::to_string(&model).is_err());

    let cases = [
        (
            r#"{"format": "other", "version": 1, "inputs": 1, "sizes": [1], "activation": "linear", "parameters": [1.0, 0.0]}"#,
            "its format is `other` version 1",
        ),
        (
            r#"{"format": "micrograd-rs/mlp", "version": 1, "inputs": 1, "sizes": [1], "activation": "linear", "parameters": [1.0]}"#,
            "it lists 1 parameters",
        ),
        (
            r#"{"format": "micrograd-rs/mlp", "version": 1, "inputs": 1, "sizes": [1], "activation": "swish", "parameters": [1.0, 0.0]}"#,
            "unknown activation `swish`",
        ),
    ];
    for (json, message) in cases {
        let error = Mlp::from_reader(json.as_bytes()).unwrap_err();
        assert!(
            error.is_data() && error.to_string().contains(message),
            "{error}"
        );
        let error = serde_json::from_str::<Mlp>(json).unwrap_err();
        assert!(error.to_string().contains(message), "{error}");
    }
    assert!(Mlp::from_reader(&b"not json"[..]).unwrap_err().is_syntax());
}
