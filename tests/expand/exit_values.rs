use micrograd_runtime::prelude::*;

/// A value that returns on one path: the other path's value goes through `__mg_value`.
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

/// A `match` in a loop body whose arms `continue`, `break` and `return`.
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
