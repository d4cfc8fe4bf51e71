use micrograd_runtime::prelude::*;

// Values computed from reads of data and of read-only slices are computed again in the
// reverse sweep, which reads the same entries again, rather than recorded: nothing is taped.
#[differentiable(hvp, wrt(centroids))]
fn assigned_cost(points: &[Vec<f64>], assigned: &[usize], centroids: &[f64], d: usize) -> f64 {
    let mut cost = 0.0;
    for (p, &a) in points.iter().zip(assigned) {
        let c = &centroids[a * d..(a + 1) * d];
        cost += p.iter().zip(c).map(|(x, y)| (x - y).powi(2)).sum::<f64>();
    }
    cost
}
