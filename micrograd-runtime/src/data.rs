//! Toy classification data of micrograd's demo (two moons, and friends) and its accuracy rule.
//!
//! Every generator takes a `seed` and draws from [`StdRng::seed_from_u64`], so a seed gives the
//! same data set on every machine for a given `rand` release (its value-stability promise).
//! Labels are `-1.0` / `+1.0`, the targets of micrograd's hinge loss (`y * 2 - 1`).
//!
//! ```
//! use micrograd_runtime::data::{accuracy, make_moons};
//!
//! let data = make_moons(100, 0.1, 1337);
//! // The lower moon is the `+1` class, so a horizontal line already separates most points.
//! let scores: Vec<f64> = data.points.iter().map(|p| 0.25 - p[1]).collect();
//! assert!(accuracy(&scores, &data.labels) > 0.75);
//! ```

use std::f64::consts::{PI, TAU};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

/// Points in the plane with a label `-1.0` or `+1.0` each.
///
/// ```
/// use micrograd_runtime::data::Dataset;
///
/// let data = Dataset { points: vec![[0.5, 1.0], [2.0, -1.0]], labels: vec![1.0, -1.0] };
/// assert_eq!(data.len(), 2);
/// assert_eq!(data.flat_points(), [0.5, 1.0, 2.0, -1.0]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    /// The inputs `[x, y]`.
    pub points: Vec<[f64; 2]>,
    /// The class of each point: `-1.0` or `+1.0`.
    pub labels: Vec<f64>,
}

impl Dataset {
    /// The number of points.
    ///
    /// ```
    /// assert_eq!(micrograd_runtime::data::make_xor(10, 0.0, 0).len(), 10);
    /// ```
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether there are no points.
    ///
    /// ```
    /// use micrograd_runtime::data::Dataset;
    ///
    /// assert!(Dataset { points: vec![], labels: vec![] }.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The coordinates in one slice `[x0, y0, x1, y1, ...]`, the layout a `#[differentiable]`
    /// function takes as `&[f64]`.
    ///
    /// ```
    /// let data = micrograd_runtime::data::make_moons(3, 0.0, 7);
    /// let flat = data.flat_points();
    /// assert_eq!(flat.len(), 6);
    /// assert_eq!([flat[2], flat[3]], data.points[1]);
    /// ```
    pub fn flat_points(&self) -> Vec<f64> {
        self.points.as_flattened().to_vec()
    }
}

/// Two interleaving half circles, like scikit-learn's `make_moons`.
///
/// `n_samples / 2` points lie on the upper half circle `(cos t, sin t)` with label `-1.0`, the
/// rest on the lower one `(1 - cos t, 1 - sin t - 0.5)` with label `+1.0`, for `t` evenly
/// spaced over `[0, pi]`. The points are shuffled, then moved by Gaussian noise of standard
/// deviation `noise` in both coordinates.
///
/// ```
/// use micrograd_runtime::data::make_moons;
///
/// let data = make_moons(100, 0.1, 1337);
/// assert_eq!(data.len(), 100);
/// assert_eq!(data.labels.iter().filter(|&&y| y > 0.0).count(), 50);
/// assert_eq!(data, make_moons(100, 0.1, 1337));
/// ```
///
/// # Panics
/// If `n_samples` is 0, or `noise` is negative, infinite or NaN.
#[track_caller]
pub fn make_moons(n_samples: usize, noise: f64, seed: u64) -> Dataset {
    check_sampling(n_samples, noise);
    let n_outer = n_samples / 2;
    let n_inner = n_samples - n_outer;
    let outer = linspace(PI, n_outer).map(|t| ([libm::cos(t), libm::sin(t)], -1.0));
    let inner =
        linspace(PI, n_inner).map(|t| ([1.0 - libm::cos(t), 1.0 - libm::sin(t) - 0.5], 1.0));
    let mut rng = StdRng::seed_from_u64(seed);
    shuffle_and_blur(outer.chain(inner).collect(), noise, &mut rng)
}

/// A circle around a smaller one, like scikit-learn's `make_circles`.
///
/// `n_samples / 2` points evenly spaced on the unit circle get label `-1.0`, the rest, on the
/// circle of radius `factor`, get `+1.0`; then shuffle and Gaussian noise as in [`make_moons`].
///
/// ```
/// use micrograd_runtime::data::make_circles;
///
/// let data = make_circles(40, 0.0, 0.5, 3);
/// for (p, y) in data.points.iter().zip(&data.labels) {
///     let radius = p[0].hypot(p[1]);
///     assert!((radius - if *y > 0.0 { 0.5 } else { 1.0 }).abs() < 1e-12);
/// }
/// ```
///
/// # Panics
/// If `n_samples` is 0, `noise` is negative, infinite or NaN, or `factor` is outside `[0, 1)`.
#[track_caller]
pub fn make_circles(n_samples: usize, noise: f64, factor: f64, seed: u64) -> Dataset {
    check_sampling(n_samples, noise);
    assert!(
        (0.0..1.0).contains(&factor),
        "factor must lie in [0, 1), got {factor}"
    );
    let n_outer = n_samples / 2;
    let n_inner = n_samples - n_outer;
    let circle = |n: usize, radius: f64, label: f64| {
        // No endpoint: angle 2 pi would repeat the point at angle 0.
        (0..n).map(move |i| {
            let t = TAU * i as f64 / n as f64;
            ([radius * libm::cos(t), radius * libm::sin(t)], label)
        })
    };
    let clean = circle(n_outer, 1.0, -1.0).chain(circle(n_inner, factor, 1.0));
    let mut rng = StdRng::seed_from_u64(seed);
    shuffle_and_blur(clean.collect(), noise, &mut rng)
}

