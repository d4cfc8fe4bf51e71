//! The dual number `T` of the checker (harness.rs), with the record of what a program's
//! evaluation saw. Copied into each checker crate as `src/dual.rs`, with harness_std.rs as
//! its module `std_methods`; the same text with every `f64` written `f32` is `src/dual32.rs`,
//! the program computed in `f32` arithmetic and differentiated forward, the reference of
//! the `f32` twin (single_check.rs).

use micrograd_runtime::prelude::*;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::f64::consts::{LN_2, LN_10, PI};

// ----------------------------------------------------------------------------------- the record

/// What one evaluation of a program's `T` version saw.
#[derive(Clone, Debug, Default)]
pub struct Rec {
    /// Every decision and kink side, in order.
    pub decisions: Vec<i64>,
    /// The largest |value| of any operation.
    pub max_val: f64,
    /// The largest |derivative| of any operation.
    pub max_dot: f64,
    /// The largest rate at which the argument of a nonlinear function moves, on that
    /// function's own scale: |d| for `sin`, `exp`, .. (whose curvature is O(1) in absolute
    /// terms), |d / v| for `ln`, `sqrt`, `recip`, `/`, .. (relative to the distance to their
    /// singularity at 0). Times the step, it says whether the stencil stays in the regime
    /// where the two-step error estimate holds (`cos(1e6 x)` has D(h) = D(h/2) by luck, not
    /// by smoothness).
    pub max_move: f64,
    /// A value or derivative was not finite.
    pub bad: bool,
}

thread_local! {
    static REC: RefCell<Rec> = RefCell::new(Rec::default());
}

/// Runs `f` on a fresh record: its result and what it recorded.
pub fn recorded<R>(f: impl FnOnce() -> R) -> (R, Rec) {
    REC.with(|r| *r.borrow_mut() = Rec::default());
    let out = f();
    (out, REC.with(|r| std::mem::take(&mut *r.borrow_mut())))
}

pub(crate) fn note(v: f64, d: f64) -> T {
    REC.with(|r| {
        let mut r = r.borrow_mut();
        if !v.is_finite() || !d.is_finite() {
            r.bad = true;
        }
        r.max_val = r.max_val.max(v.abs());
        r.max_dot = r.max_dot.max(d.abs());
    });
    T { v, d }
}

/// Notes how fast a nonlinear function's argument moves (see `Rec::max_move`).
pub(crate) fn moves(rate: f64) {
    REC.with(|r| {
        let mut r = r.borrow_mut();
        r.max_move = r.max_move.max(rate.abs());
    });
}

pub(crate) fn decide(code: i64) {
    REC.with(|r| r.borrow_mut().decisions.push(code));
}

pub(crate) fn sign(x: f64) -> i64 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else if x == 0.0 {
        0
    } else {
        7
    }
}

fn order(a: f64, b: f64) -> i64 {
    match a.partial_cmp(&b) {
        Some(Ordering::Less) => -1,
        Some(Ordering::Equal) => 0,
        Some(Ordering::Greater) => 1,
        None => 7,
    }
}

// ------------------------------------------------------------------------------ the dual number

/// A value and its derivative along one direction.
#[derive(Clone, Copy, Debug)]
pub struct T {
    /// The value, computed by the same `f64` operations as the program's `f`.
    pub v: f64,
    /// Its derivative.
    pub d: f64,
}

/// The point as duals, seeded along coordinate `dir` (none if out of range).
/// The unit vector of coordinate `dir` among `n`: the tangent of `f_jvp` and `f_hvp`.
pub fn unit(n: usize, dir: usize) -> Vec<f64> {
    (0..n).map(|k| if k == dir { 1.0 } else { 0.0 }).collect()
}

pub fn duals(x: &[f64], dir: usize) -> Vec<T> {
    x.iter()
        .enumerate()
        .map(|(k, &v)| note(v, if k == dir { 1.0 } else { 0.0 }))
        .collect()
}

