//! T7 `flight` and T8 `kepler` (issue 11): loops whose trip count only a run knows.
//!
//! T7 integrates a projectile with quadratic drag by explicit Euler steps `while y >= 0.0`
//! (about 2,000 steps at these inputs). T8 solves Kepler's equation `E - e·sin E = M` by Newton's
//! method in a `loop` that `break`s with the converged root. Each hand-written gradient reverses
//! the same iterations the way a careful person would: the forward pass keeps only the states
//! the backward pass needs (in a `Vec` for T7, whose length is unknown; on the stack for T8,
//! which converges in a few steps), and the backward pass reuses what the forward one computed.

use micrograd_runtime::prelude::*;

/// The step of T7's integration.
pub const DT: f64 = 0.001;

/// T7: the range of a projectile with quadratic drag, launched from the ground at `(vx, vy)`.
#[differentiable]
pub fn flight(vx: f64, vy: f64, drag: f64) -> f64 {
    let mut x = 0.0;
    let mut y = 0.0;
    let mut u = vx;
    let mut v = vy;
    while y >= 0.0 {
        let speed = (u * u + v * v).sqrt();
        x += u * DT;
        y += v * DT;
        u -= drag * speed * u * DT;
        v -= (9.81 + drag * speed * v) * DT;
    }
    x
}

/// T7's inputs.
pub const FLIGHT: (f64, f64, f64) = (12.0, 9.5, 0.02);

/// T7 by hand: the forward pass keeps `(u, v)` of every step, the backward pass runs the
/// steps in reverse with the adjoints of `u`, `v` and `drag`.
pub fn flight_hand(vx: f64, vy: f64, drag: f64, states: &mut Vec<(f64, f64)>) -> [f64; 4] {
    states.clear();
    let (mut x, mut y, mut u, mut v) = (0.0, 0.0, vx, vy);
    while y >= 0.0 {
        states.push((u, v));
        let speed = (u * u + v * v).sqrt();
        x += u * DT;
        y += v * DT;
        u -= drag * speed * u * DT;
        v -= (9.81 + drag * speed * v) * DT;
    }
    let (mut d_u, mut d_v, mut d_drag) = (0.0, 0.0, 0.0);
    for &(u, v) in states.iter().rev() {
        let speed = (u * u + v * v).sqrt();
        let damp = 1.0 - drag * speed * DT;
        let d_speed = -(d_u * u + d_v * v) * drag * DT;
        d_drag -= (d_u * u + d_v * v) * speed * DT;
        let radial = d_speed / speed;
        d_u = d_u * damp + DT + radial * u;
        d_v = d_v * damp + radial * v;
    }
    [x, d_u, d_v, d_drag]
}

/// T8: the eccentric anomaly `E` of Kepler's equation `E - e·sin E = M`, scaled by `sin E`.
#[differentiable]
pub fn kepler(m: f64, e: f64) -> f64 {
    let mut big_e = m;
    let root = loop {
        let f = big_e - e * big_e.sin() - m;
        let next = big_e - f / (1.0 - e * big_e.cos());
        if (next - big_e).abs() < 1e-13 {
            break next;
        }
        big_e = next;
    };
    root * root.sin()
}

/// T8's inputs.
pub const KEPLER: (f64, f64) = (1.3, 0.45);

/// T8 by hand: the Newton iterates, their sines and cosines kept on the stack, then the
/// chain rule back through every iteration.
pub fn kepler_hand(m: f64, e: f64) -> [f64; 3] {
    let mut iterates = [(0.0, 0.0, 0.0); 64];
    let mut n = 0;
    let mut big_e = m;
    let root = loop {
        let (s, c) = big_e.sin_cos();
        let f = big_e - e * s - m;
        let den = 1.0 - e * c;
        let next = big_e - f / den;
        iterates[n] = (s, c, f / den);
        n += 1;
        if (next - big_e).abs() < 1e-13 {
            break next;
        }
        big_e = next;
    };
    let (rs, rc) = root.sin_cos();
    let value = root * rs;
    // d next = d E · (1 - f'/den + f·e·sin E/den²) - d f/den·(..) written with q = f / den.
    let mut d_e_k = rs + root * rc;
    let (mut d_m, mut d_ecc) = (0.0, 0.0);
    for &(s, c, q) in iterates[..n].iter().rev() {
        let den = 1.0 - e * c;
        let d_f = -d_e_k / den;
        let d_den = d_e_k * q / den;
        d_m -= d_f;
        d_ecc += -d_f * s - d_den * c;
        d_e_k = d_e_k + d_f * (1.0 - e * c) + d_den * e * s;
    }
    d_m += d_e_k;
    [value, d_m, d_ecc]
}

/// Panics unless the generated gradients equal the hand-written ones (and the values `f`'s).
pub fn check() {
    let (vx, vy, drag) = FLIGHT;
    let want = flight_hand(vx, vy, drag, &mut Vec::new());
    let (value, a, b, c) = flight_grad(vx, vy, drag);
    assert_eq!(value, flight(vx, vy, drag));
    super::assert_close("flight", &[value, a, b, c], &want);
    let (m, e) = KEPLER;
    let want = kepler_hand(m, e);
    let (value, a, b) = kepler_grad(m, e);
    assert_eq!(value, kepler(m, e));
    super::assert_close("kepler", &[value, a, b], &want);
}
