//! `ht`: ADBench's hand tracking, the offsets between observed points and a skinned hand
//! model posed by 26 parameters, and their Jacobian.
//!
//! θ holds the global rotation (angle-axis), the global translation, and four angles per
//! finger. Each bone's pose is an Euler rotation after its base pose, chained from its parent;
//! each vertex is the weighted sum of its bones' transforms; the "complicated" variant matches
//! each point to a triangle at barycentric coordinates `us` instead of to a vertex.

mod skin;

use super::{Evaluated, done, parse, unknown};
use crate::timing::{Runs, repeat};
use serde::Deserialize;
use serde_json::Value;
pub use skin::{skin, triangle_error, vertex_error};
use skin::{skin_jacobian, triangle_error_jvp, vertex_error_jvp};

/// The pose parameters θ.
pub const THETA: usize = 26;

/// The hand model, each matrix a list of rows.
#[derive(Debug, Deserialize)]
pub struct Model {
    /// Each bone's parent, -1 for the root; a parent comes before its children.
    pub parents: Vec<i64>,
    /// Each bone's 4 × 4 transform relative to its parent at rest.
    pub base_relatives: Vec<Vec<Vec<f64>>>,
    /// Each bone's inverse 4 × 4 absolute transform at rest.
    pub inverse_base_absolutes: Vec<Vec<Vec<f64>>>,
    /// Each vertex at rest, homogeneous (4 coordinates).
    pub base_positions: Vec<Vec<f64>>,
    /// Each vertex's weight for each bone.
    pub weights: Vec<Vec<f64>>,
    /// The mesh's triangles, three vertices each.
    pub triangles: Vec<Vec<usize>>,
    /// Whether the model is a left hand (x mirrored).
    pub is_mirrored: bool,
}

/// The model and the observations.
#[derive(Debug, Deserialize)]
pub struct Data {
    /// The hand model.
    pub model: Model,
    /// Each point's vertex (simple) or triangle (complicated).
    pub correspondences: Vec<usize>,
    /// The observed points, 3 coordinates each.
    pub points: Vec<Vec<f64>>,
}

/// The eval's input: the pose, the data, the barycentric coordinates (none in the simple
/// variant), how many runs.
#[derive(Debug, Deserialize)]
pub struct Input {
    /// The pose parameters, 26.
    pub theta: Vec<f64>,
    /// The model and the observations.
    pub data: Data,
    /// Each point's two barycentric coordinates in its triangle; empty in the simple variant.
    #[serde(default)]
    pub us: Vec<Vec<f64>>,
    /// How many runs to time.
    #[serde(flatten)]
    pub runs: Runs,
}

/// The model and data laid out flat, as the functions read them: row-major 4 × 4 matrices
/// end to end, vertices of 4 coordinates, a vertex's weights together.
#[derive(Debug, Clone)]
pub struct Hand {
    /// Each bone's parent, -1 for the root.
    pub parents: Vec<i64>,
    /// The base relatives, 16 per bone.
    pub base_relatives: Vec<f64>,
    /// The inverse base absolutes, 16 per bone.
    pub inverse_base_absolutes: Vec<f64>,
    /// The vertices at rest, 4 per vertex.
    pub base_positions: Vec<f64>,
    /// The weights, one per bone for each vertex.
    pub weights: Vec<f64>,
    /// The triangles, 3 vertices each.
    pub triangles: Vec<[usize; 3]>,
    /// Whether x is mirrored.
    pub mirrored: bool,
    /// Each point's vertex or triangle.
    pub correspondences: Vec<usize>,
    /// The points, 3 per point.
    pub points: Vec<f64>,
}

impl Hand {
    /// Flattens the eval's data.
    pub fn new(data: &Data) -> Self {
        let flat = |m: &[Vec<f64>]| m.concat();
        let flat3 = |m: &[Vec<Vec<f64>>]| m.iter().flat_map(|m| m.concat()).collect();
        Hand {
            parents: data.model.parents.clone(),
            base_relatives: flat3(&data.model.base_relatives),
            inverse_base_absolutes: flat3(&data.model.inverse_base_absolutes),
            base_positions: flat(&data.model.base_positions),
            weights: flat(&data.model.weights),
            triangles: data
                .model
                .triangles
                .iter()
                .map(|t| [t[0], t[1], t[2]])
                .collect(),
            mirrored: data.model.is_mirrored,
            correspondences: data.correspondences.clone(),
            points: flat(&data.points),
        }
    }

    /// Poses the hand at `theta` into `posed`.
    pub fn pose(&self, theta: &[f64], posed: &mut [f64]) {
        skin(
            theta,
            &self.parents,
            &self.base_relatives,
            &self.inverse_base_absolutes,
            &self.base_positions,
            &self.weights,
            self.mirrored,
            posed,
        );
    }

    /// Poses the hand at `theta` into `posed`, and its Jacobian `∂posed/∂θ` into `d_theta`
    /// (row-major, a row of θ's 26 per coordinate), from `skin_jacobian`.
    pub fn pose_jacobian(&self, theta: &[f64], d_theta: &mut [f64], posed: &mut [f64]) {
        skin_jacobian(
            theta,
            d_theta,
            &self.parents,
            &self.base_relatives,
            &self.inverse_base_absolutes,
            &self.base_positions,
            &self.weights,
            self.mirrored,
            posed,
        );
    }

