//! Associated functions without a receiver in an `impl` whose flavours call a sibling the
//! expansion writes: `f_jacobian` of a function writing its outputs (calls `f_jvp` and
//! `__f_jvp_lanes`), every flavour of one returning `[f64; M]` of a `const M` (calls
//! `__f_into`'s), and `f_hessian` (calls `f_hvp`). The calls were by bare name, which an `impl`
//! does not resolve (rustc's E0425 "cannot find function `resid_jvp`"; the attribute cannot
//! see whether it is in an `impl`); each caller now holds a copy of its sibling in its body
//! (`siblings.rs`). The same functions, written once by `define!`, are checked in an `impl` and
//! as free functions, against central differences and num-dual.
#![deny(warnings)]

use crate::common;

use common::assert_near;
use common::{assert_partial, oracle};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

const M: usize = 3;

macro_rules! define {
    () => {
        /// A residual written into `out`.
        #[differentiable(jacobian)]
        pub fn resid(x: &[f64], a: f64, out: &mut [f64]) {
            for i in 0..out.len() {
                out[i] = a * x[i] * x[(i + 1) % x.len()] + x[i].sin();
            }
        }

        /// An array of a `const` length.
        #[differentiable(jvp, jacobian)]
        pub fn scaled(a: &[f64; M], s: f64) -> [f64; M] {
            let mut r = [0.0; M];
            for i in 0..M {
                r[i] = s * a[i] * a[i] + a[(i + 1) % M];
            }
            r
        }

        /// A scalar with its Hessian.
        #[differentiable(hessian)]
        pub fn energy(x: &[f64], k: f64) -> f64 {
            let mut e = 0.0;
            for i in 0..x.len() {
                e += k * x[i] * x[i] * x[(i + 1) % x.len()] + x[i].cos();
            }
            e
        }
    };
}

mod free {
    use super::M;
    use micrograd_runtime::prelude::*;
    define!();
}

pub struct Model;

impl Model {
    define!();
}

fn resid_twin<D: DualNum<Primitive = f64> + Copy>(x: &[D], a: D) -> Vec<D> {
    (0..x.len())
        .map(|i| a * x[i] * x[(i + 1) % x.len()] + x[i].sin())
        .collect()
}

fn scaled_twin<D: DualNum<Primitive = f64> + Copy>(a: &[D], s: D) -> Vec<D> {
    (0..M).map(|i| s * a[i] * a[i] + a[(i + 1) % M]).collect()
}

fn energy_twin<D: DualNum<Primitive = f64> + Copy>(x: &[D], k: D) -> D {
    let mut e = D::zero();
    for i in 0..x.len() {
        e += k * x[i] * x[i] * x[(i + 1) % x.len()] + x[i].cos();
    }
    e
}

/// Entry `(i, j)` of the Jacobian of `twin` at `point` by `Dual64`, seeded at `j`.
fn dual_entry(twin: impl Fn(&[Dual64]) -> Vec<Dual64>, point: &[f64], i: usize, j: usize) -> f64 {
    let seeded: Vec<Dual64> = (0..point.len())
        .map(|k| Dual64::new(point[k], f64::from(k == j)))
        .collect();
    twin(&seeded)[i].eps
}

type ResidJacobian = fn(&[f64], &mut [f64], f64, &mut [f64], &mut [f64]);

fn check_resid(name: &str, plain: fn(&[f64], f64, &mut [f64]), jacobian: ResidJacobian) {
    for point in [[0.7, -0.4, 1.3, 1.7], [-1.1, 0.2, 0.5, -0.6]] {
        let (x, a) = (&point[..3], point[3]);
        let (mut out, mut d_x, mut d_a) = ([0.0; 3], [0.0; 9], [0.0; 3]);
        jacobian(x, &mut d_x, a, &mut d_a, &mut out);
        let mut written = [0.0; 3];
        plain(x, a, &mut written);
        assert_eq!(out, written, "{name}: the outputs as `resid` writes them");
        for i in 0..3 {
            let f = |p: &[f64]| {
                let mut out = [0.0; 3];
                plain(&p[..3], p[3], &mut out);
                out[i]
            };
            let twin = |q: &[Dual64]| resid_twin(&q[..3], q[3]);
            for j in 0..4 {
                let entry = if j < 3 { d_x[i * 3 + j] } else { d_a[i] };
                assert_partial(name, f, &point, j, entry);
                assert_near(name, entry, dual_entry(twin, &point, i, j), 1e-12);
            }
        }
    }
}

