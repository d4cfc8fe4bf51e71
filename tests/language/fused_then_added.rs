//! A loop that only reads a local array, followed by an entry of that array added to in place
//! (`h[1] += t`): the loop's reverse may not run inside its forward loop (diff/fuse.rs), since
//! the reverse of `h[1] += t` reads `h[1]`'s adjoint, `d_t = d_h[1]`, which must not hold what
//! the loop's reads (of `h[1]` before the addition) give it. Found by the random programs
//! (seed 8, program 60: a sum of sines over `h` and then `h[0] += h.iter().zip(h.iter())..`);
//! each checked against central differences and its closed form.

use crate::common;

use common::{assert_near, check1};
use micrograd_runtime::prelude::*;

/// `h = [x, 0]`, `g = h[0] + h[1]` by a loop, `h[1] += h[0]`: `x + x + x`.
#[differentiable]
fn added_after_read(x: f64) -> f64 {
    let mut h: [f64; 2] = [0.0; 2];
    h[0] = x;
    let mut g = 0.0;
    for i in 0..2 {
        g += h[i];
    }
    h[1] += h[0];
    h[0] + h[1] + g
}

/// The shrunk program: `sin x` summed by an iterator, then `h[0] += Σ h[i]²`:
/// `x + x² + sin x`.
#[differentiable]
fn squares_added(x: f64) -> f64 {
    let mut h: [f64; 3] = [0.0; 3];
    h[0] = x;
    let g = h.iter().copied().map(f64::sin).sum::<f64>();
    h[0] += h.iter().zip(h.iter()).map(|(&p, &q)| p * q).sum::<f64>();
    h[0] + g
}

/// The same over a `for` of the items, the addition to another entry: `x + sin x`, then
/// `h[1] = 2x`, so `3x + sin x`.
#[differentiable]
fn other_entry(x: f64) -> f64 {
    let mut h: [f64; 2] = [0.0; 2];
    h[0] = x;
    let mut g = 0.0;
    for &p in h.iter() {
        g += p.sin();
    }
    h[1] += 2.0 * h[0];
    h[0] + h[1] + g
}

const POINTS: [f64; 4] = [-1.83, -0.4, 0.7, 2.1];

#[test]
fn a_loop_read_before_an_entry_is_added_to() {
    check1(
        "added_after_read",
        added_after_read,
        added_after_read_grad,
        &POINTS,
    );
    check1("squares_added", squares_added, squares_added_grad, &POINTS);
    check1("other_entry", other_entry, other_entry_grad, &POINTS);
    for x in POINTS {
        assert_near("added_after_read", added_after_read_grad(x).1, 3.0, 1e-12);
        let closed = 1.0 + 2.0 * x + x.cos();
        assert_near("squares_added", squares_added_grad(x).1, closed, 1e-12);
        assert_near("other_entry", other_entry_grad(x).1, 3.0 + x.cos(), 1e-12);
    }
}
