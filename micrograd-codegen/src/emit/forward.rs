//! The forward sweep: the function as written, one operation per line, keeping for the reverse
//! sweep what the plan asks (branch exports, per-iteration records).

use super::Emitter;
use crate::diff::Rev;
use crate::flavor::Returns;
use crate::ir::{Arg, Block, If, IntExpr, Op, Operand, Stmt, Ty, VarId};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use std::collections::HashSet;

mod args;

impl Emitter<'_> {
    /// A local array of `fill`s: `[fill; N]`, or `::std::vec![fill; n]` for a `Vec`, as `f`
    /// declares it.
    pub(super) fn filled(&self, fill: TokenStream, ty: &Ty) -> TokenStream {
        let len = (ty.known_len().filter(|_| ty.is_local()))
            .expect("internal error: only local arrays are filled");
        let len = self.int(len);
        match ty.is_vec() {
            false => quote!([#fill; #len]),
            true => quote!(::std::vec![#fill; #len]),
        }
    }

    /// The bounds of a sub-slice `w[lo..hi]`, each left out where the source leaves it out.
    pub(super) fn bounds(
        &self,
        lo: &Option<IntExpr>,
        hi: &Option<IntExpr>,
    ) -> (Option<TokenStream>, Option<TokenStream>) {
        (
            lo.as_ref().map(|e| self.int(e)),
            hi.as_ref().map(|e| self.int(e)),
        )
    }

    /// The subscript of a sub-slice `w[lo..hi]`: `[i][a..b]` where both ends are entries of
    /// row `i` of rows of their own lengths (`(i, a)..(i, b)`), as the user wrote it.
    pub(super) fn sub_slice(&self, lo: &Option<IntExpr>, hi: &Option<IntExpr>) -> TokenStream {
        if let (Some(IntExpr::Entry(i, a)), Some(IntExpr::Entry(row, b))) = (lo, hi)
            && i == row
        {
            let (i, a, b) = (self.int(i), self.int(a), self.int(b));
            return quote!([#i][#a..#b]);
        }
        let (lo, hi) = self.bounds(lo, hi);
        quote!([#lo..#hi])
    }

    /// `i` where `lo..hi` is all of row `i` of rows of their own lengths (`(i, 0)..(i,
    /// w[i].len())`), which a call is passed as `&w[i]` (its tangent `&v_w[i]`, of the same
    /// shape).
    pub(super) fn whole_row(
        &self,
        lo: &Option<IntExpr>,
        hi: &Option<IntExpr>,
    ) -> Option<TokenStream> {
        match (lo, hi) {
            (Some(IntExpr::Entry(i, zero)), Some(IntExpr::Entry(_, len)))
                if matches!(**zero, IntExpr::Lit { value: 0, .. })
                    && matches!(&**len, IntExpr::RowLen(_, row) if row == i) =>
            {
                Some(self.int(i))
            }
            _ => None,
        }
    }

    /// The forward sweep of the function: its body, where a function with `derivative(..)`
    /// rules (whose IR is one block of assignments, `crate::custom`) leaves out what nothing
    /// the flavour returns depends on: the body's value (`ir::Op::Custom`) in `f_pullback`,
    /// the rules' values in `f_hvp` (which reads their pullbacks), `x`'s rule in `f_grad`
    /// under `wrt(y)`. So its flavours compute what the rules alone would.
    pub(super) fn forward_sweep(&self, returns: Returns) -> TokenStream {
        let body = &self.function.body;
        if !body.iter().any(|stmt| {
            matches!(
                stmt,
                Stmt::Assign {
                    op: Op::Custom(_),
                    ..
                }
            )
        }) {
            return self.forward_block(body);
        }
        let mut live = self.read(returns);
        let mut kept: Block = Vec::new();
        for stmt in body.iter().rev() {
            if let Stmt::Assign { dst, op } = stmt {
                if !live.contains(dst) {
                    continue;
                }
                live.extend(crate::diff::sources(op));
            }
            kept.push(stmt.clone());
        }
        kept.reverse();
        self.forward_block(&kept)
    }

    /// The forward values a flavour returning `returns` reads at its end: those it returns and
    /// those the reverse sweep reads.
    fn read(&self, returns: Returns) -> HashSet<VarId> {
        let mut read = HashSet::new();
        let mut operands = Vec::new();
        if matches!(
            returns,
            Returns::ValueAndPartials | Returns::ValueAndTangent
        ) {
            operands.extend(&self.values);
        }
        if matches!(returns, Returns::ValueAndTangent | Returns::Tangent) {
            operands.extend(&self.function.results);
        }
        read.extend(operands.into_iter().filter_map(|operand| match operand {
            Operand::Var(v) => Some(*v),
            _ => None,
        }));
        crate::diff::walk(&self.adjoint.rev, &mut |rev| {
            if let Some(expr) = crate::diff::evaluated(rev) {
                expr.visit_vars(&mut |v| {
                    read.insert(v);
                });
            }
            if let Rev::Gate { test, .. } = rev {
                test.visit_vars(&mut |v| {
                    read.insert(v);
                });
            }
            if let Rev::Pullback { args, .. } = rev {
                for arg in args {
                    if let Arg::Scalar(Operand::Var(v), _) = arg {
                        read.insert(*v);
                    }
                }
            }
        });
        read
    }

    /// The statements of `block`.
    pub(super) fn forward_block(&self, block: &Block) -> TokenStream {
        block.iter().map(|stmt| self.forward_stmt(stmt)).collect()
    }

    pub(super) fn forward_stmt(&self, stmt: &Stmt) -> TokenStream {
        match stmt {
            Stmt::Assign { dst, op } => {
                let (name, value) = (self.names.var(*dst), self.op(op));
                let value = super::tokens::located_ops(value, self.function.var(*dst).span);
                let record = self.record_entries(*dst, op);
                match op {
                    // Made only for what it writes: the callee may return `()`.
                    crate::ir::Op::Call(
                        crate::ir::Extern {
                            pair: Some(crate::ir::Pair { tangent: None }),
                            dropped: true,
                            ..
                        },
                        _,
                    ) => quote!(#record let _ = #value;),
                    crate::ir::Op::Call(
                        crate::ir::Extern {
                            pair: Some(pair), ..
                        },
                        _,
                    ) => {
                        let tangent = pair
                            .tangent
                            .map_or_else(|| quote!(_), |t| self.names.var(t).to_token_stream());
                        quote!(#record let (#name, #tangent) = #value;)
                    }
                    _ => quote!(#record let #name = #value;),
                }
            }
            Stmt::IntLet { dst, expr } => {
                let (name, value) = (self.names.var(*dst), self.int(expr));
                quote!(let #name = #value;)
            }
            Stmt::BoolLet { dst, cond } => {
                let (name, value) = (self.names.var(*dst), self.cond(cond));
                quote!(let #name = #value;)
            }
            Stmt::Array { dst, fill } => {
                let (name, fill) = (self.names.var(*dst), self.bound(fill));
                let value = self.filled(fill, &self.function.var(*dst).ty);
                let mutable = self.facts.stored.contains(dst).then(|| quote!(mut));
                quote!(let #mutable #name = #value;)
            }
            Stmt::Store {
                array,
                index,
                value,
            } => {
                let (array, index, value) = (
                    self.names.var(*array),
                    self.subscript(index),
                    self.operand(value),
                );
                quote!(#array #index = #value;)
            }
            Stmt::StoreAdd {
                array,
                index,
                value,
                negate,
            } => {
                let (array, index, value) = (
                    self.names.var(*array),
                    self.subscript(index),
                    self.operand(value),
                );
                let generic = self.function.scalar.is_generic();
                match (*negate, generic) {
                    (true, false) => quote!(#array #index -= #value;),
                    (false, false) => quote!(#array #index += #value;),
                    // `Float` has no `AddAssign`.
                    (true, true) => quote!(#array #index = #array #index - #value;),
                    (false, true) => quote!(#array #index = #array #index + #value;),
                }
            }
            Stmt::If(branch) => self.forward_if(branch),
            Stmt::Loop(the_loop) => self.forward_loop(the_loop),
            Stmt::Assert(assert) => self.assert(assert),
        }
    }

    /// `assert_eq!(a, b, "{}", m)` with each operand lowered; a format string is a literal,
    /// printed as the user wrote it.
    fn assert(&self, assert: &crate::ir::Assert) -> TokenStream {
        let name = proc_macro2::Ident::new(&assert.name, assert.span);
        let (operands, message) = assert.args.split_at(assert.operands);
        let operands = operands.iter().map(|arg| self.arg(arg));
        let message = message.iter().map(|arg| self.arg(arg));
        let format = assert.format.as_ref().map(|format| {
            let literal: proc_macro2::Literal = format
                .parse()
                .unwrap_or_else(|_| proc_macro2::Literal::string(""));
            quote!(, #literal)
        });
        quote!(::core::#name!(#(#operands),* #format #(, #message)*);)
    }

    /// `saved.extend_from_slice(&h[a..b]);` before a call the reverse sweep reverses, for each
    /// array it is lent as `&mut`: the callee's pullback reads the entries as they were on entry.
    fn record_entries(&self, call: VarId, op: &crate::ir::Op) -> TokenStream {
        let crate::ir::Op::Call(_, args) = op else {
            return TokenStream::new();
        };
        if !self.facts.saved_calls.contains(&call) {
            return TokenStream::new();
        }
        let saved = &self.tapes.saved;
        args.iter()
            .filter_map(|arg| match arg {
                Arg::Slice {
                    array,
                    lo,
                    hi,
                    mutable: true,
                    ..
                } => {
                    let name = self.names.var(*array);
                    let (lo, hi) = self.bounds(lo, hi);
                    Some(quote!(#saved.extend_from_slice(&#name[#lo..#hi]);))
                }
                _ => None,
            })
            .collect()
    }

    /// `let (joins.., exports..) = if c { ..; (..) } else { ..; (..) };`
    fn forward_if(&self, branch: &If) -> TokenStream {
        let exports = &self.adjoint.plan.exports[branch.id];
        let mut names = Vec::new();
        let (mut then_values, mut else_values) = (Vec::new(), Vec::new());
        for join in &branch.joins {
            names.push(self.names.var(join.dst));
            then_values.push(self.bound(&join.then));
            else_values.push(self.bound(&join.otherwise));
        }
        for (var, from_then) in exports {
            names.push(self.names.var(*var));
            let (here, other) = (self.operand(&Operand::Var(*var)), self.placeholder(*var));
            let (then, otherwise) = if *from_then {
                (here, other)
            } else {
                (other, here)
            };
            then_values.push(then);
            else_values.push(otherwise);
        }
        let then = self.forward_block(&branch.then);
        let otherwise = self.forward_block(&branch.otherwise);
        let (decision, cond) = match self.decision(branch) {
            Some(name) => {
                let cond = self.cond(&branch.cond);
                (quote!(let #name = #cond;), quote!(#name))
            }
            None => (TokenStream::new(), self.cond(&branch.cond)),
        };
        let statement = match names.len() {
            0 if then.is_empty() && otherwise.is_empty() => return decision,
            0 if otherwise.is_empty() => quote!(if #cond { #then }),
            0 => quote!(if #cond { #then } else { #otherwise }),
            1 => {
                let (name, a, b) = (&names[0], &then_values[0], &else_values[0]);
                quote!(let #name = if #cond { #then #a } else { #otherwise #b };)
            }
            _ => {
                quote!(let (#(#names),*) = if #cond { #then (#(#then_values),*) } else { #otherwise (#(#else_values),*) };)
            }
        };
        quote!(#decision #statement)
    }

    /// What an `if` yields for a value only the other branch defines: never read.
    fn placeholder(&self, var: VarId) -> TokenStream {
        match &self.adjoint.vars[var.0 as usize].ty {
            Ty::Bool => quote!(false),
            Ty::Int => quote!(0),
            // An empty `Vec` allocates nothing; its length may not be in scope here.
            ty if ty.is_vec() => quote!(::std::vec::Vec::new()),
            // The length of a local array is a constant, so it is also in scope here.
            ty if ty.is_local() => self.filled(self.function.scalar.zero(), ty),
            Ty::F64 | Ty::Floats { .. } | Ty::Data(_) => self.function.scalar.zero(),
        }
    }
}
