//! What the derivative tests share: central differences, dual-number gradients, a tolerant
//! comparison, and deterministic inputs.

use num_dual::Dual64;

/// Central differences of `f` at `x`, one entry at a time.
pub fn central(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let h = 1e-6 * x[i].abs().max(1.0);
            let (mut plus, mut minus) = (x.to_vec(), x.to_vec());
            plus[i] += h;
            minus[i] -= h;
            (f(&plus) - f(&minus)) / (2.0 * h)
        })
        .collect()
}

/// The gradient of `f` at `x` from dual numbers, one direction at a time.
pub fn dual_gradient(f: impl Fn(&[Dual64]) -> Dual64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let point: Vec<Dual64> = (0..x.len())
                .map(|j| Dual64::new(x[j], if i == j { 1.0 } else { 0.0 }))
                .collect();
            f(&point).eps
        })
        .collect()
}

/// Asserts each entry of `got` within `tolerance` of `want`, relative to |want| past 1.
pub fn assert_close(what: &str, got: &[f64], want: &[f64], tolerance: f64) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let scale = w.abs().max(1.0);
        assert!(
            (g - w).abs() <= tolerance * scale,
            "{what}[{i}]: got {g}, want {w}"
        );
    }
}

/// Deterministic inputs in [-1, 1).
pub fn points(n: usize, seed: u64) -> Vec<f64> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        })
        .collect()
}
