use micrograd_runtime::prelude::*;

// `jacobian` is for several outputs; one `f64`'s Jacobian is `f_grad`.
#[differentiable(jacobian)]
fn one(x: f64) -> f64 {
    x * x
}

// `graph` draws one output.
#[differentiable(graph)]
fn drawn(x: f64) -> [f64; 2] {
    [x, x * x]
}

// A dense Hessian is for one output (`hvp`, `jvp` and `jacobian` are for several too).
#[differentiable(hessian, jvp)]
fn hessian(x: f64) -> [f64; 2] {
    [x, x * x]
}

// `f_jacobian` differentiates `f64`s and read-only slices: a written one stays out of `wrt(..)`.
#[differentiable(jacobian)]
fn written(x: f64, w: &mut [f64]) -> (f64, f64) {
    w[0] = x;
    (x * w[0], x + w[1])
}

// The length of an array of a generic float returned is a literal.
const M: usize = 2;
#[differentiable]
fn unsized_output<T: Float>(x: T) -> [T; M] {
    [x, x]
}

fn main() {}
