use micrograd_runtime::prelude::*;

// A call returning `[f64; M]` bound without a type: the attribute on `sub3` writes its output
// count beside it (`__sub3_outputs`), and `hit` reads the outputs in a loop over it, each output's
// pullback seeded through `calls::unit(k, seed, 0.0)`, whose length rustc infers.
#[differentiable(jvp)]
fn sub3(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[differentiable(jvp)]
fn hit(origin: &[f64; 3], center: &[f64; 3], d: &[f64; 3]) -> f64 {
    let oc = sub3(origin, center);
    dot3(&oc, d) * oc[1]
}
