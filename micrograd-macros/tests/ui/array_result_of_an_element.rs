use micrograd_runtime::prelude::*;

#[derive(Differentiable)]
struct Layer {
    w: [f64; 2],
}

impl Layer {
    #[differentiable]
    fn forward(&self, x: f64) -> [f64; 2] {
        [self.w[0] * x, self.w[1] * x]
    }
}

#[derive(Differentiable)]
struct Model {
    layers: Vec<Layer>,
}

impl Model {
    // A call returning `[f64; M]` bound without a type is read through the callee's hidden
    // output count (`let oc = sub3(o, c);`, `let h = self.forward(x);`), which no path reaches
    // for a method of an element, whose type the macro cannot name: the binding says it.
    #[differentiable]
    fn loss(&self, x: f64) -> f64 {
        let h = self.layers[0].forward(x);
        h[0] * h[1]
    }
}

fn main() {}
