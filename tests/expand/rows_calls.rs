use micrograd_runtime::prelude::*;

/// A sum over rows.
#[differentiable(wrt(a))]
fn rowsum(a: &[[f64; 2]]) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len() {
        s += a[i][0] * a[i][1];
    }
    s
}

/// A parameter of rows passed on whole: as rows, its shadow too.
#[differentiable(wrt(a, c))]
fn scaled(a: &[[f64; 2]], c: f64) -> f64 {
    c * rowsum(a)
}

/// A local matrix passed whole.
#[differentiable]
fn local(x: f64) -> f64 {
    let l = [[x, 1.0], [2.0, x]];
    rowsum(&l)
}
