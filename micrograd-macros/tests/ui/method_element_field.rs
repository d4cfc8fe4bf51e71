use micrograd_runtime::prelude::*;

#[derive(Differentiable)]
struct Neuron {
    b: f64,
}

#[derive(Differentiable)]
struct Layer {
    neurons: Vec<Neuron>,
}

impl Layer {
    // A field of an element is read by a method of the element's struct.
    #[differentiable]
    fn bias(&self, x: f64) -> f64 {
        self.neurons[0].b * x
    }
}

fn main() {}
