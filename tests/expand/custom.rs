// Custom derivatives: the body is called, and the rules give the partials (and, with `hvp`,
// the tangent and its pullback, from the rules' own pullbacks).
#[differentiable(hvp, derivative(x = erf_dx))]
fn erf(x: f64) -> f64 {
    foreign::erf(x)
}

// Several parameters, an integer among them, and `wrt`.
#[differentiable(wrt(y), derivative(x = solve_dx, y = solve_dy))]
fn solve(x: f64, n: usize, y: f64) -> f64 {
    newton(x, n, y)
}

// `detach`: the value passes, the gradient stops.
#[differentiable]
fn bootstrapped(w: f64, x: f64) -> f64 {
    let target = (0.9 * w * x + 1.0).detach();
    (w * x - target).powi(2)
}

// Generic over its float: the rules are generic too, bound to `fn(T) -> T` where called.
#[differentiable(hvp, derivative(x = softplus_dx))]
fn softplus<T: Float>(x: T) -> T {
    (T::one() + x.exp()).ln()
}
