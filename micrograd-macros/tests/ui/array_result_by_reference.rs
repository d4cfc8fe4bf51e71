use micrograd_runtime::prelude::*;

// What a function returning `[f64; M]` returned, bound without a type, is one `f64` to the
// macro, which cannot see the callee's signature: passing it by reference is refused there,
// saying to annotate the binding (it compiled to a call with the wrong number of arguments).
#[differentiable]
fn sub3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[differentiable]
fn dot3(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[differentiable]
fn ray(origin: [f64; 3], center: [f64; 3], d: [f64; 3]) -> f64 {
    let oc = sub3(origin, center);
    dot3(&oc, &d)
}

fn main() {}
