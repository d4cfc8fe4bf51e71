//! Loops of issue 11 written the way users write them: `while` over an integer counter the
//! body steps (`c += 1`, `c = c + 2`, or `c -= 1` counting down), possibly also ended by an
//! input-dependent condition, and `for` over the items of a slice (`for &x in w`,
//! `.iter().copied()`, `.enumerate()`, `.rev()`). Every loop ends within the slice's length or a
//! literal count of at most 4.

use super::*;
use std::rc::Rc;

/// `let mut c = 0; while c < n && cond { ..; c += s; }` or `let mut c = n; while c > 0 { c -= 1; .. }`.
pub struct CounterWhile;

/// `for &x in w`, `for (i, &x) in w.iter().enumerate()`, `for &x in w.iter().rev()`, ...
pub struct ItemLoop;

fn weight(g: &Gen, level: usize) -> u32 {
    if level < 3 && g.loops_left > 0 && g.loop_depth < 2 {
        4
    } else {
        0
    }
}

#[derive(Debug)]
struct CounterNode {
    counter: String,
    /// `w.len()` or a literal.
    bound: IExpr,
    /// `None` counts down from `bound`; `Some((step, spelled out))` counts up.
    up: Option<(usize, bool)>,
    cond: Option<Cond>,
    body: Vec<Stmt>,
}

#[derive(Debug)]
struct ItemNode {
    seq: String,
    /// Loops over `seq[from..]` when not zero, a sub-slice.
    from: usize,
    item: String,
    index: Option<String>,
    reversed: bool,
    copied: bool,
    body: Vec<Stmt>,
}

impl Gen<'_> {
    /// The exclusive bound of a counter: a slice's length or a literal count.
    fn counter_bound(&mut self) -> (IExpr, Bound) {
        let seqs = self.svars();
        if !seqs.is_empty() && self.rng.chance(0.6) {
            let s = self.rng.pick(&seqs);
            let bound = match s.exact {
                true => Bound::Const(s.len),
                false => Bound::Len(s.name.clone()),
            };
            return (IExpr::Len(s.name), bound);
        }
        let n = self.rng.range(0, 4);
        (IExpr::Lit(n), Bound::Const(n as usize))
    }

    /// A loop body in which `index` (if any) is a `usize` below `bound`, and `item` an `f64`.
    fn counted_body(&mut self, level: usize, index: Option<(&str, Bound)>, item: Option<&str>) -> Vec<Stmt> {
        self.loop_depth += 1;
        self.push();
        let depth = self.depth();
        if let Some((name, bound)) = index {
            let bound = Some(bound);
            let (name, ty, mutable) = (name.to_string(), ITy::Usize, false);
            self.scope().i.push(IVar { name, ty, bound, mutable, depth });
        }
        if let Some(name) = item {
            let (name, mutable, typed) = (name.to_string(), false, true);
            self.scope().f.push(FVar {
                name,
                mutable,
                typed,
                outside: false,
            });
        }
        let saved = self.enter_nested();
        let n = self.rng.range(1, 4) as usize;
        let body = self.stmts(n, level + 1);
        self.leave_nested(saved);
        self.pop();
        self.loop_depth -= 1;
        body
    }
}

impl StmtConstruct for CounterWhile {
    fn weight(&self, g: &Gen, level: usize) -> u32 {
        weight(g, level)
    }

    fn generate(&self, g: &mut Gen, level: usize) -> Stmt {
        // Taken first: the condition may hold a block with loops of its own.
        g.loops_left -= 1;
        let counter = g.fresh("c");
        let (bound, known) = g.counter_bound();
        let up = g.rng.chance(0.7).then(|| (g.rng.range(1, 2) as usize, g.rng.chance(0.3)));
        // The condition runs before each iteration, and may read what the body updates. It is
        // generated as the body is: an array declared outside the loop is not passed to a call
        // there, since a later iteration may change it after the call.
        g.loop_depth += 1;
        let cond = g.rng.chance(0.4).then(|| g.cond(1));
        g.loop_depth -= 1;
        let body = g.counted_body(level, Some((&counter, known)), None);
        // After the loop the counter is an integer like any other, which later code may update.
        let depth = g.depth();
        let (name, ty, bound_after) = (counter.clone(), ITy::Usize, None);
        g.scope().i.push(IVar { name, ty, bound: bound_after, mutable: true, depth });
        Stmt::Ext(Rc::new(CounterNode { counter, bound, up, cond, body }))
    }
}

