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

/// Pins the bits to scikit-learn's: `np.random.seed(42); make_moons(n_samples=4, noise=0.1)`
/// (NumPy 2.4, scikit-learn 1.9, glibc), labels mapped to -1 / +1. A change here means the
/// generator no longer follows NumPy's.
#[test]
fn seed_42_gives_scikit_learns_moons() {
    let data = make_moons(4, 0.1, 42);
    let expected = [
        [-0.9352311461899308, 0.15230298564080266],
        [1.9765846625276664, 0.4765863043050818],
        [1.1579212815507391, 0.07674347291529088],
        [-0.04694743859349521, 0.5542560043585965],
    ];
    assert_eq!(data.points, expected);
    assert_eq!(data.labels, [-1.0, 1.0, -1.0, 1.0]);
}

/// `np.random.seed(9); make_circles(n_samples=6, noise=0.05, factor=0.5)`, as above.
#[test]
fn seed_9_gives_scikit_learns_circles() {
    let data = make_circles(6, 0.05, 0.5, 9);
    let expected = [
        [-0.2564202443764392, -0.5580599712756199],
        [-0.550690028643782, 0.7919134612896541],
        [-0.5373908786516585, -0.8453545497790044],
        [0.5334119307371471, 0.003998793859330386],
        [1.0498307714558124, 0.09951682976895998],
        [-0.18666299978291317, 0.46636824817040995],
    ];
    assert_eq!(data.points, expected);
    assert_eq!(data.labels, [1.0, -1.0, -1.0, 1.0, -1.0, 1.0]);
}

/// `np.random.seed(3); make_moons(n_samples=7, noise=0.0)`: NumPy's `linspace` to the bit
/// (`0.4999999999999999`, not 0.5), and the end points exact.
#[test]
fn seed_3_gives_scikit_learns_clean_moons() {
    let data = make_moons(7, 0.0, 3);
    let expected = [
        [0.4999999999999999, -0.3660254037844386],
        [2.0, 0.4999999999999999],
        [1.4999999999999998, -0.3660254037844387],
        [0.0, 0.5],
        [6.123233995736766e-17, 1.0],
        [1.0, 0.0],
        [-1.0, 1.2246467991473532e-16],
    ];
    assert_eq!(data.points, expected);
    assert_eq!(data.labels, [1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0]);
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
