//! The language in `f32` (issue 13): loops, slices, arrays, branches, constants, calls. Each
//! program is written once over a float type `$T` and instantiated as `f32` (`narrow`) and
//! `f64` (`wide`): the `f32` gradient is checked against central differences of the `f64` one,
//! and its value is bit for bit the `f32` function's.

use crate::common;

use common::assert_f32_partial;
use micrograd_runtime::prelude::*;

macro_rules! programs {
    ($T:ident) => {
        use micrograd_runtime::prelude::*;

        #[differentiable]
        pub fn dot(w: &[$T], x: &[$T]) -> $T {
            let mut s = 0.0;
            for i in 0..w.len() {
                s += w[i] * x[i];
            }
            s
        }

        #[differentiable]
        pub fn neuron(w: &[$T; 3], b: $T, x: &[$T]) -> $T {
            let s: $T = w.iter().zip(x).map(|(a, c)| a * c).sum::<$T>();
            (s + b).tanh()
        }

        #[differentiable]
        pub fn iterate(x: $T, n: usize) -> $T {
            let mut y = x;
            for k in 0..n {
                y = (y * 0.9).sin() + 0.1 * k as $T;
            }
            y
        }

        #[differentiable]
        pub fn newton(x: $T) -> $T {
            let mut y = x;
            let mut k = 0.0;
            while k < 5.0 {
                y = y - 0.5 * (y * y - 2.0) / y.abs().max(1.0);
                k += 1.0;
                if y > 10.0 {
                    break;
                }
            }
            y
        }

        #[differentiable]
        pub fn branches(x: $T, n: i32) -> $T {
            let base = match n {
                0 => x.exp(),
                1 | 2 => x * x,
                _ => -x,
            };
            if base > 1.0 {
                base.ln()
            } else if base < -1.0 {
                -base
            } else {
                base * 0.5
            }
        }

        #[differentiable]
        pub fn windows(w: &[$T]) -> $T {
            let mut s = 0.0;
            for pair in w.windows(2) {
                s += (pair[1] - pair[0]).powi(2);
            }
            let total = w.iter().fold(0.0, |acc, v| acc + v * v);
            s + total.sqrt()
        }

        #[differentiable]
        pub fn local_array(x: $T, w: &[$T]) -> $T {
            let mut h = [0.0; 3];
            for i in 0..3 {
                h[i] = (w[i] * x).relu() + (w[i] - x).sigmoid();
            }
            let [a, b, c] = h;
            a * b + c + h.len() as $T
        }

        #[differentiable]
        pub fn constants(x: $T) -> $T {
            const K: $T = 1.5;
            x * K + x.sin() * std::$T::consts::PI + $T::EPSILON + <$T>::cos(x) + $T::exp(x * 0.1)
        }

        #[differentiable]
        pub fn calls(w: &[$T], x: $T) -> $T {
            dot(w, w) * constants(x) + iterate(x, 3)
        }

        #[differentiable]
        #[allow(clippy::ptr_arg)] // `&Vec` is the parameter kind under test
        pub fn kinds(v: &Vec<$T>, p: [$T; 2], x: $T) -> $T {
            let m = x * p[0] + v[1].mul_add(p[1], 0.5);
            m * x + p[1] * v[0]
        }

        #[differentiable]
        pub fn exits(x: $T, w: &[$T]) -> $T {
            for i in 0..w.len() {
                if w[i] < 0.0 {
                    continue;
                }
                if w[i] * x > 2.0 {
                    return w[i] * x;
                }
            }
            let mut y = x;
            let last = loop {
                y = y * 0.5 + 0.25;
                if y < 0.6 {
                    break y * y;
                }
            };
            last + y
        }
    };
}

mod narrow {
    programs!(f32);
}

mod wide {
    programs!(f64);
}

const W: [f32; 5] = [0.3, -1.2, 0.8, 2.1, -0.4];
const X: [f32; 5] = [1.5, 0.2, -0.7, 0.9, -1.8];

