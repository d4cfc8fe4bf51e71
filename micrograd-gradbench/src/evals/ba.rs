//! `ba`: bundle adjustment's reprojection errors and their sparse Jacobian, from each
//! observation's 2 × 15 Jacobian.
//!
//! A camera has 11 parameters: a Rodrigues rotation (3), its center (3), the focal length,
//! the principal point (2) and two radial distortion coefficients. The input is one camera,
//! one point, one weight and one feature, which the tool repeats (`n` cameras, `m` points, `p`
//! observations, observation i seeing camera i mod n and point i mod m) and must not exploit.

use super::{Evaluated, done, parse, unknown};
use crate::timing::{Runs, repeat};
use micrograd_runtime::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The parameters of a camera.
pub const CAMERA: usize = 11;

/// The eval's input: the sizes, the one camera, point, weight and feature, how many runs.
#[derive(Debug, Deserialize)]
pub struct Input {
    /// The number of cameras.
    pub n: usize,
    /// The number of points.
    pub m: usize,
    /// The number of observations.
    pub p: usize,
    /// The camera, 11 parameters.
    pub cam: [f64; CAMERA],
    /// The point, 3 coordinates.
    pub x: [f64; 3],
    /// The observation's weight.
    pub w: f64,
    /// The observed feature, 2 coordinates.
    pub feat: [f64; 2],
    /// How many runs to time.
    #[serde(flatten)]
    pub runs: Runs,
}

/// The reprojection error of one observation: `w` times the distance, in the image, between
/// the projection of point `x` by camera `cam` and the observed `feat`.
#[differentiable(jacobian, wrt(cam, x, w))]
pub fn reprojection_error(cam: &[f64; CAMERA], x: &[f64; 3], w: f64, feat: &[f64; 2]) -> [f64; 2] {
    // the point relative to the camera's center
    let p = [x[0] - cam[3], x[1] - cam[4], x[2] - cam[5]];
    let (r0, r1, r2) = (cam[0], cam[1], cam[2]);
    let theta_sq = r0 * r0 + r1 * r1 + r2 * r2;
    // Rodrigues' rotation of p by the axis-angle r, or its first order at r = 0
    let [x_cam, y_cam, z_cam] = if theta_sq != 0.0 {
        let theta = theta_sq.sqrt();
        let (sin, cos) = theta.sin_cos();
        let k = [r0 / theta, r1 / theta, r2 / theta];
        let k_dot_p = (k[0] * p[0] + k[1] * p[1] + k[2] * p[2]) * (1.0 - cos);
        [
            p[0] * cos + (k[1] * p[2] - k[2] * p[1]) * sin + k[0] * k_dot_p,
            p[1] * cos + (k[2] * p[0] - k[0] * p[2]) * sin + k[1] * k_dot_p,
            p[2] * cos + (k[0] * p[1] - k[1] * p[0]) * sin + k[2] * k_dot_p,
        ]
    } else {
        [
            p[0] + (r1 * p[2] - r2 * p[1]),
            p[1] + (r2 * p[0] - r0 * p[2]),
            p[2] + (r0 * p[1] - r1 * p[0]),
        ]
    };
    let u = x_cam / z_cam;
    let v = y_cam / z_cam;
    let r_sq = u * u + v * v;
    let distortion = 1.0 + cam[9] * r_sq + cam[10] * r_sq * r_sq;
    let projected_u = u * distortion * cam[6] + cam[7];
    let projected_v = v * distortion * cam[6] + cam[8];
    [w * (projected_u - feat[0]), w * (projected_v - feat[1])]
}

/// The weight's error, 1 - w².
#[differentiable]
pub fn weight_error(w: f64) -> f64 {
    1.0 - w * w
}

/// The problem, its repetitions laid out as the eval asks.
struct Problem {
    n: usize,
    m: usize,
    cams: Vec<[f64; CAMERA]>,
    points: Vec<[f64; 3]>,
    weights: Vec<f64>,
    features: Vec<[f64; 2]>,
}

impl Problem {
    fn new(input: &Input) -> Self {
        Problem {
            n: input.n,
            m: input.m,
            cams: vec![input.cam; input.n],
            points: vec![input.x; input.m],
            weights: vec![input.w; input.p],
            features: vec![input.feat; input.p],
        }
    }

    /// Observation i's camera and point.
    fn observation(&self, i: usize) -> (usize, usize) {
        (i % self.n, i % self.m)
    }

