use micrograd_runtime::num_traits::Float;
use micrograd_runtime::prelude::*;

/// A user's own `relu` for every float: not the runtime's, whose derivative the macro knows.
trait Leaky {
    fn relu(self) -> Self;
}

impl<T: Float> Leaky for T {
    fn relu(self) -> Self {
        self.max(self * T::from(0.01).unwrap())
    }
}

#[differentiable]
fn f<T: Float>(x: T) -> T {
    x.relu() * x
}

fn main() {}
