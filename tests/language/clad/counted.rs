//! Counted `for` loops from Clad's `test/Gradient/Loops.C`: fixed and input-dependent trip
//! counts, locals and arrays inside the body, slices read and written.

use crate::common::{check_slice, check1, check2};
use micrograd_runtime::prelude::*;

/// Loops.C `f1`: x^3 by repeated multiplication.
#[differentiable]
fn f1(x: f64) -> f64 {
    let mut t = 1.0;
    for _ in 0..3 {
        t *= x;
    }
    t
}

/// Loops.C `f2`: x^9 by two nested loops.
#[differentiable]
fn f2(x: f64) -> f64 {
    let mut t = 1.0;
    for _ in 0..3 {
        for _ in 0..3 {
            t *= x;
        }
    }
    t
}

/// Loops.C `f5`: the parameter itself stepped ten times.
#[differentiable]
fn f5(mut x: f64) -> f64 {
    for _ in 0..10 {
        x += 1.0;
    }
    x
}

/// Loops.C `f_const_local`: an immutable local that depends on the counter.
#[differentiable]
fn f_const_local(x: f64) -> f64 {
    let mut res = 0.0;
    for i in 0..3 {
        let n = x + i as f64;
        res += x * n;
    }
    res
}

/// Loops.C `f6`: locals overwritten every iteration.
#[differentiable]
fn f6(i: f64, j: f64) -> f64 {
    let mut a = 0.0;
    for _ in 0..3 {
        let mut b = i * i;
        let c = j * j;
        b += j;
        a += b + c + i;
    }
    a
}

/// Loops.C `fn40`: a `continue` as the last statement.
#[differentiable]
fn fn40(u: f64, _v: f64) -> f64 {
    let mut res = 11.0 * u;
    for i in 0..3 {
        res += u * i as f64;
        continue;
    }
    res
}

/// Loops.C `fn43`: `1 / x[i]` through an immutable local.
#[differentiable]
fn fn43(x: &[f64]) -> f64 {
    let mut out = 0.0;
    for i in 0..3 {
        let t4 = x[i];
        out += 1.0 / t4;
    }
    out
}

/// Loops.C `fn45` (Clad checkpoints it): 100 * (y / x)^2.
#[differentiable]
fn fn45(x: f64, y: f64) -> f64 {
    let mut sum = 0.0;
    for _ in 0..100 {
        let t1 = x;
        let t2 = y / t1;
        sum += t2.powi(2);
    }
    sum
}

/// Loops.C `f_sum`: the trip count is an argument.
#[differentiable]
fn f_sum(p: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        s += p[i];
    }
    s
}

/// Loops.C `sq`, called by the next two.
#[differentiable]
fn sq(x: f64) -> f64 {
    x * x
}

/// Loops.C `f_sum_squares`: a call in the loop body.
#[differentiable]
fn f_sum_squares(p: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        s += sq(p[i]);
    }
    s
}

/// Loops.C `f_log_gaus`: the log of a Gaussian; the trip count compares the counter with the
/// differentiable `n`, which also enters the normalization.
#[differentiable]
fn f_log_gaus(x: &[f64], p: &[f64], n: f64, sigma: f64) -> f64 {
    let mut power = 0.0;
    let mut i = 0;
    while (i as f64) < n {
        power += sq(x[i] - p[i]);
        i += 1;
    }
    power = -power / (2.0 * sq(sigma));
    let gaus = 1.0 / ((2.0 * std::f64::consts::PI).powf(n) * sigma).sqrt() * power.exp();
    gaus.ln()
}

/// Loops.C `fn19` (a reference to `arr[i]`): a borrowed element.
#[differentiable]
fn fn19(arr: &[f64], n: usize) -> f64 {
    let mut res = 0.0;
    for i in 0..n {
        let r = &arr[i];
        res += *r;
    }
    res
}

/// Loops.C `fn20`: `res += (arr[i] *= 5)`, the write and the read split.
#[differentiable]
fn fn20(arr: &mut [f64], n: usize) -> f64 {
    let mut res = 0.0;
    for i in 0..n {
        arr[i] *= 5.0;
        res += arr[i];
    }
    res
}

