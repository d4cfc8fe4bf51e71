//! Loops, slices and local arrays (issue 3), against central finite differences.

use crate::common;

use common::{assert_gradient, assert_same_value, check_slice, check_two_slices};
use micrograd_runtime::prelude::*;

#[differentiable]
fn dot(w: &[f64], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += w[i] * x[i];
    }
    s
}

const W: [f64; 5] = [0.3, -1.2, 0.8, 2.1, -0.4];
const X: [f64; 5] = [1.5, 0.2, -0.7, 0.9, -1.8];

#[test]
fn dot_product() {
    check_two_slices("dot", dot, dot_grad, &W, &X);
    check_two_slices("dot of one", dot, dot_grad, &W[..1], &X[..1]);
    check_two_slices("dot of none", dot, dot_grad, &[], &[]);
    // Closed form: d/dw = x, d/dx = w.
    let (mut d_w, mut d_x) = ([0.0; 5], [0.0; 5]);
    dot_grad(&W, &mut d_w, &X, &mut d_x);
    assert_eq!((d_w, d_x), (X, W));
}

#[differentiable(wrt(w, b))]
fn neuron(w: &[f64], b: f64, x: &[f64]) -> f64 {
    let mut s = b;
    for i in 0..w.len() {
        s += w[i] * x[i];
    }
    s.tanh()
}

#[test]
fn neuron_wrt_weights_and_bias() {
    for b in [-0.7, 0.1, 0.5, 1.3] {
        let mut d_w = [0.0; 5];
        let (value, db): (f64, f64) = neuron_grad(&W, &mut d_w, b, &X);
        assert_same_value("neuron", value, neuron(&W, b, &X), &W);
        let point: Vec<f64> = W.iter().copied().chain([b]).collect();
        let gradient: Vec<f64> = d_w.iter().copied().chain([db]).collect();
        assert_gradient("neuron", |p| neuron(&p[..5], p[5], &X), &point, &gradient);
    }
}

#[differentiable]
fn iterate(x: f64, n: usize) -> f64 {
    let mut y = x;
    for _ in 0..n {
        y = (y * 0.9).sin() + 0.1;
    }
    y
}

#[test]
fn loop_overwriting_its_variable() {
    for n in [0, 1, 2, 40] {
        for x in [-2.0, -0.3, 0.5, 1.7] {
            let (value, d) = iterate_grad(x, n);
            assert_same_value("iterate", value, iterate(x, n), &[x]);
            assert_gradient(&format!("iterate n={n}"), |p| iterate(p[0], n), &[x], &[d]);
        }
    }
    assert_eq!(iterate_grad(0.7, 0), (0.7, 1.0));
    assert_eq!(iterate_grad(0.7, 1).1, 0.9 * (0.7_f64 * 0.9).cos());
}

#[differentiable]
fn triangle(w: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..=n {
        for j in i..=n {
            s += w[i] * w[j] * ((j - i + 1) as f64);
        }
    }
    let mut y = 1.0;
    for i in 1..=n {
        for _ in 0..i {
            y = (y * w[i] + s).tanh();
        }
    }
    s + y
}

#[test]
fn nested_inclusive_loops() {
    for n in [0, 1, 4] {
        check_slice(
            "triangle",
            |w| triangle(w, n),
            |w, d| triangle_grad(w, d, n),
            &W[..=n],
        );
    }
}

#[differentiable]
fn clipped(x: &[f64], c: f64) -> f64 {
    let mut s = 0.0;
    let mut r = c;
    for i in 0..x.len() {
        if x[i] > 0.0 {
            s += x[i] * x[i];
        } else if x[i] < -1.0 && r > 0.0 {
            s -= 0.5 * x[i] * r;
        } else {
            s += (x[i] * c).sin();
        }
        r = if s > 1.0 { r * 0.5 - x[i] } else { r + s };
    }
    s * r
}

#[test]
fn branches_inside_loops() {
    for c in [-0.9, 0.4, 1.1, 2.5] {
        let point: Vec<f64> = X.iter().copied().chain([c]).collect();
        let mut d_x = [0.0; 5];
        let (value, dc) = clipped_grad(&X, &mut d_x, c);
        assert_same_value("clipped", value, clipped(&X, c), &point);
        let gradient: Vec<f64> = d_x.iter().copied().chain([dc]).collect();
        assert_gradient("clipped", |p| clipped(&p[..5], p[5]), &point, &gradient);
    }
}

#[differentiable]
fn parts(w: &[f64], x: &[f64]) -> f64 {
    let a = dot(&w[1..3], &x[0..2]);
    let b = dot(&w[3..], &x[3..]);
    let c = dot(&w[..1], &x[4..]);
    a * b + c.sin()
}

#[differentiable(wrt(w))]
fn window(w: &[f64], x: &[f64], k: usize) -> f64 {
    dot(&w[k..k + 2], &x[..2]).tanh() + w[0]
}

