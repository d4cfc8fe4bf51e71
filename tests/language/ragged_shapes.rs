//! Rows of their own lengths (`w: &[Vec<f64>]` in `wrt(..)`): a shadow or tangent must have
//! `w`'s shape, row by row, not only its number of rows. A row of another length is the
//! caller's mistake, one panic at the call naming the row (before, a shorter row panicked
//! with an index out of bounds inside the generated code, and a longer one was let through).

use micrograd_runtime::prelude::*;

#[differentiable(hvp, wrt(w))]
fn weighted(w: &[Vec<f64>], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for row in w {
        s += row.iter().zip(x).map(|(a, b)| a * a * b).sum::<f64>();
    }
    s
}

fn rows() -> Vec<Vec<f64>> {
    vec![vec![1.0, 2.0], vec![], vec![3.0, -1.0, 0.5]]
}

const X: [f64; 3] = [0.5, -1.0, 2.0];

#[test]
fn a_shadow_of_the_same_shape_is_taken() {
    let w = rows();
    let mut d_w: Vec<Vec<f64>> = w.iter().map(|r| vec![0.0; r.len()]).collect();
    let value = weighted_grad(&w, &mut d_w, &X);
    assert_eq!(value.to_bits(), weighted(&w, &X).to_bits());
    // d/dw[i][j] of w[i][j]^2 x[j]: 2 w[i][j] x[j].
    assert_eq!(d_w, [vec![1.0, -4.0], vec![], vec![3.0, 2.0, 2.0]]);
    // An empty shadow in the pullback: a constant argument, not checked row by row.
    weighted_pullback(&w, &mut [], &X, &mut [], 1.0);
}

#[test]
#[should_panic(
    expected = "weighted_grad: row 2 of the shadow `d_w` has 2 entries but row 2 of `w` has 3; they must have the same shape"
)]
fn a_shadow_row_shorter_than_its_row_panics_at_the_call() {
    let w = rows();
    weighted_grad(&w, &mut [vec![0.0; 2], vec![], vec![0.0; 2]], &X);
}

#[test]
#[should_panic(expected = "row 0 of the shadow `d_w` has 3 entries but row 0 of `w` has 2")]
fn a_shadow_row_longer_than_its_row_panics_at_the_call() {
    let w = rows();
    weighted_pullback(
        &w,
        &mut [vec![0.0; 3], vec![], vec![0.0; 3]],
        &X,
        &mut [],
        1.0,
    );
}

#[test]
#[should_panic(
    expected = "weighted_jvp: row 1 of the tangent `v_w` has 1 entries but row 1 of `w` has 0; they must have the same shape"
)]
fn a_tangent_row_of_another_length_panics_at_the_call() {
    let w = rows();
    weighted_jvp(&w, &[vec![1.0; 2], vec![1.0], vec![1.0; 3]], &X);
}

#[test]
#[should_panic(expected = "row 2 of the shadow `d_w` has 4 entries but row 2 of `w` has 3")]
fn an_hvp_shadow_row_of_another_length_panics_at_the_call() {
    let w = rows();
    let v_w: Vec<Vec<f64>> = w.iter().map(|r| vec![1.0; r.len()]).collect();
    let mut hv_w = vec![vec![0.0; 2], vec![], vec![0.0; 4]];
    weighted_hvp(&w, &v_w, &mut hv_w, &X);
}
