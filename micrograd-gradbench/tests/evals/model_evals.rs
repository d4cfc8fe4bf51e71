//! The derivatives of gmm, lstm and ba, from the generated code, against central differences
//! of the eval's own function and against num-dual on a twin written independently.

use crate::common::{assert_close, central, dual_gradient, points};
use num_dual::{Dual64, DualNum};

/// The log posterior straight from the definition: Q built as a matrix, β from the product
/// Q (x - μ), logsumexp by the max, and the prior from the Frobenius norm.
#[allow(clippy::too_many_arguments)]
fn gmm_dual(
    alpha: &[Dual64],
    mu: &[Dual64],
    q: &[Dual64],
    l: &[Dual64],
    x: &[f64],
    d: usize,
    m: usize,
    gamma: f64,
) -> Dual64 {
    let (k, n) = (alpha.len(), x.len() / d);
    let tri = d * (d - 1) / 2;
    let lse = |v: &[Dual64]| {
        let top = v.iter().fold(v[0], |a, &b| if b.re > a.re { b } else { a });
        top + v.iter().map(|&b| (b - top).exp()).sum::<Dual64>().ln()
    };
    let zero = Dual64::from(0.0);
    let mut big_q = vec![vec![vec![zero; d]; d]; k];
    for c in 0..k {
        let mut at = 0;
        for col in 0..d {
            big_q[c][col][col] = q[c * d + col].exp();
            for row in &mut big_q[c][col + 1..] {
                row[col] = l[c * tri + at];
                at += 1;
            }
        }
    }
    let mut total = zero;
    for i in 0..n {
        let beta: Vec<Dual64> = (0..k)
            .map(|c| {
                let centered: Vec<Dual64> = (0..d).map(|j| -mu[c * d + j] + x[i * d + j]).collect();
                let norm: Dual64 = (0..d)
                    .map(|r| {
                        (0..d)
                            .map(|j| big_q[c][r][j] * centered[j])
                            .sum::<Dual64>()
                            .powi(2)
                    })
                    .sum();
                alpha[c] + q[c * d..(c + 1) * d].iter().copied().sum::<Dual64>() - norm * 0.5
            })
            .collect();
        total += lse(&beta);
    }
    let constant = -(n as f64) * d as f64 * 0.5 * (2.0 * std::f64::consts::PI).ln();
    let dof = (d + m + 1) as f64;
    let c_prior = dof * d as f64 * (gamma.ln() - 0.5 * 2f64.ln())
        - micrograd_gradbench::evals::gmm::ln_multigamma(0.5 * dof, d);
    let mut prior = zero;
    for c in 0..k {
        let frobenius: Dual64 = big_q[c].iter().flatten().map(|v| v.powi(2)).sum();
        prior += frobenius * (0.5 * gamma * gamma)
            - q[c * d..(c + 1) * d].iter().copied().sum::<Dual64>() * m as f64;
    }
    total + constant - lse(alpha) * n as f64 - prior + c_prior * k as f64
}

#[test]
fn gmm_gradient() {
    use micrograd_gradbench::evals::gmm;
    for (d, k, n, m, seed) in [
        (1, 1, 1, 0, 1),
        (2, 3, 4, 0, 2),
        (3, 2, 5, 2, 3),
        (4, 3, 6, 1, 4),
    ] {
        let tri = d * (d - 1) / 2;
        let (gamma, log_gamma_d) = (1.3, gmm::ln_multigamma(0.5 * (d + m + 1) as f64, d));
        // the parameters α, μ, q, l end to end, then the points
        let sizes = [k, k * d, k * d, k * tri];
        let theta = points(sizes.iter().sum(), seed);
        let x = points(n * d, seed + 100);
        let rows: Vec<Vec<f64>> = x.chunks(d).map(<[f64]>::to_vec).collect();
        let split = |t: &[f64]| {
            let (alpha, rest) = t.split_at(k);
            let (mu, rest) = rest.split_at(k * d);
            let (q, l) = rest.split_at(k * d);
            (alpha.to_vec(), mu.to_vec(), q.to_vec(), l.to_vec())
        };
        let (alpha, mu, q, l) = split(&theta);
        let f = |t: &[f64]| {
            let (alpha, mu, q, l) = split(t);
            gmm::gmm_objective(&alpha, &mu, &q, &l, &rows, d, m, gamma, log_gamma_d)
        };
        let mut shadows = sizes.map(|s| vec![0.0; s]);
        let [d_alpha, d_mu, d_q, d_l] = &mut shadows;
        let value = gmm::gmm_objective_grad(
            &alpha,
            d_alpha,
            &mu,
            d_mu,
            &q,
            d_q,
            &l,
            d_l,
            &rows,
            d,
            m,
            gamma,
            log_gamma_d,
        );
        assert_eq!(value, f(&theta));
        let gradient = shadows.concat();
        assert_close("gmm, central", &gradient, &central(f, &theta), 1e-6);
        let dual = |t: &[Dual64]| {
            let (alpha, rest) = t.split_at(k);
            let (mu, rest) = rest.split_at(k * d);
            let (q, l) = rest.split_at(k * d);
            gmm_dual(alpha, mu, q, l, &x, d, m, gamma)
        };
        assert_close("gmm, dual", &gradient, &dual_gradient(dual, &theta), 1e-11);
        let reference = dual(&theta.iter().map(|&v| Dual64::from(v)).collect::<Vec<_>>());
        assert_close("gmm, value", &[value], &[reference.re], 1e-12);
    }
}

