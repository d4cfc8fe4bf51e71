use micrograd_runtime::prelude::*;

// Arrays are written entry by entry: a slice method called for what it does is refused at the
// method, saying so; another value dropped is still said to be dropped.
#[differentiable]
fn f(x: &[f64], a: f64) -> f64 {
    let mut h = vec![0.0; x.len()];
    h.copy_from_slice(x);
    let mut g = [0.0; 2];
    g.fill(a);
    a.sin();
    h[0] + g[0]
}

fn main() {}
