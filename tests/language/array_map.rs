//! `array.map(|x| ..)` on an `[f64; N]` parameter and on a local array (issue 25), read as
//! the `Vec` its iterator collects. Against central differences and the `Value` engine, the
//! value bit for bit `f`'s.

use crate::common;

use common::{assert_near, derivative};
use micrograd_runtime::Value;
use micrograd_runtime::prelude::*;

#[differentiable]
fn shifted(param: [f64; 3], x: f64) -> f64 {
    let scaled = param.map(|x| 4.0 * x - 2.0);
    let local = [x, x * x, 1.0];
    let squared = local.map(|t| t * t);
    scaled[0] * scaled[1] + scaled[2] * x + squared.iter().sum::<f64>()
}

fn value_shifted(param: [f64; 3], x: f64) -> f64 {
    let x = Value::new(x);
    let s: Vec<f64> = param.iter().map(|p| 4.0 * p - 2.0).collect();
    let x2 = &x * &x;
    let y = s[2] * &x + &x2 + &x2 * &x2 + 1.0 + s[0] * s[1];
    y.backward();
    x.grad()
}

#[test]
fn array_map_against_references() {
    let param = [0.5, -1.25, 2.0];
    for x in [-1.5, 0.25, 2.0] {
        let (value, d_param, d_x) = shifted_grad(param, x);
        assert_eq!(value.to_bits(), shifted(param, x).to_bits());
        assert_near("d_x", d_x, derivative(|x| shifted(param, x), x), 1e-6);
        assert_near("d_x Value", d_x, value_shifted(param, x), 1e-12);
        for i in 0..3 {
            let at = |t: f64| {
                let mut p = param;
                p[i] = t;
                shifted(p, x)
            };
            assert_near("d_param", d_param[i], derivative(at, param[i]), 1e-6);
        }
    }
}
