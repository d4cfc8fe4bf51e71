//! `f_jacobian`: the dense Jacobian of a function with several outputs: with fewer
//! differentiated `f64`s than outputs, one forward-mode sweep carrying a tangent per input
//! ([`crate::diff::tangent::columns`]); else one forward sweep and then one reverse sweep per
//! output, as below. The driver (`crate::driver`) chooses and differentiates.
//!
//! Before: `#[differentiable(jacobian)] fn r(x: f64, y: f64) -> [f64; 2] { [x * y, x + y] }`
//! After: `fn r_jacobian(x: f64, y: f64) -> ([f64; 2], [[f64; 2]; 2]) { let t0 = x * y;
//! let t1 = x + y; let row0 = { let d_x = y; let d_y = x; [d_x, d_y] };
//! let row1 = { [1.0, 1.0] }; ([t0, t1], [row0, row1]) }`
//!
//! Row `k` is the gradient of output `k` alone ([`Function::output`]), so its sweep reads only
//! what that output depends on: the row of one residual costs what that residual costs, not
//! what all of them do. Where the rows' forward sweeps differ (a loop records values for the
//! reverse sweep on tapes), one forward sweep records for every output, and one reverse sweep,
//! seeded with each unit vector in turn, replays the tapes (`Tape::replay`) once per row.

use super::{Emitter, Flavor, wrt};
use crate::attr::Options;
use crate::diff::Adjoint;
use crate::diff::tangent::Columns;
use crate::ir::{Function, Operand, Shape, VarId};
use crate::ir::{ParamSpec, Signature};
use crate::names::Names;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{ToTokens, quote};
use std::collections::HashSet;

/// What `f_jacobian` is printed from (the driver chooses, `crate::driver`).
pub enum Sweeps {
    /// The tangent programs of every differentiated `f64` merged into one forward sweep, and
    /// its (empty) reverse sweep.
    Columns(Columns, Adjoint),
    /// The reverse sweeps: `rows[k]`, output `k` alone and its sweep, and the sweep of every
    /// output seeded by an array.
    Rows {
        /// Output `k` alone and its reverse sweep, for each `k`.
        rows: Vec<(Function, Adjoint)>,
        /// The reverse sweep of every output (seeded by an array).
        seeded: Adjoint,
    },
}

/// The differentiated `f64`s and read-only slices of a row, and every parameter.
type Differentiated<'a> = (&'a [VarId], &'a [VarId], &'a [ParamSpec]);

/// What both ways of printing `f_jacobian` read.
struct Parts<'a> {
    function: &'a Function,
    specs: &'a [ParamSpec],
    params: Vec<(VarId, Ident)>,
    users: std::collections::HashSet<String>,
    options: &'a Options,
    /// The value's shape (`function` itself is seeded as an array).
    shape: Shape,
    /// The differentiated `f64`s and read-only slices.
    differentiated: (Vec<VarId>, Vec<VarId>),
}

/// The function around a body, with its doc; given the emitter that printed the body.
type Print<'p> = &'p dyn Fn(&Emitter, TokenStream) -> TokenStream;

/// `f_jacobian` for `function` (every output) from `sweeps`.
pub fn generate(
    sig: &Signature,
    function: &Function,
    sweeps: &Sweeps,
    options: &Options,
) -> TokenStream {
    let specs = &sig.params;
    let wrt = wrt(function, Flavor::Jacobian);
    let params = function.params.iter().zip(specs);
    let parts = Parts {
        function,
        specs,
        params: params.map(|(p, s)| (p.var, s.ident.clone())).collect(),
        users: sig.user_names.clone(),
        options,
        shape: match sig.output {
            Some(crate::ir::Output::Tuple(_)) => Shape::Tuple,
            _ => Shape::Array,
        },
        differentiated: function
            .params
            .iter()
            .map(|p| p.var)
            .filter(|v| wrt.contains(v))
            .partition(|v| function.var(*v).ty == crate::ir::Ty::F64),
    };
    let chosen: Vec<bool> = function.params.iter().map(|p| p.wrt).collect();
    let runtime = options.runtime();
    let signature = crate::header::signature(sig, &chosen, Flavor::Jacobian, None, &runtime);
    let print = |emitter: &Emitter, body: TokenStream| {
        // An array taken by value is read through a reference, as in every other flavor, so
        // passing it on (`g(&w)`, `g(&w[..])`, `g(w)`) prints as there.
        // A `y: &mut f64` is read as the one-entry slice it is, as in every other flavor.
        let mut arrays = emitter.one_entry_params(specs, &wrt, Flavor::Jacobian);
        arrays.extend(emitter.flattened(specs, &wrt));
        arrays.extend(emitter.array_params(specs, &wrt));
        // A parameter struct is never differentiated here (`check_output`), but its fields
        // are read through their bindings as in every other flavour.
        let name = crate::header::name(sig, Flavor::Jacobian);
        let fields = emitter.struct_prologue(specs, &wrt, &name);
        let code = quote! {
            #[allow(dead_code, unused_parens, clippy::all)]
            #signature {
                #arrays
                #fields
                #body
            }
        };
        let doc = emitter.doc(sig, &wrt, Flavor::Jacobian, &code);
        quote!(#doc #code)
    };
    match sweeps {
        Sweeps::Columns(columns, adjoint) => parts.forward(columns, adjoint, &print),
        Sweeps::Rows { rows, seeded } => parts.reverse(
            (rows, seeded),
            &crate::header::name(sig, Flavor::Jacobian),
            &print,
        ),
    }
}