#[test]
fn ln_gamma_at_known_points() {
    use micrograd_gradbench::evals::gmm::ln_gamma;
    let sqrt_pi_ln = 0.5 * std::f64::consts::PI.ln();
    for (a, want) in [
        (1.0, 0.0),
        (2.0, 0.0),
        (0.5, sqrt_pi_ln),
        (1.5, sqrt_pi_ln - 2f64.ln()),
        (10.0, 362_880f64.ln()),
        (30.0, (1..30).map(|i| (i as f64).ln()).sum::<f64>()),
    ] {
        assert_close("ln_gamma", &[ln_gamma(a)], &[want], 1e-13);
    }
}

/// ADBench's LSTM loss on dual numbers, with each layer's state in arrays of its own.
fn lstm_dual(
    main: &[Dual64],
    extra: &[Dual64],
    state: &[f64],
    seq: &[f64],
    layers: usize,
) -> Dual64 {
    let b = extra.len() / 3;
    let sigmoid = |v: Dual64| ((-v).exp() + 1.0).recip();
    let mut hidden: Vec<Vec<Dual64>> = (0..layers)
        .map(|k| {
            state[2 * b * k..2 * b * k + b]
                .iter()
                .map(|&v| Dual64::from(v))
                .collect()
        })
        .collect();
    let mut cell: Vec<Vec<Dual64>> = (0..layers)
        .map(|k| {
            state[2 * b * k + b..2 * b * (k + 1)]
                .iter()
                .map(|&v| Dual64::from(v))
                .collect()
        })
        .collect();
    let chars: Vec<&[f64]> = seq.chunks(b).collect();
    let mut total = Dual64::from(0.0);
    for t in 0..chars.len() - 1 {
        let mut input: Vec<Dual64> = (0..b).map(|i| extra[i] * chars[t][i]).collect();
        for k in 0..layers {
            let w = |gate: usize, i: usize| main[8 * b * k + gate * b + i];
            let bias = |gate: usize, i: usize| main[8 * b * k + 4 * b + gate * b + i];
            for i in 0..b {
                let forget = sigmoid(input[i] * w(0, i) + bias(0, i));
                let ingate = sigmoid(hidden[k][i] * w(1, i) + bias(1, i));
                let outgate = sigmoid(input[i] * w(2, i) + bias(2, i));
                let change = (hidden[k][i] * w(3, i) + bias(3, i)).tanh();
                cell[k][i] = cell[k][i] * forget + ingate * change;
                hidden[k][i] = outgate * cell[k][i].tanh();
            }
            input = hidden[k].clone();
        }
        let out: Vec<Dual64> = (0..b)
            .map(|i| input[i] * extra[b + i] + extra[2 * b + i])
            .collect();
        let lse = (out.iter().map(|y| y.exp()).sum::<Dual64>() + 2.0).ln();
        for i in 0..b {
            total += (out[i] - lse) * chars[t + 1][i];
        }
    }
    -total / ((chars.len() - 1) * b) as f64
}

