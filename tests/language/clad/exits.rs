//! Early exits from Clad's `test/Gradient/Loops.C` and `EarlyReturns.C`: `return` and `break`
//! inside loops, and the `for` loops whose condition assigns (`for (..; (res = i * j); ..)`),
//! written as `loop` with the condition's side effect first and an `if .. { break }`.

use crate::common::{check_with_value, check1, check2};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// Loops.C `f3`: `return` from inside a `for`.
#[differentiable]
fn f3(x: f64) -> f64 {
    let mut t = 1.0;
    for i in 0..3 {
        t *= x;
        if i == 1 {
            return t;
        }
    }
    t
}

/// EarlyReturns.C `loopEarly`: returns once the sum passes 20; the trip count depends on `x * y`.
#[differentiable]
fn loop_early(x: f64, y: f64) -> f64 {
    let mut s = 0.0;
    for _ in 0..5 {
        s += x * y;
        if s > 20.0 {
            return s;
        }
    }
    s
}

fn loop_early_value(p: &[Value]) -> Value {
    let mut s = Value::new(0.0);
    for _ in 0..5 {
        s = &s + &p[0] * &p[1];
        if s.data() > 20.0 {
            return s;
        }
    }
    s
}

/// Loops.C `fn16`: `break` and `continue` in one `for`.
#[differentiable]
fn fn16(i: f64, j: f64) -> f64 {
    let counter = 5;
    let mut res = 0.0;
    for ii in 0..counter {
        if ii == 4 {
            res += i * j;
            break;
        }
        if ii > 2 {
            res += 2.0 * i;
            continue;
        }
        res += i + j;
    }
    res
}

/// Loops.C `fn17`: an inner `while (jj--)` that breaks or continues (Clad's statement after
/// the `if`/`else` is unreachable and left out: Rust warns about it).
#[differentiable]
fn fn17(i: f64, j: f64) -> f64 {
    let counter = 5;
    let mut res = 0.0;
    for ii in 0..counter {
        let mut jj = ii;
        if ii < 2 {
            continue;
        }
        while jj != 0 {
            jj -= 1;
            if jj < 3 {
                res += i * j;
                break;
            } else {
                continue;
            }
        }
    }
    res
}

/// Loops.C `fn18`: `continue` and `break` in an `else if` chain.
#[differentiable]
fn fn18(i: f64, j: f64) -> f64 {
    let choice = 5;
    let mut res = 0.0;
    for counter in 0..choice {
        if counter < 2 {
            res += i + j;
        } else if counter < 4 {
            continue;
        } else {
            res += 2.0 * i + 2.0 * j;
            break;
        }
    }
    res
}

/// Loops.C `fn23`: `for (c = 0; (res = i * j); ++c) { if (c == 1) break; }`.
#[differentiable]
fn fn23(i: f64, j: f64) -> f64 {
    let mut c = 0;
    loop {
        let res = i * j;
        if res == 0.0 || c == 1 {
            break res;
        }
        c += 1;
    }
}

/// Loops.C `fn24`: `for (c = 0; (res += i * j), c < 3; ++c) {}`.
#[differentiable]
fn fn24(i: f64, j: f64) -> f64 {
    let mut res = 0.0;
    let mut c = 0;
    loop {
        res += i * j;
        if c >= 3 {
            break;
        }
        c += 1;
    }
    res
}

/// Loops.C `fn25`: `fn24` with a `break` that overwrites the sum.
#[differentiable]
fn fn25(i: f64, j: f64) -> f64 {
    let mut res = 0.0;
    let mut c = 0;
    loop {
        res += i * j;
        if c >= 3 {
            break;
        }
        if c == 1 {
            res = 8.0 * i * j;
            break;
        }
        c += 1;
    }
    res
}

/// Loops.C `fn26`: the step `res = 7 * i * j` after `++c`.
#[differentiable]
fn fn26(i: f64, j: f64) -> f64 {
    let mut res = 0.0;
    let mut c = 0;
    loop {
        res += i * j;
        if res == 0.0 || c == 0 {
            break;
        }
        c += 1;
        res = 7.0 * i * j;
    }
    res
}

/// Loops.C `fn27`: the body overwrites what the condition accumulates.
#[differentiable]
fn fn27(i: f64, j: f64) -> f64 {
    let mut res = 0.0;
    let mut c = 0;
    loop {
        res += i * j;
        if res == 0.0 || c == 2 {
            break;
        }
        res = c as f64 * i * j;
        c += 1;
    }
    res
}

/// Loops.C `fn28`: the condition overwrites what the body wrote (dead stores, as in Clad).
#[differentiable]
#[allow(unused_assignments)] // Clad's test is about the dead store
fn fn28(i: f64, j: f64) -> f64 {
    let mut res = 0.0;
    let mut c = 0;
    loop {
        res = i * j;
        if c >= 2 {
            break;
        }
        res = 3.0 * i * j;
        c += 1;
    }
    res
}

/// Loops.C `fn29`: `for (c = 0; res = i * j, c < 1; ++c, res = 3 * i * j) {}`.
#[differentiable]
#[allow(unused_assignments)] // Clad's test is about the dead store
fn fn29(i: f64, j: f64) -> f64 {
    let mut res = 0.0;
    let mut c = 0;
    loop {
        res = i * j;
        if c >= 1 {
            break;
        }
        c += 1;
        res = 3.0 * i * j;
    }
    res
}

