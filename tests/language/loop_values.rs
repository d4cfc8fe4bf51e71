//! `return`, `break` and `continue` inside a block, `if`, `match` or `loop` whose value is
//! used (`let y = { if c { return a; } b };`), at the top of the function and inside loops
//! (issue 11), against central finite differences and the `Value` engine.

use crate::common;

use common::{check_with_value, check1, check2};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

/// `return` from a block whose value is bound.
#[differentiable]
fn block_value(x: f64) -> f64 {
    let y = {
        if x > 1.0 {
            return x * x;
        }
        x * 2.0
    };
    y.sin() + y
}

/// `return` from the `then` of an `if` whose value is bound.
#[differentiable]
fn if_value(x: f64, b: f64) -> f64 {
    let y = if x > 0.5 {
        return x * b;
    } else {
        b.exp()
    };
    y * x
}

/// An `else if` chain whose middle branch returns.
#[differentiable]
fn chain_value(x: f64, b: f64) -> f64 {
    let y = if x > 2.0 {
        x - b
    } else if x > 0.0 {
        return b / x;
    } else {
        let t = x * b;
        t * t
    };
    y * 3.0 + b
}

/// A `match` arm that returns.
#[differentiable]
fn match_value(x: f64, k: i32) -> f64 {
    let y = match k {
        0 => x.sin(),
        1 => return x * x,
        _ => {
            if x < 0.0 {
                return -x;
            }
            x.sqrt()
        }
    };
    y + x
}

/// `return` from a `loop` whose value is bound; the trip count depends on `x`.
#[differentiable]
fn loop_value(x: f64) -> f64 {
    let mut s = x;
    let v = loop {
        if s > 10.0 {
            return s;
        }
        s = s * s + 1.0;
        if s < 0.5 {
            break s * 2.0;
        }
    };
    v + x
}

/// An assignment and a compound assignment whose values return early.
#[differentiable]
fn assigned_value(x: f64, b: f64) -> f64 {
    let mut y = x;
    y = if b > 0.0 { y * b } else { return y - b };
    y += {
        if y > 4.0 {
            return y;
        }
        b * b
    };
    y
}

/// `break` and `continue` inside a `let v = if ..` inside a loop.
#[differentiable]
fn exits_in_loop_values(w: &[f64], x: f64) -> f64 {
    let mut s = x;
    for &a in w {
        let v = if a < 0.0 {
            continue;
        } else if a > 5.0 {
            break;
        } else {
            a * s
        };
        s += v.tanh();
    }
    s
}

fn exits_in_loop_values_value(p: &[Value]) -> Value {
    let (w, x) = (&p[..p.len() - 1], &p[p.len() - 1]);
    let mut s = x.clone();
    for a in w {
        let v = if a.data() < 0.0 {
            continue;
        } else if a.data() > 5.0 {
            break;
        } else {
            a * &s
        };
        s = &s + v.tanh();
    }
    s
}

/// `return` from a block value inside a doubly nested loop.
#[differentiable]
fn return_from_nested_value(w: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        for j in 0..w.len() {
            let t = {
                let p = w[i] * w[j] * x;
                if p > 20.0 {
                    return s + p;
                }
                p * 0.5
            };
            s += t;
        }
    }
    s
}

fn return_from_nested_value_value(p: &[Value]) -> Value {
    let (w, x) = (&p[..p.len() - 1], &p[p.len() - 1]);
    let mut s = Value::new(0.0);
    for a in w {
        for b in w {
            let q = a * b * x;
            if q.data() > 20.0 {
                return &s + &q;
            }
            s = &s + &q * 0.5;
        }
    }
    s
}

/// The value of an exiting block is an integer.
#[differentiable]
fn integer_value(x: f64) -> f64 {
    let n = {
        if x > 1.0 {
            return x.sin();
        }
        3
    };
    x * n as f64
}

/// The value of an exiting `if` is a tuple, destructured.
#[differentiable]
fn tuple_value(x: f64) -> f64 {
    let (a, b) = if x > 1.0 {
        return x.ln();
    } else {
        (x, 2.0 * x + 1.0)
    };
    a * b
}

