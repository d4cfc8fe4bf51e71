// `#[differentiable]` on `&self` methods: `self` is a parameter struct, its shadow `d_self`
// right after the receiver; `self.forward(x)` is a call of `Self::forward_pullback(self, d_self,
// ..)`, an associated const `Self::K` a constant, and `wrt(self)` leaves the data constant.

#[derive(Differentiable)]
struct Model {
    w: [f64; 2],
    b: f64,
}

impl Model {
    const K: f64 = 0.5;

    #[differentiable]
    fn forward(&self, x: &[f64]) -> f64 {
        (self.w[0] * x[0] + self.w[1] * x[1] + self.b).tanh() * Self::K
    }

    #[differentiable(wrt(self), jvp)]
    fn loss(&self, data: &[[f64; 2]], labels: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..data.len() {
            let x = [data[i][0], data[i][1]];
            let e = self.forward(&x) - labels[i];
            s += e * e;
        }
        s / data.len() as f64
    }
}

// A method of a field's struct: `self.model.forward(x)` hands `&self.model` on whole, with
// its part of the shadow, `&mut d_self.model`.
#[derive(Differentiable)]
struct Net {
    model: Model,
    c: f64,
}

impl Net {
    #[differentiable]
    fn out(&self, x: &[f64]) -> f64 {
        self.model.forward(x) * self.c
    }
}

// A method of an element of a field: `self.models[i].forward(x)` hands `&self.models[i]` on,
// with `&mut d_self.models[i]`; `self.models.len()` reads its length.
#[derive(Differentiable)]
struct Ensemble {
    models: Vec<Model>,
}

impl Ensemble {
    #[differentiable(jvp)]
    fn mean(&self, x: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..self.models.len() {
            s += self.models[i].forward(x);
        }
        s / self.models.len() as f64
    }
}
