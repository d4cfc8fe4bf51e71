//! `f_graph`'s node of a call of another differentiable function: its partials from the
//! callee's pullback, one per `f64` argument and a buffer per slice.

use super::super::Emitter;
use super::super::tokens::external;
use crate::ir::Arg;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

impl Emitter<'_> {
    /// A call to another differentiable function: one node, its partials from the pullback.
    pub(super) fn graph_call(
        &self,
        callee: &crate::ir::Extern,
        args: &[Arg],
        value: &Ident,
    ) -> TokenStream {
        let graph = &self.graph.name;
        let mut path = callee.clone();
        if let Some(last) = path.path.last_mut() {
            last.push_str("_pullback");
        }
        let pullback = external(&path);
        let list = self.names.local("inputs");
        let CallArgs {
            call_args,
            buffers,
            inputs,
            scalars,
            partial_names,
            prelude,
        } = self.graph_call_args(args, &list);
        // Each `f64` argument with its partial, paired where they are made: integers, booleans
        // and data among the arguments have no partial.
        let (scalars, scalar_partials): (Vec<_>, Vec<_>) = scalars.into_iter().unzip();
        let label = callee.path.last().cloned().unwrap_or_default();
        let one = self.function.scalar.literal(1.0, true);
        let zero = self.function.scalar.zero();
        let one = super::super::tokens::entry_seed(self, callee, one, &zero);
        let call = super::super::tokens::call(pullback, quote!(#(#call_args,)* #one), callee.span);
        let bind = match partial_names.len() {
            0 => quote!(#call;),
            1 => quote!(let #(#partial_names)* = #call;),
            _ => quote!(let (#(#partial_names),*) = #call;),
        };
        quote! {{
            #(#prelude)*
            #buffers
            #bind
            let mut #list = ::std::vec::Vec::new();
            #(#list.push((#scalars, #scalar_partials));)*
            #inputs
            #graph.op(#label, &#list, #value)
        }}
    }
    /// The pullback call's arguments and what the node takes from them: each `f64`'s node and
    /// its partial, each slice's nodes beside its partials' buffer, pushed onto `list`.
    fn graph_call_args(&self, args: &[Arg], list: &Ident) -> CallArgs {
        let mut out = CallArgs::default();
        let (node, partial) = (self.names.local("node"), self.names.local("partial"));
        for (k, arg) in args.iter().enumerate() {
            out.call_args.push(self.arg(arg));
            match arg {
                Arg::Scalar(operand, _) => {
                    let name = self.names.local(&format!("partial{k}"));
                    out.scalars
                        .push((self.node_of(operand, &mut out.prelude), name.clone()));
                    out.partial_names.push(name);
                }
                Arg::Slice {
                    array,
                    by_value: true,
                    ..
                } => {
                    let partials = self.names.local(&format!("partials{k}"));
                    let nodes = self.node(*array);
                    out.inputs.extend(quote! {
                        for (#node, #partial) in #nodes.iter().zip(&#partials) {
                            #list.push((*#node, *#partial));
                        }
                    });
                    out.partial_names.push(partials);
                }
                Arg::Slice {
                    array,
                    lo,
                    hi,
                    rows,
                    ..
                } => {
                    let buffer = self.names.local(&format!("shadow{k}"));
                    let slice = self.flat_arg(arg);
                    let (lo, hi) = (
                        lo.as_ref().map(|e| self.int(e)),
                        hi.as_ref().map(|e| self.int(e)),
                    );
                    let nodes = self.node(*array);
                    let zero = self.function.scalar.zero();
                    out.buffers
                        .extend(quote!(let mut #buffer = ::std::vec![#zero; (#slice).len()];));
                    out.call_args.push(match rows {
                        // Rows passed whole: their partials as rows too.
                        Some(row) => self.rechunked(quote!(&mut #buffer[..]), row, true),
                        None => quote!(&mut #buffer),
                    });
                    out.inputs.extend(quote! {
                        for (#node, #partial) in #nodes[#lo..#hi].iter().zip(&#buffer) {
                            #list.push((*#node, *#partial));
                        }
                    });
                }
                Arg::Int(_) | Arg::Bool(_) | Arg::Data { .. } => {}
            }
        }
        out
    }
}

/// What [`Emitter::graph_call_args`] gives a call's node.
#[derive(Default)]
struct CallArgs {
    /// The pullback's arguments.
    call_args: Vec<TokenStream>,
    /// The partials' buffers of the slices, declared before the call.
    buffers: TokenStream,
    /// The slices' nodes and partials pushed onto the node's inputs.
    inputs: TokenStream,
    /// Each `f64` argument's node and the name of its partial.
    scalars: Vec<(TokenStream, Ident)>,
    /// The names the call's partials are bound to.
    partial_names: Vec<Ident>,
    /// The constants' nodes, made before the call.
    prelude: Vec<TokenStream>,
}
