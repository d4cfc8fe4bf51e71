//! The visitors of the forward IR, [`Visitor`] and [`MutVisitor`], generated once from one
//! description of how its nodes nest (as rustc's `make_mir_visitor!` writes `Visitor` and
//! `MutVisitor` from one body), so a new statement, operation or argument is added in
//! [`make_ir_visitor!`] and every walk sees it.
//!
//! Each `visit_*` method defaults to its `super_*` twin, which visits the node's parts in the
//! order they are evaluated: a statement's operands before the variable it defines, a
//! condition before its branches, a `while`'s head and condition before its body, the left
//! operand of `&&` / `||` before the right one's statements. A pass overrides the methods of
//! the nodes it cares about and calls `super_*` where it wants to go deeper; every match on a
//! node's kind is here and exhaustive, so no pass has a wildcard arm that a new kind falls
//! through unseen.

mod nest;
mod walks;

pub use nest::{Access, Nest};
pub use walks::{Reads, forward_only, walk};

use super::{
    Arg, Assert, Block, Carried, Cond, Extern, If, IntExpr, Join, Loop, LoopKind, Op, Operand,
    Place, Scoped, Step, Stmt, VarId,
};

/// Writes a visitor trait: `make_ir_visitor!(Visitor<'a>,)` takes every node as `&'a`, and
/// `make_ir_visitor!(MutVisitor, mut)` as `&mut`. The bodies are written once for both.
macro_rules! make_ir_visitor {
    ($visitor:ident $(<$lt:lifetime>)?, $($mutability:ident)?) => {
        #[doc = concat!(
            "A walk over the forward IR (`", stringify!($($mutability)?),
            "` references): override what a pass looks at, call `super_*` to go deeper."
        )]
        pub trait $visitor $(<$lt>)? {
            /// A block of statements, in order.
            fn visit_block(&mut self, block: &$($lt)? $($mutability)? Block, nest: Nest) {
                self.super_block(block, nest)
            }

            /// One statement.
            fn visit_stmt(&mut self, stmt: &$($lt)? $($mutability)? Stmt) {
                self.super_stmt(stmt)
            }

            /// An `if`: its condition, its branches, then its joins.
            fn visit_if(&mut self, branch: &$($lt)? $($mutability)? If) {
                self.super_if(branch)
            }

            /// A loop: its header, its body, then its slots, exit flag and trip count.
            fn visit_loop(&mut self, the_loop: &$($lt)? $($mutability)? Loop) {
                self.super_loop(the_loop)
            }

            /// An assertion's operands and message values.
            fn visit_assert(&mut self, assert: &$($lt)? $($mutability)? Assert) {
                self.super_assert(assert)
            }

            /// A value an `if` produces.
            fn visit_join(&mut self, join: &$($lt)? $($mutability)? Join) {
                self.super_join(join)
            }

            /// A value a loop carries across iterations.
            fn visit_carried(&mut self, carried: &$($lt)? $($mutability)? Carried) {
                self.super_carried(carried)
            }

            /// The right side of a scalar assignment.
            fn visit_op(&mut self, op: &$($lt)? $($mutability)? Op) {
                self.super_op(op)
            }

            /// A scalar operand.
            fn visit_operand(&mut self, operand: &$($lt)? $($mutability)? Operand) {
                self.super_operand(operand)
            }

            /// An integer expression.
            fn visit_int(&mut self, int: &$($lt)? $($mutability)? IntExpr) {
                self.super_int(int)
            }

            /// A condition.
            fn visit_cond(&mut self, cond: &$($lt)? $($mutability)? Cond) {
                self.super_cond(cond)
            }

            /// The right operand of `&&` / `||`: its statements, then its condition.
            fn visit_scoped(&mut self, scoped: &$($lt)? $($mutability)? Scoped) {
                self.super_scoped(scoped)
            }

            /// A read of data.
            fn visit_place(&mut self, place: &$($lt)? $($mutability)? Place) {
                self.super_place(place)
            }

            /// An argument of a call or an assertion.
            fn visit_arg(&mut self, arg: &$($lt)? $($mutability)? Arg) {
                self.super_arg(arg)
            }

            /// A name the macro does not define: a constant, or a callee.
            fn visit_extern(&mut self, callee: &$($lt)? $($mutability)? Extern) {
                self.super_extern(callee)
            }

            /// A variable, and how the node uses it.
            fn visit_var(&mut self, _var: &$($lt)? $($mutability)? VarId, _access: Access) {}

            /// Every statement of `block`.
            fn super_block(&mut self, block: &$($lt)? $($mutability)? Block, _nest: Nest) {
                for stmt in block {
                    self.visit_stmt(stmt);
                }
            }

            /// The parts of `stmt`.
            fn super_stmt(&mut self, stmt: &$($lt)? $($mutability)? Stmt) {
                match stmt {
                    Stmt::Assign { dst, op } => {
                        self.visit_op(op);
                        self.visit_var(dst, Access::Def);
                    }
                    Stmt::IntLet { dst, expr } => {
                        self.visit_int(expr);
                        self.visit_var(dst, Access::Def);
                    }
                    Stmt::BoolLet { dst, cond } => {
                        self.visit_cond(cond);
                        self.visit_var(dst, Access::Def);
                    }
                    Stmt::Array { dst, fill } => {
                        self.visit_operand(fill);
                        self.visit_var(dst, Access::Def);
                    }
                    Stmt::Store {
                        array,
                        index,
                        value,
                    }
                    | Stmt::StoreAdd {
                        array,
                        index,
                        value,
                        ..
                    } => {
                        self.visit_int(index);
                        self.visit_operand(value);
                        self.visit_var(array, Access::Store);
                    }
                    Stmt::If(branch) => self.visit_if(branch),
                    Stmt::Loop(the_loop) => self.visit_loop(the_loop),
                    Stmt::Assert(assert) => self.visit_assert(assert),
                }
            }

            /// The parts of `branch`.
            fn super_if(&mut self, branch: &$($lt)? $($mutability)? If) {
                let id = branch.id;
                self.visit_cond(& $($mutability)? branch.cond);
                self.visit_block(& $($mutability)? branch.then, Nest::Then(id));
                self.visit_block(& $($mutability)? branch.otherwise, Nest::Else(id));
                for join in & $($mutability)? branch.joins {
                    self.visit_join(join);
                }
            }

            /// The parts of `the_loop`.
            fn super_loop(&mut self, the_loop: &$($lt)? $($mutability)? Loop) {
                let id = the_loop.id;
                match & $($mutability)? the_loop.kind {
                    LoopKind::Range {
                        index, start, end, ..
                    } => {
                        self.visit_int(start);
                        self.visit_int(end);
                        if let Some(index) = index {
                            self.visit_var(index, Access::Def);
                        }
                    }
                    LoopKind::While { head, cond } => {
                        self.visit_block(head, Nest::Head(id));
                        self.visit_cond(cond);
                    }
                }
                self.visit_block(& $($mutability)? the_loop.body, Nest::Body(id));
                for carried in & $($mutability)? the_loop.carried {
                    self.visit_carried(carried);
                }
                if let Some(exit) = & $($mutability)? the_loop.exit {
                    self.visit_var(exit, Access::Read);
                }
                if let Some(count) = & $($mutability)? the_loop.count {
                    self.visit_var(count, Access::Def);
                }
            }

            /// The parts of `assert`.
            fn super_assert(&mut self, assert: &$($lt)? $($mutability)? Assert) {
                for arg in & $($mutability)? assert.args {
                    self.visit_arg(arg);
                }
            }

            /// The parts of `join`.
            fn super_join(&mut self, join: &$($lt)? $($mutability)? Join) {
                self.visit_operand(& $($mutability)? join.then);
                self.visit_operand(& $($mutability)? join.otherwise);
                self.visit_var(& $($mutability)? join.dst, Access::Def);
            }

            /// The parts of `carried`.
            fn super_carried(&mut self, carried: &$($lt)? $($mutability)? Carried) {
                self.visit_operand(& $($mutability)? carried.init);
                self.visit_operand(& $($mutability)? carried.exit);
                self.visit_var(& $($mutability)? carried.slot, Access::Def);
            }

            /// The parts of `op`.
            fn super_op(&mut self, op: &$($lt)? $($mutability)? Op) {
                match op {
                    Op::Copy(a) | Op::Neg(a) | Op::Call1(_, a) => self.visit_operand(a),
                    Op::Add(a, b)
                    | Op::Sub(a, b)
                    | Op::Mul(a, b)
                    | Op::Div(a, b)
                    | Op::Call2(_, a, b) => {
                        self.visit_operand(a);
                        self.visit_operand(b);
                    }
                    Op::Call3(_, a, b, c) => {
                        self.visit_operand(a);
                        self.visit_operand(b);
                        self.visit_operand(c);
                    }
                    Op::Powi(a, n) => {
                        self.visit_operand(a);
                        self.visit_int(n);
                    }
                    Op::FromInt(n) => self.visit_int(n),
                    Op::Data(place) => self.visit_place(place),
                    Op::Load(array, index) => {
                        self.visit_var(array, Access::Read);
                        self.visit_int(index);
                    }
                    Op::Call(callee, args) => {
                        for arg in args {
                            self.visit_arg(arg);
                        }
                        self.visit_extern(callee);
                    }
                    // The body of a function with `derivative(..)` rules: what it is called
                    // with. Its partials are read by its derivative (`diff/rules.rs`), not by
                    // its value, so they are not among its operands.
                    Op::Custom(custom) => {
                        for arg in & $($mutability)? custom.args {
                            self.visit_arg(arg);
                        }
                    }
                }
            }

            /// The parts of `operand`.
            fn super_operand(&mut self, operand: &$($lt)? $($mutability)? Operand) {
                match operand {
                    Operand::Var(var) => self.visit_var(var, Access::Read),
                    Operand::Const(_) => {}
                    Operand::Extern(name) => self.visit_extern(name),
                }
            }

            /// The parts of `int`.
            fn super_int(&mut self, int: &$($lt)? $($mutability)? IntExpr) {
                match int {
                    IntExpr::Lit { .. } => {}
                    IntExpr::Var(var) | IntExpr::Len(var) => self.visit_var(var, Access::Read),
                    IntExpr::RowLen(var, row) => {
                        self.visit_var(var, Access::Read);
                        self.visit_int(row);
                    }
                    IntExpr::Extern(name) => self.visit_extern(name),
                    IntExpr::Data(place) => self.visit_place(place),
                    IntExpr::Binary(_, a, b)
                    | IntExpr::Bits(_, a, b)
                    | IntExpr::Min(a, b)
                    | IntExpr::Entry(a, b)
                    | IntExpr::Checked(a, b) => {
                        self.visit_int(a);
                        self.visit_int(b);
                    }
                    IntExpr::Method(_, a, b) => {
                        self.visit_int(a);
                        if let Some(b) = b {
                            self.visit_int(b);
                        }
                    }
                    IntExpr::Neg(a) | IntExpr::Cast(a, _) => self.visit_int(a),
                    IntExpr::FromFloat(operand, _) => self.visit_operand(operand),
                    IntExpr::Call(callee, args) => {
                        self.visit_extern(callee);
                        for arg in args {
                            self.visit_int(arg);
                        }
                    }
                    IntExpr::Pick(entries, index) => {
                        for entry in entries {
                            self.visit_int(entry);
                        }
                        self.visit_int(index);
                    }
                    IntExpr::ViewLen { lo, hi, len } => {
                        if let Some(lo) = lo {
                            self.visit_int(lo);
                        }
                        if let Some(hi) = hi {
                            self.visit_int(hi);
                        }
                        self.visit_int(len);
                    }
                }
            }

            /// The parts of `cond`.
            fn super_cond(&mut self, cond: &$($lt)? $($mutability)? Cond) {
                match cond {
                    Cond::F64(_, a, b) => {
                        self.visit_operand(a);
                        self.visit_operand(b);
                    }
                    Cond::Int(_, a, b) | Cond::Multiple(a, b) => {
                        self.visit_int(a);
                        self.visit_int(b);
                    }
                    Cond::Var(var) => self.visit_var(var, Access::Read),
                    Cond::Data(place) => self.visit_place(place),
                    Cond::Lit(_) => {}
                    Cond::Not(c) => self.visit_cond(c),
                    Cond::And(a, b) | Cond::Or(a, b) => {
                        self.visit_cond(a);
                        self.visit_scoped(b);
                    }
                }
            }

            /// The parts of `scoped`.
            fn super_scoped(&mut self, scoped: &$($lt)? $($mutability)? Scoped) {
                self.visit_block(& $($mutability)? scoped.stmts, Nest::Operand);
                self.visit_cond(& $($mutability)? scoped.cond);
            }

            /// The parts of `place`: the data parameter, then the indices of its steps.
            fn super_place(&mut self, place: &$($lt)? $($mutability)? Place) {
                self.visit_var(& $($mutability)? place.root, Access::Read);
                for step in & $($mutability)? place.steps {
                    match step {
                        Step::Index(index) => self.visit_int(index),
                        Step::Field(_) | Step::Len | Step::Deref => {}
                    }
                }
            }

            /// The parts of `arg`.
            fn super_arg(&mut self, arg: &$($lt)? $($mutability)? Arg) {
                match arg {
                    Arg::Scalar(operand, _) => self.visit_operand(operand),
                    Arg::Int(int) => self.visit_int(int),
                    Arg::Bool(cond) => self.visit_cond(cond),
                    Arg::Data { place, .. } => self.visit_place(place),
                    Arg::Slice {
                        array,
                        lo,
                        hi,
                        mutable,
                        ..
                    } => {
                        let access = if *mutable { Access::Lent } else { Access::Read };
                        self.visit_var(array, access);
                        if let Some(lo) = lo {
                            self.visit_int(lo);
                        }
                        if let Some(hi) = hi {
                            self.visit_int(hi);
                        }
                    }
                }
            }

            /// The parts of `callee`: the output a call reads (its counter, where the outputs
            /// are read in a loop) and the tangent it returns beside its value.
            fn super_extern(&mut self, callee: &$($lt)? $($mutability)? Extern) {
                if let Some(entry) = & $($mutability)? callee.entry {
                    self.visit_int(& $($mutability)? *entry.k);
                }
                if let Some(super::Pair {
                    tangent: Some(tangent),
                }) = & $($mutability)? callee.pair
                {
                    self.visit_var(tangent, Access::Def);
                }
            }
        }
    };
}

make_ir_visitor!(Visitor<'a>,);
make_ir_visitor!(MutVisitor, mut);
