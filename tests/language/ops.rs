//! Every operation of the language, differentiated against central finite differences:
//! alone on a parameter, and inside an expression; kinks checked exactly.

use crate::common;

use common::{check1, check2, check3};
use micrograd_runtime::prelude::*;

/// One module per method `m`: `alone(a) = a.m()`, and `inner(a, b)`, where `m` applies to
/// `a * b` and its result is used again, checked at the given points.
macro_rules! method {
    ($m:ident, $points:expr, $pairs:expr) => {
        mod $m {
            use super::*;

            #[differentiable]
            fn alone(a: f64) -> f64 {
                a.$m()
            }

            #[differentiable]
            fn inner(a: f64, b: f64) -> f64 {
                let t = (a * b).$m();
                t * b + a * t
            }

            #[test]
            fn against_finite_differences() {
                check1(stringify!($m), alone, alone_grad, &$points);
                check2(stringify!($m), inner, inner_grad, &$pairs);
            }
        }
    };
}

method!(
    tanh,
    [-2.0, -0.3, 0.5, 1.7],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    relu,
    [-1.5, -0.2, 0.3, 2.0],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    sigmoid,
    [-3.0, -0.5, 0.2, 2.5],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    exp,
    [-2.0, -0.1, 0.7, 3.0],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    exp2,
    [-2.0, -0.1, 0.7, 3.0],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    exp_m1,
    [-1.5, -1e-3, 0.4, 2.0],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    ln,
    [0.1, 0.9, 2.5, 40.0],
    [[0.4, 1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    ln_1p,
    [-0.5, 1e-3, 1.0, 9.0],
    [[0.4, 1.5], [-1.2, -0.3], [2.0, 0.3]]
);
method!(
    log2,
    [0.1, 0.9, 2.5, 40.0],
    [[0.4, 1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    log10,
    [0.1, 0.9, 2.5, 40.0],
    [[0.4, 1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    sqrt,
    [0.05, 0.8, 2.0, 100.0],
    [[0.4, 1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    cbrt,
    [-8.5, -0.3, 0.4, 27.0],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    sin,
    [-3.0, -0.7, 0.5, 2.2],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    cos,
    [-3.0, -0.7, 0.5, 2.2],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    tan,
    [-1.2, -0.4, 0.3, 1.0],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    asin,
    [-0.9, -0.3, 0.2, 0.8],
    [[0.4, -1.5], [-1.2, -0.5], [2.0, 0.3]]
);
method!(
    acos,
    [-0.9, -0.3, 0.2, 0.8],
    [[0.4, -1.5], [-1.2, -0.5], [2.0, 0.3]]
);
method!(
    atan,
    [-5.0, -0.5, 0.3, 4.0],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    sinh,
    [-2.0, -0.3, 0.6, 2.5],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    cosh,
    [-2.0, -0.3, 0.6, 2.5],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    abs,
    [-2.0, -0.4, 0.3, 1.5],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    recip,
    [-3.0, -0.4, 0.5, 2.0],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);
method!(
    signum,
    [-2.0, -0.4, 0.3, 1.5],
    [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]]
);

const PAIRS: [[f64; 2]; 5] = [
    [0.7, -1.3],
    [-2.1, 0.4],
    [1.6, 2.9],
    [-0.8, -3.5],
    [3.0, 0.25],
];
const TRIPLES: [[f64; 3]; 4] = [
    [0.7, -1.3, 2.0],
    [-2.1, 0.4, -0.6],
    [1.6, 2.9, 0.3],
    [-0.8, -3.5, -1.9],
];

#[differentiable]
fn add(a: f64, b: f64) -> f64 {
    a + b
}
#[differentiable]
fn sub(a: f64, b: f64) -> f64 {
    a - b
}
#[differentiable]
fn mul(a: f64, b: f64) -> f64 {
    a * b
}
#[differentiable]
fn div(a: f64, b: f64) -> f64 {
    a / b
}
#[differentiable]
fn neg(a: f64) -> f64 {
    -a
}
/// Unary minus binds looser than a method call: `-a.relu()` is `-(a.relu())`.
#[differentiable]
fn minus_method(a: f64, b: f64) -> f64 {
    -a.relu() + -b.exp() * 2.0 * -a + a * -1.5 - -a.powi(2)
}
#[differentiable]
fn arithmetic(a: f64, b: f64, c: f64) -> f64 {
    let p = (a + 2.5) * (b - a) / (a * a + 1.0) - -c;
    let q = -(a * b) + c / (b * b + 0.5) - (1.0 - c) * a;
    let same = a;
    p * q + a * a * a - b / 3.0 + 2.0 / (c * c + 1.0) + a / same
}

#[test]
fn arithmetic_operators() {
    check2("add", add, add_grad, &PAIRS);
    check2("sub", sub, sub_grad, &PAIRS);
    check2("mul", mul, mul_grad, &PAIRS);
    check2("div", div, div_grad, &PAIRS);
    check1("neg", neg, neg_grad, &[-2.0, -0.5, 0.1, 3.0]);
    check2("minus_method", minus_method, minus_method_grad, &PAIRS);
    check3("arithmetic", arithmetic, arithmetic_grad, &TRIPLES);
}

#[differentiable]
fn literals(a: f64) -> f64 {
    let x: f64 = 1.5_f64 * a + 2e-1 * a * a - 3. / (a * a + 1e0);
    x + 0.25f64 - 1_000.0 * a
}

#[differentiable]
fn constants(a: f64) -> f64 {
    let t = std::f64::consts::PI * a + std::f64::consts::E;
    t * std::f64::consts::LN_2 - (a * std::f64::consts::FRAC_PI_2).sin() / std::f64::consts::SQRT_2
}

#[test]
fn literals_and_constants() {
    let points = [-2.0, -0.4, 0.3, 1.8];
    check1("literals", literals, literals_grad, &points);
    check1("constants", constants, constants_grad, &points);
    // The closed form, independent of finite differences.
    let (_, d) = constants_grad(0.3);
    let pi = std::f64::consts::PI;
    let expected =
        pi * std::f64::consts::LN_2 - (0.3 * pi / 2.0).cos() * pi / 2.0 / std::f64::consts::SQRT_2;
    common::assert_near("constants closed form", d, expected, 1e-14);
}

#[differentiable]
fn casts(a: f64, n: usize, k: i32, m: i64, u: u32) -> f64 {
    let scale = (n * 2 + 1) as f64;
    a * scale + (a * a) * (k as f64) - (m - 3) as f64 / a + (u as f64).sqrt() * a
}

#[test]
fn integer_casts_are_constants() {
    for (n, k, m, u) in [(0, -2, 7, 9), (3, 4, -1, 0), (10, 0, 3, 16)] {
        for a in [-1.5, -0.3, 0.7, 2.2] {
            let (value, d) = casts_grad(a, n, k, m, u);
            common::assert_same_value("casts", value, casts(a, n, k, m, u), &[a]);
            common::assert_gradient("casts", |p| casts(p[0], n, k, m, u), &[a], &[d]);
        }
    }
}

#[differentiable]
fn powi_n(a: f64) -> f64 {
    a.powi(3) + a.powi(-2) - a.powi(5) / 4.0 + a.powi(1) + a.powi(0) + a.powi(2)
}
#[differentiable]
fn powi_inner(a: f64, b: f64) -> f64 {
    (a * b + 1.0).powi(4) - (a - b).powi(-3)
}
#[differentiable]
fn powf(a: f64, b: f64) -> f64 {
    a.powf(b)
}
#[differentiable]
fn powf_inner(a: f64, b: f64) -> f64 {
    (a * a + b).powf(2.5) + (a * a + 0.5).powf(b - a)
}
/// A constant receiver: the `: f64` annotation is what makes `two.powf(..)` type-check.
#[differentiable]
fn powf_base(a: f64, b: f64) -> f64 {
    let two: f64 = 2.0;
    two.powf(a * b)
}

#[test]
fn powers() {
    check1("powi", powi_n, powi_n_grad, &[-1.7, -0.4, 0.6, 2.1]);
    check2(
        "powi inner",
        powi_inner,
        powi_inner_grad,
        &[[0.5, -1.2], [1.3, 0.2], [-0.7, 2.0], [2.0, 0.1]],
    );
    let positive = [[0.5, 1.3], [2.0, -0.7], [3.1, 2.5], [1.2, 0.0], [0.9, -2.0]];
    check2("powf", powf, powf_grad, &positive);
    let inner_points = [
        [0.5, 1.3],
        [2.0, -0.7],
        [1.1, 2.5],
        [-1.2, 0.4],
        [0.9, -0.5],
    ];
    check2("powf inner", powf_inner, powf_inner_grad, &inner_points);
    check2("powf base", powf_base, powf_base_grad, &positive);
}

#[differentiable]
fn max(a: f64, b: f64) -> f64 {
    a.max(b)
}
#[differentiable]
fn min(a: f64, b: f64) -> f64 {
    a.min(b)
}
#[differentiable]
fn hypot(a: f64, b: f64) -> f64 {
    a.hypot(b)
}
#[differentiable]
fn atan2(a: f64, b: f64) -> f64 {
    a.atan2(b)
}
#[differentiable]
fn binary_inner(a: f64, b: f64) -> f64 {
    let m = (a * b).max(a - b) + (a + b).min(a * 0.5) + a.max(0.25) - b.min(-0.1);
    m * (a + 1.0).hypot(b * b) + (a * b).atan2(b - 3.0 * a) * m
}

#[test]
fn binary_methods() {
    // No ties: a != b everywhere.
    check2("max", max, max_grad, &PAIRS);
    check2("min", min, min_grad, &PAIRS);
    check2("hypot", hypot, hypot_grad, &PAIRS);
    // All four quadrants of atan2, away from the branch cut on the negative x axis.
    let quadrants = [
        [1.0, 2.0],
        [1.0, -2.0],
        [-1.0, -2.0],
        [-0.5, 0.3],
        [2.5, 0.1],
    ];
    check2("atan2", atan2, atan2_grad, &quadrants);
    check2(
        "binary inner",
        binary_inner,
        binary_inner_grad,
        &[[0.7, -1.3], [1.6, 2.9], [-0.8, -3.5], [3.0, 0.25]],
    );
}

#[differentiable]
fn chain(a: f64, b: f64) -> f64 {
    let s = (a.sin() * b).exp().ln_1p() + (a * a + b * b).sqrt().atan();
    s.sigmoid().tanh() * (b.cos() + 2.0).ln() + s.cbrt().sinh() - (a.cosh() / 4.0).recip()
}

#[test]
fn compositions() {
    check2("chain", chain, chain_grad, &PAIRS);
}

#[differentiable]
fn relu_of(a: f64) -> f64 {
    a.relu()
}
#[differentiable]
fn abs_of(a: f64) -> f64 {
    a.abs()
}
#[differentiable]
fn kinks_inside(a: f64, b: f64) -> f64 {
    (a - b).relu() * 3.0 + (a - b).abs() * 5.0 + (a * b).max(a) * 7.0 + (b + a).min(b) * 11.0
}
#[differentiable]
fn max_const(a: f64) -> f64 {
    a.max(0.5) + a.min(0.5) * 3.0
}
#[differentiable]
fn self_tie(a: f64) -> f64 {
    a.max(a) + a.min(a) * 3.0
}

#[test]
fn kinks_follow_pytorch() {
    for (a, b) in [(0.0, 0.0), (-0.0, 0.0), (1.5, 1.5), (1.0, 1.0), (0.5, 0.5)] {
        assert_eq!(relu_of_grad(a).0.to_bits(), relu_of(a).to_bits());
        assert_eq!(abs_of_grad(a).0.to_bits(), abs_of(a).to_bits());
        assert_eq!(max_const_grad(a).0.to_bits(), max_const(a).to_bits());
        assert_eq!(
            kinks_inside_grad(a, b).0.to_bits(),
            kinks_inside(a, b).to_bits()
        );
    }
    assert_eq!(relu_of_grad(0.0), (0.0, 0.0));
    assert_eq!(abs_of_grad(0.0), (0.0, 0.0));
    assert_eq!(relu_of_grad(-0.0).1, 0.0);
    assert_eq!(abs_of_grad(-0.0).1, 0.0);
    assert_eq!(max_grad(1.5, 1.5), (1.5, 0.5, 0.5));
    assert_eq!(min_grad(-2.0, -2.0), (-2.0, 0.5, 0.5));
    // a = 0.5 ties with the constant: half of each gradient reaches `a`.
    assert_eq!(max_const_grad(0.5), (2.0, 0.5 + 1.5));
    // Both halves reach `a`: d/da = 1 + 3.
    assert_eq!(self_tie_grad(1.5), (6.0, 4.0));
    assert_eq!(self_tie_grad(1.5).0.to_bits(), self_tie(1.5).to_bits());
    // At a = b = 1: relu and abs see 0 (nothing flows), max(a * b, a) ties (half to each
    // side: d/da = 7 * (b + 1) / 2, d/db = 7 * a / 2), and min(b + a, b) = b.
    let (_, da, db) = kinks_inside_grad(1.0, 1.0);
    assert_eq!((da, db), (7.0, 3.5 + 11.0));
}
