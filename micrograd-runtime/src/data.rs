//! Toy classification data of micrograd's demo (two moons, and friends) and its accuracy rule.
//!
//! Every generator takes a `seed` and draws from NumPy's legacy generator seeded with it
//! ([`RandomState`]), as scikit-learn does after `np.random.seed(seed)`: [`make_moons`] and
//! [`make_circles`] give scikit-learn's points to the bit (with the platform's `sin`, `cos` and
//! `ln`, which NumPy calls too; checked on Linux). NumPy takes seeds below 2^32; a larger seed
//! is read as `np.random.seed([low, high])` reads its two 32-bit words. Labels are `-1.0` /
//! `+1.0`, the targets of micrograd's hinge loss (`y * 2 - 1`).
//!
//! ```
//! use micrograd_runtime::data::{accuracy, make_moons};
//!
//! // micrograd's demo: np.random.seed(1337); X, y = make_moons(n_samples=100, noise=0.1)
//! let data = make_moons(100, 0.1, 1337);
//! assert_eq!(data.points[0], [1.1221146075409685, 0.08147717341718697]);
//! // The lower moon is the `+1` class, so a horizontal line already separates most points.
//! let scores: Vec<f64> = data.points.iter().map(|p| 0.25 - p[1]).collect();
//! assert!(accuracy(&scores, &data.labels) > 0.75);
//! ```

use std::f64::consts::{PI, TAU};

use crate::rng::RandomState;

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

/// Two interleaving half circles: scikit-learn's `make_moons(n_samples, noise=noise)` after
/// `np.random.seed(seed)`, number for number, with labels `2 y - 1`.
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
    let outer = linspace(PI, n_outer, true).map(|t| ([t.cos(), t.sin()], -1.0));
    let inner = linspace(PI, n_inner, true).map(|t| ([1.0 - t.cos(), 1.0 - t.sin() - 0.5], 1.0));
    let mut state = RandomState::new(seed);
    shuffle_and_blur(outer.chain(inner).collect(), noise, &mut state)
}

/// A circle around a smaller one: scikit-learn's `make_circles(n_samples, noise=noise,
/// factor=factor)` after `np.random.seed(seed)`, with labels `2 y - 1`.
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
    // No endpoint: angle 2 pi would repeat the point at angle 0.
    let outer = linspace(TAU, n_outer, false).map(|t| ([t.cos(), t.sin()], -1.0));
    let inner = linspace(TAU, n_inner, false).map(|t| ([t.cos() * factor, t.sin() * factor], 1.0));
    let mut state = RandomState::new(seed);
    shuffle_and_blur(outer.chain(inner).collect(), noise, &mut state)
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
    let mut state = RandomState::new(seed);
    let clean = (0..n_samples)
        .map(|i| {
            let (sx, sy) = QUADRANTS[i % 4];
            // 1 - u lies in (0, 1], so no point sits on an axis, where its label would be a tie.
            let x = sx * (1.0 - state.random_sample());
            let y = sy * (1.0 - state.random_sample());
            ([x, y], sx * sy)
        })
        .collect();
    shuffle_and_blur(clean, noise, &mut state)
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

/// NumPy's `linspace(0, stop, n, endpoint)`, to the bit: `i * (stop / intervals)`, with the last
/// point set to `stop` itself when `endpoint` holds, and `[0]` alone when `n == 1`.
fn linspace(stop: f64, n: usize, endpoint: bool) -> impl Iterator<Item = f64> {
    let intervals = if endpoint { n.saturating_sub(1) } else { n };
    let step = if intervals > 0 {
        stop / intervals as f64
    } else {
        0.0
    };
    (0..n).map(move |i| {
        if endpoint && n > 1 && i == n - 1 {
            stop
        } else {
            i as f64 * step
        }
    })
}

/// scikit-learn's order: the rows are shuffled (`sklearn.utils.shuffle`, one NumPy `shuffle` of
/// their indices), then `X += normal(scale=noise, size=X.shape)` draws the noise row by row.
/// So a data set with noise and the same one without (same seed) list the same clean points in
/// the same order.
fn shuffle_and_blur(
    mut clean: Vec<([f64; 2], f64)>,
    noise: f64,
    state: &mut RandomState,
) -> Dataset {
    state.shuffle(&mut clean);
    let (mut points, labels): (Vec<[f64; 2]>, Vec<f64>) = clean.into_iter().unzip();
    for point in &mut points {
        for coordinate in point {
            *coordinate += state.normal(0.0, noise);
        }
    }
    Dataset { points, labels }
}