/// `point` widened to `f64`.
fn wide(point: &[f32]) -> Vec<f64> {
    point.iter().copied().map(f64::from).collect()
}

/// Checks each of `gradient` (the `f32` partials at `point`) against the `f64` twin `f`.
fn check(name: &str, f: impl Fn(&[f64]) -> f64, point: &[f32], gradient: &[f32]) {
    assert_eq!(point.len(), gradient.len(), "{name}");
    for (i, &g) in gradient.iter().enumerate() {
        assert_f32_partial(name, &f, &wide(point), i, g);
    }
}

#[test]
fn slices_and_arrays() {
    let (mut d_w, mut d_x) = ([0.0_f32; 5], [0.0_f32; 5]);
    let value = narrow::dot_grad(&W, &mut d_w, &X, &mut d_x);
    assert_eq!(value.to_bits(), narrow::dot(&W, &X).to_bits());
    assert_eq!((d_w, d_x), (X, W), "d/dw = x, d/dx = w");

    let w3 = [0.3_f32, -1.2, 0.8];
    for b in [-0.7_f32, 0.4] {
        let (mut d_w, mut d_x) = ([0.0_f32; 3], [0.0_f32; 3]);
        let (value, db) = narrow::neuron_grad(&w3, &mut d_w, b, &X[..3], &mut d_x);
        assert_eq!(value.to_bits(), narrow::neuron(&w3, b, &X[..3]).to_bits());
        let point: Vec<f32> = w3.iter().copied().chain([b]).collect();
        let gradient: Vec<f32> = d_w.iter().copied().chain([db]).collect();
        let f = |p: &[f64]| wide::neuron(&[p[0], p[1], p[2]], p[3], &wide(&X[..3]));
        check("neuron", f, &point, &gradient);
    }

    let mut d_w = [0.0_f32; 5];
    let value = narrow::windows_grad(&W, &mut d_w);
    assert_eq!(value.to_bits(), narrow::windows(&W).to_bits());
    check("windows", wide::windows, &W, &d_w);
}

#[test]
fn loops_and_branches() {
    for x in [-1.3_f32, 0.2, 0.9, 1.7] {
        let (value, d) = narrow::iterate_grad(x, 6);
        assert_eq!(value.to_bits(), narrow::iterate(x, 6).to_bits());
        check("iterate", |p| wide::iterate(p[0], 6), &[x], &[d]);

        let (value, d) = narrow::newton_grad(x);
        assert_eq!(value.to_bits(), narrow::newton(x).to_bits());
        check("newton", |p| wide::newton(p[0]), &[x], &[d]);

        for n in 0..4 {
            let (value, d) = narrow::branches_grad(x, n);
            assert_eq!(value.to_bits(), narrow::branches(x, n).to_bits());
            check("branches", |p| wide::branches(p[0], n), &[x], &[d]);
        }
    }
}

#[test]
fn arrays_constants_calls_and_exits() {
    for x in [-0.8_f32, 0.35, 1.1, 3.0] {
        let mut d_w = [0.0_f32; 5];
        let (value, dx) = narrow::local_array_grad(x, &W, &mut d_w);
        assert_eq!(value.to_bits(), narrow::local_array(x, &W).to_bits());
        let point: Vec<f32> = [x].into_iter().chain(W).collect();
        let gradient: Vec<f32> = [dx].into_iter().chain(d_w).collect();
        check(
            "local_array",
            |p| wide::local_array(p[0], &p[1..]),
            &point,
            &gradient,
        );

        let (value, d) = narrow::constants_grad(x);
        assert_eq!(value.to_bits(), narrow::constants(x).to_bits());
        check("constants", |p| wide::constants(p[0]), &[x], &[d]);

        let mut d_w = [0.0_f32; 5];
        let (value, dx) = narrow::calls_grad(&W, &mut d_w, x);
        assert_eq!(value.to_bits(), narrow::calls(&W, x).to_bits());
        let point: Vec<f32> = W.into_iter().chain([x]).collect();
        let gradient: Vec<f32> = d_w.into_iter().chain([dx]).collect();
        check("calls", |p| wide::calls(&p[..5], p[5]), &point, &gradient);

        let mut d_w = [0.0_f32; 5];
        let (value, dx) = narrow::exits_grad(x, &W, &mut d_w);
        assert_eq!(value.to_bits(), narrow::exits(x, &W).to_bits());
        let point: Vec<f32> = [x].into_iter().chain(W).collect();
        let gradient: Vec<f32> = [dx].into_iter().chain(d_w).collect();
        check("exits", |p| wide::exits(p[0], &p[1..]), &point, &gradient);
    }
}

