// A call returning several values, taken apart by `let`: one call per output, each pulled
// back with its seed at its entry.
#[differentiable(jvp)]
fn caller(x: f64, y: f64) -> f64 {
    let [a, b] = polar(x, y);
    let (u, _) = pair(a);
    u * b
}
