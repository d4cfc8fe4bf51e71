//! The tangent of each statement: [`Pass::stmt`] copies it and, after each active definition,
//! defines its tangent by the rules of [`super::rules`]; a call passes each argument beside its
//! tangent, and branches and loops carry their tangents as they carry their values.

use super::super::expr::Expr;
use super::super::rules::{self, Target};
use super::{Pass, select};
use crate::ir::{
    Arg, Block, Carried, Extern, If, Join, Loop, Op, Operand, Origin, Pair, Stmt, Ty, VarId,
};

impl Pass<'_> {
    pub(super) fn stmt(&mut self, stmt: &Stmt, out: &mut Block) {
        match stmt {
            Stmt::Assign {
                dst,
                op: Op::Call(callee, args),
            } if self.lends_active(*dst, args) => self.lent_call(*dst, callee, args, out),
            Stmt::Assign { dst, op } => {
                out.push(stmt.clone());
                if self.active(*dst) {
                    self.assign(*dst, op, out);
                }
            }
            Stmt::IntLet { .. } | Stmt::BoolLet { .. } | Stmt::Assert(_) => out.push(stmt.clone()),
            Stmt::Array { dst, fill } => {
                out.push(stmt.clone());
                if self.active(*dst) {
                    let fill = self.tangent(fill);
                    let dst = self.tangent_of(*dst);
                    out.push(Stmt::Array { dst, fill });
                }
            }
            Stmt::Store {
                array,
                index,
                value,
            } => {
                out.push(stmt.clone());
                if let Some(tangent) = self.dot.get(array).copied() {
                    out.push(Stmt::Store {
                        array: tangent,
                        index: index.clone(),
                        value: self.tangent(value),
                    });
                }
            }
            Stmt::StoreAdd {
                array,
                index,
                value,
                negate,
            } => {
                out.push(stmt.clone());
                let value = self.tangent(value);
                if let (Some(tangent), Operand::Var(_)) = (self.dot.get(array).copied(), &value) {
                    out.push(Stmt::StoreAdd {
                        array: tangent,
                        index: index.clone(),
                        value,
                        negate: *negate,
                    });
                }
            }
            Stmt::If(branch) => out.push(Stmt::If(Box::new(self.branch(branch)))),
            Stmt::Loop(the_loop) => out.push(Stmt::Loop(Box::new(self.the_loop(the_loop)))),
        }
    }

    /// `ẏ` for `y = op`: each operand's part of the pullback, with its tangent as the adjoint.
    fn assign(&mut self, dst: VarId, op: &Op, out: &mut Block) {
        let Some(parts) = rules::pullback(op, dst, Expr::Seed(0)) else {
            if let Op::Call(callee, args) = op {
                let (callee, args) = self.call(callee, args, out);
                let tangent = self.tangent_of(dst);
                out.push(Stmt::Assign {
                    dst: tangent,
                    op: Op::Call(callee, args),
                });
            }
            return;
        };
        let mut sum: Option<Expr> = None;
        for (target, part) in parts {
            let with = match target {
                Target::Operand(Operand::Var(v)) => match self.dot.get(v) {
                    Some(t) => Expr::Var(*t),
                    None => continue,
                },
                Target::Elem(w, i) => match self.dot.get(&w) {
                    Some(t) => Expr::Load(*t, i.clone()),
                    None => continue,
                },
                Target::Operand(_) => continue,
            };
            let part = part.replace_seed(&with);
            sum = Some(match (sum, part) {
                (None, part) => part,
                (Some(sum), Expr::Neg(part)) => sum - *part,
                (Some(sum), part) => sum + part,
            });
        }
        let sum = sum.unwrap_or(Expr::Const(0.0));
        self.define(dst, sum, out);
    }

    /// `__g_tangent(x, ẋ, w, ẇ, ..)`: the callee's tangent, a tangent after each `f64` and slice
    /// argument (zero, or an empty slice, where the argument is constant; a zero array for a
    /// constant array passed by value).
    fn call(&mut self, callee: &Extern, args: &[Arg], out: &mut Block) -> (Extern, Vec<Arg>) {
        let mut callee = callee.clone();
        if let Some(last) = callee.path.last_mut() {
            *last = crate::names::hidden(last, "_tangent");
        }
        let mut with_tangents = Vec::new();
        // Each argument and its tangent where the user wrote the argument.
        let mut at = Vec::new();
        for (k, arg) in args.iter().enumerate() {
            with_tangents.push(arg.clone());
            at.extend(callee.args_at().get(k).copied());
            match arg {
                // A `&y`'s tangent is passed as an `f64`, as a `&f64` parameter's `v_x` is.
                Arg::Scalar(operand, _) => {
                    with_tangents.push(Arg::Scalar(self.tangent(operand), false))
                }
                Arg::Slice {
                    array,
                    lo,
                    hi,
                    by_value,
                    mutable,
                    rows,
                    entry,
                } => {
                    let (array, lo, hi) = match self.dot.get(array) {
                        Some(t) => (*t, lo.clone(), hi.clone()),
                        // A `&mut f64`'s tangent is one entry, never empty.
                        None if *by_value || *entry => (self.zeros(*array, out), None, None),
                        None => (*array, Some(select::zero_int()), Some(select::zero_int())),
                    };
                    with_tangents.push(Arg::Slice {
                        array,
                        lo,
                        hi,
                        by_value: *by_value,
                        mutable: *mutable,
                        rows: rows.clone(),
                        entry: *entry,
                    });
                }
                Arg::Int(_) | Arg::Bool(_) | Arg::Data { .. } => {}
            }
            if with_tangents.len() > at.len() {
                at.extend(callee.args_at().get(k).copied());
            }
        }
        callee.arg_spans = (at.len() == with_tangents.len()).then(|| Box::new(at));
        (callee, with_tangents)
    }

    /// Whether a call defining `dst` lends an array that gets a tangent, or defines an active
    /// value: then it is called through the callee's tangent.
    fn lends_active(&self, dst: VarId, args: &[Arg]) -> bool {
        let lent = args.iter().filter_map(|arg| match arg {
            Arg::Slice {
                array,
                mutable: true,
                ..
            } => Some(*array),
            _ => None,
        });
        let mut lent = lent.peekable();
        lent.peek().is_some() && (self.active(dst) || lent.any(|a| self.dot.contains_key(&a)))
    }

    /// `let (y, v_y) = g_tangent(.., h, v_h, ..);` for `let y = g(.., &mut h, ..);`: the
    /// callee's tangent writes `h` as `g` does and `v_h` with the tangent of what it writes, so
    /// it replaces the call rather than follows it, and returns the value and the tangent.
    fn lent_call(&mut self, dst: VarId, callee: &Extern, args: &[Arg], out: &mut Block) {
        let (mut callee, args) = self.call(callee, args, out);
        let tangent = self.active(dst).then(|| self.tangent_of(dst));
        callee.pair = Some(Pair { tangent });
        out.push(Stmt::Assign {
            dst,
            op: Op::Call(callee, args),
        });
    }

    /// A local array of zeros as long as `array` (whose length a by-value argument knows).
    fn zeros(&mut self, array: VarId, out: &mut Block) -> VarId {
        let len = (self.info(array).ty.known_len().cloned())
            .expect("internal error: an array passed by value has a known length");
        let dst = self.new_var(Origin::Temp, Ty::local(len, false));
        out.push(Stmt::Array {
            dst,
            fill: Operand::Const(0.0),
        });
        dst
    }

    /// Binds `value` to the tangent of `dst`.
    fn define(&mut self, dst: VarId, value: Expr, out: &mut Block) {
        let first_new = self.vars.len();
        let operand = self.lower(value, out);
        // The temporaries of the tangent's expression are where the user wrote its primal: an
        // error rustc finds in one points there.
        let span = self.info(dst).span;
        self.vars[first_new..]
            .iter_mut()
            .for_each(|info| info.span = span);
        match operand {
            // The last temporary becomes the tangent itself: no copy.
            Operand::Var(v) if v.0 as usize >= first_new => {
                self.rename(dst, v);
                self.dot.insert(dst, v);
            }
            operand => {
                let tangent = self.tangent_of(dst);
                out.push(Stmt::Assign {
                    dst: tangent,
                    op: Op::Copy(operand),
                });
            }
        }
    }

    /// An `if` with the tangents of its joins joined too.
    fn branch(&mut self, branch: &If) -> If {
        let then = self.block(&branch.then);
        let otherwise = self.block(&branch.otherwise);
        let mut joins = branch.joins.clone();
        for join in &branch.joins {
            if self.active(join.dst) {
                let (then, otherwise) = (self.tangent(&join.then), self.tangent(&join.otherwise));
                let dst = self.tangent_of(join.dst);
                joins.push(Join {
                    dst,
                    then,
                    otherwise,
                });
            }
        }
        If {
            id: branch.id,
            cond: branch.cond.clone(),
            span: branch.span,
            then,
            otherwise,
            joins,
        }
    }

    /// A loop whose active slots carry their tangents in slots of their own.
    fn the_loop(&mut self, the_loop: &Loop) -> Loop {
        let mut slots = Vec::new();
        for carried in &the_loop.carried {
            if self.active(carried.slot) {
                let init = self.tangent(&carried.init);
                slots.push((carried, self.tangent_of(carried.slot), init));
            }
        }
        let body = self.block(&the_loop.body);
        let mut carried = the_loop.carried.clone();
        for (primal, slot, init) in slots {
            carried.push(Carried {
                slot,
                init,
                exit: self.tangent(&primal.exit),
            });
        }
        Loop {
            id: the_loop.id,
            span: the_loop.span,
            kind: the_loop.kind.clone(),
            body,
            carried,
            exit: the_loop.exit,
            count: the_loop.count,
        }
    }
}
