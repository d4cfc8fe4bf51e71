//! Code the macro accepts compiles without a single warning under `#![deny(warnings)]`
//! (clippy runs on this file too, with `-D warnings`).

mod generated {
    #![deny(warnings)]

    use micrograd_runtime::prelude::*;

    /// Nested derivatives: a function of a gradient and of a `jvp`, in every flavour it has.
    #[differentiable(hvp, wrt(x))]
    fn well(x: f64, w: f64) -> f64 {
        w * x.powi(4)
    }

    #[differentiable(jvp)]
    pub fn through_well(x: f64, w: f64) -> f64 {
        let (_, d) = well_grad(x, w);
        let (_, t) = well_jvp(x, 1.0, w);
        d * t
    }

    #[differentiable]
    pub fn straight(a: f64, b: f64) -> f64 {
        let c = a * b + b.powi(3) - a.relu() + std::f64::consts::PI;
        let d = -c / (b * b + 1.0);
        d.tanh() * a.max(b).min(2.0) + a.hypot(b) - b.atan2(a)
    }

    /// Paths where closures go, a local `Vec`, std's derived functions and class tests, in
    /// every flavour.
    #[differentiable(hessian, graph)]
    pub fn idioms(x: &[f64], a: f64) -> f64 {
        let m = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut v = vec![0.0; x.len()];
        for i in 0..x.len() {
            v[i] = (x[i] - m).exp();
        }
        let (s, c) = a.sin_cos();
        let k = if a.is_finite() && !a.is_sign_negative() {
            a.fract()
        } else {
            a.copysign(-1.0)
        };
        let t = v.iter().copied().map(f64::tanh).sum::<f64>();
        t * s + c.to_degrees() + k.to_radians() + (a * a + 2.0).log(3.0)
    }

    #[differentiable]
    pub fn branches(a: f64, b: f64, flag: bool) -> f64 {
        let mut y = a;
        if flag && a > 0.0 {
            y *= b;
        } else if !flag || b < 0.0 {
            y -= b.exp();
        } else {
            y = b;
        }
        if y > 10.0 {
            return y.ln();
        }
        let z = if y < 0.0 { -y } else { y.sqrt() };
        z + y
    }

    #[differentiable]
    pub fn records(x: f64, n: usize) -> f64 {
        let mut y = x;
        for i in 0..n {
            y = (y * 0.9).sin() + (i as f64) * 0.01;
        }
        for _ in 0..=n {
            if y > 0.0 {
                y = y.tanh();
            }
        }
        y
    }

    #[differentiable]
    pub fn arrays(w: &[f64], v: &[f64; 2]) -> f64 {
        let mut h = [0.0; 2];
        for j in 0..2 {
            h[j] = w[j] * v[j];
            h[j] += w[j + 1];
        }
        h[0] = h[0].tanh();
        h[0] * h[1] + w.len() as f64
    }

    #[differentiable]
    pub fn dot(w: &[f64], x: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..w.len() {
            s += w[i] * x[i];
        }
        s
    }

    #[differentiable]
    pub fn calls(w: &[f64], x: &[f64], a: f64) -> f64 {
        let p = dot(&w[..2], &x[..2]) + dot(&w[1..], &x[1..]) + dot(&w[2..3], &x[0..1]);
        straight(p, a) * branches(a, p, true)
    }

    #[differentiable(wrt(w, b))]
    pub fn neuron(w: &[f64], b: f64, x: &[f64], scale: f64) -> f64 {
        let mut s = b;
        for i in 0..w.len() {
            s += w[i] * x[i];
        }
        (s * scale).tanh()
    }

    #[differentiable(wrt(a))]
    pub fn integers(a: f64, n: usize, k: i32, m: i64, u: u32, on: bool, c: f64) -> f64 {
        let mut s = a * c;
        for i in 0..n {
            s += a * ((i as i64 + m) as f64);
        }
        if on { s * (k as f64) } else { s - (u as f64) }
    }

