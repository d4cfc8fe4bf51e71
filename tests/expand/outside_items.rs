use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;

const W: [f64; 3] = [0.5, 1.5, -1.0];
const N: usize = 6;

const fn half(n: usize) -> usize {
    n / 2
}

#[differentiable]
fn weighted(x: f64) -> f64 {
    let mut s = 0.0;
    for w in W {
        s += w * x;
    }
    for i in 0..N {
        if i < half(N) {
            s += x * x;
        }
    }
    s
}

#[differentiable]
fn spacing<T: Float>(x: T) -> T {
    x * (T::one() + T::epsilon()) + T::min_positive_value()
}
