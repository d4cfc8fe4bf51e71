//! Rows passed whole to a helper (issue 24): a `&[[f64; N]]` parameter passed on as itself
//! (`rowsum(a)`), and a local matrix (`[[x, 1.0], [2.0, x]]`, `[[0.0; 2]; M]` filled in a loop)
//! passed as `&l`, to a callee taking `&[[f64; 2]]` or `&[[f64; 2]; 3]`. The IR holds rows flat,
//! row-major; the call passes them as rows again (`as_chunks`), their shadow too. `f_grad` and
//! `f_pullback` against central differences and `Dual64` on generic twins, with 0, 1 and many
//! rows, on both sides of the callee's branch; the values bit for bit `f`'s.

use crate::common;

use common::{assert_gradient, assert_near};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

/// A sum over rows with a branch on each row's sign.
#[differentiable(wrt(a))]
fn rowsum(a: &[[f64; 2]]) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len() {
        if a[i][0] > 0.0 {
            s += a[i][0] * a[i][1];
        } else {
            s += (a[i][1] - a[i][0]).sin();
        }
    }
    s
}

fn rowsum_twin<D: DualNum<Primitive = f64> + Copy>(a: &[[D; 2]]) -> D {
    let mut s = D::from(0.0);
    for r in a {
        if r[0].re() > 0.0 {
            s += r[0] * r[1];
        } else {
            s += (r[1] - r[0]).sin();
        }
    }
    s
}

/// A parameter of rows passed on whole, read before and after.
#[differentiable(wrt(a, c))]
fn scaled(a: &[[f64; 2]], c: f64) -> f64 {
    let first = match a.len() {
        0 => 1.0,
        _ => a[0][1],
    };
    c * rowsum(a) + first * c
}

fn scaled_twin<D: DualNum<Primitive = f64> + Copy>(a: &[[D; 2]], c: D) -> D {
    let first = a.first().map_or(D::from(1.0), |r| r[1]);
    c * rowsum_twin(a) + first * c
}

/// Three rows of a fixed count.
#[differentiable(wrt(m))]
fn det_like(m: &[[f64; 2]; 3]) -> f64 {
    m[0][0] * m[1][1] - m[0][1] * m[1][0] + m[2][0] * m[2][1]
}

/// A local matrix passed whole, to a callee of rows and to one of three rows.
#[differentiable(graph)]
fn local(x: f64, y: f64) -> f64 {
    let l = [[x, 1.0], [2.0, x * y]];
    let mut m = [[0.0; 2]; 3];
    for i in 0..3 {
        m[i][0] = x + i as f64;
        m[i][1] = y * m[i][0];
    }
    rowsum(&l) * y + det_like(&m)
}

fn local_twin<D: DualNum<Primitive = f64> + Copy>(x: D, y: D) -> D {
    let one = D::from(1.0);
    let l = [[x, one], [D::from(2.0), x * y]];
    let mut m = [[D::from(0.0); 2]; 3];
    for (i, row) in m.iter_mut().enumerate() {
        row[0] = x + D::from(i as f64);
        row[1] = y * row[0];
    }
    let det = m[0][0] * m[1][1] - m[0][1] * m[1][0] + m[2][0] * m[2][1];
    rowsum_twin(&l) * y + det
}

const ROWS: [&[[f64; 2]]; 3] = [&[], &[[0.7, -0.4]], &[[0.7, -0.4], [-1.1, 0.3], [0.2, 2.0]]];

/// `rows` flat, then `c`.
fn flat(rows: &[[f64; 2]], c: f64) -> Vec<f64> {
    let mut p: Vec<f64> = rows.as_flattened().to_vec();
    p.push(c);
    p
}

/// `p` as rows and `c`.
fn unflat(p: &[f64]) -> (Vec<[f64; 2]>, f64) {
    let rows = p[..p.len() - 1].chunks(2).map(|r| [r[0], r[1]]).collect();
    (rows, p[p.len() - 1])
}

#[test]
fn a_parameter_of_rows_passed_whole() {
    for a in ROWS {
        for c in [0.8, -1.5] {
            let mut d_a = vec![[0.0; 2]; a.len()];
            let (value, d_c) = scaled_grad(a, &mut d_a, c);
            assert_eq!(
                value.to_bits(),
                scaled(a, c).to_bits(),
                "scaled_grad's value"
            );
            let f = |p: &[f64]| {
                let (rows, c) = unflat(p);
                scaled(&rows, c)
            };
            let gradient = flat(&d_a, d_c);
            assert_gradient("scaled_grad", f, &flat(a, c), &gradient);
            // Dual64 along each entry.
            let point = flat(a, c);
            for (k, g) in gradient.iter().enumerate() {
                let at: Vec<Dual64> = point
                    .iter()
                    .enumerate()
                    .map(|(j, x)| Dual64::new(*x, if j == k { 1.0 } else { 0.0 }))
                    .collect();
                let rows: Vec<[Dual64; 2]> =
                    at[..at.len() - 1].chunks(2).map(|r| [r[0], r[1]]).collect();
                let dual = scaled_twin(&rows, at[at.len() - 1]);
                assert_near("scaled_grad against Dual64", *g, dual.eps, 1e-12);
            }
            // The pullback scales by its seed.
            let mut d_a2 = vec![[0.0; 2]; a.len()];
            let d_c2 = scaled_pullback(a, &mut d_a2, c, 2.0);
            assert_eq!(d_c2, 2.0 * d_c, "scaled_pullback's d_c");
            assert_eq!(
                flat(&d_a2, 0.0)[..],
                flat(&d_a, 0.0).iter().map(|d| 2.0 * d).collect::<Vec<_>>()[..]
            );
        }
    }
}

#[test]
fn a_local_matrix_passed_whole() {
    for (x, y) in [(0.7, -0.4), (-1.1, 0.3), (0.2, 2.0)] {
        let (value, d_x, d_y) = local_grad(x, y);
        assert_eq!(value.to_bits(), local(x, y).to_bits(), "local_grad's value");
        assert_gradient("local_grad", |p| local(p[0], p[1]), &[x, y], &[d_x, d_y]);
        let along_x = local_twin(Dual64::new(x, 1.0), Dual64::new(y, 0.0));
        let along_y = local_twin(Dual64::new(x, 0.0), Dual64::new(y, 1.0));
        assert_eq!(along_x.re.to_bits(), value.to_bits(), "the twin's value");
        assert_near("local_grad d_x against Dual64", d_x, along_x.eps, 1e-12);
        assert_near("local_grad d_y against Dual64", d_y, along_y.eps, 1e-12);
        // The graph goes through the callees' pullbacks with the rows as rows.
        let graph = local_graph(x, y);
        let output = graph.node(graph.output().expect("backward was called"));
        assert_eq!(
            output.data().to_bits(),
            value.to_bits(),
            "local_graph's value"
        );
        let gx = graph.find("x").expect("input x").grad();
        let gy = graph.find("y").expect("input y").grad();
        assert_near("local_graph d_x against Dual64", gx, along_x.eps, 1e-12);
        assert_near("local_graph d_y against Dual64", gy, along_y.eps, 1e-12);
    }
}