    #[differentiable]
    pub fn unused_parameter(a: f64, _ignored: f64) -> f64 {
        a * a
    }

    #[differentiable]
    pub fn odd_shapes(a: f64, b: f64, n: usize) -> f64 {
        let mut h = [0.0; 8];
        for i in 0..n - 1 {
            h[i] = a * (i as f64);
        }
        let r = (if a > 0.0 { a } else { -a }).sqrt();
        if straight(a, b) > 1.0 && a.abs() > 0.2 {
            if b > 0.0 {
                return r * h[n - 1];
            } else if b < -1.0 {
                return r;
            }
        }
        let mut s = 0.0;
        for i in (n / 2)..n {
            s += h[i] * h[i];
        }
        s + r
    }

    #[differentiable]
    pub fn slices_only(w: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..w.len() {
            s += w[i].abs();
        }
        s
    }

    /// A custom derivative (with an unused rule in `f_grad`, left out by `wrt`) and `detach`.
    #[differentiable(wrt(y), hessian, derivative(x = custom_dx, y = custom_dy))]
    pub fn custom(x: f64, n: usize, y: f64) -> f64 {
        x * y * n as f64
    }

    #[differentiable]
    pub fn custom_dx(x: f64, n: usize, y: f64) -> f64 {
        (x * 0.0 + y) * n as f64
    }

    #[differentiable]
    pub fn custom_dy(x: f64, n: usize, y: f64) -> f64 {
        (y * 0.0 + x) * n as f64
    }

    #[differentiable]
    pub fn detached(x: f64) -> f64 {
        x * x.detach() + custom(x, 2, x)
    }

    /// Vector outputs with their Jacobians: shared forward sweep, and replayed tapes.
    #[differentiable(jacobian)]
    pub fn vector(x: f64, y: f64) -> [f64; 3] {
        let z = x * y;
        [z.sin(), x + y, z.detach()]
    }

    #[differentiable]
    pub fn scale_in_place(w: &mut [f64], k: f64) -> f64 {
        for i in 0..w.len() {
            w[i] *= k;
        }
        w[0]
    }

    #[differentiable]
    pub fn lends(x: f64, w: &mut [f64]) -> f64 {
        let mut h = [x, 1.0];
        for _ in 0..2 {
            scale_in_place(&mut h, x);
        }
        scale_in_place(w, h[1]);
        scale_in_place(&mut w[1..], x) + h[0]
    }

    #[differentiable(jacobian, wrt(a))]
    pub fn taped(a: f64, t: &[f64]) -> (f64, f64) {
        let mut s = 0.0;
        let mut p = 1.0;
        for i in 0..t.len() {
            s += (a * t[i]).exp();
            p *= a + t[i];
        }
        (s, p)
    }

    const K: f64 = 3.0;
    const MAX: usize = 2;
    const MAX_F: f64 = 0.5;

    /// Issue 25's tail: outside constants typed by use (pinned to `f64`), an integer-valued
    /// `if` of them, `%`, `skip`/`take`, a sub-slice in a reduction, in every flavour.
    #[differentiable(hessian, graph)]
    pub fn tail(w: &[f64; 4], x: f64) -> f64 {
        let pi = std::f64::consts::PI;
        let m = if MAX < w.len() { MAX } else { w.len() };
        let mut s = x * (K * K) + pi;
        s %= 7.5;
        for (a, b) in w.iter().zip(w.iter().skip(1)) {
            s += (a * b) % (x + 2.0);
        }
        for v in w.iter().take(m) {
            s += v * x;
        }
        s + w[1..3].iter().map(|v| v * v).sum::<f64>()
    }

    /// `const fn` stays `const`.
    #[differentiable]
    pub const fn constant(x: f64) -> f64 {
        x * x + 1.0
    }

