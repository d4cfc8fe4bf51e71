//! Every operation of the language in `f32` (issue 13): each function is written twice from
//! one body, once in `f32` and once in `f64`. The `f32` gradient, computed in `f32`, is checked
//! against central differences of the `f64` twin; its value is bit for bit the `f32` function's.

use crate::common;

use common::assert_f32_partial;
use micrograd_runtime::prelude::*;

/// A module `$m` with `narrow::inner` (`f32`) and `wide::inner` (`f64`) of one `body` over
/// `(a, b)`, and a test at `points`.
macro_rules! twin2 {
    ($m:ident, |$a:ident, $b:ident| $body:expr, $points:expr) => {
        mod $m {
            use super::*;

            mod narrow {
                use super::*;
                #[differentiable]
                pub fn inner($a: f32, $b: f32) -> f32 {
                    $body
                }
            }

            mod wide {
                use super::*;
                #[differentiable]
                pub fn inner($a: f64, $b: f64) -> f64 {
                    $body
                }
            }

            #[test]
            fn against_f64_finite_differences() {
                for [a, b] in $points {
                    let (a, b): (f32, f32) = (a, b);
                    let (value, da, db) = narrow::inner_grad(a, b);
                    assert_eq!(
                        value.to_bits(),
                        narrow::inner(a, b).to_bits(),
                        "value at {a}, {b}"
                    );
                    let point = [f64::from(a), f64::from(b)];
                    let wide = |p: &[f64]| wide::inner(p[0], p[1]);
                    assert_f32_partial(stringify!($m), wide, &point, 0, da);
                    assert_f32_partial(stringify!($m), wide, &point, 1, db);
                }
            }
        }
    };
}

/// `twin2!` of `t = (a * b).m(); t * b + a * t`: the method inside an expression.
macro_rules! method {
    ($m:ident, $points:expr) => {
        twin2!(
            $m,
            |a, b| {
                let t = (a * b).$m();
                t * b + a * t
            },
            $points
        );
    };
}

const ANY: [[f32; 2]; 3] = [[0.4, -1.5], [-1.2, -0.8], [2.0, 0.3]];
const POSITIVE: [[f32; 2]; 3] = [[0.4, 1.5], [1.2, 0.8], [2.0, 0.3]];
const UNIT: [[f32; 2]; 3] = [[0.4, -1.5], [-0.7, 0.8], [0.9, 0.3]];
const ABOVE_ONE: [[f32; 2]; 3] = [[1.4, 1.5], [-1.2, -1.8], [2.0, 0.9]];

method!(tanh, ANY);
method!(relu, ANY);
method!(sigmoid, ANY);
method!(exp, ANY);
method!(exp2, ANY);
method!(exp_m1, ANY);
method!(ln, POSITIVE);
method!(ln_1p, POSITIVE);
method!(log2, POSITIVE);
method!(log10, POSITIVE);
method!(sqrt, POSITIVE);
method!(cbrt, ANY);
method!(sin, ANY);
method!(cos, ANY);
method!(tan, UNIT);
method!(asin, UNIT);
method!(acos, UNIT);
method!(atan, ANY);
method!(sinh, ANY);
method!(cosh, ANY);
method!(asinh, ANY);
method!(acosh, ABOVE_ONE);
method!(atanh, UNIT);
method!(abs, ANY);
method!(signum, ANY);
method!(recip, ANY);
method!(floor, ANY);
method!(ceil, ANY);
method!(round, ANY);
method!(trunc, ANY);

twin2!(arithmetic, |a, b| (a - b) / (a * b + 3.0) - -a, ANY);
twin2!(powi, |a, b| a.powi(3) * b + b.powi(-2), ANY);
twin2!(powf, |a, b| a.powf(b) + b.powf(1.5), POSITIVE);
twin2!(max, |a, b| a.max(b) * a.min(b * 0.5), ANY);
twin2!(hypot, |a, b| a.hypot(b) + b.atan2(a), ANY);
twin2!(mul_add, |a, b| a.mul_add(b, a * 0.25) * b, ANY);
twin2!(clamp, |a, b| (a * b).clamp(-0.5, 0.5) + a, ANY);
