//! particle and saddle, whose derivatives are nested (a `#[differentiable]` loop calling a
//! generated gradient), against independent references: central differences of twins whose
//! inner gradient is written out by hand (and num-dual on `Dual<Dual64>` for particle), closed
//! forms, and the values GradBench's evals expect.

use crate::common::{assert_close, central};
use micrograd_gradbench::evals::{particle, saddle};
use num_dual::{Dual, Dual64, DualNum};

/// The potential on any dual number.
fn potential_dual<D: DualNum<Primitive = f64> + Copy>(x0: D, x1: D, w: D) -> D {
    let ten = D::from(10.0);
    let near = ((ten - x0).powi(2) + (ten - w - x1).powi(2)).sqrt();
    let far = ((ten - x0).powi(2) + x1.powi(2)).sqrt();
    near.recip() + far.recip()
}

/// The potential's gradient in the position, by hand: each charge pulls along `-(x - c) / r³`.
fn force_by_hand(x0: f64, x1: f64, w: f64) -> (f64, f64) {
    let (a0, a1) = (x0 - 10.0, x1 - (10.0 - w));
    let (b0, b1) = (x0 - 10.0, x1);
    let (ra, rb) = ((a0 * a0 + a1 * a1).sqrt(), (b0 * b0 + b1 * b1).sqrt());
    (
        -a0 / ra.powi(3) - b0 / rb.powi(3),
        -a1 / ra.powi(3) - b1 / rb.powi(3),
    )
}

/// The eval's path, its inner gradient `grad` (by hand, or from num-dual).
fn miss_with<D: DualNum<Primitive = f64> + Copy>(w: D, grad: impl Fn(D, D, D) -> (D, D)) -> D {
    let (mut x0, mut x1) = (D::from(0.0), D::from(8.0));
    let (mut v0, mut v1) = (D::from(0.75), D::from(0.0));
    let dt = 0.1;
    loop {
        let (p0, p1) = grad(x0, x1, w);
        x0 += v0 * dt;
        x1 += v1 * dt;
        if x1.re() <= 0.0 {
            let dt_f = -x1 / v1;
            let crossing = x0 + dt_f * v0;
            return crossing * crossing;
        }
        v0 -= p0 * dt;
        v1 -= p1 * dt;
    }
}

/// The potential's gradient in the position on `D`, from one more level of duals.
fn force_dual<D: DualNum<Primitive = f64> + Copy>(x0: D, x1: D, w: D) -> (D, D) {
    let (c, one) = (Dual::from_re, |v: D| Dual::new(v, D::one()));
    (
        potential_dual(one(x0), c(x1), c(w)).eps,
        potential_dual(c(x0), one(x1), c(w)).eps,
    )
}

#[test]
fn particle_potential_gradient() {
    for [x0, x1, w] in [[0.0, 8.0, 0.0], [3.1, 5.2, 0.4], [7.5, 0.3, -0.2]] {
        let (value, p0, p1) = particle::potential_grad(x0, x1, w);
        assert_eq!(value, particle::potential(x0, x1, w));
        let (h0, h1) = force_by_hand(x0, x1, w);
        assert_close("potential gradient", &[p0, p1], &[h0, h1], 1e-13);
        let (_, j0) = particle::potential_jvp(x0, 1.0, x1, 0.0, w);
        let (_, j1) = particle::potential_jvp(x0, 0.0, x1, 1.0, w);
        assert_close("potential jvp", &[j0, j1], &[h0, h1], 1e-13);
    }
}

#[test]
fn particle_path_derivative_in_every_mode() {
    for w in [0.0, 0.05, -0.1, 0.3] {
        let by_hand = central(|w| miss_with(w[0], force_by_hand), &[w])[0];
        let dual = miss_with(Dual64::new(w, 1.0), force_dual).eps;
        let (v_r, rr) = particle::miss_reverse_inside_grad(w);
        let (v_f, rf) = particle::miss_forward_inside_grad(w);
        let (_, fr) = particle::miss_reverse_inside_jvp(w, 1.0);
        let (_, ff) = particle::miss_forward_inside_jvp(w, 1.0);
        assert_eq!(v_r, particle::miss_reverse_inside(w));
        assert_eq!(v_f, particle::miss_forward_inside(w));
        assert_close(
            "path value by hand",
            &[v_r],
            &[miss_with(w, force_by_hand)],
            1e-12,
        );
        for (mode, derivative) in [("rr", rr), ("rf", rf), ("fr", fr), ("ff", ff)] {
            assert_close(mode, &[derivative], &[dual], 1e-9);
            assert_close(mode, &[derivative], &[by_hand], 1e-5);
        }
    }
}

