// Second order of a vector output: `f_hvp` takes a seed per output (the Hessian of the
// weighted sum), and `f_tangent_pullback` is the pullback of `f_tangent`, seeded per output.
#[differentiable(hvp)]
fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}
// A caller's `f_hvp` pulls each output's tangent back through `polar_tangent_pullback`, seeded
// at its entry, and each output through `polar_pullback`.
#[differentiable(hvp)]
fn caller(x: f64, y: f64) -> f64 {
    let [a, b] = polar(x, y);
    a * b
}
