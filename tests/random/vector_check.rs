//! Entries returning several values (tests/random/vec_calls.rs) in the checking crate, copied
//! there as `src/vector.rs`.
//!
//! The scalar checks of harness.rs and second_order.rs see `seed · f` (tests/random/outputs.rs):
//! `f_pullback` with the seed against its central differences, dual numbers and the `Value`
//! engine, the seeded `f_hvp` against central differences of that `f_pullback`. Here, at each
//! accepted coordinate `i` (the stencil is smooth for every output: the trace records them
//! all), each output `k` on its own:
//! - `f_jvp` along `eᵢ` returns `f`'s outputs bit for bit and the column `J eᵢ`, each entry
//!   against output `k`'s dual number (exact) and central difference;
//! - `f_jacobian` (when asked for) returns `f`'s outputs bit for bit, and its row `k`'s entry `i`
//!   against the same references.

use crate::rt::*;
use std::fmt::Write as _;

/// The adapters of an entry returning several values: the outputs, their dual numbers along
/// one coordinate, `f_jvp` along the unit vector of one coordinate, and `f_jacobian` (value and
/// rows, each in the layout of `Prog::g`).
pub struct Vector {
    pub f: fn(&Args) -> Vec<f64>,
    pub t: fn(&Args, usize) -> Vec<T>,
    pub jv: fn(&Args, usize) -> (Vec<f64>, Vec<f64>),
    pub jac: Option<fn(&Args) -> (Vec<f64>, Vec<Vec<Option<f64>>>)>,
}

/// Whether `a` and `b` are the same values bit for bit.
fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a.to_bits() == b.to_bits())
}

/// Checks each output of `p` at the accepted coordinates `coords` of point `a`.
pub fn check(p: &Prog, a: &Args, coords: &[Coord]) -> Result<(), String> {
    let Some(v) = &p.vector else {
        return Ok(());
    };
    let fv = guarded("f", || (v.f)(a))?;
    let jacobian = match v.jac {
        Some(jac) => {
            let (value, rows) = guarded("f_jacobian", || jac(a))?;
            if !same(&value, &fv) {
                return Err(format!("value: f_jacobian returns {value:?} but f returns {fv:?}"));
            }
            if rows.len() != fv.len() || rows.iter().any(|row| row.len() != a.x.len()) {
                return Err("harness: f_jacobian's rows are not one per output and coordinate".into());
            }
            Some(rows)
        }
        None => None,
    };
    let mut problems = String::new();
    for c in coords {
        let duals: Vec<f64> = guarded("the T version", || (v.t)(a, c.i))?
            .iter()
            .map(|t| t.d)
            .collect();
        // Each output's central differences with steps h and h/2.
        let (mut at, xs) = (Vec::new(), stencil(a.x[c.i], c.h));
        for x in xs {
            let mut b = a.clone();
            b.x[c.i] = x;
            at.push(guarded("f", || (v.f)(&b))?);
        }
        let difference = |k: usize, lo: usize| (at[lo][k] - at[lo + 1][k]) / (xs[lo] - xs[lo + 1]);
        let (value, tangent) = guarded("f_jvp", || (v.jv)(a, c.i))?;
        if !same(&value, &fv) {
            return Err(format!("value: f_jvp returns {value:?} but f returns {fv:?}"));
        }
        for k in 0..fv.len() {
            let (d1, d2) = (difference(k, 0), difference(k, 2));
            let mut entries = vec![("f_jvp", tangent[k])];
            if let Some(rows) = &jacobian {
                entries.push(("f_jacobian", rows[k][c.i].expect("a differentiated coordinate")));
            }
            for (flavor, x) in entries {
                let (fd_ok, dual_ok) = (
                    (x - d2).abs() <= fd_tol(x, d1, d2, c),
                    (x - duals[k]).abs() <= dual_tol(x, duals[k], c),
                );
                if !fd_ok || !dual_ok {
                    let _ = writeln!(
                        problems,
                        "  d output {k} / dx[{}]: {flavor} {x:e}, central difference {d2:e} (h: {d1:e}){}, dual number {:e}{}",
                        c.i,
                        if fd_ok { "" } else { " MISMATCH" },
                        duals[k],
                        if dual_ok { "" } else { " MISMATCH" },
                    );
                }
            }
        }
    }
    match problems.is_empty() {
        true => Ok(()),
        false => Err(format!("outputs one by one (seed · f passed):\n{problems}")),
    }
}