#[test]
fn particle_control_is_the_evals() {
    // GradBench's particle eval expects this control from w = 0, within 1e-4.
    for mode in particle::MODES {
        let w = particle::solve(mode, 0.0).expect("a mode");
        assert!((w - 0.2071918746486116).abs() < 1e-9, "{mode}: {w}");
    }
}

/// The inner ascent's maximum by hand: the objective's gradient in `p₂` is `-2 p₂`, written out.
fn max_by_hand(x1: f64, y1: f64, s0: f64, s1: f64) -> f64 {
    let objective = |x2: f64, y2: f64| (x1 * x1 + y1 * y1) - (x2 * x2 + y2 * y2);
    let (mut x2, mut y2) = (s0, s1);
    let mut fx = -objective(x2, y2);
    let (mut gx, mut gy) = (2.0 * x2, 2.0 * y2);
    let (mut i, mut eta) = (0, 1e-5);
    loop {
        if (gx * gx + gy * gy).sqrt() <= 1e-5 {
            break;
        } else if i == 10 {
            eta *= 2.0;
            i = 0;
        } else {
            let (nx, ny) = (x2 - eta * gx, y2 - eta * gy);
            if ((x2 - nx).powi(2) + (y2 - ny).powi(2)).sqrt() <= 1e-5 {
                break;
            }
            let f_next = -objective(nx, ny);
            if f_next < fx {
                (x2, y2, fx) = (nx, ny, f_next);
                (gx, gy) = (2.0 * x2, 2.0 * y2);
                i += 1;
            } else {
                eta /= 2.0;
                i = 0;
            }
        }
    }
    objective(x2, y2)
}

#[test]
fn saddle_inner_maximum_derivative_in_every_mode() {
    for [x1, y1] in [[1.0, 1.0], [0.3, -0.7], [-2.0, 0.5]] {
        let (s0, s1) = (1.0, 1.0);
        let value = saddle::max_reverse_inside(x1, y1, s0, s1);
        assert_close("max value", &[value], &[max_by_hand(x1, y1, s0, s1)], 1e-15);
        assert_eq!(value, saddle::max_forward_inside(x1, y1, s0, s1));
        let by_hand = central(|p| max_by_hand(p[0], p[1], s0, s1), &[x1, y1]);
        let (_, r0, r1) = saddle::max_reverse_inside_grad(x1, y1, s0, s1);
        let (_, f0, f1) = saddle::max_forward_inside_grad(x1, y1, s0, s1);
        let fr = [
            saddle::max_reverse_inside_jvp(x1, 1.0, y1, 0.0, s0, s1).1,
            saddle::max_reverse_inside_jvp(x1, 0.0, y1, 1.0, s0, s1).1,
        ];
        let ff = [
            saddle::max_forward_inside_jvp(x1, 1.0, y1, 0.0, s0, s1).1,
            saddle::max_forward_inside_jvp(x1, 0.0, y1, 1.0, s0, s1).1,
        ];
        for (mode, gradient) in [("rr", [r0, r1]), ("rf", [f0, f1]), ("fr", fr), ("ff", ff)] {
            // The maximum is |p₁|² - |p₂*|² and p₂* does not depend on p₁: the closed form 2 p₁.
            assert_close(mode, &gradient, &[2.0 * x1, 2.0 * y1], 1e-14);
            assert_close(mode, &gradient, &by_hand, 1e-6);
        }
    }
}

#[test]
fn saddle_point_is_the_evals() {
    for mode in saddle::MODES {
        let point = saddle::solve(mode, [1.0, 1.0]).expect("a mode");
        assert_close(mode, &point, &[8.246324826140356e-6; 4], 1e-12);
    }
}