    /// Data of several types read in every flavour.
    #[differentiable(hessian, graph)]
    pub fn data(w: &[f64], pts: &[[f64; 2]], labels: &[usize], pairs: &[(f64, f64)]) -> f64 {
        let mut s = 0.0;
        for (p, &y) in pts.iter().zip(labels) {
            s += (w[y] * p[0] + p[1]).tanh();
        }
        for &(x, y) in pairs {
            s += w[0] * x * y;
        }
        s + pts.iter().map(|p| w[1] * p[1]).sum::<f64>()
    }

    /// Assertions of every kind, with messages, and an `if` of outside names typed by use.
    #[differentiable(hessian, graph)]
    pub fn asserted(w: &[f64], x: f64, n: usize) -> f64 {
        assert!(n >= 1, "need an entry, got {}", n);
        assert_eq!(w.len(), n);
        debug_assert!(x.abs() < K * 100.0);
        let v = if n > 2 { K } else { MAX_F };
        assert_ne!(v, 0.0, "v = {:.3}", v);
        debug_assert_eq!(w.len(), n);
        debug_assert_ne!(x, f64::NAN);
        x * v + w[0]
    }

    /// Closures bound by `let` and called.
    #[differentiable(hessian, graph)]
    pub fn bound_closures(a: f64, b: f64) -> f64 {
        let k = 0.5;
        let sq = |t: f64| t * t;
        let scaled = |t: f64, u: f64| k * t.tanh() + sq(u);
        sq(a) + sq(b) * a + scaled(a * b, b)
    }

    /// `array.map(|x| ..)` on a parameter and on a local array.
    #[differentiable(hessian, graph)]
    pub fn mapped(param: [f64; 3], x: f64) -> f64 {
        let scaled = param.map(|x| 4.0 * x - 2.0);
        let local = [x, x * x, 1.0];
        let squared = local.map(|t| t * t);
        scaled[0] * scaled[1] + scaled[2] * x + squared.iter().sum::<f64>()
    }

    /// A float cast to an index and to a count.
    #[differentiable(hessian, graph)]
    pub fn binned(w: &[f64], x: f64) -> f64 {
        let k = (x * 2.0).abs() as usize;
        let mut s = w[k] * x * x;
        for i in 0..x.abs() as usize {
            s += x * w[i];
        }
        s + ((x * x) as i64) as f64 * x
    }

    /// Integer bookkeeping: masks, shifts and integer methods, in every flavour.
    #[differentiable(hessian)]
    pub fn masks(w: &[f64], removed: usize, m: i32) -> f64 {
        let mut s = 0.0;
        for j in 0..w.len() {
            if removed & (1 << j) == 0 && (j ^ 1) >> 1 < 2 && !j.is_multiple_of(3) {
                let k = (removed | (1 << j)).max(j).min(w.len() - 1);
                let e = ((m - j as i32).abs() % 2).unsigned_abs() as usize + j.saturating_sub(1);
                s += w[k] * w[e % w.len()] * 2usize.pow(2) as f64;
            }
        }
        s
    }

    #[differentiable(hessian)]
    pub fn log_sum_exp(x: &[f64]) -> f64 {
        let m = x.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        m + x.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
    }

    /// Windows and rows of a local `Vec` handed to a call in a loop reversed inside itself.
    #[differentiable(hessian)]
    pub fn local_windows(w: &[f64]) -> f64 {
        let v: Vec<f64> = w.iter().map(|a| a * 2.0).collect();
        let mut s = 0.0;
        for i in 0..v.len() - 1 {
            s += log_sum_exp(&v[i..i + 2]);
        }
        for row in v.chunks(2) {
            s += log_sum_exp(row);
        }
        s
    }
}

use generated::*;

