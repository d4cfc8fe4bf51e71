//! The hand's functions, as `#[differentiable]` Rust: the skinned, posed vertices, and a
//! point's error against a vertex or a triangle.

use micrograd_runtime::prelude::*;

/// The hand's vertices posed by `theta`, written into `posed` (3 coordinates each).
/// `parents` holds each bone's parent, before it (-1 for the root). `skin_jacobian` gives
/// `∂posed/∂θ` from one sweep per 8 of θ's entries, `f_jacobian`'s vector forward mode.
#[differentiable(jacobian, wrt(theta, posed))]
#[allow(clippy::too_many_arguments)]
pub fn skin(
    theta: &[f64],
    parents: &[i64],
    base_relatives: &[f64],
    inverse_base_absolutes: &[f64],
    base_positions: &[f64],
    weights: &[f64],
    mirrored: bool,
    posed: &mut [f64],
) {
    let n_bones = parents.len();
    let n_verts = base_positions.len() / 4;
    // each bone's pose: its Euler angles (x, z, y), from θ's finger angles
    let mut angles = vec![0.0; 3 * n_bones];
    for finger in 0..5 {
        let bone = 2 + 4 * finger;
        angles[3 * bone] = theta[6 + 4 * finger];
        angles[3 * bone + 1] = theta[7 + 4 * finger];
        angles[3 * (bone + 1)] = theta[8 + 4 * finger];
        angles[3 * (bone + 2)] = theta[9 + 4 * finger];
    }
    // each bone's absolute transform: base relative · rotation, after its parent's
    let mut absolutes = vec![0.0; 16 * n_bones];
    let mut transforms = vec![0.0; 16 * n_bones];
    for b in 0..n_bones {
        let (cx, sx) = (angles[3 * b].cos(), angles[3 * b].sin());
        let (cz, sz) = (angles[3 * b + 1].cos(), angles[3 * b + 1].sin());
        let (cy, sy) = (angles[3 * b + 2].cos(), angles[3 * b + 2].sin());
        // Rz · Ry · Rx
        let rotation = [
            cz * cy,
            -sz * cx + cz * sy * sx,
            sz * sx + cz * sy * cx,
            sz * cy,
            cz * cx + sz * sy * sx,
            -cz * sx + sz * sy * cx,
            -sy,
            cy * sx,
            cy * cx,
        ];
        let mut relative = [0.0; 16];
        for r in 0..4 {
            for c in 0..3 {
                let mut s = 0.0;
                for k in 0..3 {
                    s += base_relatives[16 * b + 4 * r + k] * rotation[3 * k + c];
                }
                relative[4 * r + c] = s;
            }
            relative[4 * r + 3] = base_relatives[16 * b + 4 * r + 3];
        }
        if parents[b] < 0 {
            for e in 0..16 {
                absolutes[16 * b + e] = relative[e];
            }
        } else {
            let p = parents[b] as usize;
            for r in 0..4 {
                for c in 0..4 {
                    let mut s = 0.0;
                    for k in 0..4 {
                        s += absolutes[16 * p + 4 * r + k] * relative[4 * k + c];
                    }
                    absolutes[16 * b + 4 * r + c] = s;
                }
            }
        }
        for r in 0..4 {
            for c in 0..4 {
                let mut s = 0.0;
                for k in 0..4 {
                    s += absolutes[16 * b + 4 * r + k] * inverse_base_absolutes[16 * b + 4 * k + c];
                }
                transforms[16 * b + 4 * r + c] = s;
            }
        }
    }
    // the skinned vertices, 3 coordinates each; a vertex follows 1 to 4 of the bones (92% of
    // the weights are zero), and a bone of weight zero adds nothing to it
    let mut positions = vec![0.0; 3 * n_verts];
    for b in 0..n_bones {
        for v in 0..n_verts {
            let w = weights[n_bones * v + b];
            if w != 0.0 {
                for i in 0..3 {
                    let mut s = 0.0;
                    for k in 0..4 {
                        s += transforms[16 * b + 4 * i + k] * base_positions[4 * v + k];
                    }
                    positions[3 * v + i] += s * w;
                }
            }
        }
    }
    // the global rotation (angle-axis θ[0..3]) and translation θ[3..6]; the scale is 1
    let norm = (theta[0] * theta[0] + theta[1] * theta[1] + theta[2] * theta[2]).sqrt();
    let [r00, r01, r02, r10, r11, r12, r20, r21, r22] = if norm < 0.0001 {
        [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    } else {
        let (x, y, z) = (theta[0] / norm, theta[1] / norm, theta[2] / norm);
        let (s, c) = (norm.sin(), norm.cos());
        [
            x * x + (1.0 - x * x) * c,
            x * y * (1.0 - c) - z * s,
            x * z * (1.0 - c) + y * s,
            x * y * (1.0 - c) + z * s,
            y * y + (1.0 - y * y) * c,
            y * z * (1.0 - c) - x * s,
            x * z * (1.0 - c) - y * s,
            z * y * (1.0 - c) + x * s,
            z * z + (1.0 - z * z) * c,
        ]
    };
    // (`let global = if .. { [..] } else { [..] };` is refused: such a branch is taken apart)
    let global = [r00, r01, r02, r10, r11, r12, r20, r21, r22];
    for v in 0..n_verts {
        let x = if mirrored {
            -positions[3 * v]
        } else {
            positions[3 * v]
        };
        for i in 0..3 {
            posed[3 * v + i] = global[3 * i] * x
                + global[3 * i + 1] * positions[3 * v + 1]
                + global[3 * i + 2] * positions[3 * v + 2]
                + theta[3 + i];
        }
    }
}

/// A point's error against a vertex of the posed hand.
#[differentiable(jvp, wrt(vertex))]
pub fn vertex_error(vertex: &[f64], point: &[f64]) -> [f64; 3] {
    [
        point[0] - vertex[0],
        point[1] - vertex[1],
        point[2] - vertex[2],
    ]
}

/// A point's error against the point of a triangle (`a`, `b`, `c`) at barycentric
/// coordinates (`u0`, `u1`).
#[differentiable(jvp, wrt(a, b, c, u0, u1))]
pub fn triangle_error(
    a: &[f64],
    b: &[f64],
    c: &[f64],
    u0: f64,
    u1: f64,
    point: &[f64],
) -> [f64; 3] {
    let mut e = [0.0; 3];
    for j in 0..3 {
        e[j] = point[j] - (u0 * a[j] + u1 * b[j] + (1.0 - u0 - u1) * c[j]);
    }
    e
}
