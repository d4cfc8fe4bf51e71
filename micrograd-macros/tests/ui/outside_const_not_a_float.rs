use micrograd_runtime::prelude::*;

// A name the function does not define, used with a float, is read as one and printed pinned
// to `f64`: when it is not one, rustc says so at the name, and no integer is ever converted.
const J: i32 = 2;

#[differentiable]
fn f(x: f64) -> f64 {
    // `x.max(J)` rather than `x * J`: rustc's error for an operator lists the impls of every
    // crate in the build, which differ between `cargo test --test ui` and the whole workspace.
    x.max(J) * x
}

fn main() {}
