//! The benchmark tasks T1-T6, shared by `benches/gradients.rs`, `examples/bench_ratio.rs` and
//! `tests/language/bench_tasks.rs` (which include this folder with `#[path]`).
//!
//! Each task module holds, side by side:
//! - the function `f`, written once with `#[differentiable]`, so that `f_grad` is generated;
//! - a hand-written analytic gradient, written for speed (fused where legitimate, no allocation);
//! - the same function for each peer: `reverse` (a tape of `Var`s), `num-dual` (forward-mode
//!   dual numbers, through its documented gradient API) and `micrograd_runtime::Value` (the
//!   micrograd-style `Rc<RefCell>` graph), and for T3 the runtime's `Mlp`;
//! - deterministic inputs, and a `check` that asserts every contender's gradient equals the
//!   hand-written one to 1e-9 relative before anything is timed.

pub mod exits;
pub mod grid;
pub mod iterators;
pub mod moons;
pub mod neuron64;
pub mod readme;
pub mod scaling;

/// The relative tolerance every contender must meet against the hand-written gradient.
pub const RELATIVE: f64 = 1e-9;

/// Panics unless `got[i]` equals `want[i]` to [`RELATIVE`] for every `i`.
///
/// The error is relative to `max(|got[i]|, |want[i]|)`, floored at `1e-12 · max_j |want[j]|` so
/// that an entry that is zero up to rounding (a cancellation) does not demand exact agreement.
pub fn assert_close(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: gradient length");
    let scale = want.iter().fold(0.0_f64, |m, w| m.max(w.abs()));
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let size = g.abs().max(w.abs()).max(1e-12 * scale);
        assert!(
            (g - w).abs() <= RELATIVE * size || g == w,
            "{what}: entry {i} is {g:e}, the hand-written gradient says {w:e}"
        );
    }
}

/// `n` deterministic numbers in `[lo, hi)` from a 64-bit LCG (Knuth's MMIX constants).
pub fn uniform(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let unit = (state >> 11) as f64 / (1u64 << 53) as f64;
            lo + (hi - lo) * unit
        })
        .collect()
}

/// The ReLU of a `reverse` variable, which the crate lacks: the variable itself where it is
/// positive, else `0 · v` (value 0, derivative 0: relu'(0) = 0, as PyTorch).
pub fn reverse_relu(v: reverse::Var<'_>) -> reverse::Var<'_> {
    if v.val() > 0.0 { v } else { v * 0.0 }
}

/// The ReLU of a dual number (num-dual has no `relu` either), with relu'(0) = 0.
pub fn dual_relu<D: num_dual::DualNum<Primitive = f64> + Copy>(v: D) -> D {
    if v > 0.0 { v } else { D::from(0.0) }
}
