//! Exits from loop bodies: `break` (with a value), `continue`, labels and `return`.
//!
//! A loop body is lowered as a tree of branches whose every path runs to the end of the body:
//! the statements after an `if` that exits are lowered into its other branch (as the rest of
//! the function is after an early `return`), and a `break` sets the body's exit flag, which
//! the loop tests after writing back its slots. An exit to an enclosing loop or the function
//! sets a flag that the loops in between carry out, each testing it right after the inner
//! loop ends.
//!
//! Before: `while x > 0.0 { x -= 1.0; if x < y { break; } y *= 0.5; }`
//! After: `.. let (y_2, c2) = if x_2 < y_1 { (y_1, c1) } else { let y_3 = y_1 * 0.5; (y_3, c0) };`
//! with the exit flag `c2` tested at the end of the iteration.

use super::Lowerer;
use super::branch::Cont;
use super::fork::Rest;
use super::scan::Escape;
use crate::ir::{Cond, If, Join, Op, Operand, Origin, Stmt, Ty, VarId};
use proc_macro2::Span;
use syn::Expr;
use syn::spanned::Spanned;

/// The scope key of the flag that ends the innermost loop after this iteration. Keys that
/// start with `#` are never source names.
pub(super) const EXIT: &str = "#exit";
/// The flag set by `return` inside a loop, and the value it returns.
const RETURN: &str = "#return";
const RESULT: &str = "#result";

/// A loop being lowered.
pub(super) struct Frame {
    /// Its label, without the `'`.
    pub label: Option<String>,
    /// How many scopes are open in its body: those below are the loop's and enclosing ones.
    pub depth: usize,
}

/// The key of the value `break value` carries out of the loop at nesting level `level`.
pub(super) fn value_key(level: usize) -> String {
    format!("#value{level}")
}

/// The key of the flag an inner loop sets to `break` or `continue` the loop labelled `label`.
fn flag_key(escape: &Escape) -> String {
    match escape {
        Escape::Break(label) => format!("#break'{}", label.as_deref().unwrap_or_default()),
        Escape::Continue(label) => format!("#continue'{}", label.as_deref().unwrap_or_default()),
        Escape::Return => RETURN.to_string(),
    }
}