impl Parts<'_> {
    /// One sweep carrying a tangent per differentiated `f64`.
    fn forward(&self, columns: &Columns, adjoint: &Adjoint, print: Print) -> TokenStream {
        let scalars = &self.differentiated.0;
        let names = Names::new(&adjoint.vars, &self.params, &self.users);
        let flavor = Flavor::Jacobian;
        let sweep = Emitter::new(&columns.function, adjoint, names, flavor, self.options);
        let body = sweep.forward_columns(&columns.values, scalars.len(), self.shape);
        print(&sweep, body)
    }

    /// One reverse sweep per output, after one shared forward sweep, or replaying the tapes
    /// of one that records for every output; each slice's Jacobian block checked first.
    fn reverse(
        &self,
        (rows, seeded): (&[(Function, Adjoint)], &Adjoint),
        name: &Ident,
        print: Print,
    ) -> TokenStream {
        let (params, users, options) = (&self.params, &self.users, self.options);
        let emitters: Vec<Emitter> = rows
            .iter()
            .map(|(row, adjoint)| {
                let names = Names::new(&adjoint.vars, params, users);
                Emitter::new(row, adjoint, names, Flavor::Jacobian, options)
            })
            .collect();
        let first = &emitters[0];
        let (scalars, slices) = &self.differentiated;
        let differentiated = (&scalars[..], &slices[..], self.specs);
        let results = (&self.function.results[..], self.shape);
        let body = first
            .shared_rows(results, &emitters, differentiated)
            .unwrap_or_else(|| {
                let names = Names::new(&seeded.vars, params, users);
                let flavor = Flavor::Jacobian;
                let mut all = Emitter::new(self.function, seeded, names, flavor, options);
                all.seed = Some(all.names.fresh("seed"));
                all.seeded_rows(differentiated, self.shape)
            });
        let blocks = first.blocks(slices, self.function.results.len(), name);
        print(first, quote!(#blocks #body))
    }
}

impl Emitter<'_> {
    /// The tapes and the forward sweep, which every row needs before its reverse sweep.
    fn prelude(&self) -> TokenStream {
        let tapes = self.tape_declarations();
        let forward = self.forward_block(&self.function.body);
        quote!(#tapes #forward)
    }

    /// The function's value, `[y₀, ..]` or `(y₀, ..)` as `shape` says.
    fn values(&self, results: &[Operand], shape: Shape) -> TokenStream {
        let values = results.iter().map(|r| self.operand(r));
        match shape {
            Shape::Array => quote!([#(#values),*]),
            _ => quote!((#(#values),*)),
        }
    }

    /// `{ reverse sweep; [∂fₖ/∂x₁, ..] }` for this emitter's row.
    fn row(&self, (scalars, slices, specs): Differentiated, k: &TokenStream) -> TokenStream {
        // Row `k`'s shadow of `w` is its part of the Jacobian block `d_w`: of rows of their own
        // lengths, its rows `k * w.len()..`, read by row and column again.
        let shadows = slices.iter().map(|var| {
            let (d_w, w) = (self.names.adjoint(*var), self.names.var(*var));
            let part = quote!(#k * #w.len()..(#k + 1) * #w.len());
            let ragged = self
                .function
                .params
                .iter()
                .zip(specs)
                .any(|(p, s)| p.var == *var && s.kind() == crate::types::Kind::Ragged);
            match ragged {
                true => {
                    let runtime = &self.runtime;
                    quote!(let #d_w = &mut #runtime::ragged::RaggedMut::new(&mut #d_w.0[#part]);)
                }
                false => quote!(let #d_w = &mut #d_w[#part];),
            }
        });
        // A `&mut [f64]` left out of `wrt(..)` still carries gradient from what is written
        // into it to what is read back: its row's adjoint is a local, zeros on entry, as in
        // `f_grad`.
        let wrt: HashSet<VarId> = scalars.iter().chain(slices).copied().collect();
        let constants = self.written_constants(specs, &wrt);
        let reverse = self.reverse_block(&self.adjoint.rev, None);
        let partials = scalars.iter().map(|v| {
            if self.adjoint.declared_params.contains(v) {
                let d = self.names.adjoint(*v);
                quote!(#d)
            } else {
                self.function.scalar.zero()
            }
        });
        quote!({ #(#shadows)* #constants #reverse [#(#partials),*] })
    }

    /// Checks each Jacobian block `d_w` has `m × w.len()` entries, then zeroes it (the rows'
    /// sweeps add into it).
    fn blocks(&self, slices: &[VarId], m: usize, name: &Ident) -> TokenStream {
        let each = slices.iter().map(|w| {
            let (w, d_w) = (self.names.var(*w), self.names.adjoint(*w));
            let message = format!(
                "{name}: the Jacobian block `{d_w}` has {{}} entries but `{w}` has {{}} and there are {m} outputs; it must have {m} * {w}.len()"
            );
            let m = Literal::usize_unsuffixed(m);
            let zero = self.function.scalar.zero();
            quote! {
                if #d_w.len() != #m * #w.len() {
                    ::core::panic!(#message, #d_w.len(), #w.len());
                }
                #d_w.fill(#zero);
            }
        });
        quote!(#(#each)*)
    }

    /// One shared forward sweep and a block per row, when the rows agree on it and record
    /// nothing.
    fn shared_rows(
        &self,
        (results, shape): (&[Operand], Shape),
        rows: &[Emitter],
        differentiated: Differentiated,
    ) -> Option<TokenStream> {
        let prelude = self.prelude();
        let text = prelude.to_string();
        let shared =
            self.tapes().is_empty() && rows.iter().all(|row| row.prelude().to_string() == text);
        if !shared {
            return None;
        }
        let names: Vec<Ident> = (0..rows.len())
            .map(|k| self.names.local(&format!("row{k}")))
            .collect();
        let blocks = rows.iter().zip(&names).enumerate().map(|(k, (row, name))| {
            let k = Literal::usize_unsuffixed(k).to_token_stream();
            let block = row.row(differentiated, &k);
            quote!(let #name = #block;)
        });
        let value = self.values(results, shape);
        Some(quote!(#prelude #(#blocks)* (#value, [#(#names),*])))
    }

    /// The forward sweep of the merged tangent programs ([`crate::diff::tangent::columns`]):
    /// `f`'s `values`, then row `i` of the Jacobian gathered from the `n` columns.
    fn forward_columns(&self, values: &[Operand], n: usize, shape: Shape) -> TokenStream {
        let forward = self.forward_block(&self.function.body);
        let m = values.len();
        let columns = &self.function.results;
        let rows = (0..m).map(|i| {
            let entries = (0..n).map(|j| self.operand(&columns[j * m + i]));
            quote!([#(#entries),*])
        });
        let value = self.values(values, shape);
        quote!(#forward (#value, [#(#rows),*]))
    }

    /// The entries lent to calls, which each row's callee pullbacks overwrite: a copy per
    /// row, in one buffer allocated once (`Tape::clone_from` keeps it), named as the tape is.
    fn lent_rows(&self) -> (TokenStream, TokenStream) {
        if self.facts.saved_calls.is_empty() {
            return Default::default();
        }
        let (saved, copy) = (&self.tapes.saved, self.names.local("saved_row"));
        let (runtime, scalar) = (&self.runtime, self.function.scalar.ty());
        (
            quote!(let mut #copy = #runtime::Tape::<#scalar>::new();),
            quote!(#copy.clone_from(&#saved); let #saved = &mut #copy;),
        )
    }

    /// One forward sweep that records for every output, then for each output `k` the reverse
    /// sweep seeded with the unit vector `e_k`, replaying the tapes.
    fn seeded_rows(&self, differentiated: Differentiated, shape: Shape) -> TokenStream {
        let scalars = differentiated.0;
        let prelude = self.prelude();
        let (k, rows) = (self.names.local("k"), self.names.local("rows"));
        let seed = self
            .seed
            .as_ref()
            .expect("internal error: the seeded sweep has a seed");
        let m = Literal::usize_unsuffixed(self.function.results.len());
        let n = Literal::usize_unsuffixed(scalars.len());
        let replays = self
            .tapes()
            .into_iter()
            .filter(|(tape, _, _)| **tape != self.tapes.saved)
            .map(|(tape, _, _)| quote!(let mut #tape = #tape.replay();));
        let (lent, relent) = self.lent_rows();
        let row = self.row(differentiated, &k.to_token_stream());
        let value = self.values(&self.function.results, shape);
        let (zero, one) = (self.function.scalar.zero(), self.function.scalar.one());
        quote! {
            #prelude
            #lent
            let mut #rows = [[#zero; #n]; #m];
            for #k in 0..#m {
                #(#replays)*
                #relent
                let mut #seed = [#zero; #m];
                #seed[#k] = #one;
                #rows[#k] = #row;
            }
            (#value, #rows)
        }
    }
}
