//! The demo picture: well-formed SVG, equal scale on both axes, the boundary on the score's
//! zero level, the curves over every step, and errors that name the file.

use std::path::PathBuf;

use micrograd_runtime::data::{Dataset, make_moons};
use micrograd_runtime::plot::{Curves, PlotError, decision_boundary, decision_boundary_svg};
use roxmltree::{Document, Node};

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

fn number(node: Node<'_, '_>, attribute: &str) -> f64 {
    let text = node
        .attribute(attribute)
        .unwrap_or_else(|| panic!("no {attribute}"));
    text.parse()
        .unwrap_or_else(|_| panic!("{attribute}={text:?}"))
}

fn elements<'a>(document: &'a Document<'_>, name: &str) -> Vec<Node<'a, 'a>> {
    let named = |n: &Node<'_, '_>| n.has_tag_name(name);
    document.descendants().filter(named).collect()
}

fn polyline_points(node: Node<'_, '_>) -> Vec<(f64, f64)> {
    let points = node.attribute("points").expect("points");
    let pair = |p: &str| {
        let (x, y) = p.split_once(',').expect("x,y");
        (x.parse().unwrap(), y.parse().unwrap())
    };
    points.split(' ').map(pair).collect()
}

/// Three points at (0, 0), (2, 0) and (0, 1), labelled -1, +1, +1: their circles give the
/// mapping from data to pixels, `(origin x, origin y, pixels per unit along x, along y)`.
fn frame_of(document: &Document<'_>) -> (f64, f64, f64, f64) {
    let circles = elements(document, "circle");
    let centre = |k: usize| (number(circles[k], "cx"), number(circles[k], "cy"));
    let (origin, right, up) = (centre(0), centre(1), centre(2));
    (
        origin.0,
        origin.1,
        (right.0 - origin.0) / 2.0,
        origin.1 - up.1,
    )
}

fn triangle() -> Dataset {
    Dataset {
        points: vec![[0.0, 0.0], [2.0, 0.0], [0.0, 1.0]],
        labels: vec![-1.0, 1.0, 1.0],
    }
}

#[test]
fn one_unit_of_x_and_one_of_y_take_the_same_pixels() {
    let svg = decision_boundary_svg(|x, y| x - y, &triangle(), Curves::default());
    let document = Document::parse(&svg).expect("well-formed SVG");
    let (_, _, per_x, per_y) = frame_of(&document);
    assert!(per_x > 50.0, "{per_x}");
    // Centres are written to 0.1 px.
    assert!(
        (per_x - per_y).abs() < 0.2,
        "{per_x} px per x unit, {per_y} per y unit"
    );
}

#[test]
fn the_boundary_lies_on_the_zero_level() {
    // A circle of radius 0.6 around (1, 0.5): the boundary is one closed line on it.
    let score = |x: f64, y: f64| 0.36 - (x - 1.0).powi(2) - (y - 0.5).powi(2);
    let svg = decision_boundary_svg(score, &triangle(), Curves::default());
    let document = Document::parse(&svg).expect("well-formed SVG");
    let (x0, y0, per_x, per_y) = frame_of(&document);
    let lines = elements(&document, "polyline");
    assert_eq!(lines.len(), 1, "the boundary, and no curves without losses");
    let points = polyline_points(lines[0]);
    assert!(points.len() > 50 && points.first() == points.last());
    for (px, py) in points {
        let (x, y) = ((px - x0) / per_x, (y0 - py) / per_y);
        let radius = (x - 1.0).hypot(y - 0.5);
        assert!((radius - 0.6).abs() < 0.01, "({x}, {y}) at radius {radius}");
    }
}

#[test]
fn the_demo_picture_has_its_parts() {
    let data = make_moons(100, 0.1, 1337);
    let losses: Vec<f64> = (0..100).map(|k| 1.0 / (1.0 + 0.1 * f64::from(k))).collect();
    let accuracies: Vec<f64> = (0..100).map(|k| 0.5 + 0.005 * f64::from(k)).collect();
    let curves = Curves {
        losses: &losses,
        accuracies: &accuracies,
    };
    let svg = decision_boundary_svg(moons_score, &data, curves);
    let document = Document::parse(&svg).expect("well-formed SVG");
    // A circle per point and two in the legend.
    assert_eq!(elements(&document, "circle").len(), data.len() + 2);
    let texts: Vec<&str> = elements(&document, "text")
        .iter()
        .filter_map(|t| t.text())
        .collect();
    let title = "Decision boundary after 100 steps: loss 0.09174, accuracy 99.5%";
    for expected in [
        title,
        "label −1",
        "label +1",
        "decision boundary (score = 0)",
        "step",
    ] {
        assert!(
            texts.contains(&expected),
            "{expected:?} is missing from {texts:?}"
        );
    }
    // Both step axes end at the last step, labelled.
    assert_eq!(texts.iter().filter(|t| **t == "99").count(), 2);
    // The shaded regions are one embedded PNG.
    let images = elements(&document, "image");
    assert_eq!(images.len(), 1);
    assert!(
        images[0]
            .attribute("href")
            .unwrap()
            .starts_with("data:image/png;base64,iVBORw0KGgo")
    );
    // The boundary, then the loss and accuracy curves from the first step to the last, each
    // spanning its frame's width.
    let lines = elements(&document, "polyline");
    assert_eq!(lines.len(), 3);
    for curve in &lines[1..] {
        let points = polyline_points(*curve);
        assert_eq!(points.len(), 100);
        assert_eq!((points[0].0, points[99].0), (800.0, 1160.0));
    }
    // Text stays readable at the picture's own size.
    for text in elements(&document, "text") {
        assert!(number(text, "font-size") >= 15.0);
    }
}

#[test]
fn degenerate_inputs_still_draw() {
    let single = make_moons(1, 0.0, 0);
    let nan_losses = [f64::NAN, f64::INFINITY, 0.5];
    let curves = Curves {
        losses: &nan_losses,
        accuracies: &[],
    };
    for svg in [
        decision_boundary_svg(|_, _| f64::NAN, &single, curves),
        decision_boundary_svg(|x, _| x, &single, Curves::default()),
    ] {
        let document = Document::parse(&svg).expect("well-formed SVG");
        assert_eq!(elements(&document, "circle").len(), 1 + 2);
    }
}

#[test]
fn the_file_is_the_svg() {
    let data = make_moons(20, 0.1, 7);
    let path = scratch_dir("file").join("moons.svg");
    decision_boundary(&path, moons_score, &data, Curves::default()).expect("written");
    let written = std::fs::read_to_string(&path).expect("the plot can be read back");
    assert_eq!(
        written,
        decision_boundary_svg(moons_score, &data, Curves::default())
    );
}

#[test]
fn a_missing_directory_is_an_error_naming_the_path() {
    let path = scratch_dir("missing")
        .join("no-such-directory")
        .join("moons.svg");
    let error = decision_boundary(
        &path,
        moons_score,
        &make_moons(10, 0.1, 0),
        Curves::default(),
    )
    .expect_err("the directory does not exist");

    assert!(matches!(error, PlotError::Write { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert!(std::error::Error::source(&error).is_some());
}