/// An exiting value inside another.
#[differentiable]
fn nested_values(x: f64) -> f64 {
    let y = {
        let z = if x > 2.0 {
            return x.sqrt();
        } else {
            x * 3.0
        };
        if z < 0.0 {
            return z * z;
        }
        z + 1.0
    };
    y * y
}

/// A guarded arm that returns, its binding read in the arm.
#[differentiable]
fn guarded_value(x: f64, k: i32) -> f64 {
    let y = match k {
        n if n > 3 => return x * n as f64,
        n => x + n as f64,
    };
    y * x
}

/// `f32`: a `match` on a `bool` whose arm returns.
#[differentiable]
fn narrow_value(x: f32) -> f32 {
    let y = match x > 1.0 {
        true => return x * x,
        false => x * 2.0,
    };
    y * y + x
}

/// A `match` statement whose arm returns.
#[differentiable]
fn match_statement(x: f64, k: i32) -> f64 {
    let mut y = x;
    match k {
        0 => y = x.sin(),
        1 => return x * x,
        _ => {}
    }
    y + x
}

/// A `match` statement in a loop body whose arms `continue` and `break`.
#[differentiable]
fn match_in_loop(w: &[f64], x: f64) -> f64 {
    let mut s = x;
    for i in 0..w.len() {
        match i % 4 {
            0 => continue,
            1 | 2 => s += w[i] * s,
            _ if w[i] > 0.0 => break,
            _ => return s * w[i],
        }
        s *= 1.5;
    }
    s
}

fn match_in_loop_value(p: &[Value]) -> Value {
    let (w, x) = (&p[..p.len() - 1], &p[p.len() - 1]);
    let mut s = x.clone();
    for (i, a) in w.iter().enumerate() {
        match i % 4 {
            0 => continue,
            1 | 2 => s = &s + a * &s,
            _ if a.data() > 0.0 => break,
            _ => return &s * a,
        }
        s = &s * 1.5;
    }
    s
}

/// A vector output whose bound `match` value returns from two arms.
#[differentiable(jacobian)]
fn vector_value(x: f64, y: f64, k: i32) -> (f64, f64) {
    let z = match k {
        0 => return (x * y, y),
        1 => x * x,
        _ => {
            if x > 1.0 {
                return (x, x * y * y);
            }
            y
        }
    };
    (z * y, z + x)
}
/// `f_grad` of `f(w: &[f64], x: f64)`.
type SliceGrad = fn(&[f64], &mut [f64], f64) -> (f64, f64);

/// `[value, d_w.., d_x]` of `f_grad(w, d_w, x)`.
fn slice_and_scalar(g: SliceGrad) -> impl Fn(&[f64]) -> Vec<f64> {
    move |p| {
        let (w, x) = (&p[..p.len() - 1], p[p.len() - 1]);
        let mut d_w = vec![0.0; w.len()];
        let (value, d_x) = g(w, &mut d_w, x);
        [vec![value], d_w, vec![d_x]].concat()
    }
}

#[test]
fn return_from_values_at_the_top() {
    check1(
        "block_value",
        block_value,
        block_value_grad,
        &[1.5, 0.3, -2.0],
    );
    check2(
        "if_value",
        if_value,
        if_value_grad,
        &[[0.7, 1.3], [0.2, -0.4]],
    );
    check2(
        "chain_value",
        chain_value,
        chain_value_grad,
        &[[2.5, 1.0], [0.8, 1.5], [-1.2, 0.7]],
    );
    for k in [0, 1, 2] {
        for x in [0.6, -0.4] {
            let (value, d) = match_value_grad(x, k);
            common::assert_same_value("match_value", value, match_value(x, k), &[x]);
            common::assert_gradient("match_value", |p| match_value(p[0], k), &[x], &[d]);
        }
    }
    // Returns at once, after two squarings, or breaks in the first trip.
    check1(
        "loop_value",
        loop_value,
        loop_value_grad,
        &[11.0, 1.5, -0.8, 0.1],
    );
    check2(
        "assigned_value",
        assigned_value,
        assigned_value_grad,
        &[[1.5, -0.5], [1.5, 3.0], [0.5, 1.2]],
    );
}