#[test]
fn calls_with_sub_slices() {
    check_two_slices("parts", parts, parts_grad, &W, &X);
    // By hand: w[0] only meets x[4] through c, w[1..3] meet x[0..2] through a * b.
    let (mut d_w, mut d_x) = ([0.0; 5], [0.0; 5]);
    parts_grad(&W, &mut d_w, &X, &mut d_x);
    let b = W[3] * X[3] + W[4] * X[4];
    let c = W[0] * X[4];
    assert_eq!(d_w[0], c.cos() * X[4]);
    assert_eq!([d_w[1], d_w[2]], [X[0] * b, X[1] * b]);
    assert_eq!(d_x[2], 0.0);
    for k in [0, 1, 3] {
        let mut d_w = [0.0; 5];
        let value = window_grad(&W, &mut d_w, &X, k);
        assert_same_value("window", value, window(&W, &X, k), &W);
        assert_gradient("window", |p| window(p, &X, k), &W, &d_w);
    }
}

#[differentiable]
fn square(a: f64) -> f64 {
    a * a
}

#[differentiable]
fn iterate_calls(w: &[f64], x: f64) -> f64 {
    let mut y = x;
    for i in 0..w.len() {
        y = square(y * w[i]).tanh() + iterate(y, 3);
    }
    y
}

#[differentiable]
fn windows(w: &[f64], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() - 1 {
        s += dot(&w[i..i + 2], &x[i..i + 2]).sin();
    }
    s
}

#[test]
fn calls_inside_loops() {
    for x in [-1.0, 0.3, 0.9] {
        let mut d_w = [0.0; 5];
        let (value, dx) = iterate_calls_grad(&W, &mut d_w, x);
        let point: Vec<f64> = W.iter().copied().chain([x]).collect();
        assert_same_value("iterate_calls", value, iterate_calls(&W, x), &point);
        let gradient: Vec<f64> = d_w.iter().copied().chain([dx]).collect();
        let f = |p: &[f64]| iterate_calls(&p[..5], p[5]);
        assert_gradient("iterate_calls", f, &point, &gradient);
    }
    check_two_slices("windows", windows, windows_grad, &W, &X);
}

/// Integer arithmetic on indices, a local array indexed by it, and empty ranges.
#[differentiable]
fn indices(w: &[f64], n: usize) -> f64 {
    let m = n * 2;
    let mut h = [0.0; 4];
    let mut s = 0.0;
    for i in 0..m {
        let k = (i + 1) % 4;
        h[k] += w[i] * w[(i + 3) % m];
        s += h[(k + 1) % 4] * h[k];
    }
    for i in 2..n {
        s += w[i];
    }
    s
}

#[test]
fn integer_index_arithmetic() {
    let w = [0.3, -1.2, 0.8, 2.1, -0.4, 0.5, 0.6, -0.9];
    for n in [0, 1, 2, 4] {
        check_slice(
            "indices",
            |p| indices(p, n),
            |p, d| indices_grad(p, d, n),
            &w[..2 * n],
        );
    }
}

#[differentiable]
fn scratch(a: f64, b: f64) -> f64 {
    let mut h = [0.0; 3];
    h[0] = a * b;
    h[1] = h[0].sin();
    h[2] += a;
    h[2] += h[1] * b;
    h[0] = h[2] * h[2];
    h[1] += h[0];
    h[0] + h[1] * h[2]
}

#[differentiable]
fn prefix(w: &[f64]) -> f64 {
    let mut h = [0.0; 5];
    for i in 0..5 {
        h[i] = w[i] * w[i];
    }
    for i in 1..5 {
        h[i] += h[i - 1] * 0.5;
    }
    for i in 0..5 {
        h[i] = h[i].tanh();
    }
    let mut s = 0.0;
    for i in 0..5 {
        s += h[i] * (i as f64 + 1.0);
    }
    s
}

#[test]
fn local_arrays() {
    let pairs = [[0.4, -1.2], [-1.5, 0.8], [1.0, 2.5], [0.1, -3.0]];
    common::check2("scratch", scratch, scratch_grad, &pairs);
    check_slice("prefix", prefix, prefix_grad, &W);
    check_slice("prefix", prefix, prefix_grad, &X);
}

/// A 2-4-1 network, tanh hidden layer, hinge loss over 8 points plus L2, in one function.
/// Parameters: `p[0..8]` hidden weights (row j: `p[2j], p[2j+1]`), `p[8..12]` hidden biases,
/// `p[12..16]` output weights, `p[16]` output bias.
#[differentiable(wrt(p))]
fn hinge_loss(p: &[f64], x: &[f64], y: &[f64]) -> f64 {
    let mut total = 0.0;
    for k in 0..y.len() {
        let mut h = [0.0; 4];
        for j in 0..4 {
            h[j] = p[2 * j] * x[2 * k] + p[2 * j + 1] * x[2 * k + 1] + p[8 + j];
            h[j] = h[j].tanh();
        }
        let mut score = p[16];
        for j in 0..4 {
            score += p[12 + j] * h[j];
        }
        total += (1.0 - y[k] * score).relu();
    }
    let mut l2 = 0.0;
    for i in 0..p.len() {
        l2 += p[i] * p[i];
    }
    total / (y.len() as f64) + 1e-4 * l2
}