/// Loops.C `fn30`: `(c == 0) && (res = i * j)` as the condition.
#[differentiable]
fn fn30(i: f64, j: f64) -> f64 {
    let mut res = 0.0;
    let mut c = 0;
    loop {
        if c != 0 {
            break;
        }
        res = i * j;
        if res == 0.0 {
            break;
        }
        c += 1;
    }
    res
}

/// Loops.C `fn31`: two assignments in the condition, the first dead.
#[differentiable]
#[allow(unused_assignments)] // Clad's test is about the dead store
fn fn31(i: f64, j: f64) -> f64 {
    let mut res = 0.0;
    let mut c = 0;
    loop {
        res = i * j;
        res = 2.0 * i * j;
        if c >= 3 {
            break;
        }
        c += 1;
    }
    res
}

/// Loops.C `fn32`: the pattern of `fn27` nested, `break` from both levels.
#[differentiable]
fn fn32(i: f64, j: f64) -> f64 {
    let mut res = 0.0;
    let mut c = 0;
    loop {
        res += i * j;
        if res == 0.0 {
            break;
        }
        let mut d = 0;
        loop {
            res += i * j;
            if res == 0.0 {
                break;
            }
            if d == 1 {
                res += i * j;
                break;
            }
            d += 1;
        }
        if c == 1 {
            res += i * j;
            break;
        }
        c += 1;
    }
    res
}

/// Loops.C `fn33`: side effects in `&&` conditions, evaluated in C's order; `res` is set
/// first thing in each trip, so it lives in the loop and leaves it with `break res`.
#[differentiable]
fn fn33(i: f64, j: f64) -> f64 {
    let mut c = 0;
    loop {
        let mut res = i * j;
        if res == 0.0 {
            break res;
        }
        res += i * j;
        if res != 0.0 && c == 1 {
            break res;
        }
        if c == 0 {
            res += i * j;
            if res != 0.0 {
                break res;
            }
        }
        c += 1;
    }
}

/// Loops.C `fn44`: `for (i = 0; i != 1;) { ..; break; }`, one trip.
#[differentiable]
#[allow(clippy::never_loop, clippy::while_immutable_condition)] // the form under test
fn fn44(u: f64, v: f64) -> f64 {
    let mut sum = 0.0;
    let i = 0;
    while i != 1 {
        sum += u + v;
        break;
    }
    sum
}

#[test]
fn return_from_a_loop() {
    check1("f3", f3, f3_grad, &[3.0, -0.8]);
    assert_eq!(f3_grad(3.0).1, 6.0);
    // Returns in the first trip, the fourth, never.
    check2(
        "loopEarly",
        loop_early,
        loop_early_grad,
        &[[5.0, 5.0], [2.0, 3.0], [1.0, 1.0]],
    );
    let f = |p: &[f64]| loop_early(p[0], p[1]);
    let g = |p: &[f64]| {
        let (v, a, b) = loop_early_grad(p[0], p[1]);
        vec![v, a, b]
    };
    let points: [&[f64]; 3] = [&[5.0, 5.0], &[2.0, 3.0], &[1.0, 1.0]];
    check_with_value("loopEarly", &f, &g, &loop_early_value, &points);
}

#[test]
fn break_and_continue() {
    let points = [[3.0, 5.0], [-0.6, 1.4]];
    for (name, f, g) in [
        (
            "fn16",
            fn16 as fn(f64, f64) -> f64,
            fn16_grad as fn(f64, f64) -> (f64, f64, f64),
        ),
        ("fn17", fn17, fn17_grad),
        ("fn18", fn18, fn18_grad),
        ("fn44", fn44, fn44_grad),
    ] {
        check2(name, f, g, &points);
    }
    assert_eq!(fn16_grad(3.0, 5.0).1, 10.0);
    assert_eq!(fn17_grad(3.0, 5.0).1, 15.0);
    assert_eq!(fn18_grad(3.0, 5.0).1, 4.0);
}

#[test]
fn conditions_that_assign() {
    // Clad's CHECK-EXEC gradients at (3, 5), then central differences elsewhere.
    let expected = [
        (
            "fn23",
            fn23 as fn(f64, f64) -> f64,
            fn23_grad as fn(f64, f64) -> (f64, f64, f64),
            5.0,
        ),
        ("fn24", fn24, fn24_grad, 20.0),
        ("fn25", fn25, fn25_grad, 40.0),
        ("fn26", fn26, fn26_grad, 5.0),
        ("fn27", fn27, fn27_grad, 10.0),
        ("fn28", fn28, fn28_grad, 5.0),
        ("fn29", fn29, fn29_grad, 5.0),
        ("fn30", fn30, fn30_grad, 5.0),
        ("fn31", fn31, fn31_grad, 10.0),
        ("fn32", fn32, fn32_grad, 45.0),
        ("fn33", fn33, fn33_grad, 15.0),
    ];
    for (name, f, g, d_i) in expected {
        assert_eq!(g(3.0, 5.0).1, d_i, "{name}");
        check2(name, f, g, &[[3.0, 5.0], [-0.6, 1.4]]);
    }
}
