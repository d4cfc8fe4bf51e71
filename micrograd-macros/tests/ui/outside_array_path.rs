use micrograd_runtime::prelude::*;

mod weights {
    pub const ALL: [f64; 3] = [0.5, 0.25, 0.25];
}

// A `const` array named alone is read as data (`for w in ALL`); through a path of several
// segments it is refused, once, saying how to hand it in.
#[differentiable]
fn f(x: f64) -> f64 {
    x * weights::ALL[0]
}

fn main() {}