#[test]
fn exits_from_values_in_loops() {
    let f = |p: &[f64]| exits_in_loop_values(&p[..p.len() - 1], p[p.len() - 1]);
    check_with_value(
        "exits_in_loop_values",
        &f,
        &slice_and_scalar(exits_in_loop_values_grad),
        &exits_in_loop_values_value,
        &[
            &[0.5],
            &[-1.0, 0.5],
            &[1.5, -2.0, 0.7, 6.0, 1.0, 0.3],
            &[0.3, 0.2, 1.1, 0.2],
        ],
    );
    let f = |p: &[f64]| return_from_nested_value(&p[..p.len() - 1], p[p.len() - 1]);
    check_with_value(
        "return_from_nested_value",
        &f,
        &slice_and_scalar(return_from_nested_value_grad),
        &return_from_nested_value_value,
        // No trips, no return, and a return in the middle of the second row.
        &[&[1.5], &[1.0, -2.0, 0.5, 1.1], &[1.0, 3.0, 4.5, 2.0]],
    );
}

#[test]
fn values_of_every_kind() {
    check1(
        "integer_value",
        integer_value,
        integer_value_grad,
        &[0.5, 1.5],
    );
    check1("tuple_value", tuple_value, tuple_value_grad, &[0.5, 1.5]);
    // Returns from the outer `if`, the inner one, or neither.
    check1(
        "nested_values",
        nested_values,
        nested_values_grad,
        &[3.0, -1.0, 1.0],
    );
    for (x, k) in [(2.0, 5), (2.0, 1), (-0.5, 4)] {
        let (value, d) = guarded_value_grad(x, k);
        common::assert_same_value("guarded_value", value, guarded_value(x, k), &[x]);
        common::assert_gradient("guarded_value", |p| guarded_value(p[0], k), &[x], &[d]);
    }
    for x in [0.5f32, 1.5] {
        let (value, d) = narrow_value_grad(x);
        assert_eq!(value, narrow_value(x));
        let wide = |p: &[f64]| match p[0] > 1.0 {
            true => p[0] * p[0],
            false => 4.0 * p[0] * p[0] + p[0],
        };
        common::assert_f32_partial("narrow_value", wide, &[f64::from(x)], 0, d);
    }
}

#[test]
fn match_statements_that_exit() {
    for (x, k) in [(0.7, 0), (0.7, 1), (-1.3, 2)] {
        let (value, d) = match_statement_grad(x, k);
        common::assert_same_value("match_statement", value, match_statement(x, k), &[x]);
        common::assert_gradient("match_statement", |p| match_statement(p[0], k), &[x], &[d]);
    }
    let f = |p: &[f64]| match_in_loop(&p[..p.len() - 1], p[p.len() - 1]);
    check_with_value(
        "match_in_loop",
        &f,
        &slice_and_scalar(match_in_loop_grad),
        &match_in_loop_value,
        // No trips; runs out; breaks at i = 3; returns at i = 3.
        &[
            &[0.5],
            &[1.0, 0.5, -0.3, 1.1],
            &[1.0, 0.5, -0.3, 0.7, 2.0, 1.1],
            &[1.0, 0.5, -0.3, -0.7, 2.0, 1.1],
        ],
    );
}

#[test]
fn values_that_return_a_vector() {
    // Closed forms: (x y, y); (x^2 y, x^2 + x); (x, x y^2); (y^2, y + x).
    let (v, j) = vector_value_jacobian(2.0, 3.0, 0);
    assert_eq!(v, (6.0, 3.0));
    assert_eq!(j, [[3.0, 2.0], [0.0, 1.0]]);
    let (v, j) = vector_value_jacobian(2.0, 3.0, 1);
    assert_eq!(v, (12.0, 6.0));
    assert_eq!(j, [[12.0, 4.0], [5.0, 0.0]]);
    let (v, j) = vector_value_jacobian(2.0, 3.0, 2);
    assert_eq!(v, (2.0, 18.0));
    assert_eq!(j, [[1.0, 0.0], [9.0, 12.0]]);
    let (v, j) = vector_value_jacobian(0.5, 3.0, 2);
    assert_eq!(v, (9.0, 3.5));
    assert_eq!(j, [[0.0, 6.0], [1.0, 1.0]]);
}
