//! The toy data sets: their geometry, labels, noise, reproducibility; and the accuracy rule.

use micrograd_runtime::data::{Dataset, accuracy, make_circles, make_moons, make_xor};

fn count_positive(data: &Dataset) -> usize {
    data.labels.iter().filter(|&&y| y > 0.0).count()
}

#[test]
fn moons_without_noise_lie_on_their_half_circles() {
    let data = make_moons(101, 0.0, 3);
    assert_eq!(data.len(), 101);
    assert_eq!(data.labels.len(), 101);
    // scikit-learn's split: n / 2 on the outer moon, the rest on the inner one.
    assert_eq!(count_positive(&data), 51);
    for (&[x, y], &label) in data.points.iter().zip(&data.labels) {
        if label > 0.0 {
            assert!(((x - 1.0).hypot(y - 0.5) - 1.0).abs() < 1e-12 && y <= 0.5 + 1e-12);
        } else {
            assert_eq!(label, -1.0);
            assert!((x.hypot(y) - 1.0).abs() < 1e-12 && y >= 0.0);
        }
    }
    // linspace includes both ends of [0, pi].
    for end in [[1.0, 0.0], [-1.0, 0.0], [0.0, 0.5], [2.0, 0.5]] {
        let nearest = data
            .points
            .iter()
            .map(|p| (p[0] - end[0]).hypot(p[1] - end[1]));
        assert!(nearest.fold(f64::INFINITY, f64::min) < 1e-12, "{end:?}");
    }
}

#[test]
fn moons_are_shuffled() {
    let data = make_moons(100, 0.0, 11);
    let first_half_positive = data.labels[..50].iter().filter(|&&y| y > 0.0).count();
    assert!(
        (10..=40).contains(&first_half_positive),
        "{first_half_positive}"
    );
}

#[test]
fn a_seed_reproduces_its_data_and_another_seed_does_not() {
    assert_eq!(make_moons(50, 0.2, 9), make_moons(50, 0.2, 9));
    assert_ne!(make_moons(50, 0.2, 9), make_moons(50, 0.2, 10));
    assert_eq!(make_circles(50, 0.2, 0.5, 9), make_circles(50, 0.2, 0.5, 9));
    assert_eq!(make_xor(50, 0.2, 9), make_xor(50, 0.2, 9));
}

/// Pins the bits: `libm` and ChaCha make these the same on every platform, so a change here
/// means the generator changed (or rand broke its value-stability promise).
#[test]
fn seed_42_gives_the_same_moons_everywhere() {
    let data = make_moons(4, 0.1, 42);
    let expected = [
        [-0.9487746716799557, -0.05564164080540124],
        [1.298028484005231, -0.0587582096423454],
        [1.9200872291809803, 0.6132718582049205],
        [-0.04408037374706488, 0.45344676757163116],
    ];
    assert_eq!(data.points, expected);
    assert_eq!(data.labels, [-1.0, -1.0, 1.0, 1.0]);
}

#[test]
fn noise_is_gaussian_with_the_requested_deviation() {
    // Noise comes after the shuffle, so the clean data set of the same seed lists the same
    // points in the same order, and the differences are the noise itself.
    let (n, sigma) = (20_000, 0.3);
    let noisy = make_moons(n, sigma, 5);
    let clean = make_moons(n, 0.0, 5);
    assert_eq!(noisy.labels, clean.labels);
    let z: Vec<f64> = (noisy.flat_points().iter())
        .zip(clean.flat_points())
        .map(|(a, b)| (a - b) / sigma)
        .collect();
    let mean = z.iter().sum::<f64>() / z.len() as f64;
    let variance = z.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / z.len() as f64;
    let within_one = z.iter().filter(|v| v.abs() < 1.0).count() as f64 / z.len() as f64;
    // Standard errors at 40 000 samples: mean 0.005, variance 0.007, fraction 0.0023.
    assert!(mean.abs() < 0.025, "mean {mean}");
    assert!((variance - 1.0).abs() < 0.035, "variance {variance}");
    assert!(
        (within_one - 0.6827).abs() < 0.012,
        "P(|z| < 1) = {within_one}"
    );
}

#[test]
fn circles_without_noise_have_radius_one_and_factor() {
    let data = make_circles(30, 0.0, 0.3, 1);
    assert_eq!(count_positive(&data), 15);
    for (p, &label) in data.points.iter().zip(&data.labels) {
        let radius = if label > 0.0 { 0.3 } else { 1.0 };
        assert!((p[0].hypot(p[1]) - radius).abs() < 1e-12);
    }
    // Evenly spaced without the endpoint: no point appears twice.
    for (i, a) in data.points.iter().enumerate() {
        for b in &data.points[i + 1..] {
            assert!((a[0] - b[0]).hypot(a[1] - b[1]) > 1e-3);
        }
    }
}

#[test]
fn xor_labels_are_the_sign_of_x_times_y() {
    let data = make_xor(1001, 0.0, 2);
    assert_eq!(count_positive(&data), 501);
    for (&[x, y], &label) in data.points.iter().zip(&data.labels) {
        assert!(x.abs() <= 1.0 && y.abs() <= 1.0 && x != 0.0 && y != 0.0);
        assert_eq!(label, (x * y).signum());
    }
}

#[test]
fn flat_points_interleave_the_coordinates() {
    let data = make_xor(7, 0.1, 4);
    let flat = data.flat_points();
    assert_eq!(flat.len(), 14);
    for (i, p) in data.points.iter().enumerate() {
        assert_eq!([flat[2 * i], flat[2 * i + 1]], *p);
    }
    assert!(!data.is_empty());
}

#[test]
fn accuracy_follows_micrograds_rule() {
    let labels = [1.0, -1.0, 1.0, -1.0, -1.0];
    assert_eq!(accuracy(&[2.0, -0.1, 0.5, -3.0, -1.0], &labels), 1.0);
    assert_eq!(accuracy(&[-2.0, 0.1, -0.5, 3.0, 1.0], &labels), 0.0);
    // A score of exactly zero votes for the negative class, as `score > 0` is false.
    assert_eq!(accuracy(&[0.0, 0.0], &[1.0, -1.0]), 0.5);
    assert_eq!(accuracy(&[f64::NAN], &[-1.0]), 1.0);
}

#[test]
#[should_panic(expected = "scores has 3 entries but labels has 4")]
fn accuracy_names_both_lengths() {
    accuracy(&[1.0, 2.0, 3.0], &[1.0, 1.0, 1.0, 1.0]);
}

#[test]
#[should_panic(expected = "scores and labels are empty")]
fn accuracy_of_nothing_panics() {
    accuracy(&[], &[]);
}

#[test]
#[should_panic(expected = "n_samples must be at least 1")]
fn zero_samples_are_rejected() {
    make_moons(0, 0.1, 0);
}

#[test]
#[should_panic(expected = "noise must be a finite standard deviation >= 0, got -0.1")]
fn negative_noise_is_rejected() {
    make_xor(10, -0.1, 0);
}

#[test]
#[should_panic(expected = "noise must be a finite standard deviation >= 0, got NaN")]
fn nan_noise_is_rejected() {
    make_circles(10, f64::NAN, 0.5, 0);
}

#[test]
#[should_panic(expected = "factor must lie in [0, 1), got 1")]
fn a_factor_of_one_is_rejected() {
    make_circles(10, 0.0, 1.0, 0);
}
