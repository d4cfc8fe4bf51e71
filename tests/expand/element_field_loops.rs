use micrograd_runtime::prelude::*;

#[derive(Differentiable, Clone, Debug)]
struct Neuron {
    w: Vec<f64>,
    b: f64,
}

impl Neuron {
    #[differentiable]
    fn forward(&self, x: f64) -> f64 {
        (self.w[0] * x + self.b).tanh()
    }
}

#[derive(Differentiable, Clone, Debug)]
struct Layer {
    neurons: Vec<Neuron>,
}

#[derive(Differentiable, Clone, Debug)]
struct Net {
    layers: Vec<Layer>,
}

impl Net {
    #[differentiable]
    fn total(&self, x: f64) -> f64 {
        let mut s = 0.0;
        for n in &self.layers[0].neurons {
            s += n.forward(x);
        }
        for l in &self.layers {
            for n in &l.neurons {
                s += n.forward(x) * x;
            }
        }
        s
    }
}
