//! `a && b` and `a || b` (`branch.rs`): a right operand with no effects beyond its value is a
//! scoped condition; one that assigns a variable or writes an array of the enclosing code is
//! the branch of an `if`, joined as any branch is.

use crate::ir::{Access, Cond, If, Join, Operand, Origin, Scoped, Stmt, Ty, VarId, Visitor};
use crate::lower::Lowerer;
use syn::spanned::Spanned;

impl Lowerer<'_> {
    /// `a && b` or `a || b`, where `b` runs only on one side of `a`. When `b` has effects
    /// beyond its value (it assigns a variable or writes an array of the enclosing code), it
    /// becomes the branch of an `if` whose joins carry those variables and the result.
    ///
    /// Before: `a > 1.5 || a > { x *= a; 0.0 }`
    /// After: `let c0 = a > 1.5;`
    /// `let (x_2, c2) = if c0 { (x, c0) } else { let x_1 = x * a; let c1 = a > 0.0; (x_1, c1) };`
    /// and the condition `c2`.
    pub(in crate::lower) fn short_circuit(&mut self, binary: &syn::ExprBinary) -> Cond {
        let and = matches!(binary.op, syn::BinOp::And(_));
        let left = self.cond(&binary.left);
        let before = self.scopes.clone();
        let (mut stmts, right) = self.capture(|this| this.cond(&binary.right));
        let after = std::mem::replace(&mut self.scopes, before.clone());
        if after == before && !writes_outside(&stmts) {
            let scoped = Box::new(Scoped { stmts, cond: right });
            return if and {
                Cond::And(Box::new(left), scoped)
            } else {
                Cond::Or(Box::new(left), scoped)
            };
        }
        let span = binary.op.span();
        let decided = self.new_var(Origin::Temp, Ty::Bool, span);
        self.emit(Stmt::BoolLet {
            dst: decided,
            cond: left,
        });
        let value = self.new_var(Origin::Temp, Ty::Bool, span);
        stmts.push(Stmt::BoolLet {
            dst: value,
            cond: right,
        });
        let (ran, skipped) = (Operand::Var(value), Operand::Var(decided));
        let dst = self.new_var(Origin::Temp, Ty::Bool, span);
        // `&&` runs its right operand when the left one holds, `||` when it fails.
        let (mut joins, result) = if and {
            (
                self.joins(&before, &after, &before, &|_, _| true),
                (ran, skipped),
            )
        } else {
            (
                self.joins(&before, &before, &after, &|_, _| true),
                (skipped, ran),
            )
        };
        let (then, otherwise) = if and {
            (stmts, Vec::new())
        } else {
            (Vec::new(), stmts)
        };
        joins.push(Join {
            dst,
            then: result.0,
            otherwise: result.1,
        });
        let id = self.branch_id();
        self.emit(Stmt::If(Box::new(If {
            id,
            cond: Cond::Var(decided),
            span,
            then,
            otherwise,
            joins,
        })));
        Cond::Var(dst)
    }
}

/// Whether `stmts` write an array they do not declare themselves.
fn writes_outside(stmts: &[Stmt]) -> bool {
    #[derive(Default)]
    struct Writes {
        declared: Vec<VarId>,
        written: Vec<VarId>,
    }
    impl Visitor<'_> for Writes {
        fn visit_stmt(&mut self, stmt: &Stmt) {
            if let Stmt::Array { dst, .. } = stmt {
                self.declared.push(*dst);
            }
            self.super_stmt(stmt);
        }
        fn visit_var(&mut self, var: &VarId, access: Access) {
            if access == Access::Store {
                self.written.push(*var);
            }
        }
    }
    let mut writes = Writes::default();
    for stmt in stmts {
        writes.visit_stmt(stmt);
    }
    let Writes { declared, written } = writes;
    written.iter().any(|array| !declared.contains(array))
}
