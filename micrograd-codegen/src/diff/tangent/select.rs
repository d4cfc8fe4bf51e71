//! The tangent rules' expression trees lowered back into IR statements, one operation each.
//!
//! A select (`relu`'s `if y <= 0 { 0 } else { ȧ }`) becomes an `if` with a join, so each
//! value is computed only on its own side and the reverse sweep's rule for branches serves it
//! in Hessian-vector products: the IR needs no select of its own.
//!
//! Before: `v_a * (1.0 - y * y)`
//! After: `let t0 = y * y; let t1 = 1.0 - t0; let v_y = v_a * t1;`

use super::Pass;
use crate::diff::expr::{Expr, Test};
use crate::ir::{
    Block, BranchId, CmpOp, Cond, Extern, If, IntExpr, Join, Op, Operand, Origin, Scoped, Stmt, Ty,
};

/// The integer `0`.
pub fn zero_int() -> IntExpr {
    IntExpr::Lit {
        value: 0,
        suffix: String::new(),
    }
}

impl Pass<'_> {
    /// Statements in `out` that compute `expr`; the operand holding it.
    pub(super) fn lower(&mut self, expr: Expr, out: &mut Block) -> Operand {
        let op = match expr {
            Expr::Var(v) => return Operand::Var(v),
            Expr::Const(c) => return Operand::Const(c),
            Expr::Extern(path) => return Operand::Extern(path),
            Expr::Consts(name) if self.scalar.is_generic() => {
                return Operand::Const(
                    crate::ir::scalar::float_const(name)
                        .expect("internal error: the rules' constants are `f64::consts`"),
                );
            }
            Expr::Consts(name) => {
                let path = ["", "core", self.scalar.name(), "consts", name];
                let path = path.map(String::from).to_vec();
                return Operand::Extern(Extern::new(path, proc_macro2::Span::mixed_site()));
            }
            Expr::Int(n) => Op::FromInt(n),
            Expr::Load(w, i) => Op::Load(w, i),
            Expr::Add(a, b) => self.binary(Op::Add, *a, *b, out),
            Expr::Sub(a, b) => self.binary(Op::Sub, *a, *b, out),
            Expr::Mul(a, b) => self.binary(Op::Mul, *a, *b, out),
            Expr::Div(a, b) => self.binary(Op::Div, *a, *b, out),
            Expr::Neg(a) => Op::Neg(self.lower(*a, out)),
            Expr::Call1(f, a) => Op::Call1(f, self.lower(*a, out)),
            Expr::Call2(f, a, b) => {
                let (a, b) = (self.lower(*a, out), self.lower(*b, out));
                Op::Call2(f, a, b)
            }
            Expr::Call3(f, a, b, c) => {
                let (a, b, c) = (
                    self.lower(*a, out),
                    self.lower(*b, out),
                    self.lower(*c, out),
                );
                Op::Call3(f, a, b, c)
            }
            Expr::Powi(a, n) => Op::Powi(self.lower(*a, out), n),
            Expr::Select(test, then, otherwise) => {
                return self.select(*test, *then, *otherwise, out);
            }
            Expr::Seed(_) | Expr::Adj(_) | Expr::AdjLoad(..) | Expr::Pair(..) => {
                unreachable!("internal error: a tangent rule reads an adjoint")
            }
        };
        Operand::Var(self.temp(op, out))
    }

    fn binary(&mut self, op: fn(Operand, Operand) -> Op, a: Expr, b: Expr, out: &mut Block) -> Op {
        let (a, b) = (self.lower(a, out), self.lower(b, out));
        op(a, b)
    }

    fn temp(&mut self, op: Op, out: &mut Block) -> crate::ir::VarId {
        let dst = self.new_var(Origin::Temp, Ty::F64);
        out.push(Stmt::Assign { dst, op });
        dst
    }

    /// `if test { then } else { otherwise }` as an `if` statement with one join.
    fn select(&mut self, test: Test, then: Expr, otherwise: Expr, out: &mut Block) -> Operand {
        let cond = self.test(test, out);
        let mut then_block = Vec::new();
        let then = self.lower(then, &mut then_block);
        let mut otherwise_block = Vec::new();
        let otherwise = self.lower(otherwise, &mut otherwise_block);
        let dst = self.new_var(Origin::Temp, Ty::F64);
        let id = BranchId(self.branches);
        self.branches += 1;
        out.push(Stmt::If(Box::new(If {
            id,
            cond,
            span: proc_macro2::Span::mixed_site(),
            then: then_block,
            otherwise: otherwise_block,
            joins: vec![Join {
                dst,
                then,
                otherwise,
            }],
        })));
        Operand::Var(dst)
    }

    /// The condition of a select; its operands are computed before it, in `out`.
    fn test(&mut self, test: Test, out: &mut Block) -> Cond {
        match test {
            Test::Cmp(op, a, b) => {
                let (a, b) = (self.lower(a, out), self.lower(b, out));
                Cond::F64(op, a, b)
            }
            Test::IntEq(a, b) => Cond::Int(CmpOp::Eq, a, b),
            Test::And(a, b) => {
                let a = self.test(*a, out);
                let b = self.test(*b, out);
                Cond::And(Box::new(a), Box::new(scoped(b)))
            }
            Test::Or(a, b) => {
                let a = self.test(*a, out);
                let b = self.test(*b, out);
                Cond::Or(Box::new(a), Box::new(scoped(b)))
            }
            // NaN is the one value that differs from itself.
            Test::IsNan(a) => {
                let a = self.lower(a, out);
                Cond::F64(CmpOp::Ne, a.clone(), a)
            }
        }
    }
}

fn scoped(cond: Cond) -> Scoped {
    Scoped {
        stmts: Vec::new(),
        cond,
    }
}
