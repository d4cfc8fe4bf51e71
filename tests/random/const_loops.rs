//! `for w in W1 { s += w * (e); }` (or `W1.iter()`): a loop over the items of a `const` array
//! the function cannot see (tail_draws.rs's `const W1: [f64; 3]`), whose items the macro types
//! by their use (session 14's const arrays read as data). The `Trace` and `Value` printings
//! loop over the array's values written out, so the references never depend on how the macro
//! reads the item.

use super::tail_draws::{ARRAY, outside_drawn};
use super::*;
use std::rc::Rc;

/// A sum over the items of `W1` into a new `f64`.
pub struct ConstLoop;

#[derive(Debug)]
struct ConstLoopNode {
    /// The sum it defines and the loop's item.
    name: String,
    item: String,
    /// `for w in W1.iter()` (items `&f64`) rather than `for w in W1`.
    by_ref: bool,
    /// The sum's start and the factor of each item.
    start: Expr,
    term: Expr,
}

impl StmtConstruct for ConstLoop {
    fn weight(&self, g: &Gen, level: usize) -> u32 {
        if outside_drawn() && level < 3 && g.loops_left > 0 {
            2
        } else {
            0
        }
    }

    fn generate(&self, g: &mut Gen, _level: usize) -> Stmt {
        g.loops_left -= 1;
        let by_ref = g.rng.chance(0.3);
        let start = g.leaf();
        // Drawn as a loop body is: no `return`, nothing a loop refuses (`collect`), no local
        // array of the enclosing code passed to a call.
        g.loop_depth += 1;
        let saved = g.enter_nested();
        let term = g.expr(1);
        g.leave_nested(saved);
        g.loop_depth -= 1;
        let (name, item) = (g.fresh("ws"), g.fresh("w"));
        g.scope().f.push(FVar {
            name: name.clone(),
            mutable: true,
            typed: false,
            outside: false,
        });
        Stmt::Ext(Rc::new(ConstLoopNode {
            name,
            item,
            by_ref,
            start,
            term,
        }))
    }
}

impl StmtNode for ConstLoopNode {
    fn print(&self, p: &mut Printer) {
        let (name, item) = (p.name(&self.name), p.name(&self.item));
        let start = p.expr(&self.start, false);
        let term = p.expr(&self.term, false);
        p.line(&format!("let mut {name} = {start};"));
        match p.mode {
            Mode::Plain => {
                let items = if self.by_ref { "W1.iter()" } else { "W1" };
                p.line(&format!("for {item} in {items} {{"));
                p.line(&format!("    {name} += {item} * ({term});"));
            }
            Mode::Trace => {
                let values: Vec<String> = ARRAY.iter().map(|&v| p.float(v, false)).collect();
                p.line(&format!("for {item} in [{}] {{", values.join(", ")));
                p.line(&format!("    {name} = {name} + {item} * ({term});"));
            }
            Mode::Value => {
                let values: Vec<String> = ARRAY.iter().map(|&v| p.float(v, false)).collect();
                p.line(&format!("for {item} in [{}] {{", values.join(", ")));
                p.line(&format!("    {name} = {name}.clone() + {item} * ({term});"));
            }
        }
        p.line("}");
    }
}
