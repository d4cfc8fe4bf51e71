//! Data that is not differentiated may be of any type: `&[[f64; 2]]`, `&[usize]`,
//! `&[(f64, f64)]`, `&[Vec<f64>]`, `&str`, `Option<f64>`, tuples and arrays of integers. It
//! passes through every flavour with no shadow, and the body reads it as `f` does. Each
//! gradient is checked against central differences (and num-dual where a generic twin fits),
//! each value bit for bit `f`'s, at points that cross the branches, with 0, 1 and many rows.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

const PTS: [[f64; 2]; 5] = [
    [0.5, -1.0],
    [1.5, 2.0],
    [-0.3, 0.7],
    [2.0, -0.4],
    [0.0, 1.0],
];
const LABELS: [usize; 5] = [1, 0, 2, 1, 0];

/// A softmax-free classifier loss: row `labels[i]` of `w` scores point `pts[i]`; the hinge
/// crosses its kink at points on both sides.
#[differentiable(hvp, hessian)]
fn loss(w: &[f64], b: f64, pts: &[[f64; 2]], labels: &[usize]) -> f64 {
    let mut s = 0.0;
    for i in 0..pts.len() {
        let k = labels[i];
        let z = w[2 * k] * pts[i][0] + w[2 * k + 1] * pts[i][1] + b;
        if z > 0.5 {
            s += z * z;
        } else {
            s += z - 0.25;
        }
    }
    s
}

fn loss_generic<D: DualNum<Primitive = f64> + Copy>(
    w: &[D],
    b: D,
    pts: &[[f64; 2]],
    labels: &[usize],
) -> D {
    let mut s = D::from(0.0);
    for i in 0..pts.len() {
        let k = labels[i];
        let z = w[2 * k] * D::from(pts[i][0]) + w[2 * k + 1] * D::from(pts[i][1]) + b;
        if z.re() > 0.5 {
            s += z * z;
        } else {
            s += z - D::from(0.25);
        }
    }
    s
}

fn points() -> Vec<[f64; 7]> {
    vec![
        [0.3, -0.2, 0.8, 0.1, -0.5, 0.4, 0.1],
        [-1.0, 0.5, 0.2, -0.7, 1.2, 0.3, -0.6],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.5],
    ]
}

#[test]
fn a_loss_over_points_and_labels() {
    for rows in [0, 1, 5] {
        let (pts, labels) = (&PTS[..rows], &LABELS[..rows]);
        for x in points() {
            let (w, b) = (&x[..6], x[6]);
            let mut d_w = [0.0; 6];
            let (value, d_b) = loss_grad(w, &mut d_w, b, pts, labels);
            assert_same_value("loss", value, loss(w, b, pts, labels), &x);
            let mut gradient = d_w.to_vec();
            gradient.push(d_b);
            let f = |p: &[f64]| loss(&p[..6], p[6], pts, labels);
            assert_gradient("loss", f, &x, &gradient);
            // num-dual's gradient, entry by entry.
            for (j, &g) in gradient.iter().enumerate() {
                let mut dual: Vec<Dual64> = x.iter().map(|&v| Dual64::from(v)).collect();
                dual[j] = dual[j].derivative();
                let reference = loss_generic(&dual[..6], dual[6], pts, labels).eps;
                assert_near("loss (num-dual)", g, reference, 1e-12);
            }
        }
    }
}

