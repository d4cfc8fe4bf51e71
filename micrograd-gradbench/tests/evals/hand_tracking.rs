//! The Jacobian of ht, simple and complicated, through the eval's own entry point: against
//! central differences of its objective and against num-dual on a twin written from ADBench's
//! structure (pose parameters as a matrix, each Euler rotation a product of three matrices).

use crate::common::{assert_close, points};
use micrograd_gradbench::evals::evaluate;
use num_dual::{Dual64, DualNum};
use serde_json::{Value, json};

const BONES: usize = 22;
const VERTS: usize = 7;

/// A small hand: 22 bones (θ addresses bone 20), 7 vertices following a third of them each,
/// 5 points; parents before children, bone 0 the root; `us` empty for the simple variant.
fn input(theta: &[f64], us: &[f64]) -> Value {
    let r = points(2 * 16 * BONES + 3 * VERTS + VERTS * BONES + 15, 26);
    let matrix = |m: &[f64]| -> Vec<Vec<f64>> {
        let mut rows: Vec<Vec<f64>> = m.chunks(4).map(|row| row.to_vec()).collect();
        rows[3] = vec![0.0, 0.0, 0.0, 1.0];
        rows
    };
    let relatives: Vec<_> = r[..16 * BONES].chunks(16).map(matrix).collect();
    let inverses: Vec<_> = r[16 * BONES..32 * BONES].chunks(16).map(matrix).collect();
    let rest = &r[32 * BONES..];
    let positions: Vec<_> = rest[..3 * VERTS]
        .chunks(3)
        .map(|p| vec![p[0], p[1], p[2], 1.0])
        .collect();
    // Most weights zero, as in ADBench's hands (a vertex follows a few bones): `skin` skips
    // a bone of weight zero.
    let weights: Vec<_> = rest[3 * VERTS..3 * VERTS + VERTS * BONES]
        .chunks(BONES)
        .enumerate()
        .map(|(v, w)| {
            let follows = |b: usize| (v + b).is_multiple_of(3);
            (w.iter().enumerate())
                .map(|(b, w)| if follows(b) { w.abs() } else { 0.0 })
                .collect::<Vec<_>>()
        })
        .collect();
    let observed: Vec<_> = rest[3 * VERTS + VERTS * BONES..]
        .chunks(3)
        .map(<[f64]>::to_vec)
        .collect();
    let parents: Vec<i64> = (0..BONES as i64)
        .map(|b| if b == 0 { -1 } else { (b - 1) / 2 })
        .collect();
    let us: Vec<Vec<f64>> = us.chunks(2).map(<[f64]>::to_vec).collect();
    json!({
        "theta": theta,
        "us": us,
        "data": {
            "model": {
                "bone_count": BONES,
                "bone_names": vec!["bone"; BONES],
                "parents": parents,
                "base_relatives": relatives,
                "inverse_base_absolutes": inverses,
                "base_positions": positions,
                "weights": weights,
                "triangles": [[0, 1, 2], [3, 4, 5], [6, 0, 3]],
                "is_mirrored": false,
            },
            "correspondences": if us.is_empty() { json!([0, 3, 6, 2, 5]) } else { json!([0, 1, 2, 1, 0]) },
            "points": observed,
        },
    })
}

fn call(function: &str, theta: &[f64], us: &[f64]) -> Value {
    evaluate("ht", function, input(theta, us)).unwrap().output
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Column `c` of the Jacobian, from the eval.
fn column(jacobian: &Value, c: usize) -> Vec<f64> {
    jacobian
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row[c].as_f64().unwrap())
        .collect()
}