/// Loops.C `fn21`: a local array built in every iteration.
#[differentiable]
fn fn21(x: f64) -> f64 {
    let mut res = 0.0;
    for _ in 0..5 {
        let arr = [1.0, x, 2.0];
        res += arr[0] + arr[1];
    }
    res
}

/// Loops.C `fn22`: a one-element local array in a one-trip loop.
#[differentiable]
fn fn22(param: f64) -> f64 {
    let mut out = 0.0;
    for _ in 0..1 {
        let arr = [1.0];
        out += arr[0] * param;
    }
    out
}

#[test]
fn fixed_counts() {
    check1("f1", f1, f1_grad, &[3.0, -0.7]);
    assert_eq!(f1_grad(3.0), (27.0, 27.0)); // Clad's CHECK-EXEC
    check1("f2", f2, f2_grad, &[1.1, -0.9]);
    check1("f5", f5, f5_grad, &[3.0]);
    check1(
        "f_const_local",
        f_const_local,
        f_const_local_grad,
        &[3.0, -1.3],
    );
    assert_eq!(f_const_local_grad(3.0).1, 21.0);
    check2("f6", f6, f6_grad, &[[3.0, 5.0], [-0.4, 1.7]]);
    assert_eq!(f6_grad(3.0, 5.0), (f6(3.0, 5.0), 21.0, 33.0));
    check2("fn40", fn40, fn40_grad, &[[2.0, 3.0]]);
    check2("fn45", fn45, fn45_grad, &[[1.0, 0.5], [-1.3, 2.2]]);
    check1("fn21", fn21, fn21_grad, &[5.0]);
    check1("fn22", fn22, fn22_grad, &[5.0]);
    let mut d = [0.0; 3];
    fn43_grad(&[1.0, 2.0, 3.0], &mut d);
    assert_eq!(d, [-1.0, -0.25, -1.0 / 9.0]);
    check_slice("fn43", fn43, fn43_grad, &[1.0, -2.0, 3.5]);
}

#[test]
fn trip_count_from_an_argument() {
    let p = [1.0, 2.0, -3.0, 4.0, 5.5];
    for n in [0, 1, 5] {
        check_slice("f_sum", |w| f_sum(w, n), |w, d| f_sum_grad(w, d, n), &p);
        check_slice(
            "f_sum_squares",
            |w| f_sum_squares(w, n),
            |w, d| f_sum_squares_grad(w, d, n),
            &p,
        );
        check_slice("fn19", |w| fn19(w, n), |w, d| fn19_grad(w, d, n), &p);
        let f20 = |w: &[f64]| fn20(&mut w.to_vec(), n);
        let g20 = |w: &[f64], d: &mut [f64]| fn20_grad(&mut w.to_vec(), d, n);
        check_slice("fn20", f20, g20, &p);
    }
    let mut d = [0.0; 5];
    f_sum_squares_grad(&p, &mut d, 5);
    assert_eq!(d, [2.0, 4.0, -6.0, 8.0, 11.0]);
}

#[test]
fn log_gaussian_with_a_float_trip_count() {
    let x = [1.0, 1.0, 1.0, 1.0, 1.0];
    let p = [1.0, 2.0, 3.0, 4.0, 5.0];
    // 0, 1 and 5 terms; n away from the integers where the trip count switches.
    for n in [0.5, 1.5, 4.5] {
        let f = |v: &[f64]| f_log_gaus(&v[..5], &v[5..10], v[10], v[11]);
        let mut point = [x, p].concat();
        point.extend([n, 2.0]);
        let (mut d_x, mut d_p) = ([0.0; 5], [0.0; 5]);
        let (value, d_n, d_sigma) = f_log_gaus_grad(&x, &mut d_x, &p, &mut d_p, n, 2.0);
        crate::common::assert_same_value("f_log_gaus", value, f(&point), &point);
        let gradient = [&d_x[..], &d_p[..], &[d_n, d_sigma]].concat();
        crate::common::assert_gradient("f_log_gaus", f, &point, &gradient);
    }
}
