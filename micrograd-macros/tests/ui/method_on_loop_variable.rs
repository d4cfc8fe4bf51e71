use micrograd_runtime::prelude::*;

#[derive(Differentiable)]
struct Neuron {
    w: f64,
}

impl Neuron {
    #[differentiable]
    fn forward(&self, x: f64) -> f64 {
        self.w * x
    }
}

#[derive(Differentiable)]
struct Layer {
    neurons: Vec<Neuron>,
}

impl Layer {
    // A loop's variable is a field's element only when it is used for nothing but calls
    // (`for n in &self.neurons { s += n.forward(x); }`); here it is also passed on.
    #[differentiable]
    fn total(&self, x: f64) -> f64 {
        let mut s = 0.0;
        for n in &self.neurons {
            s += n.forward(x) * weight(n);
        }
        s
    }
}

fn weight(_: &Neuron) -> f64 {
    1.0
}

fn main() {}
