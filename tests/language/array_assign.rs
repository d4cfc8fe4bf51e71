//! Whole-array assignment between local arrays (`h = h_new;` in an LSTM step) and
//! `std::mem::swap` of two local arrays or two `f64`s (issue 24): every entry renamed, or the
//! two exchanged. Against central differences and num-dual on generic twins, the value bit for
//! bit `f`'s, at points that take both sides of the branches.

use crate::common;

use common::{assert_gradient, assert_near, assert_same_value};
use micrograd_runtime::prelude::*;
use num_dual::{Dual64, DualNum};

const H: usize = 3;

/// A recurrent cell: the state `(h, c)` replaced whole at each step, once on either side of a
/// branch on the input's sign.
#[differentiable(jvp)]
fn recurrent(x: &[f64], w: &[f64]) -> f64 {
    let mut h = [0.0; H];
    let mut c = [0.5; H];
    for t in 0..x.len() {
        let mut h_new = [0.0; H];
        let mut c_new = [0.0; H];
        for j in 0..H {
            let g = (w[j] * x[t] + w[H + j] * h[j]).tanh();
            c_new[j] = 0.5 * c[j] + g;
            h_new[j] = c_new[j].tanh() * w[2 * H + j];
        }
        if x[t] > 0.0 {
            h = h_new;
            c = c_new;
        } else {
            c = c_new;
            h = h_new;
            h[0] *= 0.5;
        }
    }
    let mut s = 0.0;
    for j in 0..H {
        s += h[j] * c[j];
    }
    s
}

#[allow(clippy::needless_range_loop)] // as `recurrent` is written
fn recurrent_twin<D: DualNum<Primitive = f64> + Copy>(x: &[D], w: &[D]) -> D {
    let mut h = [D::from(0.0); H];
    let mut c = [D::from(0.5); H];
    for t in 0..x.len() {
        let mut h_new = [D::from(0.0); H];
        let mut c_new = [D::from(0.0); H];
        for j in 0..H {
            let g = (w[j] * x[t] + w[H + j] * h[j]).tanh();
            c_new[j] = c[j] * 0.5 + g;
            h_new[j] = c_new[j].tanh() * w[2 * H + j];
        }
        h = h_new;
        if x[t].re() <= 0.0 {
            h[0] *= D::from(0.5);
        }
        c = c_new;
    }
    let mut s = D::from(0.0);
    for j in 0..H {
        s += h[j] * c[j];
    }
    s
}

/// Jacobi sweeps on a line: `next` computed from `u`, then the two swapped.
#[allow(clippy::manual_memcpy)] // entry by entry, as the language reads it
#[differentiable(jvp)]
fn relax(u0: &[f64; 4], k: usize) -> f64 {
    let mut u = [0.0; 4];
    let mut next = [0.0; 4];
    for i in 0..4 {
        u[i] = u0[i];
    }
    for _ in 0..k {
        next[0] = u[0];
        next[3] = u[3];
        for i in 1..3 {
            next[i] = 0.5 * (u[i - 1] + u[i + 1]) + 0.1 * u[i] * u[i];
        }
        std::mem::swap(&mut u, &mut next);
    }
    u[1] * u[2] + next[1]
}

fn relax_twin<D: DualNum<Primitive = f64> + Copy>(u0: &[D; 4], k: usize) -> D {
    let mut u = *u0;
    let mut next = [D::from(0.0); 4];
    for _ in 0..k {
        next[0] = u[0];
        next[3] = u[3];
        for i in 1..3 {
            next[i] = (u[i - 1] + u[i + 1]) * 0.5 + u[i] * u[i] * 0.1;
        }
        std::mem::swap(&mut u, &mut next);
    }
    u[1] * u[2] + next[1]
}

/// Two `f64`s swapped in a loop, and two `Vec`s of one length.
#[differentiable(jvp)]
fn exchange(a: f64, b: f64, n: usize) -> f64 {
    let (mut p, mut q) = (a, b);
    let mut left = vec![0.0; n];
    let mut right = vec![1.0; n];
    for i in 0..n {
        p = p * q + 0.25;
        if p > q {
            std::mem::swap(&mut p, &mut q);
        }
        left[i] = p;
        right[i] = q * (i as f64 + 1.0);
        core::mem::swap(&mut left, &mut right);
    }
    let mut s = p - q;
    for i in 0..n {
        s += left[i] * 0.5 - right[i];
    }
    s
}