#[test]
fn a_function_writing_its_outputs_has_its_jacobian_in_an_impl_and_free() {
    check_resid("Model::resid_jacobian", Model::resid, Model::resid_jacobian);
    check_resid("free::resid_jacobian", free::resid, free::resid_jacobian);
}

type Scaled = fn(&[f64; M], f64) -> [f64; M];
type ScaledPullback = fn(&[f64; M], &mut [f64], f64, [f64; M]) -> f64;
type ScaledJvp = fn(&[f64; M], &[f64; M], f64, f64) -> ([f64; M], [f64; M]);
type ScaledJacobian = fn(&[f64; M], &mut [f64], f64) -> ([f64; M], [[f64; 1]; M]);

fn check_scaled(
    name: &str,
    f: Scaled,
    (pullback, jvp, jacobian): (ScaledPullback, ScaledJvp, ScaledJacobian),
) {
    let point = [0.8, -0.3, 1.7, 0.6];
    let a = [point[0], point[1], point[2]];
    let s = point[3];
    let at = |p: &[f64], i: usize| f(&[p[0], p[1], p[2]], p[3])[i];
    let twin = |q: &[Dual64]| scaled_twin(&q[..3], q[3]);
    let seed = [1.0, -0.5, 2.0];
    let mut d_a = [0.0; M];
    let d_s = pullback(&a, &mut d_a, s, seed);
    let weighted = |p: &[f64]| (0..M).map(|i| seed[i] * at(p, i)).sum::<f64>();
    for (j, &partial) in d_a.iter().chain([&d_s]).enumerate() {
        assert_partial(name, weighted, &point, j, partial);
        let dual = (0..M)
            .map(|i| seed[i] * dual_entry(twin, &point, i, j))
            .sum::<f64>();
        assert_near(name, partial, dual, 1e-12);
    }
    let (v_a, v_s) = ([0.5, 1.5, -1.0], -0.7);
    let (value, tangent) = jvp(&a, &v_a, s, v_s);
    let mut block = [0.0; M * M];
    let (also, rows) = jacobian(&a, &mut block, s);
    assert_eq!(value, f(&a, s), "{name}: the value bit for bit");
    assert_eq!(also, value, "{name}: f_jacobian's value");
    for i in 0..M {
        let along: f64 = (0..4)
            .map(|j| dual_entry(twin, &point, i, j) * [v_a[0], v_a[1], v_a[2], v_s][j])
            .sum();
        assert_near(name, tangent[i], along, 1e-12);
        for j in 0..4 {
            let entry = if j < 3 { block[i * M + j] } else { rows[i][0] };
            assert_partial(name, |p| at(p, i), &point, j, entry);
            assert_near(name, entry, dual_entry(twin, &point, i, j), 1e-12);
        }
    }
}

#[test]
fn a_const_length_array_has_every_flavour_in_an_impl_and_free() {
    check_scaled(
        "Model::scaled",
        Model::scaled,
        (
            Model::scaled_pullback,
            Model::scaled_jvp,
            Model::scaled_jacobian,
        ),
    );
    check_scaled(
        "free::scaled",
        free::scaled,
        (
            free::scaled_pullback,
            free::scaled_jvp,
            free::scaled_jacobian,
        ),
    );
}

fn check_energy(
    name: &str,
    f: fn(&[f64], f64) -> f64,
    hessian: fn(&[f64], f64, &mut [f64]) -> f64,
) {
    for point in [[0.7, -0.4, 1.3, 1.7], [-1.1, 0.2, 0.5, -0.6]] {
        let mut entries = [0.0; 16];
        let value = hessian(&point[..3], point[3], &mut entries);
        assert_eq!(
            value.to_bits(),
            f(&point[..3], point[3]).to_bits(),
            "{name} value"
        );
        oracle::Hessian::new(name, &point, &entries)
            .dual(|q: &[HyperDual64]| energy_twin(&q[..3], q[3]));
    }
}

#[test]
fn a_hessian_in_an_impl_and_free() {
    check_energy(
        "Model::energy_hessian",
        Model::energy,
        Model::energy_hessian,
    );
    check_energy("free::energy_hessian", free::energy, free::energy_hessian);
}