#[test]
fn second_order_flavours_read_the_data_too() {
    let (pts, labels) = (&PTS[..], &LABELS[..]);
    let x = points()[0];
    let (w, b) = (&x[..6], x[6]);
    let v = [0.5, -1.0, 0.25, 0.0, 1.0, 2.0];
    let (value, tangent) = loss_jvp(w, &v, b, 0.5, pts, labels);
    assert_same_value("loss_jvp", value, loss(w, b, pts, labels), &x);
    let f = |t: f64| {
        let moved: Vec<f64> = w.iter().zip(&v).map(|(w, v)| w + t * v).collect();
        loss(&moved, b + 0.5 * t, pts, labels)
    };
    assert_near("loss_jvp", tangent, common::derivative(f, 0.0), 1e-6);
    // H v by central differences of the gradient along v.
    let mut hv = [0.0; 6];
    let (value, hv_b) = loss_hvp(w, &v, &mut hv, b, 0.5, pts, labels);
    assert_same_value("loss_hvp", value, loss(w, b, pts, labels), &x);
    let grad_at = |t: f64, k: usize| {
        let moved: Vec<f64> = w.iter().zip(&v).map(|(w, v)| w + t * v).collect();
        let mut d_w = [0.0; 6];
        let (_, d_b) = loss_grad(&moved, &mut d_w, b + 0.5 * t, pts, labels);
        if k < 6 { d_w[k] } else { d_b }
    };
    let got = hv.iter().copied().chain([hv_b]);
    for (k, got) in got.enumerate() {
        let reference = common::derivative(|t| grad_at(t, k), 0.0);
        assert_near("loss_hvp", got, reference, 1e-5);
    }
    let mut h = [0.0; 49];
    let value = loss_hessian(w, b, pts, labels, &mut h);
    assert_same_value("loss_hessian", value, loss(w, b, pts, labels), &x);
    for r in 0..7 {
        for c in 0..7 {
            let reference = common::derivative(
                |t| {
                    let mut moved = x;
                    moved[c] += t;
                    let mut d_w = [0.0; 6];
                    let (_, d_b) = loss_grad(&moved[..6], &mut d_w, moved[6], pts, labels);
                    if r < 6 { d_w[r] } else { d_b }
                },
                0.0,
            );
            assert_near("loss_hessian", h[7 * r + c], reference, 1e-5);
        }
    }
}

/// `for &(x, y) in data`: a least-squares line through pairs.
#[differentiable]
fn line(a: f64, b: f64, data: &[(f64, f64)]) -> f64 {
    let mut s = 0.0;
    for &(x, y) in data {
        let r = a * x + b - y;
        s += if r > 0.0 { r * r } else { -r };
    }
    s / (data.len() as f64 + 1.0)
}

#[test]
fn pairs_taken_apart_in_the_loop_head() {
    let data = [(0.0, 1.0), (1.0, 2.5), (2.0, 2.9), (-1.0, -0.5)];
    for rows in [0, 1, 4] {
        let data = &data[..rows];
        for x in [[0.5, 1.1], [1.2, -0.3], [-2.0, 0.1]] {
            let (value, d_a, d_b) = line_grad(x[0], x[1], data);
            assert_same_value("line", value, line(x[0], x[1], data), &x);
            assert_gradient("line", |p| line(p[0], p[1], data), &x, &[d_a, d_b]);
        }
    }
}

/// `for p in pts` with `p[0]`, `for (p, &y) in pts.iter().zip(labels)`, `labels[i]` in a
/// `match` and `as f64`.
#[differentiable(jvp)]
fn scores(w: [f64; 2], pts: &[[f64; 2]], labels: &[usize]) -> f64 {
    let mut s = 0.0;
    for p in pts {
        s += (w[0] * p[0] - w[1] * p[1]).tanh();
    }
    for (p, &y) in pts.iter().zip(labels) {
        let t = match y {
            0 => w[0] * p[1],
            1 => w[1] * p[0] * y as f64,
            _ => -(w[0] + w[1]),
        };
        s += t;
    }
    s
}

#[test]
fn items_of_data_in_loops_and_matches() {
    for rows in [0, 1, 5] {
        let (pts, labels) = (&PTS[..rows], &LABELS[..rows]);
        for x in [[0.3, -0.8], [1.5, 0.25]] {
            let (value, d_w) = scores_grad(x, pts, labels);
            assert_same_value("scores", value, scores(x, pts, labels), &x);
            assert_gradient("scores", |p| scores([p[0], p[1]], pts, labels), &x, &d_w);
            let (value, tangent) = scores_jvp(x, [1.0, -2.0], pts, labels);
            assert_same_value("scores_jvp", value, scores(x, pts, labels), &x);
            assert_near("scores_jvp", tangent, d_w[0] - 2.0 * d_w[1], 1e-12);
        }
    }
}

/// Rows of different lengths: `rows.len()`, `rows[i].len()`, `rows[i][j]`.
#[differentiable]
fn ragged(w: &[f64], rows: &[Vec<f64>]) -> f64 {
    let mut s = 0.0;
    for i in 0..rows.len() {
        for j in 0..rows[i].len() {
            s += w[j] * rows[i][j];
        }
    }
    s * s
}

