use micrograd_runtime::prelude::*;

#[differentiable(wrt(w), graph)]
fn logistic(w: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    xs.chunks(w.len())
        .zip(ys)
        .map(|(x, &y)| {
            let z = x.iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
            (1.0 + (-y * z).exp()).ln()
        })
        .sum::<f64>()
        / ys.len() as f64
}
