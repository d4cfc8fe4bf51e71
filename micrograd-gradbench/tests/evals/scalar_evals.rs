//! The derivatives of hello, lse, llsq, det, ode and kmeans, from the generated code, against
//! central differences of the eval's own function and against num-dual on a twin written
//! independently (`Dual64`, or `Dual2_64` for kmeans' second derivatives).

use crate::common::{assert_close, central, dual_gradient, points};
use micrograd_gradbench::evals::{det, llsq, lse, ode};
use num_dual::{Dual64, DualNum};

fn lse_dual(x: &[Dual64]) -> Dual64 {
    let a = x.iter().fold(x[0], |m, &v| if v.re > m.re { v } else { m });
    a + x.iter().map(|&v| (v - a).exp()).sum::<Dual64>().ln()
}

#[test]
fn lse_gradient() {
    for (n, seed) in [(1, 1), (2, 2), (7, 3), (50, 4)] {
        let x: Vec<f64> = points(n, seed).iter().map(|v| 10.0 * v).collect();
        let mut d_x = vec![0.0; n];
        let value = lse::logsumexp_grad(&x, &mut d_x);
        assert_eq!(value, lse::logsumexp(&x));
        assert_close("lse, central", &d_x, &central(lse::logsumexp, &x), 1e-7);
        assert_close("lse, dual", &d_x, &dual_gradient(lse_dual, &x), 1e-12);
    }
}

fn llsq_dual(x: &[Dual64], n: usize) -> Dual64 {
    let mut sum = Dual64::from(0.0);
    for i in 0..n {
        let t = -1.0 + i as f64 * 2.0 / (n as f64 - 1.0);
        let s = if t > 0.0 {
            1.0
        } else if t < 0.0 {
            -1.0
        } else {
            0.0
        };
        let mut r = Dual64::from(s);
        for (j, &xj) in x.iter().enumerate() {
            r -= xj * t.powi(j as i32);
        }
        sum += r * r;
    }
    sum / 2.0
}

#[test]
fn llsq_gradient() {
    for (m, n, seed) in [(1, 2, 1), (3, 5, 2), (8, 16, 3), (12, 33, 4)] {
        let x = points(m, seed);
        let mut d_x = vec![0.0; m];
        let value = llsq::llsq_grad(&x, &mut d_x, n);
        assert_eq!(value, llsq::llsq(&x, n));
        assert_close(
            "llsq, central",
            &d_x,
            &central(|x| llsq::llsq(x, n), &x),
            1e-6,
        );
        assert_close(
            "llsq, dual",
            &d_x,
            &dual_gradient(|x| llsq_dual(x, n), &x),
            1e-12,
        );
    }
}

/// The determinant by Laplace expansion along the first row, over explicit submatrices.
fn det_dual(a: &[Dual64], ell: usize) -> Dual64 {
    if ell == 1 {
        return a[0];
    }
    let mut det = Dual64::from(0.0);
    for j in 0..ell {
        let minor: Vec<Dual64> = (1..ell)
            .flat_map(|r| (0..ell).filter(move |&c| c != j).map(move |c| (r, c)))
            .map(|(r, c)| a[r * ell + c])
            .collect();
        let term = a[j] * det_dual(&minor, ell - 1);
        det += if j % 2 == 0 { term } else { -term };
    }
    det
}

#[test]
fn det_gradient() {
    for (ell, seed) in [(1, 1), (2, 2), (3, 3), (4, 4), (6, 5)] {
        let a = points(ell * ell, seed);
        let mut d_a = vec![0.0; a.len()];
        let value = det::det_grad(&a, &mut d_a, ell);
        assert_eq!(value, det::det(&a, ell));
        assert_close(
            "det, central",
            &d_a,
            &central(|a| det::det(a, ell), &a),
            1e-7,
        );
        assert_close(
            "det, dual",
            &d_a,
            &dual_gradient(|a| det_dual(a, ell), &a),
            1e-12,
        );
        let reference = det_dual(&a.iter().map(|&v| Dual64::from(v)).collect::<Vec<_>>(), ell);
        assert_close("det, value", &[value], &[reference.re], 1e-12);
    }
}

/// cmpad's Runge-Kutta solution of the ODE, on dual numbers: the last entry of y(2).
fn ode_dual(x: &[Dual64], s: usize) -> Dual64 {
    let n = x.len();
    let h = 2.0 / s as f64;
    let rhs = |y: &[Dual64]| -> Vec<Dual64> {
        (0..n)
            .map(|i| if i == 0 { x[0] } else { x[i] * y[i - 1] })
            .collect()
    };
    let mut y = vec![Dual64::from(0.0); n];
    for _ in 0..s {
        let k1 = rhs(&y);
        let k2 = rhs(&(0..n).map(|i| y[i] + k1[i] * (h / 2.0)).collect::<Vec<_>>());
        let k3 = rhs(&(0..n).map(|i| y[i] + k2[i] * (h / 2.0)).collect::<Vec<_>>());
        let k4 = rhs(&(0..n).map(|i| y[i] + k3[i] * h).collect::<Vec<_>>());
        for i in 0..n {
            y[i] += (k1[i] + k2[i] * 2.0 + k3[i] * 2.0 + k4[i]) * (h / 6.0);
        }
    }
    y[n - 1]
}

