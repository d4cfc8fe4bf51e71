//! Forward mode and second order: `f_jvp` and `f_hvp` of every construct of the language,
//! each checked against num-dual's `hessian` on a generic version of the same function, and
//! against central differences of `f` (the JVP) and of `f_grad` (the HVP).

mod calls;
use crate::common;
mod hessian;
mod lending;
mod mutable;
mod programs;
mod rows_calls;
mod structs;
mod vector_calls;
mod written_calls;

use nalgebra::SVector;
use num_dual::Dual2SVec64;

/// A directional derivative at a point: the value and the derivative along `v`.
pub type Directional<'a, T> = &'a dyn Fn(&[f64], &[f64]) -> (f64, T);

/// A function of a flat point, in every form a test compares.
pub struct Case<'a, const N: usize> {
    /// What failures print.
    pub name: &'a str,
    /// `f` itself.
    pub f: &'a dyn Fn(&[f64]) -> f64,
    /// `f_grad`'s gradient.
    pub grad: &'a dyn Fn(&[f64]) -> Vec<f64>,
    /// `f_jvp` along `v`.
    pub jvp: Directional<'a, f64>,
    /// `f_hvp` along `v`.
    pub hvp: Directional<'a, Vec<f64>>,
    /// The same function, generic, for num-dual.
    pub dual: &'a dyn Fn(&[Dual2SVec64<N>]) -> Dual2SVec64<N>,
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1.0)
}

/// `x + t v`.
fn moved(x: &[f64], v: &[f64], t: f64) -> Vec<f64> {
    x.iter().zip(v).map(|(x, v)| x + t * v).collect()
}

/// Checks the case at `x` along `v`: values bit for bit, then num-dual, then central
/// differences.
pub fn check<const N: usize>(case: &Case<N>, x: &[f64], v: &[f64]) {
    let name = case.name;
    let value = (case.f)(x);
    let (jvp_value, jvp) = (case.jvp)(x, v);
    let (hvp_value, hv) = (case.hvp)(x, v);
    assert_eq!(
        jvp_value.to_bits(),
        value.to_bits(),
        "{name}: f_jvp's value"
    );
    assert_eq!(
        hvp_value.to_bits(),
        value.to_bits(),
        "{name}: f_hvp's value"
    );
    let (dual_value, gradient, hessian) = num_dual::hessian(
        |p: SVector<Dual2SVec64<N>, N>| (case.dual)(p.as_slice()),
        &SVector::from_column_slice(x),
    );
    assert!(
        close(dual_value, value, 1e-14),
        "{name}: the generic version differs"
    );
    let directional: f64 = gradient.iter().zip(v).map(|(g, v)| g * v).sum();
    assert!(
        close(jvp, directional, 1e-12),
        "{name}: jvp {jvp:e}, num-dual {directional:e}"
    );
    let h_v = hessian * SVector::<f64, N>::from_column_slice(v);
    for (i, (a, b)) in hv.iter().zip(h_v.iter()).enumerate() {
        assert!(
            close(*a, *b, 1e-10),
            "{name}: (H v)[{i}] {a:e}, num-dual {b:e}"
        );
    }
    common::assert_partial(name, |t| (case.f)(&moved(x, v, t[0])), &[0.0], 0, jvp);
    for (i, hv_i) in hv.iter().enumerate() {
        let component = |t: &[f64]| (case.grad)(&moved(x, v, t[0]))[i];
        common::assert_partial(name, component, &[0.0], 0, *hv_i);
    }
}

/// A few points and directions for a function of `n` parameters, all inside `(lo, hi)`.
pub fn points(n: usize, lo: f64, hi: f64) -> Vec<(Vec<f64>, Vec<f64>)> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..4)
        .map(|_| {
            let x = (0..n).map(|_| lo + (hi - lo) * next()).collect();
            let v = (0..n).map(|_| 2.0 * next() - 1.0).collect();
            (x, v)
        })
        .collect()
}
