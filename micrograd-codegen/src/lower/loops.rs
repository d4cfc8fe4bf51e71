//! Loops: `for`, `while` and `loop` all lower into one [`Loop`]. Each `f64` the body updates
//! lives in a slot across iterations; exits ([`exits`](super::exits)) end the body with a
//! flag that leaves the loop.
//!
//! Before: `while y >= 0.0 { y += v * dt; v -= g * dt; }`
//! After: `let mut y_1 = y; let mut v_1 = v; while y_1 >= 0.0 { let y_2 = y_1 + v_1 * dt; ..;
//! y_1 = y_2; v_1 = v_2; }`

use super::desugar::Facts;
use super::exits::{EXIT, Frame, value_key};
use super::expr::Value;
use super::{Lowerer, scan};
use crate::ir::{Carried, Cond, IntExpr, Loop, LoopKind, Operand, Stmt, Ty, VarId};
use proc_macro2::Span;
use scan::Escape;
use syn::spanned::Spanned;
use syn::{Expr, Pat};

/// How many times a source loop runs, before its body is lowered.
enum Form<'s> {
    /// `for index in start..end` (or `..=`).
    Range {
        index: Option<(String, Span)>,
        start: IntExpr,
        // Boxed: an `IntExpr` holds an `Extern` (clippy's `large_enum_variant`).
        end: Box<IntExpr>,
        inclusive: bool,
    },
    /// `while cond`.
    While(&'s Expr),
    /// `loop`.
    Forever,
}

/// A source loop: its label, where it was written, its form and its body.
struct Source<'s> {
    label: Option<String>,
    span: Span,
    form: Form<'s>,
    body: &'s syn::Block,
    /// What its syntax says: its exits, the names it carries (`desugar.rs`).
    facts: Facts,
}

