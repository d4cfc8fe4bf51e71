//! `kmeans`: the k-means cost, and the Newton direction J H⁻¹ from its gradient and Hessian.
//!
//! The cost Σᵢ minⱼ ‖cⱼ - pᵢ‖² has a diagonal Hessian (each centroid's coordinates enter only
//! through their own squares), so its diagonal is the Hessian-vector product along the vector
//! of ones: `kmeans_cost_hvp` with every tangent 1.

use super::{Evaluated, done, parse, unknown};
use crate::timing::{Runs, repeat};
use micrograd_runtime::prelude::*;
use serde::Deserialize;
use serde_json::Value;

/// The eval's input: the points and the centroids, one row each, and how many runs to time.
#[derive(Debug, Deserialize)]
pub struct Input {
    /// The points P, n rows of d.
    pub points: Vec<Vec<f64>>,
    /// The centroids C, k rows of d.
    pub centroids: Vec<Vec<f64>>,
    /// How many runs to time.
    #[serde(flatten)]
    pub runs: Runs,
}

/// Σᵢ minⱼ ‖cⱼ - pᵢ‖² over the points (data, one row each) and the centroids, `d` coordinates
/// each laid end to end (a differentiated `&[Vec<f64>]` is not taken yet).
///
/// Each point first finds its closest centroid's index (an integer, which nothing
/// differentiates), then adds its distance to that centroid: only that centroid's coordinates
/// receive a gradient, as only they change the minimum.
#[differentiable(hvp, wrt(centroids))]
pub fn kmeans_cost(points: &[Vec<f64>], centroids: &[f64], d: usize) -> f64 {
    let mut cost = 0.0;
    for p in points {
        let mut closest = 0;
        let mut nearest = f64::INFINITY;
        for (j, c) in centroids.chunks(d).enumerate() {
            let distance = p.iter().zip(c).map(|(a, b)| (a - b).powi(2)).sum::<f64>();
            if distance < nearest {
                nearest = distance;
                closest = j;
            }
        }
        let c = &centroids[closest * d..(closest + 1) * d];
        cost += p.iter().zip(c).map(|(a, b)| (a - b).powi(2)).sum::<f64>();
    }
    cost
}

/// The buffers of one `dir` evaluation, allocated once per input.
struct Newton {
    gradient: Vec<f64>,
    ones: Vec<f64>,
    hessian_diagonal: Vec<f64>,
    direction: Vec<f64>,
}

impl Newton {
    fn new(size: usize) -> Self {
        Newton {
            gradient: vec![0.0; size],
            ones: vec![1.0; size],
            hessian_diagonal: vec![0.0; size],
            direction: vec![0.0; size],
        }
    }

    /// J H⁻¹: the gradient from `kmeans_cost_grad`, divided entry by entry by the Hessian's
    /// diagonal from `kmeans_cost_hvp`.
    fn direction(&mut self, points: &[Vec<f64>], centroids: &[f64], d: usize) {
        self.gradient.fill(0.0);
        self.hessian_diagonal.fill(0.0);
        kmeans_cost_grad(points, centroids, &mut self.gradient, d);
        kmeans_cost_hvp(points, centroids, &self.ones, &mut self.hessian_diagonal, d);
        for ((dir, g), h) in self
            .direction
            .iter_mut()
            .zip(&self.gradient)
            .zip(&self.hessian_diagonal)
        {
            *dir = g / h;
        }
    }
}

/// The Newton direction J H⁻¹ for `centroids`, `d` coordinates each, laid end to end.
pub fn newton_direction(points: &[Vec<f64>], centroids: &[f64], d: usize) -> Vec<f64> {
    let mut newton = Newton::new(centroids.len());
    newton.direction(points, centroids, d);
    newton.direction
}

/// `cost` or `dir` (the Newton direction, one row per centroid) at `input`.
pub fn evaluate(function: &str, input: Value) -> Result<Evaluated, String> {
    let Input {
        points,
        centroids,
        runs,
    } = parse(input)?;
    let d = centroids.first().map_or(0, Vec::len);
    if d == 0 || points.iter().chain(&centroids).any(|row| row.len() != d) {
        return Err("every point and centroid must have the same positive dimension".into());
    }
    let centroids = centroids.concat();
    match function {
        "cost" => {
            let (cost, timings) = repeat(runs, || kmeans_cost(&points, &centroids, d));
            done(cost, timings)
        }
        "dir" => {
            let mut newton = Newton::new(centroids.len());
            let (_, timings) = repeat(runs, || newton.direction(&points, &centroids, d));
            let rows: Vec<&[f64]> = newton.direction.chunks(d).collect();
            done(rows, timings)
        }
        _ => unknown("kmeans", function),
    }
}