/// `x * 0.1 * 0.3`: the reverse sweep folds the two constants into one at compile time.
#[differentiable]
fn folded(x: f32) -> f32 {
    x * 0.1 * 0.3
}

/// Suffixed literals and casts spelled in `f32`.
#[differentiable]
fn suffixed(x: f32, n: u32) -> f32 {
    2f32 * x + 0.5_f32 * x * n as f32 + f32::from(3u8) * 1e-1f32
}

#[test]
fn constants_fold_in_f32_arithmetic() {
    let (_, d) = folded_grad(1.25);
    // The product in f32 arithmetic, not the f64 product 0.03 rounded to f32: they differ.
    assert_eq!(d, 0.1_f32 * 0.3_f32);
    assert_ne!(d, (0.1_f64 * 0.3_f64) as f32);
    let (value, d) = suffixed_grad(1.5, 3);
    assert_eq!(value.to_bits(), suffixed(1.5, 3).to_bits());
    assert_eq!(d, 2.0 + 0.5 * 3.0);
}

/// `f_graph` of an `f32` function records its values widened to `f64`.
#[differentiable(graph)]
fn drawn(w: &[f32], x: f32) -> f32 {
    let mut s = x;
    for i in 0..w.len() {
        s = (s * w[i]).tanh() + 0.5;
    }
    s * dot_of(w, w)
}

#[differentiable]
fn dot_of(w: &[f32], v: &[f32]) -> f32 {
    w.iter().zip(v).map(|(a, b)| a * b).sum::<f32>()
}

#[test]
fn graph_of_an_f32_function_matches_its_gradient() {
    let mut d_w = [0.0_f32; 5];
    let (value, d_x) = drawn_grad(&W, &mut d_w, 0.7);
    let graph = drawn_graph(&W, 0.7);
    let output = graph.node(graph.output().expect("an output"));
    assert_eq!(output.data(), f64::from(value));
    let close = |a: f64, b: f32| (a - f64::from(b)).abs() <= 1e-5 * (1.0 + a.abs());
    assert!(close(graph.find("x").expect("x").grad(), d_x));
    for (i, d) in d_w.iter().enumerate() {
        assert!(close(
            graph.find(&format!("w[{i}]")).expect("w[i]").grad(),
            *d
        ));
    }
}

/// `detach` stops the gradient in `f32` too.
#[differentiable]
fn stopped(a: f32) -> f32 {
    a * a.detach()
}

#[test]
fn detach_in_f32() {
    assert_eq!(stopped_grad(3.0), (9.0, 3.0));
}

#[test]
fn parameter_kinds_in_f32() {
    let (v, p, x) = (vec![0.3_f32, -1.1], [0.7_f32, 1.9], 1.25_f32);
    let mut d_v = [0.0_f32; 2];
    let (value, d_p, d_x) = narrow::kinds_grad(&v, &mut d_v, p, x);
    assert_eq!(value.to_bits(), narrow::kinds(&v, p, x).to_bits());
    let point = [v[0], v[1], p[0], p[1], x];
    let gradient = [d_v[0], d_v[1], d_p[0], d_p[1], d_x];
    let f = |q: &[f64]| wide::kinds(&vec![q[0], q[1]], [q[2], q[3]], q[4]);
    check("kinds", f, &point, &gradient);
}
