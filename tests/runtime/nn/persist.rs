//! Saving and loading.

use super::*;

/// A file of its own for each test, under Cargo's scratch directory for integration tests.
fn temp_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nn");
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir.join(name)
}

fn write_file(name: &str, text: &str) -> PathBuf {
    let path = temp_path(name);
    std::fs::write(&path, text).expect("write a scratch file");
    path
}

fn bits(values: &[f64]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits()).collect()
}

/// A 2-1 linear network (3 parameters) written by hand in the documented format.
fn saved_json(
    format: &str,
    version: u32,
    sizes: &str,
    activation: &str,
    parameters: &str,
) -> String {
    format!(
        r#"{{"format": "{format}", "version": {version}, "inputs": 2, "sizes": {sizes}, "activation": "{activation}", "parameters": {parameters}}}"#
    )
}

#[test]
fn save_then_load_is_bit_exact() {
    for (i, activation) in ACTIVATIONS.into_iter().enumerate() {
        let mut model = Mlp::new(3, &[5, 4, 2], activation, 60 + i as u64);
        // Numbers whose shortest decimal is long or unusual, among random ones.
        let mut p = model.parameters();
        let awkward = [
            0.1 + 0.2,
            1.0 / 3.0,
            -0.0,
            5e-324,
            f64::MIN_POSITIVE,
            f64::MAX,
            -1e-310,
            std::f64::consts::PI,
            123_456_789.123_456_79,
            -7.0e22,
        ];
        p[..awkward.len()].copy_from_slice(&awkward);
        model.set_parameters(&p);
        let path = temp_path(&format!("round-trip-{}.json", activation.name()));
        model.save(&path).expect("save");
        let loaded = Mlp::load(&path).expect("load");
        assert_eq!(
            bits(&loaded.parameters()),
            bits(&model.parameters()),
            "{activation:?}: parameters"
        );
        assert_eq!(loaded, model, "{activation:?}");
        assert_eq!(
            (loaded.inputs(), loaded.sizes(), loaded.activation()),
            (3, vec![5, 4, 2], activation)
        );

        // load_parameters into a network of the same shape, initialised differently.
        let mut other = Mlp::new(3, &[5, 4, 2], activation, 99);
        assert_ne!(other.parameters(), model.parameters());
        other.load_parameters(&path).expect("load_parameters");
        assert_eq!(
            bits(&other.parameters()),
            bits(&model.parameters()),
            "{activation:?}: load_parameters"
        );
        assert_eq!(
            other.forward(&[0.1, 0.2, 0.3]),
            model.forward(&[0.1, 0.2, 0.3])
        );
    }
}

#[test]
fn saved_file_is_the_documented_json() {
    let mut model = Mlp::new(2, &[1], Activation::Linear, 1);
    model.set_parameters(&[0.5, -1.25, 3.0]);
    let path = temp_path("documented.json");
    model.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(
        compact,
        r#"{"format":"micrograd-rs/mlp","version":1,"inputs":2,"sizes":[1],"activation":"linear","parameters":[0.5,-1.25,3.0]}"#
    );
    // A hand-written file in that format loads.
    let path = write_file(
        "hand-written.json",
        &saved_json("micrograd-rs/mlp", 1, "[1]", "linear", "[0.5, -1.25, 3]"),
    );
    assert_eq!(Mlp::load(&path).unwrap(), model);
}

/// Asserts that `load_parameters` fails and leaves the network (parameters and gradients) as it was.
fn load_parameters_fails(model: &mut Mlp, path: &std::path::Path) -> PersistError {
    model.backward(
        &vec![0.5; model.inputs()],
        &vec![1.0; model.sizes()[model.sizes().len() - 1]],
    );
    let before = model.clone();
    let error = model
        .load_parameters(path)
        .expect_err("load_parameters should fail");
    assert_eq!(
        *model, before,
        "a failed load_parameters changed the network ({error})"
    );
    error
}

#[test]
fn loading_a_file_that_is_not_json_is_a_format_error() {
    let path = write_file("not-json.json", "this is not { json");
    let shown = path.display().to_string();
    match Mlp::load(&path) {
        Err(PersistError::Format { path: p, reason }) => {
            assert_eq!(p, path);
            assert!(!reason.is_empty());
        }
        other => panic!("expected a format error, got {other:?}"),
    }
    let error = Mlp::load(&path).unwrap_err().to_string();
    assert!(
        error.contains(&shown) && error.contains("is not a saved micrograd-rs network"),
        "{error}"
    );
    let mut model = Mlp::new(2, &[3, 1], Activation::Tanh, 2);
    assert!(matches!(
        load_parameters_fails(&mut model, &path),
        PersistError::Format { .. }
    ));
}

