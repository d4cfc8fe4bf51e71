// Forward mode of a vector output: the tangent has the value's shape.
#[differentiable(jvp)]
fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}