    /// Point i's error and its derivative along the tangent `v_posed` of the vertices and
    /// `v_u` of its coordinates `us[2i..2i + 2]` (if `us` is not empty), from the error
    /// functions' JVPs.
    pub fn error_tangent(
        &self,
        i: usize,
        (posed, v_posed): (&[f64], &[f64]),
        (us, v_u): (&[f64], [f64; 2]),
    ) -> ([f64; 3], [f64; 3]) {
        let point = &self.points[3 * i..3 * i + 3];
        let at = self.correspondences[i];
        let vertex = |v: usize| (&posed[3 * v..3 * v + 3], &v_posed[3 * v..3 * v + 3]);
        if us.is_empty() {
            let (x, v_x) = vertex(at);
            return vertex_error_jvp(x, v_x, point);
        }
        let [a, b, c] = self.triangles[at].map(vertex);
        let (u0, u1) = (us[2 * i], us[2 * i + 1]);
        triangle_error_jvp(a.0, a.1, b.0, b.1, c.0, c.1, u0, v_u[0], u1, v_u[1], point)
    }

    /// The vertices the points' errors read: each point's vertex (`us` empty) or its
    /// triangle's three.
    pub fn read_vertices(&self, us: &[f64]) -> Vec<usize> {
        let at = self.correspondences.iter();
        match us.is_empty() {
            true => at.copied().collect(),
            false => at.flat_map(|&t| self.triangles[t]).collect(),
        }
    }

    /// The errors at `theta` (and `us`, when not empty) into `err`, the hand posed into
    /// `posed`.
    pub fn objective(&self, theta: &[f64], us: &[f64], posed: &mut [f64], err: &mut [f64]) {
        self.pose(theta, posed);
        for (i, e) in err.chunks_exact_mut(3).enumerate() {
            let point = &self.points[3 * i..3 * i + 3];
            let at = self.correspondences[i];
            let vertex = |v: usize| &posed[3 * v..3 * v + 3];
            let error = if us.is_empty() {
                vertex_error(vertex(at), point)
            } else {
                let [a, b, c] = self.triangles[at].map(vertex);
                triangle_error(a, b, c, us[2 * i], us[2 * i + 1], point)
            };
            e.copy_from_slice(&error);
        }
    }
}

/// The Jacobian's columns: with `us`, d/du₀ and d/du₁ first (each point's error depends on
/// its own two coordinates only, so one sweep along every point's u₀ gives the first column),
/// then θ's 26. Row i is error i's derivatives. The vertices' Jacobian over θ comes from
/// `skin_jacobian` (the skinning run once per 8 columns); each of its columns, at the
/// vertices the points read, is passed on to each point's error JVP, as generated code passes
/// a callee's tangent to its caller.
fn jacobian(hand: &Hand, theta: &[f64], us: &[f64], buffers: &mut Buffers) {
    let Buffers {
        d_theta,
        posed,
        v_posed,
        rows,
        read,
    } = buffers;
    let extra = if us.is_empty() { 0 } else { 2 };
    v_posed.fill(0.0);
    hand.pose_jacobian(theta, d_theta, posed);
    for column in 0..extra + THETA {
        let mut v_u = [0.0; 2];
        if column < extra {
            v_u[column] = 1.0;
        } else {
            // Column `column - extra` of ∂posed/∂θ, at the vertices read (one to three per
            // point, of the hand's 10,000).
            for &v in read.iter() {
                for e in 3 * v..3 * v + 3 {
                    v_posed[e] = d_theta[e * THETA + column - extra];
                }
            }
        }
        for (i, three) in rows.chunks_exact_mut(3).enumerate() {
            let (_, v_e) = hand.error_tangent(i, (posed, v_posed), (us, v_u));
            for (row, d) in three.iter_mut().zip(v_e) {
                row[column] = d;
            }
        }
    }
}

/// What the Jacobian needs, allocated once per input.
struct Buffers {
    d_theta: Vec<f64>,
    posed: Vec<f64>,
    v_posed: Vec<f64>,
    rows: Vec<Vec<f64>>,
    /// The vertices the errors read (`Hand::read_vertices`).
    read: Vec<usize>,
}

/// `objective` (the errors, from `ht_objective`) or `jacobian` (from `ht_objective_jvp`) at
/// `input`.
pub fn evaluate(function: &str, input: Value) -> Result<Evaluated, String> {
    let input: Input = parse(input)?;
    let hand = Hand::new(&input.data);
    let us = input.us.concat();
    let n_points = hand.correspondences.len();
    if input.theta.len() != THETA || !(us.is_empty() || us.len() == 2 * n_points) {
        return Err("expected 26 pose parameters and two coordinates per point or none".into());
    }
    let mut err = vec![0.0; 3 * n_points];
    let mut posed = vec![0.0; hand.base_positions.len() / 4 * 3];
    match function {
        "objective" => {
            let (_, timings) = repeat(input.runs, || {
                hand.objective(&input.theta, &us, &mut posed, &mut err)
            });
            done(err, timings)
        }
        "jacobian" => {
            let columns = THETA + if us.is_empty() { 0 } else { 2 };
            let mut buffers = Buffers {
                d_theta: vec![0.0; THETA * posed.len()],
                v_posed: vec![0.0; posed.len()],
                posed,
                rows: vec![vec![0.0; columns]; 3 * n_points],
                read: hand.read_vertices(&us),
            };
            let (_, timings) = repeat(input.runs, || {
                jacobian(&hand, &input.theta, &us, &mut buffers)
            });
            done(buffers.rows, timings)
        }
        _ => unknown("ht", function),
    }
}
