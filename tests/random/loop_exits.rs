//! `while` and `loop` with `break`, `break value`, `continue` and labelled exits (issue 11),
//! with trip counts that depend on the inputs. Every loop counts its iterations in an `f64`
//! guard tested before anything else in an iteration (`while g < L && c`, or
//! `loop { g += 1.0; if g > L || c { break value; } .. }`), so it ends within `L <= 4`
//! iterations whatever the data, and an input-dependent condition `c` may end it sooner.

use super::*;
use std::cell::RefCell;
use std::rc::Rc;

thread_local! {
    /// The enclosing loops of this file, innermost last: their labels, whether their value is
    /// bound (then a `break` must carry one, so the generator writes none to them), how many
    /// expression blocks enclosed their body (an exit leaves none), and the loop depth of
    /// their body.
    static LABELS: RefCell<Vec<(String, bool, usize, usize)>> = const { RefCell::new(Vec::new()) };
}

/// `while g < L && cond { .. }` or `loop { g += 1.0; if g > L || cond { break; } .. }`.
pub struct WhileLoop;

/// `let v = loop { g += 1.0; if g > L || cond { break value; } .. };`
pub struct LoopValue;

fn weight(g: &Gen, level: usize) -> u32 {
    if level < 3 && g.loops_left > 0 && g.loop_depth < 2 {
        5
    } else {
        0
    }
}

/// What ends or skips the rest of an iteration.
#[derive(Debug)]
enum Exit {
    Break(Option<String>),
    Continue(Option<String>),
}

#[derive(Debug)]
enum Form {
    While(Cond),
    /// `loop`, left by `if g > L || cond { break value; }` at the start of its body.
    Loop(Cond, Option<(String, Expr)>),
}

#[derive(Debug)]
struct LoopNode {
    label: Option<String>,
    guard: String,
    limit: usize,
    form: Form,
    body: Vec<Stmt>,
}

#[derive(Debug)]
struct ExitNode {
    cond: Cond,
    exit: Exit,
    /// Written inside a plain `{ .. }` block, which the exit crosses.
    block: bool,
}

impl Gen<'_> {
    /// The body of a loop of this file: statements with exits among them.
    fn exit_body(&mut self, level: usize, label: &Option<String>, value: bool) -> Vec<Stmt> {
        self.loop_depth += 1;
        self.push();
        let label = label.clone().unwrap_or_default();
        let entry = (label, value, self.expr_blocks, self.loop_depth);
        LABELS.with(|l| l.borrow_mut().push(entry));
        let n = self.rng.range(1, 4) as usize;
        let mut body = Vec::new();
        for _ in 0..n {
            if self.rng.chance(0.3) {
                body.push(self.exit_stmt());
            }
            let stmt = self.stmt(level + 1);
            let is_return = diverges(&stmt);
            body.push(stmt);
            if is_return {
                break;
            }
        }
        LABELS.with(|l| l.borrow_mut().pop());
        self.pop();
        self.loop_depth -= 1;
        body
    }

    /// `if cond { break; }`, `continue`, or either to an enclosing labelled loop.
    fn exit_stmt(&mut self) -> Stmt {
        let here = self.expr_blocks;
        let (outer, own_value) = LABELS.with(|l| {
            let labels = l.borrow();
            let inner = labels.len().saturating_sub(1);
            let outer: Vec<(String, bool)> = labels[..inner]
                .iter()
                .filter(|(l, _, blocks, _)| !l.is_empty() && *blocks == here)
                .map(|(l, v, _, _)| (l.clone(), *v))
                .collect();
            (outer, labels.get(inner).is_some_and(|(_, v, _, _)| *v))
        });
        let target = (!outer.is_empty() && self.rng.chance(0.4)).then(|| self.rng.pick(&outer));
        let breaks = self.rng.chance(0.5);
        let exit = match target {
            Some((label, false)) if breaks => Exit::Break(Some(label)),
            Some((label, _)) => Exit::Continue(Some(label)),
            None if breaks && !own_value => Exit::Break(None),
            None => Exit::Continue(None),
        };
        let cond = self.cond(2);
        let block = self.rng.chance(0.25);
        Stmt::Ext(Rc::new(ExitNode { cond, exit, block }))
    }

    fn exit_loop(&mut self, level: usize, value: bool) -> (LoopNode, Option<String>) {
        self.loops_left -= 1;
        let label = self.rng.chance(0.4).then(|| self.fresh("'l"));
        let guard = self.fresh("g");
        let limit = self.rng.range(1, 5) as usize;
        // The condition and the value run in every iteration: generated as the body is (an
        // array declared outside the loop is not passed to a call there).
        self.loop_depth += 1;
        let cond = self.cond(2);
        let result = value.then(|| {
            let d = self.rng.range(1, 3) as usize;
            (self.fresh("v"), self.expr(d))
        });
        self.loop_depth -= 1;
        // A `return` cannot leave a loop whose value is bound (`let v = loop { .. }`).
        let saved = value.then(|| self.enter_nested());
        let body = self.exit_body(level, &label, value);
        if let Some(saved) = saved {
            self.leave_nested(saved);
        }
        let (form, name) = if value || self.rng.chance(0.4) {
            let name = result.as_ref().map(|(n, _)| n.clone());
            (Form::Loop(cond, result), name)
        } else {
            (Form::While(cond), None)
        };
        let node = LoopNode {
            label,
            guard,
            limit,
            form,
            body,
        };
        (node, name)
    }
}