impl Lowerer<'_> {
    /// The loop of a loop statement (`while ..`, `for ..`, `loop ..`, `let x = loop { .. };`)
    /// whose exits leave it: the code after it tests the flags they set.
    pub(super) fn loop_statement<'s>(&self, stmt: &'s syn::Stmt) -> Option<&'s Expr> {
        let expr = match stmt {
            syn::Stmt::Expr(expr, _) => expr,
            syn::Stmt::Local(local) => &*local.init.as_ref()?.expr,
            _ => return None,
        };
        let is_loop = matches!(expr, Expr::ForLoop(_) | Expr::While(_) | Expr::Loop(_));
        (is_loop && !self.leaving(expr).is_empty()).then_some(expr)
    }

    /// Lowers a loop body's statements, then `cont`, ending every path at the end of the body.
    pub(super) fn exit_sequence<'s>(&mut self, stmts: &'s [syn::Stmt], cont: &Cont<'s>) {
        self.declare_items(stmts);
        for (i, stmt) in stmts.iter().enumerate() {
            // The statements after this one, run at scope depth `depth`.
            let rest = |depth: usize| {
                let mut rest = vec![(&stmts[i + 1..], depth)];
                rest.extend(cont.iter().copied());
                rest
            };
            if let Some(unfolded) = self.unfold_value(stmt) {
                return self.exit_sequence(&unfolded, &rest(self.scopes.len()));
            }
            if let Some(the_loop) = self.loop_statement(stmt) {
                let escapes = self.leaving(the_loop).into_owned();
                let rest = rest(self.scopes.len());
                self.exits_prepared = true;
                self.stmt(stmt);
                self.exits_prepared = false;
                return self.forward_exits(&escapes, &rest);
            }
            let syn::Stmt::Expr(expr, _) = stmt else {
                self.stmt(stmt);
                continue;
            };
            match expr {
                Expr::Break(brk) => return self.take_break(brk),
                Expr::Continue(cont) => return self.take_continue(cont),
                Expr::Return(ret) => return self.take_return(ret),
                Expr::If(branch) if !self.leaving(expr).is_empty() => {
                    self.exiting_if(branch, Rest::Body(&rest(self.scopes.len())));
                    return;
                }
                Expr::Match(matching) if !self.leaving(expr).is_empty() => {
                    self.exiting_match(matching, Rest::Body(&rest(self.scopes.len())));
                    return;
                }
                // A block that exits runs on to the end of the body, `rest` included, in a
                // scope of its own: `rest` closes it, but a branch that exits inside it
                // restores the scopes it opened with, so it is closed here too.
                Expr::Block(block) if block.label.is_none() && !self.leaving(expr).is_empty() => {
                    let (rest, depth) = (rest(self.scopes.len()), self.scopes.len());
                    self.scopes.push(Default::default());
                    self.exit_sequence(&block.block.stmts, &rest);
                    return self.scopes.truncate(depth);
                }
                _ => self.stmt(stmt),
            }
        }
        if let Some((next, rest)) = cont.split_first() {
            self.scopes.truncate(next.1);
            self.exit_sequence(next.0, &rest.to_vec());
        }
    }

    /// Binds before a loop the flags (and the returned value) its exits to enclosing loops and
    /// the function set, unless an enclosing loop did; returns their keys, which the loop carries.
    pub(super) fn prepare_escapes(&mut self, escapes: &[Escape], span: Span) -> Vec<String> {
        let mut keys = Vec::new();
        for escape in escapes {
            let key = flag_key(escape);
            if self.lookup(&key).is_none() {
                let no = self.bool_const(false);
                self.bind(&key, no);
            }
            keys.push(key);
            // `break 'label value` writes the value of the labelled `loop` on its way out.
            if let Escape::Break(Some(label)) = escape
                && let Some(level) = self.labelled(label)
                && self.lookup(&value_key(level)).is_some()
            {
                keys.push(value_key(level));
            }
            // A vector output's `return` stores its entries where it is (`outputs.rs`).
            if *escape == Escape::Return && !self.vector_output() {
                if self.lookup(RESULT).is_none() {
                    let zero = self.hidden_value(Operand::Const(0.0), span);
                    self.bind(RESULT, zero);
                }
                keys.push(RESULT.to_string());
            }
        }
        keys
    }

    /// After an inner loop: each flag it may have set ends this iteration, leaving this loop
    /// unless it asks to `continue` it; otherwise the body goes on with `rest`.
    fn forward_exits<'s>(&mut self, escapes: &[Escape], rest: &Cont<'s>) {
        let Some((first, others)) = escapes.split_first() else {
            return self.exit_sequence(&[], rest);
        };
        let Some(flag) = self.lookup(&flag_key(first)).map(|b| b.var) else {
            return self.exit_sequence(&[], rest);
        };
        let own = self.frames.last().and_then(|f| f.label.clone());
        let leaves = !matches!(first, Escape::Continue(l) if *l == own && own.is_some());
        self.split(
            Cond::Var(flag),
            Span::call_site(),
            &mut |this| {
                if leaves {
                    this.leave_loop();
                }
            },
            &mut |this| this.forward_exits(others, rest),
        );
    }

    /// `break`, `break value` or `break 'label`.
    fn take_break(&mut self, brk: &syn::ExprBreak) {
        let target = brk.label.as_ref().map(|l| l.ident.to_string());
        let own = self.frames.last().and_then(|f| f.label.clone());
        if target.is_some() && target != own {
            if let (Some(value), Some(label)) = (&brk.expr, &target) {
                let key = self.labelled(label).map(value_key);
                if key.as_ref().and_then(|key| self.lookup(key)).is_none() {
                    self.errors.at(brk.break_token.span, "`break 'label value` leaves a `loop` whose value is used: `let x = 'label: loop { .. break 'label value; };`");
                    return;
                }
                if let (Some(key), Some(operand)) = (key, self.f64_operand(value)) {
                    let var = self.hidden_value(operand, value.span());
                    self.rebind(&key, var);
                }
            }
            return self.raise(&Escape::Break(target));
        }
        if let Some(value) = &brk.expr {
            let key = value_key(self.frames.len() - 1);
            if self.lookup(&key).is_none() {
                self.errors.at(brk.break_token.span, "`break` with a value leaves a `loop` whose value is used: `let x = loop { .. break value; };`");
                return;
            }
            if let Some(operand) = self.f64_operand(value) {
                let var = self.hidden_value(operand, value.span());
                self.rebind(&key, var);
            }
        }
        self.leave_loop();
    }

    /// The nesting level of the enclosing loop labelled `label`.
    fn labelled(&self, label: &str) -> Option<usize> {
        self.frames
            .iter()
            .rposition(|frame| frame.label.as_deref() == Some(label))
    }

    /// `continue` or `continue 'label`.
    fn take_continue(&mut self, cont: &syn::ExprContinue) {
        let target = cont.label.as_ref().map(|l| l.ident.to_string());
        let own = self.frames.last().and_then(|f| f.label.clone());
        if target.is_some() && target != own {
            self.raise(&Escape::Continue(target));
        }
    }

    /// `return value` inside a loop: the value and the flag go out through every loop.
    fn take_return(&mut self, ret: &syn::ExprReturn) {
        let Some(value) = &ret.expr else {
            self.errors.at(
                ret.return_token.span,
                format!(
                    "`return` needs an `{float}` value",
                    float = self.scalar.name()
                ),
            );
            return;
        };
        if self.vector_output() {
            self.result(value);
        } else if let Some(operand) = self.f64_operand(value) {
            let var = self.hidden_value(operand, value.span());
            self.rebind(RESULT, var);
        }
        self.raise(&Escape::Return);
    }

    /// Sets the flag of `escape` and leaves the innermost loop.
    fn raise(&mut self, escape: &Escape) {
        let yes = self.bool_const(true);
        self.rebind(&flag_key(escape), yes);
        self.leave_loop();
    }

    /// Ends this iteration and the loop.
    pub(super) fn leave_loop(&mut self) {
        let yes = self.bool_const(true);
        self.rebind(EXIT, yes);
    }

    /// Emits `if cond { then } else { otherwise }` where both branches end the body, joining
    /// what the loop needs after the body: its slots, its flags and its exit.
    pub(super) fn split(
        &mut self,
        cond: Cond,
        span: Span,
        then: &mut dyn FnMut(&mut Self),
        otherwise: &mut dyn FnMut(&mut Self),
    ) {
        // The rest of the body runs in both branches, and may update what it declared before
        // the `if`. Nothing after the `if` reads those names, so only the names of enclosing
        // scopes (slots and flags) and the flags of the body's own scope need joins.
        let body = self.frames.last().map_or(0, |f| f.depth);
        let keep = |level: usize, name: &str| {
            level + 1 < body || (level + 1 == body && name.starts_with('#'))
        };
        let arm = |lower: &mut dyn FnMut(&mut Self), this: &mut Self| {
            this.scopes.push(Default::default());
            lower(this);
            None
        };
        self.joined_branch(
            cond,
            span,
            false,
            |this| arm(then, this),
            |this| arm(otherwise, this),
            &keep,
        );
    }

    /// After a loop at the top of the function that may `return`: the returned value, or the
    /// rest of the function's.
    pub(super) fn after_returning_loop<'s>(
        &mut self,
        cont: &Cont<'s>,
        depth: usize,
        span: Span,
    ) -> Option<Operand> {
        let flag = self.lookup(RETURN)?.var;
        // A vector output's `return` stored its entries (`outputs.rs`): nothing to join.
        let result = match self.vector_output() {
            true => None,
            false => Some(self.lookup(RESULT)?.var),
        };
        let saved = self.scopes.clone();
        let (otherwise, value) = self.capture(|this| {
            this.scopes.push(Default::default());
            this.sequence(&[], cont, depth + 1)
        });
        self.scopes = saved;
        let dst = result.map(|result| {
            let dst = self.new_var(Origin::Temp, Ty::F64, span);
            // Nothing follows a `loop` left only by `return`: that path never runs (and for
            // any other loop, Rust itself reports the function's missing value).
            let join = Join {
                dst,
                then: Operand::Var(result),
                otherwise: value.unwrap_or(Operand::Var(result)),
            };
            (dst, join)
        });
        let id = self.branch_id();
        self.emit(Stmt::If(Box::new(If {
            id,
            cond: Cond::Var(flag),
            span,
            then: Vec::new(),
            otherwise,
            joins: dst.iter().map(|(_, join)| join.clone()).collect(),
        })));
        Some(dst.map_or(Operand::Const(0.0), |(dst, _)| Operand::Var(dst)))
    }

    /// A boolean constant in a variable, for a flag.
    pub(super) fn bool_const(&mut self, value: bool) -> VarId {
        let dst = self.new_var(Origin::Temp, Ty::Bool, Span::call_site());
        self.emit(Stmt::BoolLet {
            dst,
            cond: Cond::Lit(value),
        });
        dst
    }

    /// `value` in a variable of its own, for a hidden slot.
    pub(super) fn hidden_value(&mut self, value: Operand, span: Span) -> VarId {
        if let Operand::Var(var) = value {
            return var;
        }
        let dst = self.new_var(Origin::Temp, Ty::F64, span);
        self.emit(Stmt::Assign {
            dst,
            op: Op::Copy(value),
        });
        dst
    }
}