#[test]
fn ragged_rows() {
    let rows = [vec![1.0, 2.0], vec![], vec![0.5, -1.0, 3.0]];
    for n in [0, 1, 3] {
        let rows = &rows[..n];
        let x = [0.3, -0.7, 1.1];
        let mut d_w = [0.0; 3];
        let value = ragged_grad(&x, &mut d_w, rows);
        assert_same_value("ragged", value, ragged(&x, rows), &x);
        assert_gradient("ragged", |p| ragged(p, rows), &x, &d_w);
    }
}

/// Data of no float at all, by value and by reference: `&str`, `[i32; 2]`, `&Vec<i32>`, a
/// tuple of integers, `Option<f64>` (passed through unread).
#[differentiable]
#[allow(clippy::ptr_arg)]
fn mixed_data(
    x: f64,
    name: &str,
    v: [i32; 2],
    w: &Vec<i32>,
    t: (usize, i64),
    _o: Option<f64>,
) -> f64 {
    let n = name.len() as f64;
    x * n + (v[0] + v[1]) as f64 * x.sin() + w.len() as f64 + (t.0 as i64 + t.1) as f64 * x
}

#[test]
fn data_without_floats() {
    let w = vec![1, 2, 3];
    for x in [0.5, -2.0] {
        let (value, d_x) = mixed_data_grad(x, "abc", [1, -4], &w, (2, -7), Some(1.0));
        assert_same_value(
            "mixed_data",
            value,
            mixed_data(x, "abc", [1, -4], &w, (2, -7), None),
            &[x],
        );
        let f = |p: &[f64]| mixed_data(p[0], "abc", [1, -4], &w, (2, -7), None);
        assert_gradient("mixed_data", f, &[x], &[d_x]);
    }
}

/// A vector output over data: `f_jacobian` reads it in every row.
#[differentiable(jacobian)]
fn centroid(w: &[f64], pts: &[[f64; 2]]) -> [f64; 2] {
    let mut c = [0.0, 0.0];
    for (i, p) in pts.iter().enumerate() {
        c[0] += w[i] * p[0];
        c[1] += w[i] * p[1] * p[1];
    }
    c
}

#[test]
fn a_jacobian_over_data() {
    let x = [0.5, -1.0, 2.0, 0.25, 1.0];
    let mut d_w = [0.0; 10];
    let (value, _) = centroid_jacobian(&x, &mut d_w, &PTS);
    assert_eq!(value, centroid(&x, &PTS));
    for k in 0..2 {
        let f = |p: &[f64]| centroid(p, &PTS)[k];
        assert_gradient("centroid", f, &x, &d_w[5 * k..5 * k + 5]);
    }
}

/// Rows as sequences: `rows[i].iter()` in reductions and loops, `pts.iter().map(..)`, a
/// closure reading data by index, `let [a, b] = pts[i];`, `let (x, y) = data[i];`.
#[differentiable]
fn reductions(w: &[f64], rows: &[Vec<f64>], pts: &[[f64; 2]], data: &[(f64, f64)]) -> f64 {
    let mut s = 0.0;
    for i in 0..rows.len() {
        s += rows[i].iter().map(|x| x * w[0]).sum::<f64>();
        for &x in rows[i].iter() {
            s += w[1] * x;
        }
        for x in &rows[i] {
            s -= w[0] * *x * 0.5;
        }
    }
    s += pts.iter().map(|p| (p[0] * w[0]).sin() + p[1]).sum::<f64>();
    s += (0..pts.len())
        .map(|i| w[1] * pts[i][1])
        .fold(0.0, |acc, t| acc + t * t);
    for i in 0..pts.len() {
        let [a, b] = pts[i];
        let (x, y) = data[i];
        s += (a * w[0] - b * w[1]) * x + y;
    }
    s
}

#[test]
fn rows_in_reductions_and_patterns() {
    let rows = [vec![1.0, 2.0], vec![], vec![0.5, -1.0, 3.0]];
    let data = [(0.0, 1.0), (1.0, 2.5), (2.0, 2.9), (-1.0, -0.5), (0.3, 0.3)];
    for n in [0, 1, 3] {
        let (rows, pts, data) = (&rows[..n], &PTS[..n], &data[..n]);
        for x in [[0.3, -0.7], [1.1, 2.0]] {
            let mut d_w = [0.0; 2];
            let value = reductions_grad(&x, &mut d_w, rows, pts, data);
            assert_same_value("reductions", value, reductions(&x, rows, pts, data), &x);
            assert_gradient("reductions", |p| reductions(p, rows, pts, data), &x, &d_w);
        }
    }
}