#[test]
fn ode_gradient() {
    for (n, s, seed) in [(1, 1, 1), (2, 3, 2), (5, 10, 3), (9, 4, 4)] {
        let x: Vec<f64> = points(n, seed).iter().map(|v| v + 1.5).collect();
        let mut d_x = vec![0.0; n];
        let mut y = vec![0.0; n];
        let last = ode::runge_kutta_grad(&x, &mut d_x, s, &mut y, &mut vec![0.0; n]);
        let mut y_primal = vec![0.0; n];
        assert_eq!(last, ode::runge_kutta(&x, s, &mut y_primal));
        assert_eq!(y, y_primal);
        let last_of = |x: &[f64]| ode::runge_kutta(x, s, &mut vec![0.0; n]);
        assert_close("ode, central", &d_x, &central(last_of, &x), 1e-7);
        assert_close(
            "ode, dual",
            &d_x,
            &dual_gradient(|x| ode_dual(x, s), &x),
            1e-12,
        );
    }
}

#[test]
fn hello_double_is_the_derivative_of_square() {
    use micrograd_gradbench::evals::hello;
    for x in [-3.0, 0.0, 0.5, 7.25] {
        let (value, derivative) = hello::square_grad(x);
        assert_eq!(value, hello::square(x));
        assert_close(
            "hello",
            &[derivative],
            &central(|x| hello::square(x[0]), &[x]),
            1e-8,
        );
    }
}

/// The k-means cost on second-order dual numbers, centroid coordinate `at` seeded.
fn kmeans_dual2(points: &[f64], centroids: &[f64], d: usize, at: usize) -> num_dual::Dual2_64 {
    use num_dual::Dual2_64;
    let c: Vec<Dual2_64> = (0..centroids.len())
        .map(|j| Dual2_64::new(centroids[j], if j == at { 1.0 } else { 0.0 }, 0.0))
        .collect();
    let mut cost = Dual2_64::from(0.0);
    for p in points.chunks(d) {
        let closest = c
            .chunks(d)
            .map(|c| (0..d).map(|l| (c[l] - p[l]).powi(2)).sum::<Dual2_64>())
            .reduce(|a, b| if b.re < a.re { b } else { a })
            .unwrap();
        cost += closest;
    }
    cost
}

#[test]
fn kmeans_newton_direction() {
    use micrograd_gradbench::evals::kmeans;
    for (n, k, d, seed) in [
        (1, 1, 1, 1),
        (6, 2, 2, 2),
        (20, 4, 3, 3),
        (40, 5, 8, 4),
        (60, 9, 3, 5),
    ] {
        let points = points(n * d, seed);
        // each centroid near a point of its own, so each is some point's closest
        let centroids: Vec<f64> = points[..k * d].iter().map(|v| v * 0.9 + 0.01).collect();
        let rows: Vec<Vec<f64>> = points.chunks(d).map(<[f64]>::to_vec).collect();
        let direction = kmeans::newton_direction(&rows, &centroids, d);
        let reference: Vec<f64> = (0..k * d)
            .map(|at| {
                let f = kmeans_dual2(&points, &centroids, d, at);
                f.v1 / f.v2
            })
            .collect();
        assert_close("kmeans, dual", &direction, &reference, 1e-12);
        // the cost and its own gradient (`kmeans_cost_grad`, through the minimum's fold)
        let duals: Vec<_> = (0..k * d)
            .map(|at| kmeans_dual2(&points, &centroids, d, at))
            .collect();
        let cost = kmeans::kmeans_cost(&rows, &centroids, d);
        assert_close("kmeans, cost", &[cost], &[duals[0].re], 1e-12);
        let mut gradient = vec![0.0; k * d];
        kmeans::kmeans_cost_grad(&rows, &centroids, &mut gradient, d);
        let by_duals: Vec<f64> = duals.iter().map(|f| f.v1).collect();
        assert_close("kmeans, gradient", &gradient, &by_duals, 1e-12);
        // central differences: the gradient, and the second difference for the diagonal
        let f = |c: &[f64]| kmeans::kmeans_cost(&rows, c, d);
        let gradient = central(f, &centroids);
        let by_differences: Vec<f64> = (0..k * d)
            .map(|at| {
                let h = 1e-4;
                let (mut plus, mut minus) = (centroids.clone(), centroids.clone());
                plus[at] += h;
                minus[at] -= h;
                let second = (f(&plus) - 2.0 * f(&centroids) + f(&minus)) / (h * h);
                gradient[at] / second
            })
            .collect();
        assert_close("kmeans, central", &direction, &by_differences, 1e-5);
    }
}
