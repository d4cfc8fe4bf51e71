//! Calls lent arrays to write, in Clad's `test/Gradient`: `FunctionCalls.C` (`fn4` lends its
//! `double*` parameter on, `fn27` calls `mult(arr, u);` for what it writes) and
//! `RecursiveFunctionEarlyReturn.C` (`func` lends its `std::vector&` to itself in a loop).

use crate::common::{check_slice, check2};
use micrograd_runtime::prelude::*;

/// FunctionCalls.C `sum` (`float res` there; one float type per function here): reads the first
/// `n` entries, then writes `arr[0]`.
#[differentiable]
fn sum(arr: &mut [f64], n: usize) -> f64 {
    let mut res = 0.0;
    for i in 0..n {
        res += arr[i];
    }
    arr[0] += 10.0 * arr[0];
    res
}

/// FunctionCalls.C `twice` (through a `double&`): returns the new value.
#[differentiable]
fn twice(d: f64) -> f64 {
    2.0 * d
}

/// FunctionCalls.C `fn4`: `sum(arr, n)` lends the `&mut [f64]` parameter on.
#[differentiable]
fn fn4(arr: &mut [f64], n: usize) -> f64 {
    let mut res = 0.0;
    res += sum(arr, n);
    for i in 0..n {
        arr[i] = twice(arr[i]);
        res += arr[i];
    }
    res
}

/// FunctionCalls.C `mult` (`void`): its value, 0, is dropped by its caller.
#[differentiable]
fn mult(x: &mut [f64], y: f64) -> f64 {
    for i in 0..3 {
        x[i] *= y;
    }
    0.0
}

/// FunctionCalls.C `fn27`: `mult(&mut arr, u);`, a call made for what it writes; u v + u.
#[differentiable]
fn fn27(u: f64, v: f64) -> f64 {
    let mut arr = [u, v, 1.0];
    let sum = arr[0] * arr[1] * arr[2];
    mult(&mut arr, u);
    sum + arr[2]
}

/// RecursiveFunctionEarlyReturn.C `func`: recursion in a loop; `v` (a `std::vector&`) is
/// written before each recursive call, which is lent it.
#[differentiable]
fn func(a: &[f64], n: usize, v: &mut [f64]) -> f64 {
    if n <= 1 {
        return a[0] * v[0];
    }
    let mut res = 0.0;
    for i in 0..n {
        v[0] += a[i];
        res += func(a, n - 1, v);
    }
    res
}

#[test]
fn a_mut_parameter_lent_on() {
    let arr = [1.0, 2.0, 3.0, 4.0, 5.0];
    for n in [1, 3, 5] {
        let g = |w: &[f64], d: &mut [f64]| {
            let (mut written, mut by_f) = (w.to_vec(), w.to_vec());
            let value = fn4_grad(&mut written, d, n);
            fn4(&mut by_f, n);
            assert_eq!(written, by_f, "fn4_grad writes `arr` as `fn4` does");
            value
        };
        check_slice("fn4", |w| fn4(&mut w.to_vec(), n), g, &arr);
    }
    let mut d_arr = [0.0; 5];
    fn4_grad(&mut arr.to_vec(), &mut d_arr, 5);
    assert_eq!(d_arr, [23.0, 3.0, 3.0, 3.0, 3.0]); // Clad's CHECK-EXEC
}

#[test]
fn a_call_made_for_what_it_writes() {
    check2("fn27", fn27, fn27_grad, &[[2.0, 1.0], [-0.5, 3.0]]);
    assert_eq!(fn27_grad(2.0, 1.0), (4.0, 2.0, 2.0)); // Clad's CHECK-EXEC: {2.00, 2.00}
}

#[test]
fn recursion_lent_the_written_vector() {
    for (n, point) in [(3, [1.0, 2.0, 3.0, 1.0]), (2, [0.5, -1.5, 2.0, 0.25])] {
        let f = |p: &[f64]| func(&p[..3], n, &mut p[3..].to_vec());
        let g = |p: &[f64], d: &mut [f64]| {
            let (d_a, d_v) = d.split_at_mut(3);
            func_grad(&p[..3], d_a, n, &mut p[3..].to_vec(), d_v)
        };
        check_slice("func", f, g, &point);
    }
    let (mut d_a, mut d_v) = ([0.0; 3], [0.0]);
    func_grad(&[1.0, 2.0, 3.0], &mut d_a, 3, &mut [1.0], &mut d_v);
    assert_eq!((d_a, d_v), ([74.0, 13.0, 2.0], [6.0])); // Clad's CHECK-EXEC
}