/// Central differences of the eval's objective along θ's entry `k`, or with `k` ≥ 26 along
/// every point's u₀ (27: u₁).
fn central_column(theta: &[f64], us: &[f64], k: usize) -> Vec<f64> {
    let (mut theta_plus, mut theta_minus, mut us_plus, mut us_minus) =
        (theta.to_vec(), theta.to_vec(), us.to_vec(), us.to_vec());
    let h = 1e-6;
    if k < 26 {
        theta_plus[k] += h;
        theta_minus[k] -= h;
    } else {
        us_plus
            .iter_mut()
            .skip(k - 26)
            .step_by(2)
            .for_each(|u| *u += h);
        us_minus
            .iter_mut()
            .skip(k - 26)
            .step_by(2)
            .for_each(|u| *u -= h);
    }
    let plus = numbers(&call("objective", &theta_plus, &us_plus));
    let minus = numbers(&call("objective", &theta_minus, &us_minus));
    plus.iter()
        .zip(&minus)
        .map(|(p, m)| (p - m) / (2.0 * h))
        .collect()
}

type Matrix = Vec<Vec<Dual64>>;

fn product(a: &Matrix, b: &Matrix) -> Matrix {
    (0..a.len())
        .map(|r| {
            (0..b[0].len())
                .map(|c| (0..b.len()).map(|k| a[r][k] * b[k][c]).sum())
                .collect()
        })
        .collect()
}

fn constant(m: &Value) -> Matrix {
    m.as_array()
        .unwrap()
        .iter()
        .map(|row| numbers(row).into_iter().map(Dual64::from).collect())
        .collect()
}

fn identity(n: usize) -> Matrix {
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| Dual64::from(if r == c { 1.0 } else { 0.0 }))
                .collect()
        })
        .collect()
}