#[test]
fn loading_json_that_is_not_a_network_is_a_format_error() {
    let valid_params = "[0.5, -1.25, 3.0]";
    let cases = [
        (
            "other-format.json",
            saved_json("keras/model", 1, "[1]", "linear", valid_params),
            "keras/model",
        ),
        (
            "other-version.json",
            saved_json("micrograd-rs/mlp", 2, "[1]", "linear", valid_params),
            "version 2",
        ),
        ("array.json", "[1.0, 2.0, 3.0]".to_string(), ""),
        (
            "missing-field.json",
            r#"{"format": "micrograd-rs/mlp", "version": 1, "inputs": 2}"#.to_string(),
            "sizes",
        ),
        (
            "unknown-activation.json",
            saved_json("micrograd-rs/mlp", 1, "[1]", "swish", valid_params),
            "swish",
        ),
        (
            "empty-layer.json",
            saved_json("micrograd-rs/mlp", 1, "[0, 1]", "relu", "[]"),
            "non-empty layers",
        ),
        (
            "no-layers.json",
            saved_json("micrograd-rs/mlp", 1, "[]", "relu", "[]"),
            "non-empty layers",
        ),
        (
            "too-few-parameters.json",
            saved_json("micrograd-rs/mlp", 1, "[1]", "linear", "[0.5, -1.25]"),
            "2 parameters",
        ),
        (
            "too-many-parameters.json",
            saved_json("micrograd-rs/mlp", 1, "[1]", "linear", "[1, 2, 3, 4]"),
            "4 parameters",
        ),
        (
            "null-parameter.json",
            saved_json("micrograd-rs/mlp", 1, "[1]", "linear", "[1, null, 3]"),
            "",
        ),
    ];
    for (name, text, mentions) in cases {
        let path = write_file(name, &text);
        match Mlp::load(&path) {
            Err(error @ PersistError::Format { .. }) => {
                assert!(
                    error.to_string().contains(mentions),
                    "{name}: `{error}` does not mention `{mentions}`"
                );
            }
            other => panic!("{name}: expected a format error, got {other:?}"),
        }
        let mut model = Mlp::new(2, &[1], Activation::Relu, 3);
        assert!(
            matches!(
                load_parameters_fails(&mut model, &path),
                PersistError::Format { .. } | PersistError::Shape { .. }
            ),
            "{name}"
        );
    }
}

#[test]
fn loading_parameters_of_another_shape_names_both_shapes() {
    let path = temp_path("shape-2-4-1-tanh.json");
    Mlp::new(2, &[4, 1], Activation::Tanh, 4)
        .save(&path)
        .unwrap();
    for (inputs, sizes, activation, expected) in [
        (2, &[3, 1][..], Activation::Tanh, "2-3-1 (tanh)"),
        (2, &[4, 1][..], Activation::Relu, "2-4-1 (relu)"),
        (3, &[4, 1][..], Activation::Tanh, "3-4-1 (tanh)"),
        (2, &[4, 1, 1][..], Activation::Tanh, "2-4-1-1 (tanh)"),
    ] {
        let mut model = Mlp::new(inputs, sizes, activation, 5);
        let error = load_parameters_fails(&mut model, &path);
        let message = error.to_string();
        match error {
            PersistError::Shape {
                expected: e,
                found,
                path: p,
            } => {
                assert_eq!((e.as_str(), found.as_str()), (expected, "2-4-1 (tanh)"));
                assert_eq!(p, path);
            }
            other => panic!("{expected}: expected a shape error, got {other:?}"),
        }
        assert!(
            message.contains(expected) && message.contains("2-4-1 (tanh)"),
            "{message}"
        );
    }
}

#[test]
fn loading_a_missing_file_is_an_io_error() {
    let path = temp_path("does-not-exist.json");
    let _ = std::fs::remove_file(&path);
    match Mlp::load(&path) {
        Err(error @ PersistError::Io { .. }) => {
            let PersistError::Io { source, path: p } = &error else {
                unreachable!()
            };
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
            assert_eq!(*p, path);
            let shown = path.display().to_string();
            assert!(error.to_string().contains(&shown), "{error}");
            assert!(std::error::Error::source(&error).is_some());
        }
        other => panic!("expected an io error, got {other:?}"),
    }
    let mut model = Mlp::new(2, &[3, 1], Activation::Relu, 6);
    assert!(matches!(
        load_parameters_fails(&mut model, &path),
        PersistError::Io { .. }
    ));
}

#[test]
fn saving_into_a_missing_directory_is_an_io_error() {
    let path = temp_path("no-such-directory").join("model.json");
    let model = Mlp::new(2, &[3, 1], Activation::Relu, 6);
    assert!(matches!(model.save(&path), Err(PersistError::Io { .. })));
}

