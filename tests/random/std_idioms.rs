//! What std defines through other functions (`sin_cos`, `to_radians`, `to_degrees`, `log`,
//! `copysign`, `fract`), the tests of a float's class deciding a branch (`is_finite`, ...), and
//! paths to methods of `f64` where `map` and `fold` take closures (`.map(f64::exp)`,
//! `.fold(init, f64::max)`). `Value` has none of them: never in its programs. The dual number's
//! side is tests/random/harness_std.rs.

use super::*;
use std::rc::Rc;

/// `x.to_radians()`, `x.to_degrees()`, `x.fract()`, `a.copysign(b)`, `a.log(b)`, and
/// `x.sin_cos().k`.
pub struct StdMethod;

/// `if x.is_finite() { a } else { b }`, or another class test, maybe negated.
pub struct ClassTest;

/// `w.iter().copied().map(f64::tanh).sum::<f64>()` or `w.iter().copied().fold(c, f64::max)`.
pub struct PathStep;

#[derive(Debug)]
struct SinCos {
    arg: Expr,
    k: usize,
}

#[derive(Debug)]
struct Class {
    test: &'static str,
    negated: bool,
    arg: Expr,
    then: Expr,
    otherwise: Expr,
}

#[derive(Debug)]
struct Step {
    seq: String,
    /// `fold`'s first value; a `map` into `sum` without one.
    init: Option<f64>,
    method: &'static str,
    cloned: bool,
}

impl ExprConstruct for StdMethod {
    fn weight(&self, g: &Gen) -> u32 {
        if g.value_only { 0 } else { 3 }
    }

    fn generate(&self, g: &mut Gen, depth: usize) -> Expr {
        let e = g.expr(depth.saturating_sub(1));
        match g.rng.below(6) {
            0 => Expr::M1("to_radians", Box::new(e)),
            // Kept moderate: 180 / π times a squashed value.
            1 => Expr::M1("to_degrees", Box::new(Expr::M1("tanh", Box::new(e)))),
            2 => Expr::M1("fract", Box::new(e)),
            3 => {
                let sign = g.expr(depth.saturating_sub(1));
                Expr::M2("copysign", Box::new(e), Box::new(sign))
            }
            4 => {
                // A base away from the pole at 1.
                let base = g.expr(depth.saturating_sub(1));
                let base = Expr::Bin("+", Box::new(g.positive(base)), Box::new(Expr::Lit(1.25)));
                Expr::M2("log", Box::new(g.positive(e)), Box::new(base))
            }
            _ => Expr::Ext(Rc::new(SinCos {
                arg: e,
                k: g.rng.below(2),
            })),
        }
    }
}

impl ExprNode for SinCos {
    fn print(&self, p: &mut Printer, _typed: bool) -> String {
        let typed = anchored(&self.arg);
        let arg = p.expr(&self.arg, !typed);
        match p.mode {
            Mode::Plain if !typed => format!("f64::sin_cos({arg}).{}", self.k),
            _ => format!("{}.sin_cos().{}", paren(&arg), self.k),
        }
    }

    fn has_stmts(&self) -> bool {
        has_stmts(&self.arg)
    }

    fn anchored(&self) -> bool {
        true
    }
}

impl ExprConstruct for ClassTest {
    fn weight(&self, g: &Gen) -> u32 {
        if g.value_only { 0 } else { 2 }
    }

    fn generate(&self, g: &mut Gen, depth: usize) -> Expr {
        let tests = [
            "is_nan",
            "is_finite",
            "is_infinite",
            "is_sign_negative",
            "is_sign_positive",
        ];
        let test = g.rng.pick(&tests);
        let negated = g.rng.chance(0.3);
        let d = depth.saturating_sub(1);
        let (arg, then, otherwise) = (g.expr(d), g.expr(d), g.expr(d));
        Expr::Ext(Rc::new(Class {
            test,
            negated,
            arg,
            then,
            otherwise,
        }))
    }
}

impl ExprNode for Class {
    fn print(&self, p: &mut Printer, typed: bool) -> String {
        let anchored_arg = anchored(&self.arg);
        let arg = p.expr(&self.arg, !anchored_arg);
        let test = match p.mode {
            Mode::Plain if !anchored_arg => format!("f64::{}({arg})", self.test),
            _ => format!("{}.{}()", paren(&arg), self.test),
        };
        let not = if self.negated { "!" } else { "" };
        let (then, otherwise) = (p.expr(&self.then, typed), p.expr(&self.otherwise, typed));
        format!("(if {not}{test} {{ {then} }} else {{ {otherwise} }})")
    }

    fn has_stmts(&self) -> bool {
        true
    }

    fn anchored(&self) -> bool {
        anchored(&self.then) || anchored(&self.otherwise)
    }
}

impl ExprConstruct for PathStep {
    fn weight(&self, g: &Gen) -> u32 {
        if g.value_only || g.svars().is_empty() { 0 } else { 2 }
    }

    fn generate(&self, g: &mut Gen, _depth: usize) -> Expr {
        let seq = g.rng.pick(&g.svars()).name;
        let cloned = g.rng.chance(0.3);
        let (init, method) = if g.rng.chance(0.5) {
            let method = g.rng.pick(&["tanh", "sin", "cos", "atan", "abs", "to_radians"]);
            (None, method)
        } else {
            (Some(g.literal()), g.rng.pick(&["max", "min", "hypot"]))
        };
        Expr::Ext(Rc::new(Step {
            seq,
            init,
            method,
            cloned,
        }))
    }
}

impl ExprNode for Step {
    fn print(&self, p: &mut Printer, _typed: bool) -> String {
        let seq = p.name(&self.seq);
        let copy = if self.cloned { "cloned" } else { "copied" };
        let path = format!("{}::{}", p.ty(), self.method);
        let head = format!("{seq}.iter().{copy}()");
        match (self.init, p.mode) {
            (Some(init), _) => format!("{head}.fold({}, {path})", p.float(init, true)),
            (None, Mode::Plain) => format!("{head}.map({path}).sum::<f64>()"),
            // `T` has no `Sum`: the same sum from -0.0, as `f64`'s.
            (None, _) => format!("{head}.map({path}).fold({}, |a, b| a + b)", p.float(-0.0, true)),
        }
    }

    fn has_stmts(&self) -> bool {
        false
    }

    fn anchored(&self) -> bool {
        true
    }
}
