//! Loops in Clad's other `test/Gradient` files: calls inside loops (`FunctionCalls.C`,
//! `ReverseForw.C`, `RecordRestore.C`), `switch` in a loop
//! (`Switch.C`), in-place prefix sums (`Gradients.C`), a walking pointer (`Pointers.C`), `f32`
//! (`TestTypeConversion.C`, `UserDefinedTypes.C`) and serial versions of `OpenMP.C`'s
//! reductions.

use crate::common::{assert_f32_partial, check_slice, check_two_slices, check1, check2};
use micrograd_runtime::prelude::*;

/// FunctionCalls.C `multiply`.
#[differentiable]
fn multiply(a: &[f64], b: &[f64]) -> f64 {
    a[0] * b[0]
}

/// FunctionCalls.C `fn13`: copies `w` into a local array, passes its tail (`wCopy + 1`).
#[differentiable]
#[allow(clippy::manual_memcpy)] // the copy loop is the form under test
fn fn13(x: &[f64], w: &[f64]) -> f64 {
    let mut w_copy = [0.0; 2];
    for i in 0..2 {
        w_copy[i] = w[i];
    }
    multiply(x, &w_copy[1..])
}

/// FunctionCalls.C `flexibleInterp`.
#[differentiable]
fn flexible_interp(params: &[f64], _high: &[f64]) -> f64 {
    let mut total = 1.0;
    for i in 0..1 {
        total += params[i];
    }
    total
}

/// FunctionCalls.C `fn30`: passes a tail (`xlArr + 2`).
#[differentiable]
fn fn30(params: &[f64], xl_arr: &[f64]) -> f64 {
    flexible_interp(params, &xl_arr[2..])
}

/// FunctionCalls.C `identity`.
#[differentiable]
fn identity(x: f64) -> f64 {
    x
}

/// FunctionCalls.C `fnIdLoop`: 3x + y.
#[differentiable]
fn fn_id_loop(x: f64, y: f64) -> f64 {
    let a = x;
    let mut s = 0.0;
    for _ in 0..3 {
        s += identity(a);
    }
    s + y
}

/// ReverseForw.C `mul2` (doubles through a pointer): returns the new value.
#[differentiable]
fn mul2(p: f64) -> f64 {
    p * 2.0
}

/// ReverseForw.C `f4`: `r += *mul2(&x)` twice, so 2x + 4x.
#[differentiable]
fn reverse_forw_f4(mut x: f64) -> f64 {
    let mut r = 0.0;
    for _ in 0..2 {
        x = mul2(x);
        r += x;
    }
    r
}

/// RecordRestore.C `scale` (on a struct by reference): one field at a time.
#[differentiable]
fn scale(v: f64) -> f64 {
    3.0 * v
}

/// RecordRestore.C `f`: fields overwritten by a call in a one-trip loop.
#[differentiable]
fn record_restore_f(x: f64) -> f64 {
    let mut a = x;
    let mut b = 2.0 * x;
    let mut t = 0.0;
    for _ in 0..1 {
        a = scale(a);
        b = scale(b);
        t += a * a + b;
    }
    t
}

/// Switch.C `fn3`: a `switch` with fall-through in `while (counter--)`; each arm here does
/// what the fall-through reaches.
#[differentiable]
fn switch_fn3(i: f64, j: f64) -> f64 {
    let mut res = 0.0;
    let mut counter = 2;
    while counter != 0 {
        counter -= 1;
        match counter {
            0 => {
                res += i * i * j * j;
                res += i * i;
            }
            1 => res += i * i,
            2 => {
                res += j * j;
                res += i + j;
            }
            _ => res += i + j,
        }
    }
    res
}

/// Switch.C `fn4`: `switch (1)` whose case holds a `while`.
#[differentiable]
fn switch_fn4(i: f64, j: f64) -> f64 {
    let mut res = 0.0;
    let mut counter = 2;
    while counter != 0 {
        counter -= 1;
        res += i * j;
    }
    res
}

/// Switch.C `fn7`: grouped cases in a `for`.
#[differentiable]
fn switch_fn7(u: f64, v: f64) -> f64 {
    let mut res = 0.0;
    for i in 0..5 {
        match i {
            0..=2 => res += u,
            _ => res += v,
        }
    }
    res
}

/// Gradients.C `running_sum`: an in-place prefix sum, in `f32`.
#[differentiable]
fn running_sum(p: &mut [f32], n: usize) -> f32 {
    for i in 1..n {
        p[i] += p[i - 1];
    }
    p[n - 1]
}

/// Pointers.C `pointerParam`: `arr = arr + 1` walks the slice, so `*arr` is the `i`th entry;
/// the walk becomes an enumeration of the first `n` (reassigning a slice binding is refused).
#[differentiable]
fn pointer_param(arr: &[f64], n: usize) -> f64 {
    let mut sum = 0.0;
    for (i, x) in arr[..n].iter().enumerate() {
        sum += x * i as f64;
    }
    sum
}

/// TestTypeConversion.C `fn_type_conversion`: `z * a` in `f32` with an integer `a`.
#[differentiable]
fn fn_type_conversion(mut z: f32, a: i32) -> f32 {
    for _ in 1..a {
        z *= a as f32;
    }
    z
}

