use micrograd_runtime::num_traits::{Float, FloatConst};
use micrograd_runtime::prelude::*;

/// A function generic over `T: Float`: its generated functions are generic the same way, with
/// `T: Record` added (a tape of `T`), and its constants printed for `T`: `T::zero()`,
/// `T::one()`, `T::from(c).unwrap()`; `a += b` is `a = a + b` (`Float` has no `AddAssign`).
#[differentiable(jvp)]
fn wave<T: Float + FloatConst>(x: &[T], a: T, n: usize) -> T
where
    T: Copy,
{
    let k = T::from(n).unwrap();
    let mut s = T::zero();
    for i in 0..x.len() {
        s = s + (T::PI() * x[i] * k).sin() * a + T::from(0.5).unwrap() * x[i] * x[i];
    }
    s - (a * T::LN_2()).exp2() / T::from(-3.0).unwrap()
}
