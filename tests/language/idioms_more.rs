//! More of the Rust engineers write first: paths to `f64` methods where a closure goes
//! (`.fold(f64::NEG_INFINITY, f64::max)`, `.map(f64::exp)`), `sin_cos`, `to_radians`,
//! `to_degrees`, `log`, `copysign`, `fract`, and the tests `is_nan`, `is_finite`, ... in
//! conditions. Against central differences, closed forms and the `Value` engine; the value bit
//! for bit `f`'s; and once through a differentiable caller's pullback.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value, check_slice};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// log Σ exp(x_i), shifted by the maximum as numerical code writes it.
#[differentiable]
fn logsumexp(x: &[f64]) -> f64 {
    let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let s = x.iter().copied().map(|v| v - m).map(f64::exp).sum::<f64>();
    m + s.ln()
}

/// Every arity of step a path can be: one argument in `map`, two in `fold`.
#[differentiable]
fn paths(x: &[f64]) -> f64 {
    let low = x.iter().copied().fold(f64::INFINITY, f64::min);
    let norm = x.iter().copied().fold(0.0, f64::hypot);
    let roots = x.iter().copied().map(f64::abs).map(f64::sqrt).sum::<f64>();
    let squashed = x.iter().rev().copied().map(<f64>::tanh).product::<f64>();
    low * norm + roots - squashed
}

fn logsumexp_value(x: &[Value]) -> Value {
    let m = x
        .iter()
        .max_by(|a, b| a.data().total_cmp(&b.data()))
        .expect("a point")
        .clone();
    let s = x.iter().fold(Value::new(-0.0), |s, v| s + (v - &m).exp());
    &m + s.ln()
}

const SLICES: [&[f64]; 4] = [
    &[0.3, -1.2, 2.5],
    &[1.0],
    &[-0.4, 0.7, 0.1, -2.2, 1.3],
    &[4.0, 3.5, -1.0, 0.25],
];

#[test]
fn paths_where_closures_go() {
    for x in SLICES {
        check_slice("logsumexp", logsumexp, logsumexp_grad, x);
        check_slice("paths", paths, paths_grad, x);
        let mut d_x = vec![0.0; x.len()];
        let value = logsumexp_grad(x, &mut d_x);
        let inputs: Vec<Value> = x.iter().map(|&v| Value::new(v)).collect();
        let reference = logsumexp_value(&inputs);
        reference.backward();
        assert_near("logsumexp vs Value", value, reference.data(), 1e-15);
        for (input, d) in inputs.iter().zip(&d_x) {
            assert_near("logsumexp d/dx vs Value", input.grad(), *d, 1e-12);
        }
    }
}

/// The std functions defined by others, each used once.
#[differentiable]
fn angles(t: f64, r: f64, deg: f64) -> f64 {
    let (s, c) = t.sin_cos();
    let a = deg.to_radians();
    let sc = f64::sin_cos(a);
    r * s + c * sc.0 + sc.1 * t.to_degrees() + r.log(3.0) + deg.log(r)
}

/// ∂/∂(t, r, deg) of [`angles`], by hand.
fn angles_closed(t: f64, r: f64, deg: f64) -> [f64; 3] {
    let k = std::f64::consts::PI / 180.0;
    let a = deg * k;
    let (ln3, lnr, lnd) = (3f64.ln(), r.ln(), deg.ln());
    [
        r * t.cos() - t.sin() * a.sin() + a.cos() / k,
        t.sin() + 1.0 / (r * ln3) - lnd / (r * lnr * lnr),
        t.cos() * a.cos() * k - a.sin() * k * t / k + 1.0 / (deg * lnr),
    ]
}

#[differentiable]
fn signs(x: f64, y: f64) -> f64 {
    let m = (x * y).copysign(y - 0.5) + x.copysign(-1.0);
    m * (x * 3.0).fract() + y.fract()
}

fn signs_closed(x: f64, y: f64) -> [f64; 2] {
    let (p, f) = (x * y, (x * 3.0).fract());
    let s = if (p >= 0.0) == (y - 0.5 >= 0.0) {
        1.0
    } else {
        -1.0
    };
    let m = p.copysign(y - 0.5) + x.copysign(-1.0);
    // x.copysign(-1.0) is -|x|.
    let dm_dx = s * y - x.signum();
    [dm_dx * f + m * 3.0, s * x * f + 1.0]
}

#[test]
fn std_functions_by_their_definitions() {
    for [t, r, deg] in [[0.3, 2.0, 30.0], [-1.2, 0.7, 200.5], [2.9, 5.5, 1.5]] {
        let (value, dt, dr, dd) = angles_grad(t, r, deg);
        assert_same_value("angles", value, angles(t, r, deg), &[t, r, deg]);
        let f = |p: &[f64]| angles(p[0], p[1], p[2]);
        assert_gradient("angles", f, &[t, r, deg], &[dt, dr, dd]);
        for (name, a, b) in [("t", dt, 0), ("r", dr, 1), ("deg", dd, 2)] {
            assert_near(name, a, angles_closed(t, r, deg)[b], 1e-12);
        }
    }
    for [x, y] in [[0.3, 2.2], [-1.1, 0.2], [0.7, -0.4], [-2.05, -3.1]] {
        let (value, dx, dy) = signs_grad(x, y);
        assert_same_value("signs", value, signs(x, y), &[x, y]);
        assert_gradient("signs", |p| signs(p[0], p[1]), &[x, y], &[dx, dy]);
        let [cx, cy] = signs_closed(x, y);
        assert_near("signs d/dx", dx, cx, 1e-12);
        assert_near("signs d/dy", dy, cy, 1e-12);
    }
}