/// UserDefinedTypes.C `sum(double *data)`: five entries.
#[differentiable]
fn sum5(data: &[f64]) -> f64 {
    let mut res = 0.0;
    for i in 0..5 {
        res += data[i];
    }
    res
}

/// UserDefinedTypes.C `fn29`: a local buffer written and never read, then a sum, in `f32`
/// (`sess.factors` is a constant slice here).
#[differentiable(wrt(input))]
fn fn29(input: &[f32], factors: &[f32]) -> f32 {
    let mut buffer = [0.0f32; 5];
    let n = 5;
    for id in 0..n {
        buffer[id] = factors[id] * input[id];
    }
    let mut out = 0.0;
    for id in 0..n {
        out += input[id];
    }
    out
}

/// OpenMP.C `fn1`, serial: a reduction from index 1.
#[differentiable]
fn omp_fn1(x: &[f64], n: usize) -> f64 {
    let mut total = 0.0;
    for i in 1..n {
        total += x[i];
    }
    total
}

/// OpenMP.C `fn20`, serial (its one-field struct `Box20`, built and then overwritten, is a
/// local).
#[differentiable]
fn omp_fn20(x: &[f64], n: usize) -> f64 {
    let mut total = 0.0;
    for i in 0..n {
        let b = x[i];
        total += b * b;
    }
    total
}

/// OpenMP.C `fn21` and `fn22`, serial: the same products added `n` times.
#[differentiable]
fn omp_fn22(x: &[f64], n: usize) -> f64 {
    let mut result = 0.0;
    for _ in 0..n {
        result += x[0] * x[0];
        result += x[0] * x[1];
    }
    result
}

/// OpenMP.C `fn23`, serial: a sum of squares.
#[differentiable]
fn omp_fn23(x: &[f64], n: usize) -> f64 {
    let mut total = 0.0;
    for i in 0..n {
        total += x[i] * x[i];
    }
    total
}

#[test]
fn calls_in_loops() {
    check_two_slices("fn13", fn13, fn13_grad, &[1.5, 2.0], &[3.0, -4.0]);
    check_two_slices("fn30", fn30, fn30_grad, &[0.5], &[1.0, 2.0, 3.0]);
    check2("fnIdLoop", fn_id_loop, fn_id_loop_grad, &[[1.0, 2.0]]);
    check1(
        "ReverseForw f4",
        reverse_forw_f4,
        reverse_forw_f4_grad,
        &[1.0, -2.5],
    );
    assert_eq!(reverse_forw_f4_grad(1.0).1, 6.0);
    check1(
        "RecordRestore f",
        record_restore_f,
        record_restore_f_grad,
        &[1.0, -2.0],
    );
}

#[test]
fn switch_in_loops() {
    let points = [[3.0, 5.0], [-0.5, 1.5]];
    check2("Switch fn3", switch_fn3, switch_fn3_grad, &points);
    check2("Switch fn4", switch_fn4, switch_fn4_grad, &points);
    check2("Switch fn7", switch_fn7, switch_fn7_grad, &points);
}

#[test]
fn slices_walked_and_written() {
    for n in [0, 1, 4] {
        let f = |w: &[f64]| pointer_param(w, n);
        check_slice(
            "pointerParam",
            f,
            |w, d| pointer_param_grad(w, d, n),
            &[1.0, 2.0, 3.0, 4.0],
        );
        let p = [1.0, -2.0, 3.0, 0.5, 2.0];
        check_slice(
            "omp fn1",
            |w| omp_fn1(w, n),
            |w, d| omp_fn1_grad(w, d, n),
            &p,
        );
        check_slice(
            "omp fn20",
            |w| omp_fn20(w, n),
            |w, d| omp_fn20_grad(w, d, n),
            &p,
        );
        check_slice(
            "omp fn22",
            |w| omp_fn22(w, n),
            |w, d| omp_fn22_grad(w, d, n),
            &p,
        );
        check_slice(
            "omp fn23",
            |w| omp_fn23(w, n),
            |w, d| omp_fn23_grad(w, d, n),
            &p,
        );
    }
    check_slice("sum5", sum5, sum5_grad, &[1.0, 2.0, 3.0, 4.0, 5.0]);
}

#[test]
fn in_f32() {
    for n in [1, 2, 4] {
        let p = [1.5f32, -2.0, 0.25, 3.0];
        let mut d = [0.0f32; 4];
        let value = running_sum_grad(&mut p.to_vec(), &mut d, n);
        assert_eq!(value, running_sum(&mut p.to_vec(), n));
        let wide = |w: &[f64]| w[..n].iter().sum::<f64>();
        let point: Vec<f64> = p.iter().map(|&v| f64::from(v)).collect();
        for (i, &g) in d.iter().enumerate() {
            assert_f32_partial("running_sum", wide, &point, i, g);
        }
    }
    for a in [0, 1, 3] {
        let (value, d_z) = fn_type_conversion_grad(1.5, a);
        assert_eq!(value, fn_type_conversion(1.5, a));
        let wide = |p: &[f64]| p[0] * f64::from(a).powi((a - 1).max(0));
        assert_f32_partial("fn_type_conversion", wide, &[1.5], 0, d_z);
    }
    let input = [1.0f32, 2.0, 3.0, 4.0, 5.0];
    let mut d = [0.0f32; 5];
    let value = fn29_grad(&input, &mut d, &[2.0; 5]);
    assert_eq!((value, d), (15.0, [1.0; 5]));
}
