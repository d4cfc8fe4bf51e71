//! `f_jacobian` of a function writing its outputs, where it is made of one `f_jvp` call per
//! column (a method: the lanes are refused beside a parameter struct): an output that
//! accumulates onto its value on entry, `out[i] += ..`, has a tangent that accumulates too, so
//! each column must start from the outputs' values on entry and their tangents zeroed. Checked
//! against the closed form and central differences of the method itself.

use micrograd_runtime::prelude::*;

#[derive(Differentiable)]
struct Gain {
    k: f64,
}

impl Gain {
    /// `out[i] += k xᵢ²`, and `out[1]` reads what `out[0]` became.
    #[differentiable(jacobian, wrt(x, out))]
    fn accumulate(&self, x: &[f64], out: &mut [f64]) {
        for i in 0..x.len() {
            out[i] += self.k * x[i] * x[i];
        }
        out[1] += out[0] * x[1];
    }
}

#[test]
fn accumulated_outputs_start_each_column_over() {
    let gain = Gain { k: 1.5 };
    let (x, entry) = ([0.5, -2.0], [0.25, 1.0]);
    let (mut out, mut d_x) = (entry, [0.0; 4]);
    gain.accumulate_jacobian(&x, &mut d_x, &mut out);
    // Written as the method writes them, from their values on entry.
    let mut expected = entry;
    gain.accumulate(&x, &mut expected);
    assert_eq!(out, expected);
    // Closed form: o₀ = e₀ + k x₀², o₁ = e₁ + k x₁² + o₀ x₁.
    let (k, o0) = (gain.k, entry[0] + gain.k * x[0] * x[0]);
    let closed = [
        2.0 * k * x[0],
        0.0,
        2.0 * k * x[0] * x[1],
        2.0 * k * x[1] + o0,
    ];
    for (got, want) in d_x.iter().zip(closed) {
        assert!((got - want).abs() < 1e-12, "{d_x:?} against {closed:?}");
    }
    // Central differences of the method itself, column by column.
    let h = 1e-6;
    for j in 0..2 {
        let at = |step: f64| {
            let mut x = x;
            x[j] += step;
            let mut out = entry;
            gain.accumulate(&x, &mut out);
            out
        };
        let (up, down) = (at(h), at(-h));
        for i in 0..2 {
            let central = (up[i] - down[i]) / (2.0 * h);
            assert!(
                (d_x[i * 2 + j] - central).abs() < 1e-6,
                "row {i} column {j}"
            );
        }
    }
}
