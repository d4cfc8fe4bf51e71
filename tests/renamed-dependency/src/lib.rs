//! A crate that depends on `micrograd-runtime` as `mg`, and re-exports it from a facade module,
//! as a crate built on top of micrograd-rs would. `::micrograd_runtime` does not resolve here,
//! so every `#[differentiable]` function names the runtime with `crate = path`.
//!
//! Without `crate = ..`, the generated code names `::micrograd_runtime` and does not compile:
//!
//! ```compile_fail
//! use mg::prelude::*;
//!
//! #[differentiable]
//! fn chain(x: f64, w: &[f64]) -> f64 {
//!     let mut h = x;
//!     for i in 0..w.len() {
//!         h = (h * w[i]).tanh();
//!     }
//!     h
//! }
//! ```

use mg::prelude::*;

/// The runtime as a facade crate would re-export it.
pub mod facade {
    pub use mg::*;
}

/// A tanh chain: its loop overwrites `h`, whose values the reverse sweep reads back from a
/// `Tape`, so `chain_grad` names the runtime; `chain_graph` (asked for by `graph`) names its
/// `Graph`.
#[differentiable(graph, crate = ::mg)]
pub fn chain(x: f64, w: &[f64]) -> f64 {
    let mut h = x;
    for i in 0..w.len() {
        h = (h * w[i]).tanh();
    }
    h
}

/// The same chain, naming the runtime through the facade, as a string (serde's form).
#[differentiable(wrt(x), crate = "crate::facade")]
pub fn chain_facade(x: f64, w: &[f64]) -> f64 {
    let mut h = x;
    for i in 0..w.len() {
        h = (h * w[i]).tanh();
    }
    h
}

/// The same chain generic over `T: Float`, which this crate knows only as `mg::num_traits`:
/// the generated code reaches num-traits through `crate = ..` too.
#[differentiable(crate = crate::facade)]
pub fn chain_generic<T: mg::num_traits::Float>(x: T, w: &[T]) -> T {
    let mut h = x;
    for i in 0..w.len() {
        h = (h * w[i]).tanh();
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_through_the_facade_at_f64_and_f32() {
        let (mut d_w, mut d_w32) = ([0.0; 3], [0.0_f32; 3]);
        let (value, d_x) = chain_generic_grad(0.9, &W, &mut d_w);
        let (expected, expected_d_x, expected_d_w) = closed_form(0.9, &W);
        assert_eq!(value, chain_generic(0.9, &W));
        assert!((value - expected).abs() < 1e-15);
        assert!((d_x - expected_d_x).abs() < 1e-14);
        for (a, b) in d_w.iter().zip(&expected_d_w) {
            assert!((a - b).abs() < 1e-14, "{a} vs {b}");
        }
        let w32 = W.map(|w| w as f32);
        let (value32, d_x32) = chain_generic_grad(0.9_f32, &w32, &mut d_w32);
        assert_eq!(value32, chain_generic(0.9_f32, &w32));
        assert!((f64::from(d_x32) - expected_d_x).abs() < 1e-5);
    }

    const W: [f64; 3] = [0.7, -1.3, 0.4];

    /// The derivative of the chain by the closed form d tanh(u)/du = 1 - tanh(u)².
    fn closed_form(x: f64, w: &[f64]) -> (f64, f64, Vec<f64>) {
        let mut hs = vec![x];
        for wi in w {
            hs.push((hs[hs.len() - 1] * wi).tanh());
        }
        let (mut d_h, mut d_w) = (1.0, vec![0.0; w.len()]);
        for i in (0..w.len()).rev() {
            let d_u = d_h * (1.0 - hs[i + 1] * hs[i + 1]);
            d_w[i] = d_u * hs[i];
            d_h = d_u * w[i];
        }
        (hs[w.len()], d_h, d_w)
    }

    #[test]
    fn renamed_dependency_gradient_matches_closed_form() {
        let mut d_w = [0.0; 3];
        let (value, d_x) = chain_grad(0.9, &W, &mut d_w);
        let (expected, expected_d_x, expected_d_w) = closed_form(0.9, &W);
        assert_eq!(value, chain(0.9, &W));
        assert!((value - expected).abs() < 1e-15);
        assert!(
            (d_x - expected_d_x).abs() < 1e-14,
            "{d_x} vs {expected_d_x}"
        );
        for (got, want) in d_w.iter().zip(&expected_d_w) {
            assert!((got - want).abs() < 1e-14, "{got} vs {want}");
        }
    }

    #[test]
    fn facade_path_gradient_matches_closed_form() {
        let (value, d_x) = chain_facade_grad(-0.4, &W);
        let (expected, expected_d_x, _) = closed_form(-0.4, &W);
        assert_eq!(value, chain_facade(-0.4, &W));
        assert!((value - expected).abs() < 1e-15);
        assert!((d_x - expected_d_x).abs() < 1e-14);
    }

    #[test]
    fn graph_through_renamed_dependency() {
        let graph: mg::Graph = chain_graph(0.9, &W);
        let (_, expected_d_x, _) = closed_form(0.9, &W);
        let x = graph.find("x").expect("the graph labels parameter x");
        assert!((x.grad() - expected_d_x).abs() < 1e-14);
    }
}