/// ADBench's objective over dual numbers, structure for structure.
fn twin(theta: &[Dual64], us: &[Dual64], input: &Value) -> Vec<Dual64> {
    let model = &input["data"]["model"];
    let zero = Dual64::from(0.0);
    // to_pose_params: a 3 × (bones + 3) matrix
    let mut pose = vec![vec![zero; BONES + 3]; 3];
    for r in 0..3 {
        pose[r][0] = theta[r];
        pose[r][1] = Dual64::from(1.0);
        pose[r][2] = theta[3 + r];
    }
    let (mut i_theta, mut i_pose) = (6, 5);
    for _ in 0..5 {
        for i in 2..=4 {
            pose[0][i_pose] = theta[i_theta];
            i_theta += 1;
            if i == 2 {
                pose[1][i_pose] = theta[i_theta];
                i_theta += 1;
            }
            i_pose += 1;
        }
        i_pose += 1;
    }
    let parents: Vec<i64> = model["parents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_i64().unwrap())
        .collect();
    let mut absolutes: Vec<Matrix> = Vec::new();
    for b in 0..BONES {
        let (tx, ty, tz) = (pose[0][b + 3], pose[2][b + 3], pose[1][b + 3]);
        let mut rx = identity(3);
        rx[1][1] = tx.cos();
        rx[2][1] = tx.sin();
        rx[1][2] = -rx[2][1];
        rx[2][2] = rx[1][1];
        let mut ry = identity(3);
        ry[0][0] = ty.cos();
        ry[0][2] = ty.sin();
        ry[2][0] = -ry[0][2];
        ry[2][2] = ry[0][0];
        let mut rz = identity(3);
        rz[0][0] = tz.cos();
        rz[1][0] = tz.sin();
        rz[0][1] = -rz[1][0];
        rz[1][1] = rz[0][0];
        let rotation = product(&product(&rz, &ry), &rx);
        let mut tr = identity(4);
        for r in 0..3 {
            tr[r][..3].copy_from_slice(&rotation[r]);
        }
        let relative = product(&constant(&model["base_relatives"][b]), &tr);
        let absolute = match usize::try_from(parents[b]) {
            Ok(p) => product(&absolutes[p], &relative),
            Err(_) => relative,
        };
        absolutes.push(absolute);
    }
    let transforms: Vec<Matrix> = (0..BONES)
        .map(|b| {
            product(
                &absolutes[b],
                &constant(&model["inverse_base_absolutes"][b]),
            )
        })
        .collect();
    let base = constant(&model["base_positions"]);
    let weights = constant(&model["weights"]);
    let norm = (theta[0].powi(2) + theta[1].powi(2) + theta[2].powi(2)).sqrt();
    let (x, y, z) = (theta[0] / norm, theta[1] / norm, theta[2] / norm);
    let (s, c) = (norm.sin(), norm.cos());
    let one = Dual64::from(1.0);
    let global = [
        [
            x * x + (one - x * x) * c,
            x * y * (one - c) - z * s,
            x * z * (one - c) + y * s,
        ],
        [
            x * y * (one - c) + z * s,
            y * y + (one - y * y) * c,
            y * z * (one - c) - x * s,
        ],
        [
            x * z * (one - c) - y * s,
            z * y * (one - c) + x * s,
            z * z + (one - z * z) * c,
        ],
    ];
    let vertex = |v: usize| -> Vec<Dual64> {
        let skinned: Vec<Dual64> = (0..3)
            .map(|i| {
                (0..BONES)
                    .map(|b| {
                        (0..4)
                            .map(|k| transforms[b][i][k] * base[v][k])
                            .sum::<Dual64>()
                            * weights[v][b]
                    })
                    .sum()
            })
            .collect();
        (0..3)
            .map(|i| (0..3).map(|k| global[i][k] * skinned[k]).sum::<Dual64>() + theta[3 + i])
            .collect()
    };
    let correspondences: Vec<usize> = input["data"]["correspondences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as usize)
        .collect();
    let observed = constant(&input["data"]["points"]);
    let mut err = Vec::new();
    for (i, &at) in correspondences.iter().enumerate() {
        let hand = if us.is_empty() {
            vertex(at)
        } else {
            let t: Vec<usize> = numbers(&model["triangles"][at])
                .iter()
                .map(|&v| v as usize)
                .collect();
            let (a, b, c) = (vertex(t[0]), vertex(t[1]), vertex(t[2]));
            let (u0, u1) = (us[2 * i], us[2 * i + 1]);
            (0..3)
                .map(|j| u0 * a[j] + u1 * b[j] + (one - u0 - u1) * c[j])
                .collect()
        };
        err.extend((0..3).map(|j| observed[i][j] - hand[j]));
    }
    err
}

/// Column `k` of the twin's Jacobian (as in `central_column`).
fn dual_column(theta: &[f64], us: &[f64], k: usize) -> Vec<f64> {
    let seed = |x: &[f64], on: &dyn Fn(usize) -> bool| -> Vec<Dual64> {
        x.iter()
            .enumerate()
            .map(|(j, &v)| Dual64::new(v, if on(j) { 1.0 } else { 0.0 }))
            .collect()
    };
    let theta_d = seed(theta, &|j| j == k);
    let us_d = seed(us, &|j| k >= 26 && j % 2 == k - 26);
    twin(&theta_d, &us_d, &input(theta, us))
        .iter()
        .map(|e| e.eps)
        .collect()
}

fn check(us: &[f64]) {
    let theta = points(26, 3);
    let jacobian = call("jacobian", &theta, us);
    let columns = if us.is_empty() { 26 } else { 28 };
    assert_eq!(jacobian[0].as_array().unwrap().len(), columns);
    let twin_value: Vec<f64> = twin(
        &theta.iter().map(|&t| Dual64::from(t)).collect::<Vec<_>>(),
        &us.iter().map(|&u| Dual64::from(u)).collect::<Vec<_>>(),
        &input(&theta, us),
    )
    .iter()
    .map(|e| e.re)
    .collect();
    assert_close(
        "objective",
        &numbers(&call("objective", &theta, us)),
        &twin_value,
        1e-12,
    );
    for c in 0..columns {
        // the eval's columns put d/du first
        let k = if us.is_empty() {
            c
        } else if c < 2 {
            26 + c
        } else {
            c - 2
        };
        let got = column(&jacobian, c);
        assert_close(
            &format!("column {c} (central)"),
            &got,
            &central_column(&theta, us, k),
            1e-6,
        );
        assert_close(
            &format!("column {c} (dual)"),
            &got,
            &dual_column(&theta, us, k),
            1e-12,
        );
    }
}

#[test]
fn simple_jacobian_matches_central_differences_and_duals() {
    check(&[]);
}

#[test]
fn complicated_jacobian_matches_central_differences_and_duals() {
    let us: Vec<f64> = points(10, 9).iter().map(|u| u.abs() / 2.0).collect();
    check(&us);
}