/// `copysign` at 0 passes no gradient to its first operand (PyTorch); nor ever to the sign.
#[test]
fn copysign_at_zero() {
    #[differentiable]
    fn lift(x: f64, y: f64) -> f64 {
        x.copysign(y) + 2.0 * x
    }
    assert_eq!(lift_grad(0.0, -1.0), (0.0, 2.0, 0.0));
    assert_eq!(lift_grad(-0.0, 1.0), (0.0, 2.0, 0.0));
    assert_eq!(lift_grad(-3.0, 1.0), (-3.0, 1.0, 0.0));
    assert_eq!(lift_grad(3.0, -0.0), (3.0, 1.0, 0.0));
}

/// The tests of a float's class, each deciding a branch.
#[differentiable]
fn classes(x: f64, y: f64) -> f64 {
    let q = x / y;
    if q.is_nan() {
        x + y
    } else if q.is_infinite() {
        x * 2.0
    } else if !q.is_finite() {
        0.0
    } else if q.is_sign_negative() {
        q * x
    } else if f64::is_sign_positive(y) {
        q.sqrt() * y
    } else {
        -q
    }
}

fn classes_value(x: f64, y: f64) -> (f64, f64, f64) {
    let (vx, vy) = (Value::new(x), Value::new(y));
    let q = &vx / &vy;
    let out = if x == 0.0 && y == 0.0 {
        &vx + &vy
    } else if y == 0.0 {
        &vx * 2.0
    } else if q.data().is_sign_negative() {
        &q * &vx
    } else if y.is_sign_positive() {
        q.powf_half() * &vy
    } else {
        -q
    };
    out.backward();
    (out.data(), vx.grad(), vy.grad())
}

trait Half {
    fn powf_half(&self) -> Value;
}

impl Half for Value {
    /// √q as exp(ln q / 2): the `Value` engine has no `sqrt`.
    fn powf_half(&self) -> Value {
        (self.ln() * 0.5).exp()
    }
}

#[test]
fn class_tests_in_conditions() {
    let points = [
        [0.0, 0.0],
        [1.5, 0.0],
        [-1.5, -0.0],
        [-0.75, 2.0],
        [0.0, -2.0],
        [0.75, 2.0],
        [0.75, -2.0],
    ];
    for [x, y] in points {
        let (value, dx, dy) = classes_grad(x, y);
        assert_same_value("classes", value, classes(x, y), &[x, y]);
        let (reference, vx, vy) = classes_value(x, y);
        assert_near("classes vs Value", value, reference, 1e-15);
        // At y = 0 the quotient's pullback is 0 / 0 = NaN even where no branch reads it, as
        // PyTorch's is: the value (bit for bit `f`'s, above) shows which branch ran.
        if y != 0.0 {
            assert_near("classes d/dx vs Value", dx, vx, 1e-12);
            assert_near("classes d/dy vs Value", dy, vy, 1e-12);
        }
        if y != 0.0 && x != 0.0 {
            assert_gradient("classes", |p| classes(p[0], p[1]), &[x, y], &[dx, dy]);
        }
    }
}

/// A differentiable caller of each, differentiated through their pullbacks.
#[differentiable]
fn caller(x: f64, y: f64, w: &[f64]) -> f64 {
    let (s, c) = (x * y).sin_cos();
    logsumexp(w) * s + paths(&w[1..]) * c + angles(x, y + 2.0, 40.0) + signs(y, x) + classes(x, y)
}

#[test]
fn through_a_caller() {
    let w = [0.6, -1.4, 0.3];
    let f = |p: &[f64]| caller(p[0], p[1], &p[2..]);
    for [x, y] in [[0.3, 1.2], [-0.8, 0.45], [1.1, -0.3]] {
        let mut d_w = [0.0; 3];
        let (value, dx, dy) = caller_grad(x, y, &w, &mut d_w);
        assert_same_value("caller", value, caller(x, y, &w), &[x, y]);
        assert_gradient(
            "caller",
            f,
            &[x, y, w[0], w[1], w[2]],
            &[dx, dy, d_w[0], d_w[1], d_w[2]],
        );
        let mut seeded = [0.0; 3];
        let (px, py) = caller_pullback(x, y, &w, &mut seeded, 0.5);
        assert_near("caller pullback d/dx", px, 0.5 * dx, 1e-15);
        assert_near("caller pullback d/dy", py, 0.5 * dy, 1e-15);
        for (a, b) in seeded.iter().zip(d_w) {
            assert_near("caller pullback d/dw", *a, 0.5 * b, 1e-15);
        }
    }
}
