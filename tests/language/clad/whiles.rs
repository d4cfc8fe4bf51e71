//! `while` and `do`/`while` loops from Clad's `test/Gradient/Loops.C`: counters stepped in the
//! condition (`while (counter--)` becomes a test and a decrement), nesting, `continue`.

use crate::common::{check_with_value, check2};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// Loops.C `f4`: `for (i = 0; i < 3; t *= x) i++;`, the step moved to the end of the body.
#[differentiable]
fn f4(x: f64) -> f64 {
    let mut t = 1.0;
    let mut i = 0;
    while i < 3 {
        i += 1;
        t *= x;
    }
    t
}

/// Loops.C `fn7`: `while (counter--)`.
#[differentiable]
fn fn7(i: f64, j: f64) -> f64 {
    let mut a = 0.0;
    let mut counter = 3;
    while counter != 0 {
        counter -= 1;
        a += i * i + j;
    }
    a
}

/// Loops.C `fn8`: a `do`/`while` inside a `while`.
#[differentiable]
fn fn8(i: f64, j: f64) -> f64 {
    let mut a = 0.0;
    let mut counter = 3;
    while counter > 0 {
        loop {
            a += i * i + j;
            counter -= 1;
            if counter == 0 {
                break;
            }
        }
    }
    a
}

/// Loops.C `fn9`: two nested `while (counter--)`.
#[differentiable]
fn fn9(i: f64, j: f64) -> f64 {
    let mut counter = 3;
    let mut a = 0.0;
    while counter != 0 {
        counter -= 1;
        let mut counter_again = 3;
        while counter_again != 0 {
            counter_again -= 1;
            a += i * i + j;
        }
    }
    a
}

/// Loops.C `fn10`: `while (int b = counter)`; Clad's expected gradient treats `b` as a real, so
/// it is an `f64` here.
#[differentiable]
fn fn10(i: f64, j: f64) -> f64 {
    let mut a = 0.0;
    let mut counter = 3;
    while counter != 0 {
        let mut b = counter as f64;
        b += i * i + j;
        a += b;
        counter -= 1;
    }
    a
}

/// Loops.C `fn11`: `do { .. } while (counter)`.
#[differentiable]
fn fn11(i: f64, j: f64) -> f64 {
    let mut counter = 3;
    let mut a = 0.0;
    loop {
        a += i * i + j;
        counter -= 1;
        if counter == 0 {
            break;
        }
    }
    a
}

/// Loops.C `fn12`: three nested `do`/`while`s, the innermost `while (0)` (one trip).
#[differentiable]
#[allow(clippy::never_loop)] // the form under test: Clad's `do a += j; while (0);`
fn fn12(i: f64, j: f64) -> f64 {
    let mut counter = 3;
    let mut a = 0.0;
    loop {
        let mut counter_again = 3;
        loop {
            a += i * i + j;
            counter_again -= 1;
            loop {
                a += j;
                break;
            }
            if counter_again == 0 {
                break;
            }
        }
        counter -= 1;
        if counter == 0 {
            break;
        }
    }
    a
}

/// Loops.C `fn13`: `for (; int k = counter; counter -= 1)`, `k` a real as in `fn10`.
#[differentiable]
fn fn13(i: f64, j: f64) -> f64 {
    let mut res = 0.0;
    let mut counter = 3;
    while counter != 0 {
        let mut k = counter as f64;
        k += i + 2.0 * j;
        let temp = k;
        res += temp;
        counter -= 1;
    }
    res
}

/// Loops.C `fn14`: `continue` from three branches.
#[differentiable]
fn fn14(i: f64, j: f64) -> f64 {
    let mut choice = 5;
    let mut res = 0.0;
    while choice != 0 {
        choice -= 1;
        if choice > 3 {
            res += i;
            continue;
        }
        if choice > 1 {
            res += j;
            continue;
        }
        if choice > 0 {
            res += i * j;
            continue;
        }
    }
    res
}

/// Loops.C `fn15`: `continue` in both of two nested `while`s.
#[differentiable]
fn fn15(i: f64, j: f64) -> f64 {
    let mut choice = 5;
    let mut res = 0.0;
    while choice != 0 {
        choice -= 1;
        if choice > 2 {
            continue;
        }
        let mut another_choice = 3;
        while another_choice != 0 {
            another_choice -= 1;
            if another_choice > 1 {
                res += i;
                continue;
            }
            if another_choice > 0 {
                res += j;
            }
        }
    }
    res
}

