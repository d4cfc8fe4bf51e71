//! The `f32` twin of a program (tests/random/single.rs) in the checking crate, copied there
//! as `src/single.rs`.
//!
//! At each accepted point of the `f64` program (smooth over the stencil, see harness.rs), with
//! the point rounded to `f32`:
//! - the twin's `f_grad` returns the twin's `f` bit for bit, with zero and with filled shadows;
//! - the twin's value is the `f64` program's to `f32` precision on the scale of the values the
//!   trace saw; where it is not, rounding in `f32` changed the computation (a cancellation, a
//!   branch taken the other way) and the point is counted as too ill-conditioned, not checked;
//! - each partial agrees with the `f64` program's `f_grad` (checked against central
//!   differences, dual numbers and the `Value` engine) and with its central difference, to
//!   `f32`'s rounding on the scale of the derivatives the trace saw.

use crate::rt::*;
use std::fmt::Write as _;

/// The adapters of a program's twin: `f` and `f_grad` (in the layout of `Prog::g`) at the
/// point rounded to `f32`.
pub struct Single {
    pub f: fn(&Args) -> f32,
    pub g: fn(&Args, f32) -> (f32, Vec<Option<f32>>),
}

/// Rounding steps of `f32` allowed between the twin and the `f64` program, on the scale of the
/// largest value (values) or derivative (partials) of the trace.
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
        let (g32, g64) = (f64::from(grads32[c.i].expect("checked")), grads[c.i].expect("checked"));
        let tol = STEPS * EPS * (g64.abs() + c.max_dot).max(1.0);
        let tol_fd = tol + 4.0 * (c.d1 - c.d2).abs() + 1e3 * f64::EPSILON * c.mag / c.h;
        let (grad_ok, fd_ok) = ((g32 - g64).abs() <= tol, (g32 - c.d2).abs() <= tol_fd);
        if !grad_ok || !fd_ok {
            let _ = writeln!(
                problems,
                "  d/dx[{}]: f32 f_grad {g32:e}, f64 f_grad {g64:e}{} (tol {tol:e}), f64 central difference {:e}{}",
                c.i,
                if grad_ok { "" } else { " MISMATCH" },
                c.d2,
                if fd_ok { "" } else { " MISMATCH" },
            );
        }
    }
    match problems.is_empty() {
        true => Ok(Verdict::Checked),
        false => Err(format!("f32 twin (value {value:e}, f64 {fv:e}):\n{problems}")),
    }
}