#[test]
fn loading_a_file_of_absurd_size_is_an_error_not_a_panic() {
    // A network of 2^62 inputs cannot be built; the file lists 3 parameters, so it cannot hold
    // one either. The loader should say so (a format error) rather than try to allocate it.
    let text = r#"{"format": "micrograd-rs/mlp", "version": 1, "inputs": 4611686018427387904, "sizes": [1], "activation": "linear", "parameters": [1, 2, 3]}"#;
    let path = write_file("absurd-size.json", text);
    let result = std::panic::catch_unwind(|| Mlp::load(&path).map(|m| m.parameter_count()));
    match result {
        Ok(Err(PersistError::Format { .. })) => {}
        Ok(other) => panic!("expected a format error, got {other:?}"),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
            panic!("Mlp::load panicked instead of returning an error: {message:?}");
        }
    }
}

#[test]
fn saving_a_network_that_cannot_be_loaded_back_is_an_error() {
    // JSON has no NaN or infinity: a diverged network must not be written as a file that
    // `load` then rejects.
    for bad in [f64::NAN, f64::INFINITY] {
        let mut model = Mlp::new(2, &[1], Activation::Linear, 7);
        model.set_parameters(&[1.0, bad, 3.0]);
        let path = temp_path(&format!("non-finite-{bad}.json"));
        let _ = std::fs::remove_file(&path);
        if model.save(&path).is_ok() {
            let loaded = Mlp::load(&path);
            let round_trip = loaded
                .as_ref()
                .map(|m| bits(&m.parameters()) == bits(&model.parameters()));
            assert!(
                matches!(round_trip, Ok(true)),
                "save of a {bad} parameter succeeded, but load gives {loaded:?}"
            );
        }
    }
}

/// `save` refuses what `load` would refuse (issue 15, class 6): each network here can be made
/// with `Mlp::from_layers`, and a file written from it would not load back as it.
#[test]
fn save_refuses_what_load_refuses() {
    let model = Mlp::new(2, &[3, 1], Activation::Tanh, 8);
    let layer = |inputs, outputs, activation| {
        Layer::new(inputs, outputs, activation, &mut PythonRandom::new(8))
    };
    let mixed = Mlp::from_layers(vec![
        layer(2, 3, Activation::Tanh),
        layer(3, 3, Activation::Relu),
        layer(3, 1, Activation::Linear),
    ]);
    let nonlinear_output = Mlp::from_layers(vec![
        layer(2, 3, Activation::Tanh),
        layer(3, 1, Activation::Tanh),
    ]);
    for (name, bad) in [("mixed", mixed), ("nonlinear_output", nonlinear_output)] {
        let path = temp_path(&format!("unsupported-{name}.json"));
        let _ = std::fs::remove_file(&path);
        match bad.save(&path) {
            Err(PersistError::Unsupported { path: p, reason }) => {
                assert_eq!(p, path, "{name}");
                assert!(!reason.is_empty(), "{name}");
            }
            other => panic!("{name}: expected Unsupported, got {other:?}"),
        }
        assert!(
            !path.exists(),
            "{name}: a refused save wrote {}",
            path.display()
        );
    }
    // What save accepts, load gives back.
    let path = temp_path("supported.json");
    model.save(&path).expect("save");
    assert_eq!(Mlp::load(&path).expect("load"), model);
}

/// The other networks `load` refuses cannot be made at all, so `save` never meets them: no
/// layers, an empty layer, ragged fan-ins, mixed activations within a layer.
#[test]
fn networks_load_refuses_cannot_be_made() {
    let neuron =
        |inputs: usize, activation| Neuron::new(inputs, activation, &mut PythonRandom::new(8));
    let refused = |name: &str, make: &dyn Fn()| {
        let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(make));
        assert!(made.is_err(), "{name} was made");
    };
    refused("no layers", &|| drop(Mlp::from_layers(Vec::new())));
    refused("an empty layer", &|| drop(Layer::from_neurons(Vec::new())));
    refused("ragged fan-ins", &|| {
        drop(Layer::from_neurons(vec![
            neuron(2, Activation::Tanh),
            neuron(3, Activation::Tanh),
        ]))
    });
    refused("mixed activations in a layer", &|| {
        drop(Layer::from_neurons(vec![
            neuron(2, Activation::Tanh),
            neuron(2, Activation::Relu),
        ]))
    });
}

#[test]
fn paths_are_taken_as_anything_path_like() {
    let model = Mlp::new(2, &[2, 1], Activation::Relu, 9);
    let path: PathBuf = temp_path("as-ref-path.json");
    model
        .save(path.to_str().expect("a UTF-8 temp path"))
        .expect("save from &str");
    let loaded = Mlp::load(path.clone()).expect("load from PathBuf");
    assert_eq!(loaded, model);
}
