use micrograd_runtime::prelude::*;

#[derive(Differentiable)]
struct Layer {
    w: f64,
}

impl Layer {
    #[differentiable]
    fn at(&self, x: f64) -> f64 {
        self.w * x
    }
}

#[derive(Differentiable)]
struct Net {
    layer: Layer,
    b: f64,
}

impl Net {
    #[differentiable]
    fn at(&self, x: f64) -> f64 {
        self.layer.at(x) + self.b
    }
}

fn main() {
    let net = Net { layer: Layer { w: 1.0 }, b: 0.5 };
    let _ = net.at(2.0);
}
