use micrograd_runtime::prelude::*;

// kmeans' cost: a view of the centroids per chunk, read per coordinate in the inner loop.
#[differentiable(hvp, wrt(centroids))]
fn kmeans_cost(points: &[Vec<f64>], centroids: &[f64], d: usize) -> f64 {
    let mut cost = 0.0;
    for p in points {
        cost += centroids
            .chunks_exact(d)
            .map(|c| p.iter().zip(c).map(|(a, b)| (a - b).powi(2)).sum::<f64>())
            .fold(f64::INFINITY, f64::min);
    }
    cost
}

// ode's Runge-Kutta: four stage loops per step, each recording into the tape.
#[differentiable]
fn runge_kutta(x: &[f64], s: usize, y: &mut [f64]) -> f64 {
    let n = x.len();
    let h = 2.0 / s as f64;
    let mut k1 = vec![0.0; n];
    let mut k2 = vec![0.0; n];
    let mut k3 = vec![0.0; n];
    let mut k4 = vec![0.0; n];
    let mut y_tmp = vec![0.0; n];
    for i in 0..n {
        y[i] = 0.0;
    }
    for _ in 0..s {
        k1[0] = x[0];
        for i in 1..n {
            k1[i] = x[i] * y[i - 1];
        }
        for i in 0..n {
            y_tmp[i] = y[i] + h * k1[i] / 2.0;
        }
        k2[0] = x[0];
        for i in 1..n {
            k2[i] = x[i] * y_tmp[i - 1];
        }
        for i in 0..n {
            y_tmp[i] = y[i] + h * k2[i] / 2.0;
        }
        k3[0] = x[0];
        for i in 1..n {
            k3[i] = x[i] * y_tmp[i - 1];
        }
        for i in 0..n {
            y_tmp[i] = y[i] + h * k3[i];
        }
        k4[0] = x[0];
        for i in 1..n {
            k4[i] = x[i] * y_tmp[i - 1];
        }
        for i in 0..n {
            y[i] += h * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]) / 6.0;
        }
    }
    y[n - 1]
}
