//! The gradient descent of particle and saddle, as GradBench's C++ tools share it
//! (`cpp/gradbench/gd.hpp`): a step size that doubles after ten improving steps and halves
//! after a worse one, stopping when the gradient or the step is shorter than 1e-5.
//!
//! Plain Rust over a point of `N` coordinates: the objective and its gradient come in as
//! closures, so each eval passes the derivative the macro generated (reverse or forward mode).

/// The Euclidean length of `v`.
fn magnitude<const N: usize>(v: &[f64; N]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The distance from `u` to `v`.
fn distance<const N: usize>(u: &[f64; N], v: &[f64; N]) -> f64 {
    u.iter()
        .zip(v)
        .map(|(a, b)| (a - b) * (a - b))
        .sum::<f64>()
        .sqrt()
}

/// The point gradient descent on `objective` reaches from `start`; `gradient` gives the
/// gradient of `objective` at a point.
pub fn argmin<const N: usize>(
    objective: impl Fn(&[f64; N]) -> f64,
    gradient: impl Fn(&[f64; N]) -> [f64; N],
    start: [f64; N],
) -> [f64; N] {
    let mut x = start;
    let mut fx = objective(&x);
    let mut gx = gradient(&x);
    let mut i = 0;
    let mut eta = 1e-5;
    loop {
        if magnitude(&gx) <= 1e-5 {
            return x;
        } else if i == 10 {
            eta *= 2.0;
            i = 0;
        } else {
            let next: [f64; N] = std::array::from_fn(|j| x[j] - eta * gx[j]);
            if distance(&x, &next) <= 1e-5 {
                return x;
            }
            let f_next = objective(&next);
            if f_next < fx {
                x = next;
                fx = f_next;
                gx = gradient(&x);
                i += 1;
            } else {
                eta /= 2.0;
                i = 0;
            }
        }
    }
}

/// The point gradient ascent on `objective` reaches from `start`: [`argmin`] of `-objective`.
pub fn argmax<const N: usize>(
    objective: impl Fn(&[f64; N]) -> f64,
    gradient: impl Fn(&[f64; N]) -> [f64; N],
    start: [f64; N],
) -> [f64; N] {
    argmin(|x| -objective(x), |x| gradient(x).map(|g| -g), start)
}
