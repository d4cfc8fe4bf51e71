// Parameter structs: fields bound by their kind, a slice shadow borrowed from `d_p`, an `f64`
// field's adjoint added at the end, a nested struct handed on whole to a call, and a slice
// field gathered in a buffer because the call is also handed its enclosing struct.

#[differentiable]
fn neuron(l: &Layer, x: &[f64]) -> f64 {
    let mut s = l.b;
    for i in 0..l.w.len() {
        s += l.w[i] * x[i];
    }
    s.tanh()
}

#[differentiable]
fn model(p: &Net, x: &[f64]) -> f64 {
    let h = neuron(&p.hidden, x);
    let mut y = 0.0;
    for k in 0..p.n {
        y += p.out[k] * h;
    }
    if p.on { y * p.scale } else { y }
}

#[differentiable]
fn loss(p: &Net, x: &[f64]) -> f64 {
    let e = model(p, x);
    e * e + 1e-2 * p.out[0] * p.out[0]
}