/// Data handed on to another `#[differentiable]` function, whole and by element.
#[differentiable(hvp)]
fn row_score(w: &[f64], pts: &[[f64; 2]], pair: &(f64, usize), i: usize) -> f64 {
    let k = pair.1;
    (w[k] * pts[i][0] + w[k + 1] * pts[i][1] * pair.0).tanh()
}

#[differentiable(hvp)]
fn total(w: &[f64], pts: &[[f64; 2]], labels: &[usize], pairs: &[(f64, usize)]) -> f64 {
    let mut s = 0.0;
    for i in 0..pts.len() {
        s += row_score(w, pts, &pairs[i], i)
            * row_score(w, pts, &pairs[pts.len() - 1 - i], pts.len() - 1 - i);
    }
    s + loss(w, 0.6137, pts, labels)
}

#[test]
fn data_passed_to_calls() {
    let pairs = [(0.5, 0), (1.5, 2), (-1.0, 4), (2.0, 1), (0.1, 3)];
    for rows in [0, 1, 5] {
        let (pts, labels, pairs) = (&PTS[..rows], &LABELS[..rows], &pairs[..rows]);
        for x in points() {
            let w = &x[..6];
            let mut d_w = [0.0; 6];
            let value = total_grad(w, &mut d_w, pts, labels, pairs);
            assert_same_value("total", value, total(w, pts, labels, pairs), w);
            assert_gradient("total", |p| total(p, pts, labels, pairs), w, &d_w);
            let v = [1.0, 0.5, -0.5, 0.0, 2.0, 1.0];
            let mut hv = [0.0; 6];
            let value = total_hvp(w, &v, &mut hv, pts, labels, pairs);
            assert_same_value("total_hvp", value, total(w, pts, labels, pairs), w);
            for k in 0..6 {
                let reference = common::derivative(
                    |t| {
                        let moved: Vec<f64> = w.iter().zip(&v).map(|(w, v)| w + t * v).collect();
                        let mut d_w = [0.0; 6];
                        total_grad(&moved, &mut d_w, pts, labels, pairs);
                        d_w[k]
                    },
                    0.0,
                );
                assert_near(
                    &format!("total_hvp {rows} {x:?} {k}"),
                    hv[k],
                    reference,
                    1e-5,
                );
            }
        }
    }
}

/// A recurrence, reversed after the forward loop: the reverse sweep reads `pts[i][0]` again
/// (or its record) at each iteration, and a `while` with a `break` on data, and data in a
/// condition.
#[differentiable(hvp)]
fn recurrence(w: &[f64], pts: &[[f64; 2]], labels: &[usize]) -> f64 {
    let mut h = w[0];
    for i in 0..pts.len() {
        h = (h * pts[i][0] + w[1] * pts[i][1]).tanh() * (1.0 + labels[i] as f64);
    }
    let mut j = 0;
    let mut g = h;
    while j < pts.len() {
        if pts[j][1] > 0.5 && labels[j] != 2 {
            g = g * g * pts[j][1] - w[2];
        } else if g > 3.0 {
            break;
        }
        j += 1;
    }
    g
}

#[test]
fn data_read_again_in_the_reverse_sweep() {
    for rows in [0, 1, 5] {
        let (pts, labels) = (&PTS[..rows], &LABELS[..rows]);
        for x in [[0.3, -0.2, 0.8], [1.5, 0.7, -0.4], [-0.9, 1.1, 0.05]] {
            let mut d_w = [0.0; 3];
            let value = recurrence_grad(&x, &mut d_w, pts, labels);
            assert_same_value("recurrence", value, recurrence(&x, pts, labels), &x);
            assert_gradient("recurrence", |p| recurrence(p, pts, labels), &x, &d_w);
            let v = [0.5, 1.0, -2.0];
            let (value, tangent) = recurrence_jvp(&x, &v, pts, labels);
            assert_same_value("recurrence_jvp", value, recurrence(&x, pts, labels), &x);
            let along: f64 = d_w.iter().zip(&v).map(|(d, v)| d * v).sum();
            assert_near("recurrence_jvp", tangent, along, 1e-12);
        }
    }
}