impl StmtConstruct for ItemLoop {
    fn weight(&self, g: &Gen, level: usize) -> u32 {
        // Over slice parameters only: a local array may be written in the body, which a
        // borrowing iterator forbids.
        match g.svars().iter().any(|s| !s.local) {
            true => weight(g, level),
            false => 0,
        }
    }

    fn generate(&self, g: &mut Gen, level: usize) -> Stmt {
        g.loops_left -= 1;
        let seqs: Vec<SVar> = g.svars().into_iter().filter(|s| !s.local).collect();
        let seq = g.rng.pick(&seqs);
        let item = g.fresh("x");
        let index = g.rng.chance(0.4).then(|| g.fresh("i"));
        let (reversed, copied) = (g.rng.chance(0.3), g.rng.chance(0.3));
        let bound = Bound::Len(seq.name.clone());
        let body = g.counted_body(level, index.as_deref().map(|i| (i, bound)), Some(&item));
        // A sub-slice head (`&w[1..]`, `w[1..].iter()`) where `w` surely has the entries.
        let from = match seq.len > 0 && g.rng.chance(0.3) {
            true => g.rng.range(1, seq.len.min(2) as i64) as usize,
            false => 0,
        };
        let seq = seq.name;
        Stmt::Ext(Rc::new(ItemNode { seq, from, item, index, reversed, copied, body }))
    }
}

impl StmtNode for CounterNode {
    fn print(&self, p: &mut Printer) {
        let (c, bound) = (p.name(&self.counter), p.iexpr(&self.bound));
        let cond = match &self.cond {
            Some(cond) => format!(" && {}", p.cond(cond)),
            None => String::new(),
        };
        match self.up {
            Some((step, spelled)) => {
                p.line(&format!("let mut {c} = 0usize;"));
                p.line(&format!("while {c} < {bound}{cond} {{"));
                p.body(&self.body);
                p.indent += 1;
                match spelled {
                    true => p.line(&format!("{c} = {c} + {step};")),
                    false => p.line(&format!("{c} += {step};")),
                }
                p.indent -= 1;
            }
            None => {
                p.line(&format!("let mut {c} = {bound};"));
                p.line(&format!("while {c} > 0{cond} {{"));
                p.indent += 1;
                p.line(&format!("{c} -= 1;"));
                p.indent -= 1;
                p.body(&self.body);
            }
        }
        p.line("}");
    }
}

impl StmtNode for ItemNode {
    fn print(&self, p: &mut Printer) {
        let (seq, item) = (p.name(&self.seq), p.name(&self.item));
        // `Value` is not `Copy`: its loops bind references, which the body clones on use.
        let value = p.mode == Mode::Value;
        let item = match (value, self.copied) {
            (true, _) | (false, true) => item,
            (false, false) => format!("&{item}"),
        };
        let whole = seq.clone();
        let seq = match self.from {
            0 => seq,
            from => format!("{seq}[{from}..]"),
        };
        let mut chain = format!("{seq}.iter()");
        if self.copied && !value {
            chain.push_str(".copied()");
        }
        if self.reversed {
            chain.push_str(".rev()");
        }
        let head = match &self.index {
            Some(i) => format!("({}, {item}) in {chain}.enumerate()", p.name(i)),
            // An array taken by value yields `f64`s, not references: it keeps `.iter()`.
            None if chain == format!("{whole}.iter()") && !value && !p.by_value.contains(&self.seq) => {
                format!("{item} in {seq}")
            }
            None if chain == format!("{seq}.iter()") && !value && self.from > 0 => {
                format!("{item} in &{seq}")
            }
            None => format!("{item} in {chain}"),
        };
        p.line(&format!("for {head} {{"));
        p.body(&self.body);
        p.line("}");
    }
}
