//! One oracle for what the macro computed: a gradient (and the value beside it), a Hessian or
//! a Jacobian-vector product, checked against the independent references a test names.
//!
//! ```ignore
//! let mut d_x = [0.0; 3];
//! let value = rosenbrock_grad(&x, &mut d_x);
//! check!("rosenbrock", &x, (value, &d_x), against = [central(rosenbrock), dual(rosenbrock_d)]);
//! oracle::Hessian::new("rosenbrock", &x, &rosenbrock_hessian(&x)).dual(rosenbrock_d);
//! ```
//!
//! The references, each from the plain function or a twin of it, never from the macro:
//! - `central(f)`: `f`'s value bit for bit, each partial against central differences of `f`
//!   (tolerance from the step's truncation and rounding, [`super::assert_partial`]);
//! - `dual(twin)`: num-dual on a generic twin of the function at `Dual64` (`HyperDual64` for a
//!   Hessian): the value to 1e-14 and each partial to 1e-12, relative;
//! - `value(v)`: the same program on micrograd's `Value` engine: the value to 1e-12 and each
//!   partial to 1e-9.
//!
//! A check panics at the first entry that disagrees, naming the test, the entry, both numbers
//! and the point.

use super::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::Value;
use num_dual::{Dual64, HyperDual64};

/// The value and gradient of `f` at `x` by dual numbers, one coordinate seeded at a time.
pub fn dual_gradient(f: impl Fn(&[Dual64]) -> Dual64, x: &[f64]) -> (f64, Vec<f64>) {
    let mut value = f64::NAN;
    let gradient = (0..x.len())
        .map(|k| {
            let seeded: Vec<Dual64> = (0..x.len())
                .map(|i| Dual64::new(x[i], f64::from(i == k)))
                .collect();
            let r = f(&seeded);
            value = r.re;
            r.eps
        })
        .collect();
    (value, gradient)
}

/// The Hessian of `f` at `x` by hyper-dual numbers, one row per coordinate.
pub fn dual_hessian(f: impl Fn(&[HyperDual64]) -> HyperDual64, x: &[f64]) -> Vec<Vec<f64>> {
    let n = x.len();
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let seeded: Vec<HyperDual64> = (0..n)
                        .map(|k| HyperDual64::new(x[k], f64::from(k == i), f64::from(k == j), 0.0))
                        .collect();
                    f(&seeded).eps1eps2
                })
                .collect()
        })
        .collect()
}

/// A value and gradient the macro computed at a point, to check against references.
pub struct Gradient<'a> {
    name: &'a str,
    point: &'a [f64],
    value: f64,
    gradient: &'a [f64],
}

impl<'a> Gradient<'a> {
    /// `(value, gradient)` as `f_grad` returned them at `point` (the gradient in the order of
    /// the point's coordinates).
    pub fn new(name: &'a str, point: &'a [f64], (value, gradient): (f64, &'a [f64])) -> Self {
        assert_eq!(
            point.len(),
            gradient.len(),
            "{name}: {} partials for {} coordinates at {point:?}",
            gradient.len(),
            point.len(),
        );
        Gradient {
            name,
            point,
            value,
            gradient,
        }
    }

    /// The value bit for bit `f`'s, each partial against central differences of `f`.
    pub fn central(self, f: impl Fn(&[f64]) -> f64) -> Self {
        assert_same_value(self.name, self.value, f(self.point), self.point);
        assert_gradient(self.name, f, self.point, self.gradient);
        self
    }

    /// The value and each partial against num-dual on `twin`, the function at `Dual64`.
    pub fn dual(self, twin: impl Fn(&[Dual64]) -> Dual64) -> Self {
        let name = self.name;
        let (value, reference) = dual_gradient(twin, self.point);
        assert_near(
            &format!("{name} value (num-dual)"),
            self.value,
            value,
            1e-14,
        );
        for (k, (g, d)) in self.gradient.iter().zip(&reference).enumerate() {
            assert_near(&format!("{name} d[{k}] (num-dual)"), *g, *d, 1e-12);
        }
        self
    }

    /// The value and each partial against `v`, the same program on the `Value` engine.
    pub fn value(self, v: impl Fn(&[Value]) -> Value) -> Self {
        let name = self.name;
        let inputs: Vec<Value> = self.point.iter().map(|&x| Value::new(x)).collect();
        let out = v(&inputs);
        out.backward();
        assert_near(&format!("{name} (Value)"), out.data(), self.value, 1e-12);
        for (k, input) in inputs.iter().enumerate() {
            let label = format!("{name} d/dx[{k}] (Value)");
            assert_near(&label, input.grad(), self.gradient[k], 1e-9);
        }
        self
    }
}

/// A Hessian the macro computed at a point, row-major, to check against references.
pub struct Hessian<'a> {
    name: &'a str,
    point: &'a [f64],
    entries: &'a [f64],
}

impl<'a> Hessian<'a> {
    /// `entries`: the `n * n` entries, row-major, for a point of `n` coordinates.
    pub fn new(name: &'a str, point: &'a [f64], entries: &'a [f64]) -> Self {
        assert_eq!(
            entries.len(),
            point.len() * point.len(),
            "{name}: {} Hessian entries for {} coordinates",
            entries.len(),
            point.len(),
        );
        Hessian {
            name,
            point,
            entries,
        }
    }

    /// Each entry against num-dual's hyper-dual numbers on `twin`, to 1e-12 relative.
    pub fn dual(self, twin: impl Fn(&[HyperDual64]) -> HyperDual64) -> Self {
        let n = self.point.len();
        let reference = dual_hessian(twin, self.point);
        for (k, h) in self.entries.iter().enumerate() {
            let (i, j) = (k / n, k % n);
            let label = format!("{} H[{i}][{j}] (num-dual)", self.name);
            assert_near(&label, *h, reference[i][j], 1e-12);
        }
        self
    }
}

/// `check!(name, point, (value, gradient), against = [central(f), dual(twin), value(v)])`:
/// [`Gradient::new`] followed by the named references in order, any non-empty subset.
#[allow(unused_macros)]
macro_rules! check {
    ($name:expr, $point:expr, $computed:expr, against = [$($oracle:ident($reference:expr)),+ $(,)?]) => {{
        let _ = $crate::common::oracle::Gradient::new($name, $point, $computed)
            $(.$oracle($reference))+;
    }};
}

// Not every binary that includes `common` calls it.
#[allow(unused_imports)]
pub(crate) use check;
