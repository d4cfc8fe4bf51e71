use micrograd_runtime::prelude::*;

#[differentiable]
fn f(x: f64) -> f64 {
    let y = 'outer: loop {
        loop {
            break 'outer x * 2.0;
        }
    };
    y
}

fn main() {}
