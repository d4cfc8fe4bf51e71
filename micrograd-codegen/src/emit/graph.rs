//! `f_graph`: the forward sweep again, recording every value as a node of a
//! `micrograd_runtime::Graph` with its local partials, so the computation can be drawn.
//!
//! Before: `let c = a * b;`
//! After: `let c = a * b; let c_node = graph.op("*", &[(a_node, b), (b_node, a)], c);`
//!
//! The local partials come from the same derivative table as the reverse sweep, seeded with 1.

mod call;

use super::Emitter;
use crate::diff::{Expr, rules};
use crate::ir::{Block, If, IntExpr, Loop, Op, Operand, Origin, Stmt, Ty, VarId};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

impl Emitter<'_> {
    /// The body of `f_graph`.
    pub(super) fn graph_body(&self) -> TokenStream {
        let (graph, runtime) = (&self.graph.name, &self.runtime);
        let mut tokens = quote!(let mut #graph = #runtime::Graph::new(););
        for param in &self.function.params {
            if self.is_whole(param.var) {
                continue;
            }
            tokens.extend(self.graph_param(param.var));
        }
        tokens.extend(self.graph_block(&self.function.body));
        let mut prelude = Vec::new();
        // A graph walks back from one node: `graph` is refused for vector outputs.
        let [result] = &self.function.results[..] else {
            unreachable!("internal error: `f_graph` of a function with several outputs")
        };
        let node = self.node_of(result, &mut prelude);
        tokens.extend(quote! {
            #(#prelude)*
            #graph.backward(#node);
            #graph
        });
        tokens
    }

    fn node(&self, var: VarId) -> &Ident {
        &self.graph.nodes[var.0 as usize]
    }

    fn graph_param(&self, var: VarId) -> TokenStream {
        let (graph, name, node) = (&self.graph.name, self.names.var(var), self.node(var));
        let runtime = &self.runtime;
        let label = crate::names::text(name);
        let (i, value) = (self.names.local("i"), self.names.local("value"));
        match &self.function.var(var).ty {
            Ty::F64 => quote!(let #node = #graph.leaf(#label, #name);),
            ty if ty.is_lent() => {
                let mutable = self.facts.stored.contains(&var).then(|| quote!(mut));
                quote! {
                let #mutable #node: ::std::vec::Vec<#runtime::graph::NodeId> = #name
                    .iter()
                    .enumerate()
                    .map(|(#i, #value)| #graph.leaf(&::std::format!("{}[{}]", #label, #i), *#value))
                    .collect();
                }
            }
            _ => TokenStream::new(),
        }
    }

    /// The node of an operand: a constant becomes a node of its own, created in `prelude`
    /// (the graph cannot be borrowed twice in one call).
    fn node_of(&self, operand: &Operand, prelude: &mut Vec<TokenStream>) -> TokenStream {
        match operand {
            Operand::Var(v) => {
                let node = self.node(*v);
                quote!(#node)
            }
            constant => {
                let (graph, value) = (&self.graph.name, self.operand(constant));
                let name = self.names.local(&format!("constant{}", prelude.len()));
                prelude.push(quote!(let #name = #graph.constant(#value);));
                quote!(#name)
            }
        }
    }

    /// `{ prelude; value }`, or just `value` when there is no prelude.
    fn with_prelude(prelude: Vec<TokenStream>, value: TokenStream) -> TokenStream {
        if prelude.is_empty() {
            value
        } else {
            quote!({ #(#prelude)* #value })
        }
    }

    fn graph_block(&self, block: &Block) -> TokenStream {
        block.iter().map(|stmt| self.graph_stmt(stmt)).collect()
    }

    fn graph_stmt(&self, stmt: &Stmt) -> TokenStream {
        let graph = &self.graph.name;
        match stmt {
            Stmt::Assign { dst, op } => self.graph_assign(*dst, op),
            Stmt::Array { dst, fill } => {
                let mut prelude = Vec::new();
                let (node, fill) = (self.node(*dst), self.node_of(fill, &mut prelude));
                let nodes = self.filled(fill, &self.function.var(*dst).ty);
                let mutable = self.facts.stored.contains(dst).then(|| quote!(mut));
                let value = self.forward_stmt(stmt);
                quote!(#value #(#prelude)* let #mutable #node = #nodes;)
            }
            Stmt::Store {
                array,
                index,
                value,
            } => {
                let mut prelude = Vec::new();
                let (node, index, from) = (
                    self.node(*array),
                    self.int(index),
                    self.node_of(value, &mut prelude),
                );
                let forward = self.forward_stmt(stmt);
                quote!(#forward #(#prelude)* #node[#index] = #from;)
            }
            Stmt::StoreAdd {
                array,
                index,
                value,
                negate,
            } => {
                let mut prelude = Vec::new();
                let (node, at, from) = (
                    self.node(*array),
                    self.int(index),
                    self.node_of(value, &mut prelude),
                );
                let name = self.names.var(*array);
                // `1.0`, or `T::one()` for a generic float.
                let one = self.function.scalar.one();
                let (op, sign) = if *negate {
                    ("-", quote!(-#one))
                } else {
                    ("+", one.clone())
                };
                let forward = self.forward_stmt(stmt);
                quote! {
                    #forward
                    #(#prelude)*
                    #node[#at] = #graph.op(#op, &[(#node[#at], #one), (#from, #sign)], #name[#at]);
                }
            }
            Stmt::IntLet { .. } | Stmt::BoolLet { .. } | Stmt::Assert(_) => self.forward_stmt(stmt),
            Stmt::If(branch) => self.graph_if(branch),
            Stmt::Loop(the_loop) => self.graph_loop(the_loop),
        }
    }

    fn graph_assign(&self, dst: VarId, op: &Op) -> TokenStream {
        let graph = &self.graph.name;
        let (name, value, node) = (self.names.var(dst), self.op(op), self.node(dst));
        let value = super::tokens::located_ops(value, self.function.var(dst).span);
        let mut prelude = Vec::new();
        let created = match op {
            Op::Copy(a) => self.node_of(a, &mut prelude),
            Op::Load(array, index) => {
                let (array, index) = (self.node(*array), self.int(index));
                quote!(#array[#index])
            }
            Op::FromInt(_) | Op::Data(_) => quote!(#graph.constant(#name)),
            // A `derivative(..)` rule's value: a number the body's node reads as its partial,
            // not a node of its own.
            Op::Call(callee, _) if callee.rule.is_some() => return quote!(let #name = #value;),
            Op::Call(callee, args) => self.graph_call(callee, args, name),
            _ => {
                let inputs = self.partials(op, dst, &mut prelude);
                // The body of a function with `derivative(..)` rules is one node, named `f`.
                let label = match op {
                    Op::Custom(_) => self.function.name.clone(),
                    _ => op_label(op),
                };
                quote!(#graph.op(#label, &[#(#inputs),*], #name))
            }
        };
        let created = Self::with_prelude(prelude, created);
        let label = match &self.function.var(dst).origin {
            Origin::Named { name, .. } if !matches!(op, Op::Copy(_) | Op::Load(..)) => {
                Some(quote!(#graph.set_label(#node, #name);))
            }
            _ => None,
        };
        quote! {
            let #name = #value;
            let #node = #created;
            #label
        }
    }

    /// `(input node, ∂y/∂input)` for each operand of `op`.
    fn partials(&self, op: &Op, dst: VarId, prelude: &mut Vec<TokenStream>) -> Vec<TokenStream> {
        let Some(rules) = rules::pullback(op, dst, Expr::Const(1.0)) else {
            return Vec::new();
        };
        rules
            .into_iter()
            .filter_map(|(target, partial)| {
                let node = match target {
                    rules::Target::Operand(operand) => self.node_of(operand, prelude),
                    rules::Target::Elem(..) => return None,
                };
                let partial = self.expr(&partial);
                Some(quote!((#node, #partial)))
            })
            .collect()
    }

    fn graph_if(&self, branch: &If) -> TokenStream {
        let cond = self.cond(&branch.cond);
        let (then, otherwise) = (
            self.graph_block(&branch.then),
            self.graph_block(&branch.otherwise),
        );
        let mut names = Vec::new();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for join in &branch.joins {
            names.push(self.names.var(join.dst).clone());
            if self.adjoint.vars[join.dst.0 as usize].ty != Ty::F64 {
                // The result of a `&&` / `||`, or an integer a branch gives (`let (i, z) = if
                // .. { (2, x) } else { (3, y) };`): a decision or a count, not a node.
                a.push(self.bound(&join.then));
                b.push(self.bound(&join.otherwise));
                continue;
            }
            names.push(self.node(join.dst).clone());
            let (mut then_prelude, mut else_prelude) = (Vec::new(), Vec::new());
            let then_node = self.node_of(&join.then, &mut then_prelude);
            let else_node = self.node_of(&join.otherwise, &mut else_prelude);
            a.extend([
                self.bound(&join.then),
                Self::with_prelude(then_prelude, then_node),
            ]);
            b.extend([
                self.bound(&join.otherwise),
                Self::with_prelude(else_prelude, else_node),
            ]);
        }
        if names.is_empty() {
            return quote!(if #cond { #then } else { #otherwise });
        }
        quote!(let (#(#names),*) = if #cond { #then (#(#a),*) } else { #otherwise (#(#b),*) };)
    }

    fn graph_loop(&self, the_loop: &Loop) -> TokenStream {
        let mut slots = TokenStream::new();
        let mut write_backs = TokenStream::new();
        for carried in &the_loop.carried {
            let (slot, node) = (self.names.var(carried.slot), self.node(carried.slot));
            // A flag an exit carries out: a decision, not a node of the graph.
            if self.adjoint.vars[carried.slot.0 as usize].ty != Ty::F64 {
                let (init, exit) = (self.bound(&carried.init), self.operand(&carried.exit));
                slots.extend(quote!(let mut #slot = #init;));
                write_backs.extend(quote!(#slot = #exit;));
                continue;
            }
            let mut prelude = Vec::new();
            let (init, init_node) = (
                self.bound(&carried.init),
                self.node_of(&carried.init, &mut prelude),
            );
            let init_node = Self::with_prelude(prelude, init_node);
            if carried.exit == Operand::Var(carried.slot) {
                slots.extend(quote!(let #slot = #init; let #node = #init_node;));
            } else {
                let mut prelude = Vec::new();
                let (exit, exit_node) = (
                    self.operand(&carried.exit),
                    self.node_of(&carried.exit, &mut prelude),
                );
                let exit_node = Self::with_prelude(prelude, exit_node);
                slots.extend(quote!(let mut #slot = #init; let mut #node = #init_node;));
                write_backs.extend(quote!(#slot = #exit; #node = #exit_node;));
            }
        }
        let header = self.header(the_loop, false);
        let (open, first, last) = (header.open, header.first, header.last);
        let body = self.graph_block(&the_loop.body);
        quote! {
            #slots
            #open {
                #first
                #body
                #write_backs
                #last
            }
        }
    }
}

/// How an operation is labelled in the drawing: `+`, `*`, `tanh`, `powi(3)`.
fn op_label(op: &Op) -> String {
    match op {
        Op::Add(..) => "+".into(),
        Op::Sub(..) => "-".into(),
        Op::Mul(..) => "*".into(),
        Op::Div(..) => "/".into(),
        Op::Neg(_) => "neg".into(),
        Op::Powi(_, IntExpr::Lit { value, .. }) => format!("powi({value})"),
        Op::Powi(..) => "powi".into(),
        Op::Call1(f, _) => f.name().into(),
        Op::Call2(f, ..) => f.name().into(),
        Op::Call3(f, ..) => f.name().into(),
        Op::Copy(_)
        | Op::FromInt(_)
        | Op::Data(_)
        | Op::Load(..)
        | Op::Call(..)
        | Op::Custom(_) => String::new(),
    }
}