/// Points uniform in the square `[-1, 1]^2`, labelled `+1.0` in the quadrants where `x * y > 0`
/// and `-1.0` in the others, before the Gaussian noise: the XOR problem no linear model solves.
///
/// The points visit the quadrants in turn, so the two classes differ in size by at most one.
///
/// ```
/// use micrograd_runtime::data::make_xor;
///
/// let data = make_xor(100, 0.0, 5);
/// for (p, y) in data.points.iter().zip(&data.labels) {
///     assert_eq!(p[0] * p[1] > 0.0, *y > 0.0);
/// }
/// ```
///
/// # Panics
/// If `n_samples` is 0, or `noise` is negative, infinite or NaN.
#[track_caller]
pub fn make_xor(n_samples: usize, noise: f64, seed: u64) -> Dataset {
    const QUADRANTS: [(f64, f64); 4] = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)];
    check_sampling(n_samples, noise);
    let mut rng = StdRng::seed_from_u64(seed);
    let clean = (0..n_samples)
        .map(|i| {
            let (sx, sy) = QUADRANTS[i % 4];
            // 1 - u lies in (0, 1], so no point sits on an axis, where its label would be a tie.
            let x = sx * (1.0 - rng.random::<f64>());
            let y = sy * (1.0 - rng.random::<f64>());
            ([x, y], sx * sy)
        })
        .collect();
    shuffle_and_blur(clean, noise, &mut rng)
}

/// The fraction of scores on the side of zero their label is on, micrograd's
/// `(yi > 0) == (scorei > 0)`: a score of exactly 0 (or NaN) counts as a vote for `-1`.
///
/// ```
/// use micrograd_runtime::data::accuracy;
///
/// assert_eq!(accuracy(&[0.3, -2.0, 0.0, 1.5], &[1.0, -1.0, 1.0, -1.0]), 0.5);
/// ```
///
/// # Panics
/// If the slices differ in length ("scores has 3 entries but labels has 4"), or are empty.
#[track_caller]
pub fn accuracy(scores: &[f64], labels: &[f64]) -> f64 {
    assert!(
        scores.len() == labels.len(),
        "scores has {} entries but labels has {}",
        scores.len(),
        labels.len()
    );
    assert!(
        !scores.is_empty(),
        "accuracy of no scores is undefined: scores and labels are empty"
    );
    let correct = scores
        .iter()
        .zip(labels)
        .filter(|&(score, label)| (*score > 0.0) == (*label > 0.0))
        .count();
    correct as f64 / scores.len() as f64
}

#[track_caller]
fn check_sampling(n_samples: usize, noise: f64) {
    assert!(n_samples > 0, "n_samples must be at least 1, got 0");
    // `noise >= 0.0` is false for NaN as well.
    assert!(
        noise >= 0.0 && noise.is_finite(),
        "noise must be a finite standard deviation >= 0, got {noise}"
    );
}

/// numpy's `linspace(0, stop, n)`: both ends included, and `[0]` alone when `n == 1`.
fn linspace(stop: f64, n: usize) -> impl Iterator<Item = f64> {
    let intervals = n.saturating_sub(1).max(1) as f64;
    (0..n).map(move |i| stop * i as f64 / intervals)
}

/// Shuffles before adding noise, as scikit-learn does, so that a data set with noise and the
/// same one without (same seed) list the same clean points in the same order.
fn shuffle_and_blur(mut clean: Vec<([f64; 2], f64)>, noise: f64, rng: &mut StdRng) -> Dataset {
    clean.shuffle(rng);
    let (mut points, labels): (Vec<[f64; 2]>, Vec<f64>) = clean.into_iter().unzip();
    for point in &mut points {
        let (zx, zy) = standard_normal_pair(rng);
        point[0] += noise * zx;
        point[1] += noise * zy;
    }
    Dataset { points, labels }
}

/// Two independent standard normal samples by the Box-Muller transform.
///
/// Not `rand_distr`: its ziggurat switches from `libm` to the platform's `ln`/`exp` as soon as
/// any crate in the build enables `num-traits/std` (plotters does), and those differ between
/// platforms in the last bit. `libm` here keeps a seed's data bit-identical everywhere.
fn standard_normal_pair(rng: &mut StdRng) -> (f64, f64) {
    // 1 - u lies in (0, 1], so the logarithm is finite.
    let radius = (-2.0 * libm::log(1.0 - rng.random::<f64>())).sqrt();
    let angle = TAU * rng.random::<f64>();
    (radius * libm::cos(angle), radius * libm::sin(angle))
}
