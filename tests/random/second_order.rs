//! Forward mode and second order in the checking crate (copied there as `src/second.rs`).
//!
//! At each accepted point and coordinate `i` (the stencil of `f` along `i` is smooth, see
//! harness.rs):
//! - `f_jvp` along `eᵢ` returns `f`'s value bit for bit and `∂f/∂xᵢ`, checked against the
//!   dual number (an exact oracle) and the central differences of `f`;
//! - `f_hvp` along `eᵢ` returns `f`'s value bit for bit and the row `H eᵢ`, each entry checked
//!   against the central difference of `f_grad` along `i` (steps h and h/2, their difference
//!   bounding the truncation error);
//! - the rows of two accepted coordinates agree where they cross (`H` is symmetric).

use crate::rt::*;
use std::fmt::Write as _;

/// The central differences of `f_grad` along coordinate `c.i` with steps `h` and `h/2`, and the
/// largest |partial| on the stencil.
fn gradient_differences(p: &Prog, a: &Args, c: &Coord) -> Result<(Vec<f64>, Vec<f64>, f64), String> {
    let mut rows = Vec::new();
    let mut mag: f64 = 0.0;
    for h in [c.h, c.h / 2.0] {
        let mut hi = a.clone();
        hi.x[c.i] += h;
        let mut lo = a.clone();
        lo.x[c.i] -= h;
        let step = hi.x[c.i] - lo.x[c.i];
        let (_, g_hi) = guarded("f_grad", || (p.g)(&hi, 0.0))?;
        let (_, g_lo) = guarded("f_grad", || (p.g)(&lo, 0.0))?;
        let row: Vec<f64> = g_hi
            .iter()
            .zip(&g_lo)
            .map(|(r, l)| match (r, l) {
                (Some(r), Some(l)) => {
                    mag = mag.max(r.abs()).max(l.abs());
                    (r - l) / step
                }
                _ => 0.0,
            })
            .collect();
        rows.push(row);
    }
    let fine = rows.pop().expect("two steps");
    let coarse = rows.pop().expect("two steps");
    Ok((coarse, fine, mag))
}

/// Checks `f_jvp` and `f_hvp` at the accepted coordinates `coords` of point `a`.
pub fn check(p: &Prog, a: &Args, coords: &[Coord], fv: f64) -> Result<(), String> {
    let mut problems = String::new();
    let mut rows = Vec::new();
    for c in coords {
        let (value, tangent) = guarded("f_jvp", || (p.jv)(a, c.i))?;
        if value.to_bits() != fv.to_bits() {
            return Err(format!("value: f_jvp returns {value:?} but f returns {fv:?}"));
        }
        if (tangent - c.dual).abs() > dual_tol(tangent, c.dual, c)
            || (tangent - c.d2).abs() > fd_tol(tangent, c.d1, c.d2, c)
        {
            let _ = writeln!(
                problems,
                "  jvp along x[{}]: {tangent:e}, dual number {:e}, central difference {:e}",
                c.i, c.dual, c.d2
            );
        }
        let (value, row) = guarded("f_hvp", || (p.hv)(a, c.i))?;
        if value.to_bits() != fv.to_bits() {
            return Err(format!("value: f_hvp returns {value:?} but f returns {fv:?}"));
        }
        let (coarse, fine, mag) = gradient_differences(p, a, c)?;
        for (j, entry) in row.iter().enumerate() {
            let Some(h) = entry else { continue };
            let tol = 1e-5 * h.abs().max(fine[j].abs()).max(1.0)
                + 4.0 * (coarse[j] - fine[j]).abs()
                + 1e3 * f64::EPSILON * mag / c.h;
            if (h - fine[j]).abs() > tol {
                let _ = writeln!(
                    problems,
                    "  H[{}][{j}]: f_hvp {h:e}, central difference of f_grad {:e} (h: {:e}; tol {tol:e})",
                    c.i, fine[j], coarse[j]
                );
            }
        }
        rows.push((c.i, row));
    }
    for (i, row_i) in &rows {
        for (j, row_j) in &rows {
            if let (Some(Some(a)), Some(Some(b))) = (row_i.get(*j), row_j.get(*i))
                && (a - b).abs() > 1e-8 * a.abs().max(b.abs()).max(1.0)
            {
                let _ = writeln!(problems, "  H[{i}][{j}] {a:e} but H[{j}][{i}] {b:e}");
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("forward mode and second order:\n{problems}"))
    }
}