impl T {
    pub fn c(v: f64) -> T {
        note(v, 0.0)
    }
    /// `self`, by value: `T::id(x) < y` copies `x` before `y` runs, as `f64`'s `<` does.
    pub fn id(self) -> T {
        self
    }
    pub fn tanh(self) -> T {
        moves(self.d);
        let t = self.v.tanh();
        note(t, (1.0 - t * t) * self.d)
    }
    pub fn relu(self) -> T {
        decide(sign(self.v));
        note(self.v.relu(), if self.v > 0.0 { self.d } else { 0.0 })
    }
    pub fn sigmoid(self) -> T {
        moves(self.d);
        let s = self.v.sigmoid();
        note(s, s * (1.0 - s) * self.d)
    }
    pub fn exp(self) -> T {
        moves(self.d);
        let e = self.v.exp();
        note(e, e * self.d)
    }
    pub fn exp2(self) -> T {
        moves(self.d);
        let e = self.v.exp2();
        note(e, e * LN_2 * self.d)
    }
    pub fn exp_m1(self) -> T {
        moves(self.d);
        note(self.v.exp_m1(), self.v.exp() * self.d)
    }
    pub fn ln(self) -> T {
        moves(self.d / self.v);
        decide(sign(self.v));
        note(self.v.ln(), self.d / self.v)
    }
    pub fn ln_1p(self) -> T {
        moves(self.d / self.v);
        decide(sign(self.v + 1.0));
        note(self.v.ln_1p(), self.d / (1.0 + self.v))
    }
    pub fn log2(self) -> T {
        moves(self.d / self.v);
        decide(sign(self.v));
        note(self.v.log2(), self.d / (self.v * LN_2))
    }
    pub fn log10(self) -> T {
        moves(self.d / self.v);
        decide(sign(self.v));
        note(self.v.log10(), self.d / (self.v * LN_10))
    }
    pub fn sqrt(self) -> T {
        moves(self.d / self.v);
        decide(sign(self.v));
        let s = self.v.sqrt();
        note(s, self.d / (2.0 * s))
    }
    pub fn cbrt(self) -> T {
        moves(self.d / self.v);
        decide(sign(self.v));
        let c = self.v.cbrt();
        note(c, self.d / (3.0 * c * c))
    }
    pub fn sin(self) -> T {
        moves(self.d);
        note(self.v.sin(), self.v.cos() * self.d)
    }
    pub fn cos(self) -> T {
        moves(self.d);
        note(self.v.cos(), -self.v.sin() * self.d)
    }
    pub fn tan(self) -> T {
        moves(self.d);
        // The branch between two poles.
        decide((self.v / PI + 0.5).floor() as i64);
        let t = self.v.tan();
        note(t, (1.0 + t * t) * self.d)
    }
    pub fn asin(self) -> T {
        moves(self.d);
        note(self.v.asin(), self.d / (1.0 - self.v * self.v).sqrt())
    }
    pub fn acos(self) -> T {
        moves(self.d);
        note(self.v.acos(), -self.d / (1.0 - self.v * self.v).sqrt())
    }
    pub fn atan(self) -> T {
        moves(self.d);
        note(self.v.atan(), self.d / (1.0 + self.v * self.v))
    }
    pub fn sinh(self) -> T {
        moves(self.d);
        note(self.v.sinh(), self.v.cosh() * self.d)
    }
    pub fn cosh(self) -> T {
        moves(self.d);
        note(self.v.cosh(), self.v.sinh() * self.d)
    }
    pub fn abs(self) -> T {
        decide(sign(self.v));
        note(self.v.abs(), sign(self.v) as f64 * self.d)
    }
    pub fn recip(self) -> T {
        moves(self.d / self.v);
        decide(sign(self.v));
        note(self.v.recip(), -self.d / (self.v * self.v))
    }
    pub fn signum(self) -> T {
        decide(sign(self.v));
        note(self.v.signum(), 0.0)
    }
    pub fn powi(self, n: i32) -> T {
        moves(self.d / self.v);
        if n < 0 {
            decide(sign(self.v));
        }
        let d = if n == 0 {
            0.0
        } else {
            (n as f64) * self.v.powi(n - 1) * self.d
        };
        note(self.v.powi(n), d)
    }
    pub fn powf(self, e: T) -> T {
        moves(self.d / self.v);
        moves(e.d * self.v.ln());
        decide(sign(self.v));
        let p = self.v.powf(e.v);
        let d_base = if self.d == 0.0 {
            0.0
        } else {
            e.v * self.v.powf(e.v - 1.0) * self.d
        };
        let d_exp = if e.d == 0.0 {
            0.0
        } else {
            p * self.v.ln() * e.d
        };
        note(p, d_base + d_exp)
    }
    pub fn max(self, o: T) -> T {
        let c = order(self.v, o.v);
        decide(c);
        let d = match c {
            1 => self.d,
            -1 => o.d,
            _ => 0.5 * (self.d + o.d),
        };
        note(self.v.max(o.v), d)
    }
    pub fn min(self, o: T) -> T {
        let c = order(self.v, o.v);
        decide(c);
        let d = match c {
            -1 => self.d,
            1 => o.d,
            _ => 0.5 * (self.d + o.d),
        };
        note(self.v.min(o.v), d)
    }
    pub fn hypot(self, o: T) -> T {
        decide(sign(self.v).abs() + 2 * sign(o.v).abs());
        let h = self.v.hypot(o.v);
        note(h, (self.v * self.d + o.v * o.d) / h)
    }
    pub fn atan2(self, x: T) -> T {
        moves(self.d.abs().max(x.d.abs()) / self.v.hypot(x.v));
        // The cut along the negative x axis.
        decide(3 * sign(x.v) + sign(self.v));
        let r2 = x.v * x.v + self.v * self.v;
        note(self.v.atan2(x.v), (x.v * self.d - self.v * x.d) / r2)
    }
}

