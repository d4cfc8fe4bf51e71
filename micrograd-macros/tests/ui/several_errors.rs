use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    let a = x.rem_euclid(2.0);
    let mut b = x;
    for k in (0..3).map(|k| k * 2) {
        b = b * 2.0;
    }
    let c = match 1 {
        _ => x,
    };
    println!("{a} {b} {c}");
    a + b * 2 + c
}

fn main() {}