fn exchange_twin<D: DualNum<Primitive = f64> + Copy>(a: D, b: D, n: usize) -> D {
    let (mut p, mut q) = (a, b);
    let mut left = vec![D::from(0.0); n];
    let mut right = vec![D::from(1.0); n];
    for i in 0..n {
        p = p * q + D::from(0.25);
        if p.re() > q.re() {
            std::mem::swap(&mut p, &mut q);
        }
        left[i] = p;
        right[i] = q * (i as f64 + 1.0);
        std::mem::swap(&mut left, &mut right);
    }
    let mut s = p - q;
    for i in 0..n {
        s += left[i] * 0.5 - right[i];
    }
    s
}

fn duals(point: &[f64], direction: &[f64]) -> Vec<Dual64> {
    point
        .iter()
        .zip(direction)
        .map(|(x, v)| Dual64::new(*x, *v))
        .collect()
}

#[test]
fn recurrent_state_replaced_whole() {
    let w: Vec<f64> = (0..3 * H).map(|i| 0.3 - 0.11 * i as f64).collect();
    for x in [&[][..], &[0.8], &[0.8, -0.5, 1.2], &[-0.3, -0.9, 0.4, 0.7]] {
        let (mut d_x, mut d_w) = (vec![0.0; x.len()], vec![0.0; w.len()]);
        let value = recurrent_grad(x, &mut d_x, &w, &mut d_w);
        assert_same_value("recurrent_grad", value, recurrent(x, &w), x);
        let mut point = x.to_vec();
        point.extend(&w);
        let mut gradient = d_x.clone();
        gradient.extend(&d_w);
        let n = x.len();
        let f = |p: &[f64]| recurrent(&p[..n], &p[n..]);
        assert_gradient("recurrent_grad", f, &point, &gradient);
        let v_x: Vec<f64> = (0..n).map(|i| 0.4 - 0.3 * i as f64).collect();
        let v_w: Vec<f64> = (0..w.len()).map(|i| 0.1 * i as f64 - 0.2).collect();
        let (value, tangent) = recurrent_jvp(x, &v_x, &w, &v_w);
        assert_same_value("recurrent_jvp", value, recurrent(x, &w), x);
        let dual = recurrent_twin(&duals(x, &v_x), &duals(&w, &v_w));
        assert_near("recurrent_jvp", tangent, dual.eps, 1e-12);
    }
}

#[test]
fn arrays_swapped_in_a_loop() {
    for k in [0, 1, 2, 5] {
        let u0 = [0.3, -0.7, 1.1, 0.4];
        let mut d_u0 = [0.0; 4];
        let value = relax_grad(&u0, &mut d_u0, k);
        assert_same_value("relax_grad", value, relax(&u0, k), &u0);
        let f = |p: &[f64]| relax(&[p[0], p[1], p[2], p[3]], k);
        assert_gradient("relax_grad", f, &u0, &d_u0);
        let v = [0.5, -0.25, 1.0, 0.75];
        let (value, tangent) = relax_jvp(&u0, &v, k);
        assert_same_value("relax_jvp", value, relax(&u0, k), &u0);
        let d = duals(&u0, &v);
        let dual = relax_twin(&[d[0], d[1], d[2], d[3]], k);
        assert_near("relax_jvp", tangent, dual.eps, 1e-12);
    }
}

#[test]
fn floats_and_vecs_swapped() {
    // p > q on some steps and not on others.
    for (a, b) in [(0.9, 0.6), (0.2, 1.4), (-0.5, 0.8)] {
        for n in [0, 1, 4] {
            let (value, d_a, d_b) = exchange_grad(a, b, n);
            assert_same_value("exchange_grad", value, exchange(a, b, n), &[a, b]);
            let f = |p: &[f64]| exchange(p[0], p[1], n);
            assert_gradient("exchange_grad", f, &[a, b], &[d_a, d_b]);
            let (value, tangent) = exchange_jvp(a, 0.5, b, -1.5, n);
            assert_same_value("exchange_jvp", value, exchange(a, b, n), &[a, b]);
            let dual = exchange_twin(Dual64::new(a, 0.5), Dual64::new(b, -1.5), n);
            assert_near("exchange_jvp", tangent, dual.eps, 1e-12);
        }
    }
}