impl StmtConstruct for WhileLoop {
    fn weight(&self, g: &Gen, level: usize) -> u32 {
        weight(g, level)
    }

    fn generate(&self, g: &mut Gen, level: usize) -> Stmt {
        Stmt::Ext(Rc::new(g.exit_loop(level, false).0))
    }
}

impl StmtConstruct for LoopValue {
    fn weight(&self, g: &Gen, level: usize) -> u32 {
        weight(g, level) / 2
    }

    fn generate(&self, g: &mut Gen, level: usize) -> Stmt {
        let (node, name) = g.exit_loop(level, true);
        if let Some(name) = name {
            g.scope().f.push(FVar {
                name,
                mutable: false,
                typed: false,
                outside: false,
            });
        }
        Stmt::Ext(Rc::new(node))
    }
}

impl StmtNode for ExitNode {
    fn print(&self, p: &mut Printer) {
        let c = p.cond(&self.cond);
        let (word, label) = match &self.exit {
            Exit::Break(l) => ("break", l),
            Exit::Continue(l) => ("continue", l),
        };
        let label = label.as_deref().map(|l| format!(" {l}")).unwrap_or_default();
        let exit = format!("if {c} {{ {word}{label}; }}");
        match self.block {
            true => p.line(&format!("{{ {exit} }}")),
            false => p.line(&exit),
        }
    }
}

impl StmtNode for LoopNode {
    fn print(&self, p: &mut Printer) {
        // Names go through the program's renaming (tests/random/hygiene.rs), as every name does.
        let (g, limit) = (p.name(&self.guard), self.limit);
        let label = self
            .label
            .as_deref()
            .map(|l| format!("{l}: "))
            .unwrap_or_default();
        p.line(&format!("let mut {g} = 0.0_f64;"));
        match &self.form {
            Form::While(cond) => {
                let c = p.cond(cond);
                p.line(&format!("{label}while {g} < {limit}.0 && {c} {{"));
                p.indent += 1;
                p.line(&format!("{g} += 1.0;"));
                p.indent -= 1;
                p.body(&self.body);
                p.line("}");
            }
            Form::Loop(cond, value) => {
                let c = p.cond(cond);
                let (bind, value, end) = match value {
                    Some((name, e)) => {
                        let name = p.name(name);
                        (format!("let {name} = "), format!(" {}", p.expr(e, false)), ";")
                    }
                    None => (String::new(), String::new(), ""),
                };
                // The test comes first, so that no `continue` can skip it.
                p.line(&format!("{bind}{label}loop {{"));
                p.indent += 1;
                p.line(&format!("{g} += 1.0;"));
                p.line(&format!("if {g} > {limit}.0 || {c} {{ break{value}; }}"));
                p.indent -= 1;
                p.body(&self.body);
                p.line(&format!("}}{end}"));
            }
        }
    }
}

/// Whether a `break` or `continue` written here leaves the innermost loop, a loop of this
/// file (whose guard no `continue` skips), without crossing an expression block: `None` if
/// not, else whether a plain `break` may (its value is not bound).
pub fn innermost_exit(g: &Gen) -> Option<bool> {
    LABELS.with(|l| {
        let labels = l.borrow();
        let (_, value, blocks, depth) = labels.last()?;
        (*blocks == g.expr_blocks && *depth == g.loop_depth).then_some(!*value)
    })
}