#[test]
fn lstm_gradient() {
    use micrograd_gradbench::evals::lstm;
    for (layers, b, c, seed) in [(1, 1, 2, 1), (1, 3, 4, 2), (2, 4, 5, 3), (3, 2, 6, 4)] {
        let main = points(8 * b * layers, seed);
        let extra = points(3 * b, seed + 10);
        let state = points(2 * b * layers, seed + 20);
        let sequence: Vec<f64> = points(c * b, seed + 30).iter().map(|v| v.abs()).collect();
        let rows: Vec<Vec<f64>> = sequence.chunks(b).map(<[f64]>::to_vec).collect();
        let mut d_main = vec![0.0; main.len()];
        let mut d_extra = vec![0.0; extra.len()];
        let value = lstm::lstm_objective_grad(
            &main,
            &mut d_main,
            &extra,
            &mut d_extra,
            &state,
            &rows,
            layers,
        );
        assert_eq!(
            value,
            lstm::lstm_objective(&main, &extra, &state, &rows, layers)
        );
        let theta = [main.clone(), extra.clone()].concat();
        let f = |t: &[f64]| {
            let (main, extra) = t.split_at(main.len());
            lstm::lstm_objective(main, extra, &state, &rows, layers)
        };
        let gradient = [d_main, d_extra].concat();
        assert_close("lstm, central", &gradient, &central(f, &theta), 1e-7);
        let dual = |t: &[Dual64]| {
            let (main_d, extra_d) = t.split_at(main.len());
            lstm_dual(main_d, extra_d, &state, &sequence, layers)
        };
        assert_close("lstm, dual", &gradient, &dual_gradient(dual, &theta), 1e-12);
    }
}

/// The reprojection error on dual numbers: the rotation by Rodrigues' formula through the
/// rotation matrix, then the pinhole projection and the radial distortion.
fn reprojection_dual(cam: &[Dual64], x: &[Dual64], w: Dual64, feat: &[f64]) -> [Dual64; 2] {
    let p: Vec<Dual64> = (0..3).map(|i| x[i] - cam[3 + i]).collect();
    let theta = (cam[0].powi(2) + cam[1].powi(2) + cam[2].powi(2)).sqrt();
    let k: Vec<Dual64> = (0..3).map(|i| cam[i] / theta).collect();
    // R = cos θ I + sin θ [k]ₓ + (1 - cos θ) k kᵀ
    let cross = [
        [Dual64::from(0.0), -k[2], k[1]],
        [k[2], Dual64::from(0.0), -k[0]],
        [-k[1], k[0], Dual64::from(0.0)],
    ];
    let rotated: Vec<Dual64> = (0..3)
        .map(|r| {
            (0..3)
                .map(|c| {
                    let identity = if r == c {
                        theta.cos()
                    } else {
                        Dual64::from(0.0)
                    };
                    (identity + cross[r][c] * theta.sin() + k[r] * k[c] * (-theta.cos() + 1.0))
                        * p[c]
                })
                .sum::<Dual64>()
        })
        .collect();
    let (u, v) = (rotated[0] / rotated[2], rotated[1] / rotated[2]);
    let r_sq = u * u + v * v;
    let distortion = cam[9] * r_sq + cam[10] * r_sq * r_sq + 1.0;
    [
        w * (u * distortion * cam[6] + cam[7] - feat[0]),
        w * (v * distortion * cam[6] + cam[8] - feat[1]),
    ]
}

#[test]
fn ba_observation_jacobian() {
    use micrograd_gradbench::evals::ba;
    for seed in 1..6 {
        let mut cam: [f64; 11] = points(11, seed).try_into().unwrap();
        cam[6] += 2.0; // a focal length away from 0
        let mut x: [f64; 3] = points(3, seed + 10).try_into().unwrap();
        x[2] += 4.0; // in front of the camera
        let w = 0.8 + 0.1 * seed as f64;
        let feat: [f64; 2] = points(2, seed + 20).try_into().unwrap();
        let (mut d_cam, mut d_x) = ([0.0; 22], [0.0; 6]);
        let (value, d_w) =
            ba::reprojection_error_jacobian(&cam, &mut d_cam, &x, &mut d_x, w, &feat);
        assert_eq!(value, ba::reprojection_error(&cam, &x, w, &feat));
        let theta = [&cam[..], &x[..], &[w]].concat();
        for row in 0..2 {
            let mut jacobian = d_cam[row * 11..(row + 1) * 11].to_vec();
            jacobian.extend_from_slice(&d_x[row * 3..row * 3 + 3]);
            jacobian.push(d_w[row][0]);
            let f = |t: &[f64]| {
                let (cam, x) = (t[..11].try_into().unwrap(), t[11..14].try_into().unwrap());
                ba::reprojection_error(cam, x, t[14], &feat)[row]
            };
            assert_close("ba, central", &jacobian, &central(f, &theta), 1e-7);
            let dual = |t: &[Dual64]| reprojection_dual(&t[..11], &t[11..14], t[14], &feat)[row];
            assert_close("ba, dual", &jacobian, &dual_gradient(dual, &theta), 1e-12);
        }
    }
}