#[test]
fn every_generated_function_runs() {
    let (w, x, v) = ([0.3, -1.2, 0.8], [1.5, 0.2, -0.7], [0.5, 2.0]);
    let (mut d_w, mut d_x, mut d_v) = ([0.0; 3], [0.0; 3], [0.0; 2]);
    let same = |a: f64, b: f64| assert_eq!(a.to_bits(), b.to_bits());
    same(straight_grad(0.4, -1.1).0, straight(0.4, -1.1));
    let mut d_w3 = [0.0; 3];
    same(masks_grad(&w, &mut d_w3, 1, 3), masks(&w, 1, 3));
    same(masks_jvp(&w, &x, 1, 3).0, masks(&w, 1, 3));
    let mut hessian = [0.0; 9];
    same(masks_hessian(&w, 1, 3, &mut hessian), masks(&w, 1, 3));
    let mut d_w3 = [0.0; 3];
    same(local_windows_grad(&w, &mut d_w3), local_windows(&w));
    same(local_windows_jvp(&w, &x).0, local_windows(&w));
    let mut hessian = [0.0; 9];
    same(local_windows_hessian(&w, &mut hessian), local_windows(&w));
    let (pts, labels, pairs) = ([[0.5, 1.0], [2.0, -1.0]], [1, 0], [(1.0, 2.0)]);
    let mut d_data = [0.0; 3];
    same(
        data_grad(&w, &mut d_data, &pts, &labels, &pairs),
        data(&w, &pts, &labels, &pairs),
    );
    let mut d_a = [0.0; 3];
    same(asserted_grad(&w, &mut d_a, 0.4, 3).0, asserted(&w, 0.4, 3));
    same(binned_grad(&w, &mut d_a, 0.7).0, binned(&w, 0.7));
    same(bound_closures_grad(0.4, -1.1).0, bound_closures(0.4, -1.1));
    same(
        mapped_grad([0.5, 1.0, 2.0], 0.3).0,
        mapped([0.5, 1.0, 2.0], 0.3),
    );
    same(branches_grad(0.4, -1.1, true).0, branches(0.4, -1.1, true));
    same(records_grad(0.4, 5).0, records(0.4, 5));
    same(arrays_grad(&w, &mut d_w, &v, &mut d_v), arrays(&w, &v));
    same(dot_grad(&w, &mut d_w, &x, &mut d_x), dot(&w, &x));
    same(
        calls_grad(&w, &mut d_w, &x, &mut d_x, 0.3).0,
        calls(&w, &x, 0.3),
    );
    same(
        neuron_grad(&w, &mut d_w, 0.1, &x, 2.0).0,
        neuron(&w, 0.1, &x, 2.0),
    );
    same(
        integers_grad(0.7, 3, -2, 4, 1, true, 1.5).0,
        integers(0.7, 3, -2, 4, 1, true, 1.5),
    );
    same(slices_only_grad(&w, &mut d_w), slices_only(&w));
    same(custom_grad(0.5, 3, 2.0).0, custom(0.5, 3, 2.0));
    same(detached_grad(0.5).0, detached(0.5));
    let ([a, b, c], _) = vector_jacobian(0.5, 2.0);
    let value = vector(0.5, 2.0);
    same(a, value[0]);
    same(b, value[1]);
    same(c, value[2]);
    let ((s, p), _) = taped_jacobian(0.5, &w);
    same(s, taped(0.5, &w).0);
    same(p, taped(0.5, &w).1);
    same(odd_shapes_grad(0.7, 0.4, 5).0, odd_shapes(0.7, 0.4, 5));
    same(
        lends_grad(0.7, &mut w.clone(), &mut d_w).0,
        lends(0.7, &mut w.clone()),
    );
    // By hand: d(a^2)/da = 2a, and nothing for the ignored parameter.
    assert_eq!(
        unused_parameter_grad(1.5, 9.0),
        (unused_parameter(1.5, 9.0), 3.0, 0.0)
    );
}

/// Loops whose reversed iterations fold their copy pairs and skip zero adjoints: no `mut` may
/// be left over.
#[deny(warnings)]
mod folded_loops {
    use micrograd_runtime::prelude::*;