/// `f_graph` records a read of data as a constant node.
#[differentiable(graph)]
fn drawn(a: f64, pts: &[[f64; 2]]) -> f64 {
    a * pts[0][0] + pts[1][1]
}

#[test]
fn a_graph_over_data() {
    let graph = drawn_graph(2.0, &PTS);
    let output = graph.output().expect("an output node");
    assert_eq!(graph.node(output).data(), drawn(2.0, &PTS));
    let a = graph.find("a").expect("a leaf `a`");
    assert_eq!(a.grad(), PTS[0][0]);
}

/// A struct without the derive, by value and not `Copy`, handed on to a call (its fields are
/// not read yet): the generated
/// code clones it for each call it makes (the forward sweep's, the pullback's, each row of
/// `f_hessian`'s).
#[derive(Clone, Debug)]
#[allow(dead_code)] // `name` is never read: a `pub` struct of a module is not exported
pub struct Settings {
    /// What the settings are called.
    pub name: String,
}

#[differentiable(hessian)]
fn scaled(x: f64, y: f64, settings: Settings) -> f64 {
    x * y * weight(x, settings)
}

#[differentiable(hessian)]
fn weight(x: f64, _settings: Settings) -> f64 {
    (x * 3.0).sin()
}

#[test]
fn data_that_is_not_copy_is_cloned_where_the_code_calls_twice() {
    let settings = Settings {
        name: "abc".to_string(),
    };
    let x = [0.7, -1.3];
    let (value, d_x, d_y) = scaled_grad(x[0], x[1], settings.clone());
    assert_same_value("scaled", value, scaled(x[0], x[1], settings.clone()), &x);
    let f = |p: &[f64]| scaled(p[0], p[1], settings.clone());
    assert_gradient("scaled", f, &x, &[d_x, d_y]);
    let (value, h) = scaled_hessian(x[0], x[1], settings.clone());
    assert_same_value(
        "scaled_hessian",
        value,
        scaled(x[0], x[1], settings.clone()),
        &x,
    );
    assert_near("scaled_hessian", h[0][1], h[1][0], 1e-12);
}

/// The same in `f32`: data of `f32`s reads as constants of the function's float type.
#[differentiable(hvp)]
fn loss32(w: &[f32], pts: &[[f32; 2]], labels: &[usize]) -> f32 {
    let mut s = 0.0;
    for (p, &y) in pts.iter().zip(labels) {
        s += (w[y] * p[0] - p[1]).powi(2);
    }
    s
}

#[test]
fn data_in_f32() {
    let pts = [[0.5f32, -1.0], [1.5, 2.0], [-0.25, 0.75]];
    let labels = [1, 0, 1];
    let w = [0.3f32, -0.7];
    let mut d_w = [0.0f32; 2];
    let value = loss32_grad(&w, &mut d_w, &pts, &labels);
    assert_eq!(value.to_bits(), loss32(&w, &pts, &labels).to_bits());
    // d/dw[k] of sum (w[y] p0 - p1)^2 = sum over rows with y = k of 2 (w[k] p0 - p1) p0.
    for (k, &d) in d_w.iter().enumerate() {
        let mut reference = 0.0f64;
        for (p, &y) in pts.iter().zip(&labels) {
            if y == k {
                let r = f64::from(w[k]) * f64::from(p[0]) - f64::from(p[1]);
                reference += 2.0 * r * f64::from(p[0]);
            }
        }
        assert_near("loss32", f64::from(d), reference, 1e-5);
    }
}

/// Integers in a `Vec` by value: read as `f` reads them, cloned for each `f_hvp` of
/// `f_hessian`.
#[differentiable(hessian)]
fn powers(x: f64, exponents: Vec<i32>) -> f64 {
    let mut s = 0.0;
    for i in 0..exponents.len() {
        s += x.powi(exponents[i]);
    }
    s
}

#[test]
fn a_vec_of_integers_by_value() {
    for x in [0.5, 1.7] {
        let (value, d_x) = powers_grad(x, vec![1, 2, 3]);
        assert_same_value("powers", value, powers(x, vec![1, 2, 3]), &[x]);
        assert_near("powers", d_x, 1.0 + 2.0 * x + 3.0 * x * x, 1e-12);
        let (_, h) = powers_hessian(x, vec![1, 2, 3]);
        assert_near("powers_hessian", h[0][0], 2.0 + 6.0 * x, 1e-12);
    }
}

