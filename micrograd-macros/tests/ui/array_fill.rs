use micrograd_runtime::prelude::*;

// A local array is filled with a float, a constant or a variable (`[b; 4]`); an integer or a
// `bool` fill is refused at the fill.
#[differentiable]
fn f(x: &[f64], b: f64) -> f64 {
    let h = [b; 4];
    let n = x.len();
    let counts = [n; 3];
    h[0] * x[0] + counts[1] as f64
}

fn main() {}