#[test]
fn two_layer_network_with_hinge_loss() {
    let x = [
        1.0, 0.5, -0.3, 1.2, 0.8, -0.9, -1.1, -0.4, 0.2, 0.1, -0.6, 0.7, 1.4, 1.1, 0.0, -1.3,
    ];
    let y = [1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0];
    let p: Vec<f64> = (0..17)
        .map(|i| (i as f64 * 1.7 + 0.3).sin() * 0.9)
        .collect();
    let mut d_p = vec![0.0; 17];
    let value = hinge_loss_grad(&p, &mut d_p, &x, &y);
    assert_same_value("hinge", value, hinge_loss(&p, &x, &y), &p);
    assert_gradient("hinge", |q| hinge_loss(q, &x, &y), &p, &d_p);
    // The point is away from the hinge: finite differences see one side of every kink, and
    // both sides occur (some points inside the margin, some outside).
    let margins: Vec<f64> = (0..8)
        .map(|k| {
            let unit = (0..4).map(|j| {
                let n = p[2 * j] * x[2 * k] + p[2 * j + 1] * x[2 * k + 1] + p[8 + j];
                p[12 + j] * n.tanh()
            });
            1.0 - y[k] * (p[16] + unit.sum::<f64>())
        })
        .collect();
    assert!(margins.iter().all(|m| m.abs() > 1e-3), "{margins:?}");
    assert!(
        margins.iter().any(|&m| m > 0.0) && margins.iter().any(|&m| m < 0.0),
        "{margins:?}"
    );
}

#[differentiable]
fn fixed(w: &[f64; 3], a: f64, x: &[f64; 3]) -> f64 {
    let mut s = w[0] * a + w[1].sin() * w[2];
    for i in 0..3 {
        s += w[i] * w[i] * x[i];
    }
    s * dot(w, x)
}

#[test]
fn array_parameters() {
    let (w, x) = ([0.3, -1.2, 0.8], [1.5, 0.2, -0.7]);
    for a in [-1.1, 0.2, 0.9, 2.4] {
        let (mut d_w, mut d_x) = ([0.0; 3], [0.0; 3]);
        let (value, da) = fixed_grad(&w, &mut d_w, a, &x, &mut d_x);
        let point = [w[0], w[1], w[2], a, x[0], x[1], x[2]];
        assert_same_value("fixed", value, fixed(&w, a, &x), &point);
        let gradient = [d_w[0], d_w[1], d_w[2], da, d_x[0], d_x[1], d_x[2]];
        let f = |p: &[f64]| fixed(&[p[0], p[1], p[2]], p[3], &[p[4], p[5], p[6]]);
        assert_gradient("fixed", f, &point, &gradient);
    }
}

/// The same slice twice in one call, and overlapping sub-slices.
#[differentiable]
fn aliased(w: &[f64]) -> f64 {
    dot(w, w) + dot(&w[..2], &w[1..3])
}

#[test]
fn a_slice_passed_twice() {
    check_slice("aliased", aliased, aliased_grad, &W[..3]);
    check_slice("aliased", aliased, aliased_grad, &X);
}

#[test]
fn shadows_accumulate() {
    let (mut d_w, mut d_x) = ([0.0; 5], [0.0; 5]);
    dot_grad(&W, &mut d_w, &X, &mut d_x);
    let once = (d_w, d_x);
    dot_grad(&W, &mut d_w, &X, &mut d_x);
    assert_eq!(d_w, once.0.map(|g| 2.0 * g));
    assert_eq!(d_x, once.1.map(|g| 2.0 * g));
    let mut d_w = [10.0, 20.0, 30.0, 40.0, 50.0];
    let mut d_x = [0.0; 5];
    neuron_grad(&W, &mut d_w, 0.3, &X);
    let mut fresh = [0.0; 5];
    neuron_grad(&W, &mut fresh, 0.3, &X);
    for i in 0..5 {
        assert_eq!(d_w[i], 10.0 * (i + 1) as f64 + fresh[i], "d_w[{i}]");
    }
    let mut d_p = [1.0, -1.0];
    dot_grad(&[1.0, 2.0], &mut d_p, &[3.0, 4.0], &mut d_x[..2]);
    assert_eq!(d_p, [4.0, 3.0]);
    assert_eq!(&d_x[..2], &[1.0, 2.0]);
}

#[test]
#[should_panic(expected = "d_w")]
fn wrong_length_shadow_panics() {
    dot_grad(&W, &mut [0.0; 4], &X, &mut [0.0; 5]);
}

#[test]
#[should_panic(expected = "d_x")]
fn wrong_length_second_shadow_names_it() {
    dot_grad(&W, &mut [0.0; 5], &X, &mut [0.0; 6]);
}