fn fn15_value(p: &[Value]) -> Value {
    let (mut choice, mut res) = (5, Value::new(0.0));
    while choice != 0 {
        choice -= 1;
        if choice > 2 {
            continue;
        }
        let mut another_choice = 3;
        while another_choice != 0 {
            another_choice -= 1;
            if another_choice > 1 {
                res = &res + &p[0];
                continue;
            }
            if another_choice > 0 {
                res = &res + &p[1];
            }
        }
    }
    res
}

/// Loops.C `fn46` (Clad checkpoints both loops): a `while` then a `do`/`while` sharing `i`.
#[differentiable]
fn fn46(x: f64, y: f64) -> f64 {
    let mut sum = 0.0;
    let mut i = 0;
    while i < 50 {
        let t1 = x;
        let t2 = y / t1;
        sum += t2.powi(2);
        i += 1;
    }
    loop {
        let t1 = x;
        let t2 = y / t1;
        sum += t2.powi(2);
        i += 1;
        if i >= 100 {
            break;
        }
    }
    sum
}

/// Loops.C `f_loop_init_var`: a rectangle rule whose real counter runs from `lower` to `upper`;
/// the trip count depends on both.
#[differentiable]
fn f_loop_init_var(lower: f64, upper: f64) -> f64 {
    let mut sum = 0.0;
    let num_points = 10000.0;
    let interval = (upper - lower) / num_points;
    let mut x = lower;
    while x <= upper {
        sum += x * x * interval;
        x += interval;
    }
    sum
}

fn f_loop_init_var_value(p: &[Value]) -> Value {
    let interval = (&p[1] - &p[0]) / 10000.0;
    let (mut sum, mut x) = (Value::new(0.0), p[0].clone());
    while x.data() <= p[1].data() {
        sum = &sum + &x * &x * &interval;
        x = &x + &interval;
    }
    sum
}

#[test]
fn counters_in_the_condition() {
    let points = [[3.0, 5.0], [-0.6, 1.4]];
    check2("fn7", fn7, fn7_grad, &points);
    check2("fn8", fn8, fn8_grad, &points);
    check2("fn9", fn9, fn9_grad, &points);
    check2("fn10", fn10, fn10_grad, &points);
    check2("fn11", fn11, fn11_grad, &points);
    check2("fn12", fn12, fn12_grad, &points);
    check2("fn13", fn13, fn13_grad, &points);
    // Clad's CHECK-EXEC values at (3, 5).
    assert_eq!(fn7_grad(3.0, 5.0).1, 18.0);
    assert_eq!(fn9_grad(3.0, 5.0).1, 54.0);
    assert_eq!(fn12_grad(3.0, 5.0).2, 18.0);
    assert_eq!(fn13_grad(3.0, 5.0).2, 6.0);
    crate::common::check1("f4", f4, f4_grad, &[3.0, -1.2]);
}

#[test]
fn continue_from_branches() {
    let points = [[3.0, 5.0], [-0.6, 1.4]];
    check2("fn14", fn14, fn14_grad, &points);
    check2("fn15", fn15, fn15_grad, &points);
    let f = |p: &[f64]| fn15(p[0], p[1]);
    let g = |p: &[f64]| {
        let (v, a, b) = fn15_grad(p[0], p[1]);
        vec![v, a, b]
    };
    check_with_value("fn15", &f, &g, &fn15_value, &[&[3.0, 5.0], &[-0.6, 1.4]]);
    check2("fn46", fn46, fn46_grad, &[[1.0, 0.5], [-2.0, 0.3]]);
    assert_eq!(fn14_grad(3.0, 5.0), (fn14(3.0, 5.0), 6.0, 5.0));
    assert_eq!(fn15_grad(3.0, 5.0), (fn15(3.0, 5.0), 3.0, 3.0));
}

#[test]
fn real_counter_with_a_data_dependent_trip_count() {
    let f = |p: &[f64]| f_loop_init_var(p[0], p[1]);
    let g = |p: &[f64]| {
        let (v, a, b) = f_loop_init_var_grad(p[0], p[1]);
        vec![v, a, b]
    };
    // 0 trips (lower above upper), then about ten thousand.
    check_with_value(
        "f_loop_init_var",
        &f,
        &g,
        &f_loop_init_var_value,
        &[&[2.0, 1.0]],
    );
    check_with_value(
        "f_loop_init_var",
        &f,
        &g,
        &f_loop_init_var_value,
        &[&[1.0, 2.3]],
    );
}