    fn reprojection(&self, i: usize) -> [f64; 2] {
        let (c, pt) = self.observation(i);
        reprojection_error(
            &self.cams[c],
            &self.points[pt],
            self.weights[i],
            &self.features[i],
        )
    }
}

/// The Jacobian in compressed sparse rows: row 2i and 2i + 1 are observation i's errors (15
/// entries each: its camera's 11, its point's 3, its weight), then one row per weight error.
#[derive(Debug, Default, Serialize)]
pub struct SparseJacobian {
    /// Where each row starts in `cols` and `vals`, and one past the last.
    pub rows: Vec<usize>,
    /// Each entry's column: cameras' parameters, then points', then weights.
    pub cols: Vec<usize>,
    /// Each entry's value.
    pub vals: Vec<f64>,
}

impl SparseJacobian {
    fn with_capacity(p: usize) -> Self {
        SparseJacobian {
            rows: Vec::with_capacity(3 * p + 1),
            cols: Vec::with_capacity(31 * p),
            vals: Vec::with_capacity(31 * p),
        }
    }

    /// Fills the Jacobian of every error, from `reprojection_error_jacobian` and
    /// `weight_error_grad`.
    fn fill(&mut self, problem: &Problem) {
        let (n, m, p) = (problem.n, problem.m, problem.weights.len());
        self.rows.clear();
        self.cols.clear();
        self.vals.clear();
        self.rows.push(0);
        let (mut d_cam, mut d_point) = ([0.0; 2 * CAMERA], [0.0; 6]);
        for i in 0..p {
            let (c, pt) = problem.observation(i);
            let (_, d_w) = reprojection_error_jacobian(
                &problem.cams[c],
                &mut d_cam,
                &problem.points[pt],
                &mut d_point,
                problem.weights[i],
                &problem.features[i],
            );
            for row in 0..2 {
                let cam_row = &d_cam[row * CAMERA..(row + 1) * CAMERA];
                self.cols.extend((0..CAMERA).map(|j| c * CAMERA + j));
                self.vals.extend_from_slice(cam_row);
                self.cols.extend((0..3).map(|j| n * CAMERA + pt * 3 + j));
                self.vals.extend_from_slice(&d_point[row * 3..row * 3 + 3]);
                self.cols.push(n * CAMERA + 3 * m + i);
                self.vals.push(d_w[row][0]);
                self.rows.push(self.cols.len());
            }
        }
        for i in 0..p {
            let (_, d_w) = weight_error_grad(problem.weights[i]);
            self.cols.push(n * CAMERA + 3 * m + i);
            self.vals.push(d_w);
            self.rows.push(self.cols.len());
        }
    }

    /// The first 30 entries of each list and its last, as the eval compares them.
    fn summary(&self) -> Value {
        let cut = |v: &[f64]| -> Vec<f64> { v[..30].iter().chain(v.last()).copied().collect() };
        let cut_usize =
            |v: &[usize]| -> Vec<usize> { v[..30].iter().chain(v.last()).copied().collect() };
        json!({"rows": cut_usize(&self.rows), "cols": cut_usize(&self.cols), "vals": cut(&self.vals)})
    }
}

/// `objective` (every error, reported as the first with its count) or `jacobian` (the sparse
/// Jacobian, summarized) at `input`.
pub fn evaluate(function: &str, input: Value) -> Result<Evaluated, String> {
    let input: Input = parse(input)?;
    if input.n == 0 || input.m == 0 || input.p < 2 {
        return Err("expected cameras, points and at least two observations".into());
    }
    let problem = Problem::new(&input);
    let p = input.p;
    match function {
        "objective" => {
            let mut reprojection = vec![0.0; 2 * p];
            let mut weight = vec![0.0; p];
            let (_, timings) = repeat(input.runs, || {
                for i in 0..p {
                    let error = problem.reprojection(i);
                    reprojection[2 * i..2 * i + 2].copy_from_slice(&error);
                }
                for (e, &w) in weight.iter_mut().zip(&problem.weights) {
                    *e = weight_error(w);
                }
            });
            let output = json!({
                "reproj_error": {"elements": &reprojection[..2], "repeated": p},
                "w_err": {"element": weight[0], "repeated": p},
            });
            done(output, timings)
        }
        "jacobian" => {
            let mut jacobian = SparseJacobian::with_capacity(p);
            let (_, timings) = repeat(input.runs, || jacobian.fill(&problem));
            done(jacobian.summary(), timings)
        }
        _ => unknown("ba", function),
    }
}
