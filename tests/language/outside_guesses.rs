//! Names the function cannot see that nothing in it decides, where the lowering needs a type at
//! once (`typing.rs`'s `Infer::guess`): a `let mut` binding of such a name (`let k = K1; let mut
//! y = k;`, random programs seed 23, program 18), and such a name passed whole to a helper
//! beside a float argument (`let x4 = K1; gf(x4, y)` of `fn gf<T: Float>(a: T, b: T)`, seed 14,
//! program 115). Both were refused ("cannot tell whether this is an `f64` or an integer"),
//! though rustc types the name by its item; a float guess is pinned in the generated code, so
//! a wrong one is rustc's error at the name. Against central differences and num-dual twins,
//! the value bit for bit `f`'s, at points on both sides of the branches.

use crate::common;

use common::oracle::{self, check};

use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum, HyperDual64};

const K1: f64 = 1.5;
const K3: f64 = 0.25;
static S1: f64 = 0.5;

/// `y` copies `K1` and is assigned `K3` on one side, `z` copies `K1` from a block's tail and
/// is assigned `y` on one side, then compared with `S1`: no use decides any of the three.
#[differentiable(hessian)]
fn mutable_copy(x: f64) -> f64 {
    let k = K1;
    let mut y = k;
    if x > 0.5 {
        y = K3;
    }
    let mut z = {
        let t = x * 2.0;
        let _u = t;
        k
    };
    if x < 1.0 {
        z = y;
    }
    if z > S1 { x * x.sin() } else { x.exp() - x }
}

fn mutable_copy_twin<D: DualNum<Primitive = f64> + Copy>(x: D) -> D {
    let y = if x.re() > 0.5 { K3 } else { K1 };
    let z = if x.re() < 1.0 { y } else { K1 };
    if z > S1 { x * x.sin() } else { x.exp() - x }
}

#[differentiable(hvp)]
fn gf<T: Float>(a: T, b: T) -> T {
    a * b.sin() + b * b
}

fn gf_twin<D: DualNum<Primitive = f64> + Copy>(a: D, b: D) -> D {
    a * b.sin() + b * b
}

/// `x4` is `K1`, passed whole to a generic helper beside `x`.
#[differentiable(hessian)]
fn beside_a_float(x: f64) -> f64 {
    let x4 = K1;
    let y = gf(x4, x);
    if x > 0.5 { y * x } else { gf(x, K3) - y }
}

fn beside_a_float_twin<D: DualNum<Primitive = f64> + Copy>(x: D) -> D {
    let y = gf_twin(D::from(K1), x);
    if x.re() > 0.5 {
        y * x
    } else {
        gf_twin(x, D::from(K3)) - y
    }
}

const POINTS: [f64; 4] = [-1.25, 0.25, 0.75, 1.5];

#[test]
fn a_mutable_copy_of_a_name_nothing_decides() {
    for x in POINTS {
        let (value, d_x) = mutable_copy_grad(x);
        check!(
            "mutable_copy_grad",
            &[x],
            (value, &[d_x]),
            against = [
                central(|q| mutable_copy(q[0])),
                dual(|q: &[Dual64]| mutable_copy_twin(q[0])),
            ]
        );
        let (value, hessian) = mutable_copy_hessian(x);
        assert_eq!(value.to_bits(), mutable_copy(x).to_bits());
        oracle::Hessian::new("mutable_copy_hessian", &[x], &[hessian[0][0]])
            .dual(|q: &[HyperDual64]| mutable_copy_twin(q[0]));
    }
}

#[test]
fn a_name_nothing_decides_passed_beside_a_float() {
    for x in POINTS {
        let (value, d_x) = beside_a_float_grad(x);
        check!(
            "beside_a_float_grad",
            &[x],
            (value, &[d_x]),
            against = [
                central(|q| beside_a_float(q[0])),
                dual(|q: &[Dual64]| beside_a_float_twin(q[0])),
            ]
        );
        let (value, hessian) = beside_a_float_hessian(x);
        assert_eq!(value.to_bits(), beside_a_float(x).to_bits());
        oracle::Hessian::new("beside_a_float_hessian", &[x], &[hessian[0][0]])
            .dual(|q: &[HyperDual64]| beside_a_float_twin(q[0]));
    }
}
