//! Exits inside values (issue 11): `let v = if c { exit } else { e };`, and the same exit in a
//! `{ if c { exit; } e }` block, a `match` arm, and the middle of an `else if` chain, where
//! `exit` is a `return`, or a `break` / `continue` of the innermost loop of loop_exits.rs
//! (whose guard bounds the trip count whatever the body skips).

use super::loop_exits::innermost_exit;
use super::*;
use std::rc::Rc;

/// `let v = <a value with an exit on one path>;`
pub struct ExitValue;

#[derive(Debug)]
enum Exit {
    Return(Expr),
    Break,
    Continue,
}

#[derive(Debug)]
enum Shape {
    /// `if c { exit } else { e }`
    If,
    /// `{ if c { exit; } e }`
    Block,
    /// `match i { k => exit, _ => e }`
    Match(IExpr, usize),
    /// `if c { e2 } else if c2 { exit } else { e }`
    ElseIf(Cond, Expr),
}

#[derive(Debug)]
struct ExitValueNode {
    name: String,
    shape: Shape,
    cond: Cond,
    exit: Exit,
    value: Expr,
}

impl StmtConstruct for ExitValue {
    fn weight(&self, g: &Gen, level: usize) -> u32 {
        let returns = g.ret_ok && g.returns_left > 0;
        if level < 3 && (returns || innermost_exit(g).is_some()) {
            3
        } else {
            0
        }
    }

    fn generate(&self, g: &mut Gen, _: usize) -> Stmt {
        let mut exits = Vec::new();
        if g.ret_ok && g.returns_left > 0 {
            exits.push(0);
        }
        match innermost_exit(g) {
            Some(true) => exits.extend([1, 2]),
            Some(false) => exits.push(2),
            None => {}
        }
        // Drawn in the order they run, so that an array passed to a call in the condition is
        // not written after it in the exit (`Gen::frozen`), which the macro refuses.
        let d = g.rng.range(1, 3) as usize;
        let shape = match g.rng.below(4) {
            0 => Shape::If,
            1 => Shape::Block,
            2 => Shape::Match(g.usize_expr(1), g.rng.below(3)),
            _ => Shape::ElseIf(g.cond(2), g.expr(d)),
        };
        let cond = g.cond(2);
        let exit = match g.rng.pick(&exits) {
            0 => {
                g.returns_left -= 1;
                Exit::Return(g.ret_value(d))
            }
            1 => Exit::Break,
            _ => Exit::Continue,
        };
        let value = g.expr(d);
        let name = g.fresh("ev");
        g.scope().f.push(FVar {
            name: name.clone(),
            mutable: false,
            typed: false,
            outside: false,
        });
        Stmt::Ext(Rc::new(ExitValueNode {
            name,
            shape,
            cond,
            exit,
            value,
        }))
    }
}

impl StmtNode for ExitValueNode {
    fn print(&self, p: &mut Printer) {
        let name = p.name(&self.name);
        let exit = match &self.exit {
            Exit::Return(e) => format!("return {}", p.expr(e, false)),
            Exit::Break => "break".to_string(),
            Exit::Continue => "continue".to_string(),
        };
        let c = p.cond(&self.cond);
        let e = p.expr(&self.value, false);
        let value = match &self.shape {
            Shape::If => format!("if {c} {{ {exit} }} else {{ {e} }}"),
            Shape::Block => format!("{{ if {c} {{ {exit}; }} {e} }}"),
            Shape::Match(i, k) => format!("match {} {{ {k} => {exit}, _ => {e} }}", p.iexpr(i)),
            Shape::ElseIf(c2, e2) => {
                let (c2, e2) = (p.cond(c2), p.expr(e2, false));
                format!("if {c2} {{ {e2} }} else if {c} {{ {exit} }} else {{ {e} }}")
            }
        };
        p.line(&format!("let {name} = {value};"));
    }
}
