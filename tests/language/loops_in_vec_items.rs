//! A `for` over items inside a `vec!`'s items: the desugaring pass rewrites it there too (it
//! was refused after the pass first landed, found by random program 545 of seed 3).

// The function is about what a `vec!` holds, not whether it needs the heap.
#![allow(clippy::useless_vec)]

use micrograd_runtime::prelude::*;

#[differentiable]
fn scaled_sum(x: f64, w: &[f64]) -> f64 {
    let v = vec![
        {
            let mut s = x;
            for a in w[1..].iter().copied() {
                s += a * x;
            }
            s
        },
        x,
    ];
    v[0] * v[1]
}

#[test]
fn a_for_over_items_inside_vec_items_is_differentiated() {
    // f = x * (x + x * (w1 + w2)) = x² (1 + w1 + w2): ∂f/∂x = 2x (1 + w1 + w2), ∂f/∂wi = x².
    let (x, w) = (1.5, [1.0, 2.0, 3.0]);
    let mut d_w = [0.0; 3];
    let (y, d_x) = scaled_sum_grad(x, &w, &mut d_w);
    assert_eq!(y, scaled_sum(x, &w));
    assert!((y - x * x * 6.0).abs() < 1e-12);
    assert!((d_x - 2.0 * x * 6.0).abs() < 1e-12);
    assert_eq!(d_w, [0.0, x * x, x * x]);
}