impl std::ops::Add for T {
    type Output = T;
    fn add(self, o: T) -> T {
        note(self.v + o.v, self.d + o.d)
    }
}
impl std::ops::Sub for T {
    type Output = T;
    fn sub(self, o: T) -> T {
        note(self.v - o.v, self.d - o.d)
    }
}
impl std::ops::Mul for T {
    type Output = T;
    fn mul(self, o: T) -> T {
        note(self.v * o.v, self.d * o.v + self.v * o.d)
    }
}
impl std::ops::Div for T {
    type Output = T;
    fn div(self, o: T) -> T {
        moves(o.d / o.v);
        decide(sign(o.v));
        let q = self.v / o.v;
        note(q, (self.d - q * o.d) / o.v)
    }
}
impl std::ops::Neg for T {
    type Output = T;
    fn neg(self) -> T {
        note(-self.v, -self.d)
    }
}
impl std::ops::AddAssign for T {
    fn add_assign(&mut self, o: T) {
        *self = *self + o;
    }
}
impl std::ops::SubAssign for T {
    fn sub_assign(&mut self, o: T) {
        *self = *self - o;
    }
}
impl std::ops::MulAssign for T {
    fn mul_assign(&mut self, o: T) {
        *self = *self * o;
    }
}
/// `fmod`: `x - trunc(x / y) y`, a jump wherever `x / y` crosses an integer.
impl std::ops::Rem for T {
    type Output = T;
    fn rem(self, o: T) -> T {
        moves(o.d / o.v);
        let q = (self.v / o.v).trunc();
        decide(q as i64);
        decide(sign(o.v));
        note(self.v % o.v, self.d - q * o.d)
    }
}
impl std::ops::DivAssign for T {
    fn div_assign(&mut self, o: T) {
        *self = *self / o;
    }
}
impl PartialEq for T {
    fn eq(&self, o: &T) -> bool {
        decide(order(self.v, o.v));
        self.v == o.v
    }
}
impl PartialOrd for T {
    fn partial_cmp(&self, o: &T) -> Option<Ordering> {
        decide(order(self.v, o.v));
        self.v.partial_cmp(&o.v)
    }
}
