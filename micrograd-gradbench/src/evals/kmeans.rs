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
/// Each point adds the least of its distances to the centroids, a fold of `f64::min` as the
/// specification's minimum reads: only the closest centroid's coordinates receive a gradient,
/// as only they change the minimum. (It searched for the closest index and then measured that
/// distance a second time, 1.5x `manual`'s instructions; this is 1.2x.)
#[differentiable(hvp, wrt(centroids))]
pub fn kmeans_cost(points: &[Vec<f64>], centroids: &[f64], d: usize) -> f64 {
    let mut cost = 0.0;
    for p in points {
        cost += centroids
            .chunks_exact(d)
            .map(|c| p.iter().zip(c).map(|(a, b)| (a - b).powi(2)).sum::<f64>())
            .fold(f64::INFINITY, f64::min);
    }
    cost
}

/// The cost of the points' assignment to the centroids `assigned` names: Σᵢ ‖c_{aᵢ} - pᵢ‖².
/// Where each point is assigned to its closest centroid it is `kmeans_cost`, and so are its
/// gradient and Hessian, since moving the centroids a little moves no point to another one
/// (at a tie, either centroid gives the same cost): the Newton direction is computed from this
/// function, with the search for the closest centroids done once, before, instead of once in
/// each derivative.
#[differentiable(hvp, wrt(centroids))]
pub fn assigned_cost(points: &[Vec<f64>], assigned: &[usize], centroids: &[f64], d: usize) -> f64 {
    let mut cost = 0.0;
    for (p, &a) in points.iter().zip(assigned) {
        let c = &centroids[a * d..(a + 1) * d];
        cost += p.iter().zip(c).map(|(x, y)| (x - y).powi(2)).sum::<f64>();
    }
    cost
}

/// The buffers of one `dir` evaluation, allocated once per input.
struct Newton {
    assigned: Vec<usize>,
    quads: Vec<[f64; 4]>,
    gradient: Vec<f64>,
    ones: Vec<f64>,
    hessian_diagonal: Vec<f64>,
    direction: Vec<f64>,
}

impl Newton {
    fn new(size: usize, points: usize, d: usize) -> Self {
        Newton {
            assigned: vec![0; points],
            quads: vec![[0.0; 4]; size.div_ceil(4 * d) * d],
            gradient: vec![0.0; size],
            ones: vec![1.0; size],
            hessian_diagonal: vec![0.0; size],
            direction: vec![0.0; size],
        }
    }

    /// Each point's closest centroid (the first of equals), `d` coordinates each laid end to
    /// end: an integer that nothing differentiates. The centroids are taken four at a time,
    /// coordinate by coordinate (`quads[q * d + i][j]` is coordinate `i` of centroid `4q + j`,
    /// and infinity past the last centroid, which is never nearer), so each coordinate of the
    /// point adds to four squared distances at once, one vector of the machine held in
    /// registers, where one distance at a time was a chain of `d` dependent additions with a
    /// loop's setup around it. Each distance adds the same terms in the same order as
    /// `Σᵢ (pᵢ - cᵢ)²`, so the distances and the choice are the one-at-a-time search's bit for
    /// bit.
    fn assign(&mut self, points: &[Vec<f64>], centroids: &[f64], d: usize) {
        for quad in &mut self.quads {
            *quad = [f64::INFINITY; 4];
        }
        for (j, c) in centroids.chunks_exact(d).enumerate() {
            for (i, &ci) in c.iter().enumerate() {
                self.quads[j / 4 * d + i][j % 4] = ci;
            }
        }
        for (a, p) in self.assigned.iter_mut().zip(points) {
            let mut nearest = f64::INFINITY;
            *a = 0;
            for (q, quad) in self.quads.chunks_exact(d).enumerate() {
                let mut distances = [0.0; 4];
                for (&pi, c) in p.iter().zip(quad) {
                    for j in 0..4 {
                        distances[j] += (pi - c[j]).powi(2);
                    }
                }
                for (j, &distance) in distances.iter().enumerate() {
                    if distance < nearest {
                        nearest = distance;
                        *a = 4 * q + j;
                    }
                }
            }
        }
    }

    /// J H⁻¹: each point's closest centroid, then the gradient from `assigned_cost_grad`,
    /// divided entry by entry by the Hessian's diagonal from `assigned_cost_hvp`.
    fn direction(&mut self, points: &[Vec<f64>], centroids: &[f64], d: usize) {
        self.assign(points, centroids, d);
        self.gradient.fill(0.0);
        self.hessian_diagonal.fill(0.0);
        let assigned = &self.assigned;
        assigned_cost_grad(points, assigned, centroids, &mut self.gradient, d);
        let (ones, diagonal) = (&self.ones, &mut self.hessian_diagonal);
        assigned_cost_hvp(points, assigned, centroids, ones, diagonal, d);
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
    let mut newton = Newton::new(centroids.len(), points.len(), d);
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
            let mut newton = Newton::new(centroids.len(), points.len(), d);
            let (_, timings) = repeat(runs, || newton.direction(&points, &centroids, d));
            let rows: Vec<&[f64]> = newton.direction.chunks(d).collect();
            done(rows, timings)
        }
        _ => unknown("kmeans", function),
    }
}
