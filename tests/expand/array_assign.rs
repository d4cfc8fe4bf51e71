use micrograd_runtime::prelude::*;

/// A state replaced whole at each step, and two buffers swapped.
#[differentiable]
fn step(x: &[f64], w: f64) -> f64 {
    let mut h = [0.0; 2];
    let mut spare = [1.0; 2];
    for t in 0..x.len() {
        let mut h_new = [0.0; 2];
        for j in 0..2 {
            h_new[j] = (w * h[j] + x[t]).tanh();
        }
        h = h_new;
        std::mem::swap(&mut h, &mut spare);
    }
    h[0] + spare[1]
}
