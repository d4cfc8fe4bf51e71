//! The demo picture: a well-formed SVG with the points drawn, and errors that name the file.

use std::path::PathBuf;

use micrograd_runtime::data::make_moons;
use micrograd_runtime::plot::{PlotError, decision_boundary};

/// A directory of this test's own under Cargo's scratch space for integration tests.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("plot")
        .join(name);
    std::fs::create_dir_all(&dir).expect("the scratch directory can be created");
    dir
}

/// A curved boundary between the moons, close to what a trained MLP finds.
fn moons_score(x: f64, y: f64) -> f64 {
    0.5 - y - 0.6 * (x - 0.5) * (x - 0.5) + 0.3
}

#[test]
fn writes_one_well_formed_svg_with_a_circle_per_point() {
    let data = make_moons(100, 0.1, 1337);
    let losses: Vec<f64> = (0..100).map(|k| 1.0 / (1.0 + 0.1 * f64::from(k))).collect();
    let path = scratch_dir("well_formed").join("moons.svg");

    decision_boundary(&path, moons_score, &data, &losses).expect("the plot is written");

    let svg = std::fs::read_to_string(&path).expect("the plot can be read back");
    assert!(
        svg.starts_with("<svg"),
        "starts with {:?}",
        &svg[..svg.len().min(40)]
    );
    assert!(svg.trim_end().ends_with("</svg>"));
    let filled_circles = svg
        .lines()
        .filter(|line| line.starts_with("<circle") && !line.contains("fill=\"none\""))
        .count();
    assert_eq!(filled_circles, data.len());
    assert!(svg.contains("<polyline"), "the loss curve is drawn");
    assert!(svg.contains("decision regions") && svg.contains("training loss"));
}

#[test]
fn both_classes_get_a_region_and_a_point_colour() {
    let data = make_moons(50, 0.1, 7);
    let path = scratch_dir("colours").join("moons.svg");
    decision_boundary(&path, moons_score, &data, &[1.0, 0.5]).expect("the plot is written");
    let svg = std::fs::read_to_string(&path).expect("the plot can be read back");
    // The two region fills and the two point colours.
    for colour in ["#F0BEC4", "#C4C0E2", "#9E0142", "#5E4FA2"] {
        assert!(svg.contains(colour), "{colour} is missing");
    }
}

#[test]
fn degenerate_inputs_still_draw() {
    let single = make_moons(1, 0.0, 0);
    let path = scratch_dir("degenerate").join("single.svg");
    let nan_losses = [f64::NAN, f64::INFINITY];
    decision_boundary(&path, |_, _| f64::NAN, &single, &nan_losses).expect("written");
    decision_boundary(&path, |x, _| x, &single, &[]).expect("written with no losses");
    let svg = std::fs::read_to_string(&path).expect("the plot can be read back");
    // One disc and its outline.
    assert_eq!(svg.matches("<circle").count(), 2);
}

#[test]
fn a_missing_directory_is_an_error_naming_the_path() {
    let path = scratch_dir("missing")
        .join("no-such-directory")
        .join("moons.svg");
    let error = decision_boundary(&path, moons_score, &make_moons(10, 0.1, 0), &[1.0])
        .expect_err("the directory does not exist");

    assert!(matches!(error, PlotError::Write { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert!(std::error::Error::source(&error).is_some());
}
