//! A `const` or `static` array read through a path (issue 25, session 15): `weights::ALL[0]`,
//! `for a in weights::ALL`, `weights::ALL.iter().enumerate()`, `weights::ALL.len()`, an integer
//! one indexing a slice (`w[weights::IDX[0]]`), `self::` and `crate::` paths, and an
//! associated const array `Self::W` in a method. Each is data, printed as the path where the
//! user's code reads it (it was refused: "reads arrays from .. `const` items named alone").
//! `f_grad` against central differences and num-dual, `f_hessian` against hyper-duals, the
//! value bit for bit `f`'s.

#![deny(warnings)]

use crate::common;

use common::oracle::{self, check};
use micrograd_runtime::prelude::*;
use num_dual::DualNum;

mod weights {
    pub const ALL: [f64; 3] = [0.5, 0.25, -1.5];
    pub static IDX: [usize; 2] = [2, 0];
}

#[differentiable(hessian)]
fn through_paths(x: f64, w: &[f64]) -> f64 {
    let mut s = 0.0;
    for a in weights::ALL {
        s += a * x * x;
    }
    for (i, a) in weights::ALL.iter().enumerate() {
        s += a * w[i] * x;
    }
    s += w[weights::IDX[0]] * w[self::weights::IDX[1]];
    x * weights::ALL[0] + s * crate::outside_array_paths::weights::ALL[weights::ALL.len() - 2]
}

/// `through_paths` at `p = (x, w..)`, generic for num-dual.
fn through_paths_d<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> D {
    let (x, w) = (p[0], &p[1..]);
    let all = weights::ALL;
    let mut s = x * x * (all[0] + all[1] + all[2]);
    for i in 0..3 {
        s += w[i] * x * all[i];
    }
    s += w[2] * w[0];
    x * all[0] + s * all[1]
}

#[test]
fn const_arrays_through_paths_against_references() {
    for p in [[0.7, 1.0, -2.0, 0.5], [-1.3, 0.25, 0.75, -1.0]] {
        let mut d_w = [0.0; 3];
        let (value, d_x) = through_paths_grad(p[0], &p[1..], &mut d_w);
        let gradient = [d_x, d_w[0], d_w[1], d_w[2]];
        check!(
            "through_paths",
            &p,
            (value, &gradient),
            against = [
                central(|q: &[f64]| through_paths(q[0], &q[1..])),
                dual(through_paths_d),
            ]
        );
        let mut hessian = [0.0; 16];
        let value = through_paths_hessian(p[0], &p[1..], &mut hessian);
        assert_eq!(value.to_bits(), through_paths(p[0], &p[1..]).to_bits());
        oracle::Hessian::new("through_paths", &p, &hessian).dual(through_paths_d);
    }
}

#[derive(Differentiable, Clone, Default)]
struct Scaled {
    w: [f64; 3],
}

impl Scaled {
    const W: [f64; 3] = [2.0, -1.0, 0.5];

    /// An associated const array, `Self::W`, iterated and indexed in a method.
    #[differentiable]
    fn dot(&self, x: f64) -> f64 {
        let mut s = 0.0;
        for (i, k) in Self::W.iter().enumerate() {
            s += k * self.w[i] * x;
        }
        s * Self::W[2]
    }
}

#[test]
fn an_associated_const_array_in_a_method() {
    let p = [0.3, -1.2, 0.8, 1.7];
    let scaled = Scaled {
        w: [p[0], p[1], p[2]],
    };
    let mut d = Scaled::default();
    let (value, d_x) = scaled.dot_grad(&mut d, p[3]);
    let gradient = [d.w[0], d.w[1], d.w[2], d_x];
    let at = |q: &[f64]| {
        Scaled {
            w: [q[0], q[1], q[2]],
        }
        .dot(q[3])
    };
    oracle::Gradient::new("dot", &p, (value, &gradient))
        .central(at)
        .dual(|q| (q[0] * 2.0 - q[1] + q[2] * 0.5) * q[3] * 0.5);
}
