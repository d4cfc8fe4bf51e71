//! The `f32` twin of a program (tests/random/single.rs) in the checking crate, copied there
//! as `src/single.rs`.
//!
//! At each accepted point of the `f64` program (smooth over the stencil, see harness.rs), with
//! the point rounded to `f32`:
//! - the twin's `f_grad` returns the twin's `f` bit for bit, with zero and with filled shadows;
//! - the twin's value is the `f64` program's to `f32` precision on the scale of the values the
//!   trace saw; where it is not, rounding in `f32` changed the computation (a cancellation, a
//!   branch taken the other way) and the point is counted as too ill-conditioned, not checked;
//! - each partial agrees with the dual number of the program computed in `f32` arithmetic
//!   (`t32`: the `T` of dual.rs written in `f32`), to the rounding of the derivative's own
//!   arithmetic on the scale of the derivatives the trace saw.
//!
//! The reference is the program in `f32`, not the `f64` program's gradient: the two compute
//! the same values rounding for rounding (`t32`'s value is the twin's `f`, bit for bit), so
//! what separates them from the `f64` gradient, the rounding of those values carried through
//! a badly conditioned derivative, is common to both and cancels. Seed 1's program 156 (its
//! gradient 49822.1 against the `f64` program's 49835.8) is such a point: the `f32` dual
//! number gives 49822.3, and the `f64` gradient at the point rounded to `f32` 49835.75.

use crate::rt::*;
use std::fmt::Write as _;

/// The adapters of a program's twin: `f` and `f_grad` (in the layout of `Prog::g`) at the
/// point rounded to `f32`.
pub struct Single {
    pub f: fn(&Args) -> f32,
    pub g: fn(&Args, f32) -> (f32, Vec<Option<f32>>),
    /// The program's `T` version in `f32`: its value and derivative along a coordinate.
    pub t: fn(&Args, usize) -> (f32, f32),
}

/// Rounding steps of `f32` allowed between the twin and the `f64` program's value, on the scale
/// of the largest value of the trace, and between the twin's partials and the `f32` dual
/// numbers (which add the same terms in another order), on the scale of the largest
/// derivative.
const STEPS: f64 = 1e3;

const EPS: f64 = f32::EPSILON as f64;

/// What the twin's check found at one point.
pub enum Verdict {
    /// The program has no twin.
    Unchecked,
    /// The point is too ill-conditioned for `f32`: the twin's value is not the `f64` one's.
    Ill,
    /// The twin passed.
    Checked,
}

/// Checks the twin of `p` at the accepted point `a`, whose `f64` value is `fv` and partials
/// `grads`.
pub fn check(
    p: &Prog,
    a: &Args,
    coords: &[Coord],
    fv: f64,
    grads: &[Option<f64>],
) -> Result<Verdict, String> {
    let Some(single) = &p.single else {
        return Ok(Verdict::Unchecked);
    };
    let value = guarded("the f32 twin's f", || (single.f)(a))?;
    for fill in [0.0, 1.0] {
        let (gv, _) = guarded("the f32 twin's f_grad", || (single.g)(a, fill))?;
        if gv.to_bits() != value.to_bits() {
            return Err(format!(
                "f32 twin: f_grad returns {gv:?} but f returns {value:?} (shadows filled with {fill})"
            ));
        }
    }
    let scale = coords.iter().map(|c| c.mag).fold(fv.abs(), f64::max);
    if !((f64::from(value) - fv).abs() <= STEPS * EPS * scale.max(1.0)) {
        return Ok(Verdict::Ill);
    }
    let (_, grads32) = guarded("the f32 twin's f_grad", || (single.g)(a, 0.0))?;
    let layout: Vec<bool> = grads32.iter().map(Option::is_some).collect();
    if layout != grads.iter().map(Option::is_some).collect::<Vec<_>>() {
        return Err(format!("f32 twin: differentiated coordinates {layout:?} differ from f64's"));
    }
    let mut problems = String::new();
    for c in coords {
        let (tv, t) = guarded("the f32 twin's T version", || (single.t)(a, c.i))?;
        if tv.to_bits() != value.to_bits() {
            return Err(format!(
                "harness: the f32 T version gives {tv:?} but the twin's f gives {value:?} (a bug of the generator)"
            ));
        }
        let (g32, t, g64) = (
            f64::from(grads32[c.i].expect("checked")),
            f64::from(t),
            grads[c.i].expect("checked"),
        );
        if !t.is_finite() {
            return Ok(Verdict::Ill);
        }
        let tol = STEPS * EPS * (t.abs() + c.max_dot).max(1.0);
        if !((g32 - t).abs() <= tol) {
            let _ = writeln!(
                problems,
                "  d/dx[{}]: f32 f_grad {g32:e}, f32 dual number {t:e} MISMATCH (tol {tol:e}); f64 f_grad {g64:e}, f64 central difference {:e}",
                c.i, c.d2,
            );
        }
    }
    match problems.is_empty() {
        true => Ok(Verdict::Checked),
        false => Err(format!("f32 twin (value {value:e}, f64 {fv:e}):\n{problems}")),
    }
}
