use micrograd_runtime::prelude::*;

struct Neuron {
    w: f64,
}

impl Neuron {
    #[differentiable]
    fn forward(&self, x: f64) -> f64 {
        x * 2.0
    }
}

fn main() {
    let _ = Neuron { w: 1.0 }.w;
}
