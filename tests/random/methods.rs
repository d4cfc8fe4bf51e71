//! Method calls on `f64` (`x.tanh()`, `f64::sqrt(x)`), each given an argument in its domain.

use super::*;

impl Gen<'_> {
    pub fn method(&mut self, d: usize) -> Expr {
        let e = self.expr(d);
        if self.value_only {
            return match self.rng.below(5) {
                0 => Expr::M1("tanh", Box::new(e)),
                1 => Expr::M1("relu", Box::new(e)),
                2 => Expr::M1("exp", Box::new(e)),
                3 => Expr::M1("sigmoid", Box::new(e)),
                _ => {
                    let p = self.positive(e);
                    Expr::M1("ln", Box::new(p))
                }
            };
        }
        let raw = [
            "tanh", "sigmoid", "sin", "cos", "atan", "relu", "abs", "signum",
        ];
        // Overflow quickly: their argument is usually squashed into [-3, 3].
        let growing = ["exp", "exp2", "exp_m1", "sinh", "cosh"];
        // Singular at 0 (or at poles): rarely on a raw argument (the checker rejects points
        // too close to a singularity, but an argument that is exactly 0 everywhere, such as
        // `(x - x).cbrt()`, would leave no usable point).
        let singular = ["cbrt", "recip", "tan"];
        let positive = ["ln", "log2", "log10", "sqrt", "ln_1p", "recip", "cbrt"];
        let unit = ["asin", "acos", "tan"];
        match self.rng.weighted(&[10, 4, 1, 5, 2]) {
            0 => Expr::M1(self.rng.pick(&raw), Box::new(e)),
            1 => {
                let e = if self.rng.chance(0.8) {
                    Expr::Bin(
                        "*",
                        Box::new(Expr::M1("tanh", Box::new(e))),
                        Box::new(Expr::Lit(3.0)),
                    )
                } else {
                    e
                };
                Expr::M1(self.rng.pick(&growing), Box::new(e))
            }
            2 => {
                // Exact zeros are common (`relu`, `[0.0; N]`, `i as f64`): mostly shifted.
                let e = if self.rng.chance(0.6) {
                    let c = self.positive_literal();
                    Expr::Bin("+", Box::new(e), Box::new(Expr::Lit(c)))
                } else {
                    e
                };
                Expr::M1(self.rng.pick(&singular), Box::new(e))
            }
            3 => {
                let m = self.rng.pick(&positive);
                let p = self.positive(e);
                let p = if m == "ln_1p" && self.rng.chance(0.5) {
                    Expr::Bin("-", Box::new(p), Box::new(Expr::Lit(0.5)))
                } else {
                    p
                };
                Expr::M1(m, Box::new(p))
            }
            _ => {
                let m = self.rng.pick(&unit);
                let u = self.unit(e);
                Expr::M1(m, Box::new(u))
            }
        }
    }
}
