//! A branch whose arms only read data of integer type, bound by `let` (random program 509 of
//! seed 3): `let m = if x > 0.0 { labels[2] } else { labels[0] };` binds an integer, since
//! `labels: &[usize]` says so, and so does `pairs[i].1` of `pairs: &[(f64, usize)]`. The
//! lowering read such arms as "may be an integer" and, under a float condition, lowered the
//! branch as an `f64` ("expected an `f64` expression here" at each arm) once the older guess
//! by the name's first use was deleted in session 12; `int_like` now asks the data's type.
//! The unification of outside names (`lower/typing.rs`) reads data by its type too, so
//! `labels[0] > m` decides that `m`'s arms `K` and `J` are integers (it read data as
//! nothing, and the float condition made them floats: "comparisons take two `f64`s or two
//! integers"). Against central differences, the value bit for bit `f`'s, at points on both sides of the
//! branch.

use crate::common;

use common::{assert_gradient, assert_same_value};
use micrograd_runtime::prelude::*;

/// The arms read `labels`; `m` picks an entry of `w` and scales `x`.
#[differentiable]
fn picked(x: f64, w: &[f64], labels: &[usize]) -> f64 {
    let m = if x.sin() > 0.25 { labels[2] } else { labels[0] };
    let k: usize = 1 + m % 3;
    w[m] * x * (k as f64) + x.cos()
}

/// The arms read the integer of a tuple of data, and one arm of a `match` does too.
#[differentiable]
fn paired(x: f64, pairs: &[(f64, usize)]) -> f64 {
    let m = if x > 0.5 { pairs[1].1 } else { pairs[0].1 };
    let n = match m {
        0 => pairs[2].1,
        _ => pairs[0].1,
    };
    x * x * (m as f64) + pairs[m].0 * x + (n as f64)
}

const K: usize = 2;
const J: usize = 0;

/// `m`'s arms are names the function cannot see, decided by the comparison with data.
#[differentiable]
fn compared(x: f64, labels: &[usize]) -> f64 {
    let m = if x > 0.0 { K } else { J };
    if labels[0] > m {
        x * x
    } else {
        -x * (labels[1] as f64)
    }
}

#[test]
fn branches_of_integer_data_reads() {
    let labels = [1usize, 0, 3];
    let w = [0.5, -1.25, 2.0, 0.75];
    for x in [-1.3, -0.2, 0.1, 0.9, 2.4] {
        let mut d_w = [0.0; 4];
        let (value, dx) = picked_grad(x, &w, &mut d_w, &labels);
        assert_same_value("picked", value, picked(x, &w, &labels), &[x]);
        assert_gradient("picked", |p| picked(p[0], &w, &labels), &[x], &[dx]);
        let f = |v: &[f64]| picked(x, v, &labels);
        assert_gradient("picked w", f, &w, &d_w);
    }
    let pairs = [(0.5, 2usize), (-1.5, 0), (2.0, 1)];
    for x in [-0.7, 0.2, 0.6, 1.8] {
        let (value, dx) = paired_grad(x, &pairs);
        assert_same_value("paired", value, paired(x, &pairs), &[x]);
        assert_gradient("paired", |p| paired(p[0], &pairs), &[x], &[dx]);
    }
    for labels in [[1usize, 3, 0], [3, 1, 2]] {
        for x in [-0.8, -0.1, 0.3, 1.7] {
            let (value, dx) = compared_grad(x, &labels);
            assert_same_value("compared", value, compared(x, &labels), &[x]);
            assert_gradient("compared", |p| compared(p[0], &labels), &[x], &[dx]);
        }
    }
}