/// A custom derivative of a function of data: the body is called, the rule differentiated.
#[differentiable(derivative(x = poly_dx))]
fn poly(x: f64, coefficients: &[(usize, f64)]) -> f64 {
    let mut s = 0.0;
    for &(k, c) in coefficients {
        s += c * x.powi(k as i32);
    }
    s
}

#[differentiable]
fn poly_dx(x: f64, coefficients: &[(usize, f64)]) -> f64 {
    let mut s = 0.0;
    for &(k, c) in coefficients {
        if k > 0 {
            s += c * k as f64 * x.powi(k as i32 - 1);
        }
    }
    s
}

#[differentiable]
fn through_rule(x: f64, coefficients: &[(usize, f64)]) -> f64 {
    poly(x * x, coefficients).sin()
}

#[test]
fn a_custom_derivative_over_data() {
    let coefficients = [(0, 1.0), (2, -0.5), (3, 0.25)];
    for x in [0.3, -1.2] {
        let (value, d_x) = through_rule_grad(x, &coefficients);
        assert_same_value("through_rule", value, through_rule(x, &coefficients), &[x]);
        assert_gradient(
            "through_rule",
            |p| through_rule(p[0], &coefficients),
            &[x],
            &[d_x],
        );
    }
}

/// A row bound before the index that chose it moves on: `p` keeps the row it was bound to.
#[differentiable]
fn walk(w: &[f64], pts: &[[f64; 2]]) -> f64 {
    let mut s = 0.0;
    let mut j = 0;
    while j < pts.len() {
        let p = pts[j];
        j += 1;
        s += w[0] * p[0] + (w[1] * p[1]).sin() * j as f64;
    }
    s
}

#[test]
fn a_row_keeps_its_index() {
    for rows in [0, 1, 5] {
        let pts = &PTS[..rows];
        let x = [0.4, -1.3];
        let mut d_w = [0.0; 2];
        let value = walk_grad(&x, &mut d_w, pts);
        assert_same_value("walk", value, walk(&x, pts), &x);
        assert_gradient("walk", |p| walk(p, pts), &x, &d_w);
    }
}

/// `bool`s read from data, in conditions, `&&`, a `match` and a `let`.
#[differentiable(hvp)]
fn masked(w: &[f64], mask: &[bool], flags: &[(bool, usize)]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        if mask[i] && w[i] > -1.0 {
            s += w[i] * w[i];
        } else {
            s -= w[i].sin();
        }
        let on = flags[i].0;
        s += match on {
            true => w[flags[i].1] * 2.0,
            false => 0.5,
        };
    }
    s
}

#[test]
fn bools_read_from_data() {
    let mask = [true, false, true];
    let flags = [(true, 2), (false, 0), (true, 1)];
    for x in [[0.3, -2.0, 1.5], [-1.5, 0.7, 0.2]] {
        let mut d_w = [0.0; 3];
        let value = masked_grad(&x, &mut d_w, &mask, &flags);
        assert_same_value("masked", value, masked(&x, &mask, &flags), &x);
        assert_gradient("masked", |p| masked(p, &mask, &flags), &x, &d_w);
        let v = [1.0, 0.0, -1.0];
        let (value, tangent) = masked_jvp(&x, &v, &mask, &flags);
        assert_same_value("masked_jvp", value, masked(&x, &mask, &flags), &x);
        assert_near("masked_jvp", tangent, d_w[0] - d_w[2], 1e-12);
    }
}

/// Scalars behind references are read through the reference, `*x` or `x` alike; a `&f64`
/// left out of `wrt(..)` is data (`tests/language/ref_scalars.rs` differentiates one).
#[differentiable(wrt(a))]
fn behind(a: f64, x: &f64, n: &usize, flag: &bool) -> f64 {
    let k = *n + 1;
    let y = if *flag { a * *x } else { a - x };
    y * k as f64 + x.sin()
}

#[test]
fn scalars_behind_references() {
    for (a, flag) in [(0.5, true), (-1.5, false)] {
        let (value, d_a) = behind_grad(a, &2.0, &3, &flag);
        assert_same_value("behind", value, behind(a, &2.0, &3, &flag), &[a]);
        assert_gradient("behind", |p| behind(p[0], &2.0, &3, &flag), &[a], &[d_a]);
    }
}