impl Lowerer<'_> {
    /// Lowers `for i in a..b { .. }`: the desugaring pass (`desugar.rs`) rewrote every other
    /// `for` it knows into one, and left a refusal or the sequences to bind first.
    pub(super) fn for_loop(&mut self, for_loop: &syn::ExprForLoop) {
        let facts = self.loop_facts(&for_loop.attrs, || Expr::ForLoop(for_loop.clone()));
        let hoisted = match &facts.rewrite {
            Some(super::desugar::Loop::Refused(span, message)) => {
                return self.errors.at(*span, *message);
            }
            Some(super::desugar::Loop::Hoisted(hoisted)) => hoisted.clone(),
            None => Vec::new(),
        };
        // The array literals and sub-slices the loop runs over live under minted names for the
        // loop only: afterwards each name means what it meant before.
        let mut shadowed = Vec::new();
        let mut hoisted_all = true;
        for (name, items) in &hoisted {
            let name = name.to_string();
            shadowed.push((
                name.clone(),
                self.scopes.last().and_then(|s| s.get(&name)).copied(),
            ));
            match self.items(items) {
                Some(Value::Seq(view)) if view.is_whole() => self.bind(&name, view.base),
                Some(value @ (Value::Seq(_) | Value::Data(..))) => {
                    let var = self.alias_var(&name, value, items.span());
                    self.bind(&name, var);
                }
                Some(_) => hoisted_all = false,
                None => return,
            }
        }
        if hoisted_all && let Some(form) = self.range_form(for_loop) {
            let source = Source {
                label: label(&for_loop.label),
                span: for_loop.for_token.span,
                form,
                body: &for_loop.body,
                facts,
            };
            self.lower_loop(source, false);
        }
        for (name, before) in shadowed {
            if let Some(scope) = self.scopes.last_mut() {
                match before {
                    Some(binding) => scope.insert(name, binding),
                    None => scope.remove(&name),
                };
            }
        }
    }

    /// What a `for` runs over, evaluated before it: an array literal or a sub-slice; `None`
    /// after reporting an array literal of integers.
    fn items(&mut self, items: &Expr) -> Option<Value> {
        match items {
            Expr::Array(array) => {
                if let Some(Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(int),
                    ..
                })) = array.elems.first()
                {
                    self.errors.at(int.span(), "`for` runs over an array literal of `f64`s; for integers, loop over a range and compute each one: `for k in 0..3 { let n = k + 1; .. }`");
                    return None;
                }
                Some(self.array_literal(array, None))
            }
            Expr::Index(index) if matches!(&*index.index, Expr::Range(_)) => {
                Some(self.sub_slice(index))
            }
            // A row of data or of rows, `for x in &rows[i]`: its place, or its view.
            Expr::Index(_) => match self.expr(items) {
                value @ (Value::Data(..) | Value::Seq(_) | Value::Error) => Some(value),
                _ => {
                    self.errors.at(items.span(), "`for` runs over slices, arrays and rows of data (`for x in &rows[i]`), but this is one value");
                    None
                }
            },
            _ => Some(Value::Error),
        }
    }

    /// Lowers `while cond { .. }`.
    pub(super) fn while_loop(&mut self, the_loop: &syn::ExprWhile) {
        let source = Source {
            label: label(&the_loop.label),
            span: the_loop.while_token.span,
            form: Form::While(&the_loop.cond),
            body: &the_loop.body,
            facts: self.loop_facts(&the_loop.attrs, || Expr::While(the_loop.clone())),
        };
        self.lower_loop(source, false);
    }

    /// Lowers `loop { .. }`; with `value`, returns what its `break value`s carry out.
    pub(super) fn forever(&mut self, the_loop: &syn::ExprLoop, value: bool) -> Option<Operand> {
        let source = Source {
            label: label(&the_loop.label),
            span: the_loop.loop_token.span,
            form: Form::Forever,
            body: &the_loop.body,
            facts: self.loop_facts(&the_loop.attrs, || Expr::Loop(the_loop.clone())),
        };
        self.lower_loop(source, value)
    }

    /// The one lowering of every loop form: slots for what the body updates, the header, the
    /// body with its exits, and the flags that carry exits to enclosing loops.
    fn lower_loop(&mut self, source: Source, value: bool) -> Option<Operand> {
        let escapes = source.facts.exits.clone();
        let own = |l: &Option<String>| l.is_none() || *l == source.label;
        let forwarded: Vec<Escape> = escapes
            .iter()
            .filter(|e| !matches!(e, Escape::Break(l) | Escape::Continue(l) if own(l)))
            .cloned()
            .collect();
        let prepared = std::mem::take(&mut self.exits_prepared);
        if !forwarded.is_empty() && !prepared {
            self.errors.at(source.span, "a `return` or a labelled `break` / `continue` leaves this loop, which is supported when the loop is a statement of its own or the whole value of a `let`: `let v = loop { .. };`");
            return None;
        }
        let exits = escapes
            .iter()
            .any(|e| !matches!(e, Escape::Continue(l) if own(l)));
        let key = value_key(self.frames.len());
        if value {
            let zero = self.hidden_value(Operand::Const(0.0), source.span);
            self.bind(&key, zero);
        }
        let mut hidden = self.prepare_escapes(&forwarded, source.span);
        hidden.extend(value.then(|| key.clone()));
        // What the condition assigns (in a block or after `&&`) is carried too.
        let mut slots = self.open_slots(&source.facts.carried, &hidden);
        self.loops += 1;
        let (kind, body, exit) = self.loop_body(&source, exits);
        self.loops -= 1;
        let carried = self.close_slots(std::mem::take(&mut slots));
        let result = value.then(|| self.lookup(&key)).flatten();
        let count = (exits || !matches!(kind, LoopKind::Range { .. }))
            .then(|| self.named("trips", Ty::Int, source.span));
        let id = self.loop_id();
        self.emit(Stmt::Loop(Box::new(Loop {
            id,
            span: source.span,
            kind,
            body,
            carried,
            exit,
            count,
        })));
        result.map(|b| Operand::Var(b.var))
    }

    /// The header and body of a loop whose slots are open; `exits` when a path leaves it.
    fn loop_body(
        &mut self,
        source: &Source,
        exits: bool,
    ) -> (LoopKind, crate::ir::Block, Option<VarId>) {
        let (body, (index, (head, cond), exit)) = self.capture(|this| {
            this.in_scope(|this| {
                let index = match &source.form {
                    Form::Range {
                        index: Some((name, span)),
                        ..
                    } => {
                        let var = this.named(name, Ty::Int, *span);
                        this.bind(name, var);
                        Some(var)
                    }
                    _ => None,
                };
                let (head, cond) = match &source.form {
                    Form::While(cond) => this.capture(|this| this.cond(cond)),
                    _ => (Vec::new(), Cond::Lit(true)),
                };
                // A condition that only computes its operands stays the loop's own; one that
                // updates variables (`&&` with assignments) runs first in the body, which the
                // loop leaves when it fails, so that the reverse sweep sees the updates.
                let inline = !head.iter().all(computes_only);
                let exits = exits || inline;
                if exits {
                    let no = this.bool_const(false);
                    this.bind(EXIT, no);
                }
                let frame = Frame {
                    label: source.label.clone(),
                    depth: this.scopes.len(),
                };
                this.frames.push(frame);
                let header = if inline {
                    this.condition_in_body(head, cond, source)
                } else {
                    this.exit_sequence(&source.body.stmts, &Vec::new());
                    (head, cond)
                };
                this.frames.pop();
                let exit = exits.then(|| this.lookup(EXIT)).flatten().map(|b| b.var);
                (index, header, exit)
            })
        });
        let kind = match &source.form {
            Form::Range {
                start,
                end,
                inclusive,
                ..
            } => LoopKind::Range {
                index,
                start: start.clone(),
                end: (**end).clone(),
                inclusive: *inclusive,
            },
            Form::While(_) | Form::Forever => LoopKind::While { head, cond },
        };
        (kind, body, exit)
    }

    /// `while cond { body }` as `loop { ..cond's statements; if !cond { break; } body }`.
    fn condition_in_body(
        &mut self,
        head: crate::ir::Block,
        cond: Cond,
        source: &Source,
    ) -> (crate::ir::Block, Cond) {
        head.into_iter().for_each(|stmt| self.emit(stmt));
        let stmts = &source.body.stmts;
        self.split(
            Cond::Not(Box::new(cond)),
            source.span,
            &mut |this| this.leave_loop(),
            &mut |this| this.exit_sequence(stmts, &Vec::new()),
        );
        (Vec::new(), Cond::Lit(true))
    }

    /// The range and loop variable of a `for`, or `None` after reporting what is unsupported.
    fn range_form<'s>(&mut self, for_loop: &syn::ExprForLoop) -> Option<Form<'s>> {
        let Expr::Range(range) = &*for_loop.expr else {
            self.errors.at(
                for_loop.expr.span(),
                "`for` runs over an integer range (`a..b`, `a..=b`, `(a..b).rev()`, `(a..b).step_by(k)`) or the items of a slice, array, view or sub-slice (`w`, `&w[a..b]`, `w.iter()`, `.copied()`, `.enumerate()`, `.zip(x)`, `.rev()`, `.step_by(k)`, `.chunks(k)`, `.chunks_exact(k)`, `.windows(k)`); for another iterator chain, loop over the indices and compute each item in the body: `for i in 0..w.len() { let v = w[i] * 2.0; .. }`",
            );
            return None;
        };
        let (Some(start), Some(end)) = (&range.start, &range.end) else {
            self.errors.at(
                range.span(),
                "give the range both bounds: `a..b` or `a..=b`",
            );
            return None;
        };
        let (start, end) = (self.int_operand(start)?, self.int_operand(end)?);
        let inclusive = matches!(range.limits, syn::RangeLimits::Closed(_));
        let index = match &*for_loop.pat {
            Pat::Ident(ident) => Some((ident.ident.to_string(), ident.ident.span())),
            Pat::Wild(_) => None,
            other => {
                self.errors
                    .at(other.span(), "the loop variable is a name or `_`");
                return None;
            }
        };
        Some(Form::Range {
            index,
            start,
            end: Box::new(end),
            inclusive,
        })
    }

    /// Gives each scalar (`f64`, integer, boolean) the loop body updates a slot, and each of `hidden` (the flags and
    /// values exits carry out) one: the body reads the slot.
    fn open_slots(
        &mut self,
        carried: &std::collections::BTreeSet<String>,
        hidden: &[String],
    ) -> Vec<(String, VarId, Operand)> {
        let mut slots = Vec::new();
        for name in carried.iter().cloned().chain(hidden.iter().cloned()) {
            let Some(binding) = self.lookup(&name) else {
                continue;
            };
            let ty = self.ty(binding.var).clone();
            let is_hidden = hidden.contains(&name);
            // Integers and booleans get slots too: a counter the body steps (`i += 1`) holds
            // one value per iteration, which the reversed iteration reads back.
            if !matches!(ty, Ty::F64 | Ty::Int | Ty::Bool) && !is_hidden {
                continue;
            }
            let span = self.vars[binding.var.0 as usize].span;
            // The value of `break value` and the one `return` carries out read as such.
            let slot = match name.as_str() {
                _ if !is_hidden => self.named(&name, ty, span),
                key if key.starts_with("#value") => self.named("value", ty, span),
                key if key.starts_with("#result") => self.named("result", ty, span),
                _ => self.new_var(crate::ir::Origin::Temp, ty, span),
            };
            self.rebind(&name, slot);
            slots.push((name, slot, Operand::Var(binding.var)));
        }
        slots
    }

    /// Records each slot's value at the end of the body; after the loop the name is the slot.
    fn close_slots(&mut self, slots: Vec<(String, VarId, Operand)>) -> Vec<Carried> {
        slots
            .into_iter()
            .map(|(name, slot, init)| {
                let exit = self
                    .lookup(&name)
                    .map_or(Operand::Var(slot), |b| Operand::Var(b.var));
                self.rebind(&name, slot);
                Carried { slot, init, exit }
            })
            .collect()
    }
}

/// Whether a statement of a loop condition only computes an operand: then the reverse sweep
/// needs nothing from it.
fn computes_only(stmt: &Stmt) -> bool {
    matches!(
        stmt,
        Stmt::Assign { .. } | Stmt::IntLet { .. } | Stmt::BoolLet { .. }
    )
}

fn label(label: &Option<syn::Label>) -> Option<String> {
    label.as_ref().map(|l| l.name.ident.to_string())
}
