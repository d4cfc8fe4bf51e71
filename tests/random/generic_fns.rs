//! Functions generic over their float (`fn gf<T: Float>(a0: T, w1: &[T]) -> T`, issue 25), as
//! numeric crates write them: some programs get one as their first function, which the others
//! call at `f64` (and the `f32` twin at `f32`), so the macro's generic flavours are called by
//! inference from its `f64` ones. Its body is drawn here, from its parameters, `+ - *`,
//! negation, smooth methods and literals (`T::from(0.5).unwrap()`); the `Trace` and `Value`
//! printings are the same body over `T` of the harness and `Value`. Drawn from a stream of
//! its own, so the programs without one are as they were. A term may add `T::epsilon()` (or
//! scale by `T::one() + T::epsilon()`), the machine epsilon of the type the function is called
//! at: `f32`'s in the twin, where `f64`'s would round away in `1 + ε`.

use super::*;
use std::rc::Rc;

/// The name of a program's generic function.
pub const NAME: &str = "gf";

/// The generic function of program `id` of the run seeded with `seed`, if it has one.
pub fn generic_fn(seed: u64, value_only: bool) -> Option<Func> {
    let mut rng = Rng::new(mix(seed ^ 0x4745_4E45_5249_4353));
    if !rng.chance(0.25) {
        return None;
    }
    let n = rng.range(1, 3) as usize;
    let params: Vec<Param> = (0..n)
        .map(|k| match rng.chance(0.7) {
            true => Param {
                name: format!("ga{k}"),
                kind: PKind::Scalar,
            },
            false => Param {
                name: format!("gw{k}"),
                kind: PKind::Slice(rng.range(1, 3) as usize),
            },
        })
        .collect();
    let depth = rng.range(1, 3) as usize;
    let tail = body(&mut rng, &params, depth, value_only);
    Some(Func {
        name: NAME.to_string(),
        params,
        wrt: None,
        body: Vec::new(),
        tail: Some(tail),
        out: None,
        jacobian: false,
        unit: None,
        hvp: true,
        generic: true,
        named_len: false,
    })
}

/// A parameter's value: a scalar, or an entry of a slice within its known length.
fn leaf(rng: &mut Rng, params: &[Param]) -> Expr {
    let q = rng.pick(params);
    match q.kind {
        PKind::Slice(len) => Expr::Index(q.name, IExpr::Lit(rng.range(0, len as i64 - 1)), true),
        _ => Expr::Var(q.name, true),
    }
}

fn body(rng: &mut Rng, params: &[Param], depth: usize, value_only: bool) -> Expr {
    if depth == 0 {
        return leaf(rng, params);
    }
    let d = depth - 1;
    match rng.weighted(&[2, 6, 1, 3, 2, 1]) {
        0 => leaf(rng, params),
        1 => {
            let op = rng.pick(&["+", "-", "*"]);
            let a = body(rng, params, d, value_only);
            let b = body(rng, params, d, value_only);
            Expr::Bin(op, Box::new(a), Box::new(b))
        }
        2 => Expr::Neg(Box::new(body(rng, params, d, value_only))),
        3 => {
            let m = match value_only {
                true => "tanh",
                false => rng.pick(&["tanh", "sin", "cos", "atan", "abs"]),
            };
            Expr::M1(m, Box::new(body(rng, params, d, value_only)))
        }
        5 => {
            // `e + T::epsilon()` or `e * (T::one() + T::epsilon())`.
            let e = body(rng, params, d, value_only);
            let eps = Expr::Ext(Rc::new(Epsilon));
            match rng.chance(0.5) {
                true => Expr::Bin("+", Box::new(e), Box::new(eps)),
                false => {
                    let factor = Expr::Bin("+", Box::new(Expr::Lit(1.0)), Box::new(eps));
                    Expr::Bin("*", Box::new(e), Box::new(factor))
                }
            }
        }
        _ => {
            // A literal only beside a parameter: `T::from(c).unwrap() * x`.
            let c = rng.pick(&[0.5, 1.5, 2.0, 0.25, -0.75, 3.0]);
            let op = rng.pick(&["+", "*", "-"]);
            let e = body(rng, params, d, value_only);
            Expr::Bin(op, Box::new(Expr::Lit(c)), Box::new(e))
        }
    }
}

/// `T::epsilon()` in the generic function; the `Trace` and `Value` printings write `f64`'s,
/// which the `f32` twin's printing turns into `f32::EPSILON`.
#[derive(Debug)]
struct Epsilon;

impl ExprNode for Epsilon {
    fn print(&self, p: &mut Printer, _typed: bool) -> String {
        match p.mode {
            Mode::Plain if p.generic => "T::epsilon()".to_string(),
            Mode::Plain => "f64::EPSILON".to_string(),
            Mode::Trace => "T::c(f64::EPSILON)".to_string(),
            Mode::Value => "Value::new(f64::EPSILON)".to_string(),
        }
    }

    fn has_stmts(&self) -> bool {
        false
    }

    fn anchored(&self) -> bool {
        true
    }
}
