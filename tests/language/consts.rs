//! Constants, literals and paths (issue 12): `const` / `static` items in the body and outside,
//! every float literal form, `f64::EPSILON`-style constants, UFCS and qualified paths, checked
//! against central differences, a differentiable caller and `f_graph`.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value, check_slice, check1, check2};
use micrograd_runtime::prelude::*;

const SCALE: f64 = 0.75;
const ROWS: usize = 2;
const COLS: usize = 3;
static OFFSET: f64 = 1.5;

#[differentiable(graph)]
fn constants(x: f64, y: f64) -> f64 {
    const K: f64 = 2.5;
    static N: usize = 3;
    const HALF: f64 = K / 5.0;
    let a = x * K + SCALE * y - OFFSET;
    let b = 2f64 * a + 1e-3 * y + 1_000.0 * x * 1.0e-4 + 0.5_f64;
    let c = (N as f64) * HALF * f64::EPSILON * 1e10 + (ROWS * COLS) as f64;
    let d = std::f64::consts::PI * x + core::f64::consts::E * y + std::f64::consts::LN_2;
    let e = f64::sin(x) + <f64>::cos(y) + core::primitive::f64::tanh(a) + f64::powi(b, 2);
    let f = f64::from(i32::MAX / 1_000_000_000) * x + (usize::MAX % 7) as f64 * y;
    a * b + c + d + e + f - f64::MAX.min(x * y)
}

#[test]
fn constants_against_differences() {
    let points = [[0.3, -1.1], [1.7, 0.4], [-0.8, 2.3]];
    check2("constants", constants, constants_grad, &points);
}

#[differentiable]
fn uses_constants(x: f64) -> f64 {
    const TWO: f64 = 2.0;
    constants(x * TWO, x.sin()) * SCALE
}

#[test]
fn constants_through_a_caller_and_the_graph() {
    check1(
        "uses_constants",
        uses_constants,
        uses_constants_grad,
        &[-0.7, 0.2, 1.1],
    );
    for [x, y] in [[0.3, -1.1], [1.7, 0.4]] {
        let (value, dx, dy) = constants_grad(x, y);
        assert_same_value("constants", value, constants(x, y), &[x, y]);
        assert_gradient("constants", |p| constants(p[0], p[1]), &[x, y], &[dx, dy]);
        let graph = constants_graph(x, y);
        assert_eq!(graph.node(graph.output().expect("output")).data(), value);
        assert_near("graph x", graph.find("x").expect("x").grad(), dx, 1e-12);
        assert_near("graph y", graph.find("y").expect("y").grad(), dy, 1e-12);
    }
}

/// Items are in scope in all of their block: used here before they are declared, at the
/// top level, in a loop body, a branch, a match arm and a block expression.
#[differentiable]
fn declared_after_use(x: f64, w: &[f64], n: usize) -> f64 {
    let mut s = x * HALF;
    for i in 0..w.len() {
        s += w[i] * STEP * (i as f64);
        const STEP: f64 = 0.25;
    }
    if x > 0.0 {
        s *= GAIN;
        const GAIN: f64 = 1.5;
    }
    let m = match n {
        0 => x * ZERO,
        _ => {
            let t = x * MANY;
            const MANY: f64 = 3.0;
            t
        }
    };
    let b = {
        let u = s * TWICE;
        static TWICE: f64 = 2.0;
        u
    };
    const HALF: f64 = 0.5;
    const ZERO: f64 = 0.0;
    b + m + (COUNT as f64) * x
}

const COUNT: usize = 4;

#[test]
fn constants_declared_after_their_use() {
    for n in [0, 2] {
        for point in [[0.7, 0.3, -1.2], [-0.4, 1.1, 0.5]] {
            check_slice(
                "declared_after_use",
                |p| declared_after_use(p[0], &p[1..], n),
                |p, d| {
                    let (value, d_x) = declared_after_use_grad(p[0], &p[1..], &mut d[1..], n);
                    d[0] = d_x;
                    value
                },
                &point,
            );
        }
    }
}
