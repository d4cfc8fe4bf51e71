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
    // An element's method is called by index, `self.neurons[j].forward(x)`.
    #[differentiable]
    fn total(&self, x: f64) -> f64 {
        let mut s = 0.0;
        for n in &self.neurons {
            s += n.forward(x);
        }
        s
    }
}

fn main() {}