    #[differentiable]
    pub fn dot(w: &[f64], x: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..w.len() {
            s += w[i] * x[i];
        }
        s
    }

    #[differentiable(wrt(w1, b1, w2, b2))]
    pub fn network(w1: &[f64], b1: &[f64], w2: &[f64], b2: f64, xs: &[f64], ys: &[f64]) -> f64 {
        let n = ys.len();
        let mut total = 0.0;
        for s in 0..n {
            let mut h = [0.0; 4];
            for j in 0..4 {
                let mut act = b1[j];
                for k in 0..2 {
                    act += w1[j * 2 + k] * xs[s * 2 + k];
                }
                h[j] = act.relu();
            }
            let mut score = b2;
            for j in 0..4 {
                score += w2[j] * h[j];
            }
            total += (1.0 - ys[s] * score).relu();
        }
        total / n as f64
    }
}

#[test]
fn folded_loops_compile_without_warnings_and_agree_with_f() {
    let (w, x) = ([1.0, 2.0], [3.0, -1.0]);
    let (mut d_w, mut d_x) = ([0.0; 2], [0.0; 2]);
    assert_eq!(
        folded_loops::dot_grad(&w, &mut d_w, &x, &mut d_x),
        folded_loops::dot(&w, &x)
    );
    assert_eq!((d_w, d_x), ([3.0, -1.0], [1.0, 2.0]));
    let (w1, b1, w2) = (
        [0.5, -0.3, 0.8, 0.1, -0.6, 0.4, 0.2, 0.9],
        [0.1, -0.2, 0.3, 0.0],
        [1.0, -1.0, 0.5, 0.7],
    );
    let (xs, ys) = ([0.3, -0.8, 1.2, 0.4], [1.0, -1.0]);
    let (mut d_w1, mut d_b1, mut d_w2) = ([0.0; 8], [0.0; 4], [0.0; 4]);
    let (value, _) = folded_loops::network_grad(
        &w1, &mut d_w1, &b1, &mut d_b1, &w2, &mut d_w2, 0.2, &xs, &ys,
    );
    assert_eq!(value, folded_loops::network(&w1, &b1, &w2, 0.2, &xs, &ys));
}

/// The same guarantee for functions written in `f32`, every flavour included.
mod generated32 {
    #![deny(warnings)]

    use micrograd_runtime::prelude::*;

    #[differentiable(graph, hessian)]
    pub fn straight(a: f32, b: f32) -> f32 {
        let c = a * b + b.powi(3) - a.relu() + std::f32::consts::PI * f32::EPSILON;
        let d = -c / (b * b + 1.0) + 2f32;
        d.tanh() * a.max(b).min(2.0) + a.hypot(b) - b.atan2(a) + (a * 0.1 * 0.3).sigmoid()
    }

    #[differentiable(hvp)]
    pub fn looped(w: &[f32], x: &[f32; 3], n: usize) -> f32 {
        let mut s = 0.0;
        let mut h = [0.0; 3];
        for i in 0..n.min(w.len()) {
            h[i % 3] += (w[i] * x[i % 3]).exp2() / (i + 1) as f32;
            if h[i % 3] > 4.0 {
                break;
            }
            s += h[i % 3].ln_1p();
        }
        s + w.iter().map(|v| v * v).sum::<f32>()
    }
}

#[test]
fn f32_functions_compile_without_warnings_and_agree_with_f() {
    let (value, _, _) = generated32::straight_grad(0.5, -1.5);
    assert_eq!(value, generated32::straight(0.5, -1.5));
    let (w, x) = ([0.5_f32, -0.25, 1.0, 0.75], [1.0_f32, 2.0, -1.0]);
    let (mut d_w, mut d_x) = ([0.0_f32; 4], [0.0_f32; 3]);
    let value = generated32::looped_grad(&w, &mut d_w, &x, &mut d_x, 4);
    assert_eq!(value, generated32::looped(&w, &x, 4));
}
