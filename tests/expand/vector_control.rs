// A vector returned from a branch or a loop is stored into a hidden array `out` on its path.
#[differentiable]
fn swap(x: f64, y: f64) -> [f64; 2] {
    if x > y { [x * y, x] } else { [y, x * y] }
}

#[differentiable(jvp)]
fn escape(x: f64, y: f64) -> (f64, f64) {
    let mut z = x;
    for i in 0..4 {
        z = z * y;
        if z > 2.0 {
            return (z, i as f64);
        }
    }
    (z, x)
}
