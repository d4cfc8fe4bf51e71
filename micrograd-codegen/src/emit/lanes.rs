//! Vector forward mode for `f_jacobian` of a function writing its outputs: the hidden
//! `__f_jvp_lanes`, `f_jvp` along [`LANES`] directions in one sweep (the primal once), printed
//! from [`crate::diff::tangent::lanes`] as `f_jvp` is from its tangent program, with its
//! narrower kin `__f_jvp_lanes4`, `__f_jvp_lanes2`, `__f_jvp_lanes1` ([`WIDTHS`]); and the
//! loop of `f_jacobian` that calls the widest once per chunk of that many columns and, for the
//! columns left, the narrowest that holds them.
//!
//! Before: `#[differentiable(jacobian)] fn f(x: &[f64], out: &mut [f64]) { .. }`
//! After: `fn __f_jvp_lanes(x: &[f64], v0_x: &[f64], .., v7_x: &[f64], out: &mut [f64],
//! v0_out: &mut [f64], .., v7_out: &mut [f64]) { /* f_jvp's sweep, 8 tangents per value */ }`
//! (and `__f_jvp_lanes4`, .. with 4, 2, 1 tangents) and in `f_jacobian`: `while c0 < n {`
//! `let k = match n - c0 { 1 => 1, 2 => 2, 3..=4 => 4, _ => 8 };` `/* unit directions`
//! `c0..c0 + k */ /* outputs restored */ match k { 1 => __f_jvp_lanes1(x, &dirs[0], .., out,`
//! `v0_out), .., _ => __f_jvp_lanes(..) } /* scatter */ c0 += k; }`

use super::written_jacobian::Role;
use super::{Emitter, Flavor, wrt};
use crate::attr::Options;
use crate::diff::Adjoint;
use crate::diff::tangent::{LANES, Lanes, WIDTHS};
use crate::ir::{ParamSpec, Signature};
use crate::names::{self, Names};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

/// `__f_jvp_lanes` of `sig` (or its kin of `lanes.k` lanes) from its merged tangent programs
/// `lanes`.
pub fn function(sig: &Signature, lanes: &Lanes, options: &Options) -> TokenStream {
    let mut used: std::collections::HashSet<String> =
        sig.params.iter().map(|s| names::text(&s.ident)).collect();
    let mut all: Vec<ParamSpec> = Vec::new();
    for (spec, tangents) in sig.params.iter().zip(&lanes.tangents) {
        all.push(spec.clone());
        for lane in 0..tangents.len() {
            let text = names::free(&mut used, &format!("v{lane}_{}", names::text(&spec.ident)));
            all.push(ParamSpec {
                ident: names::ident(&names::text(&text), spec.ident.span()),
                ..spec.clone()
            });
        }
    }
    let params = super::tangent::spec_names(&lanes.function.params, &all);
    let adjoint = Adjoint::none(&lanes.function);
    let names = Names::new(&adjoint.vars, &params, &sig.user_names);
    let mut emitter = Emitter::new(&lanes.function, &adjoint, names, Flavor::Jvp, options);
    emitter.values = lanes.values.clone();
    emitter.tangent.pairs = (lanes.primals.iter())
        .zip(&lanes.tangents)
        .flat_map(|(p, tangents)| tangents.iter().map(|t| (*p, *t)))
        .collect();
    emitter.tangent.unread = lanes.unread.clone();
    let name = names::lanes(&sig.ident, lanes.k);
    let (generics, bounds) = (&sig.generics, &sig.bounds);
    let typed = all.iter().map(|spec| {
        let ident = names::param(&spec.ident);
        let ty = crate::header::param_type(spec);
        quote!(#ident: #ty)
    });
    let signature = quote!(#[inline] fn #name #generics (#(#typed),*) #bounds);
    let program = Signature {
        params: all,
        ..sig.clone()
    };
    let wrt = wrt(&lanes.function, Flavor::Jvp);
    let code = emitter.function_code(&program, &wrt, Flavor::Jvp, signature, &name);
    quote!(#[doc(hidden)] #code)
}

/// What the chunk loop of `f_jacobian` is printed from: `f_jacobian`'s parameters and what it
/// does with each, its fresh names and the restoring statements.
pub struct Loop<'r> {
    /// Each parameter's name, role and type.
    pub params: Vec<(&'r Ident, &'r Role, &'r ParamSpec)>,
    /// `f`'s name: the callee is `__f_jvp_lanes`.
    pub f: &'r Ident,
    /// Fresh names for the loop's locals, minted by the caller.
    pub fresh: &'r mut dyn FnMut(&str) -> Ident,
    /// Restores the outputs (and written parameters left out) to their values on entry.
    pub restore: &'r [TokenStream],
    /// The float's zero and one.
    pub zero_one: (TokenStream, TokenStream),
    /// The float type.
    pub float: TokenStream,
}

/// A differentiated parameter's columns: its name, its block, their offset among the
/// columns, how many, and its directions, one per lane (`[Vec<f64>; K]`, `[f64; K]`).
struct Columns<'r> {
    p: &'r Ident,
    shadow: &'r Ident,
    offset: Ident,
    width: TokenStream,
    lanes: Ident,
    scalar: bool,
    array: bool,
}

/// An output's tangents, one per lane, and the names each lane's is lent under in the call.
struct Output<'r> {
    p: &'r Ident,
    lanes: Ident,
    lent: Vec<Ident>,
    one: bool,
}

/// The chunk loop's locals: the column count `n`, the chunk's first column `c0` and width
/// `k`, a lane's column `c`, a row `i`, an entry `t`, a lane `l`.
struct Locals {
    n: Ident,
    c0: Ident,
    k: Ident,
    c: Ident,
    i: Ident,
    t: Ident,
    l: Ident,
}

/// The chunk loop, its parts read from `f_jacobian`'s parameters.
struct Chunks<'r> {
    params: &'r [(&'r Ident, &'r Role, &'r ParamSpec)],
    inputs: Vec<Columns<'r>>,
    outputs: Vec<Output<'r>>,
    locals: Locals,
    zero: TokenStream,
    float: TokenStream,
    /// The lane arrays' length, the widest sweep's lanes.
    wide: Literal,
}

impl Loop<'_> {
    /// The columns, [`LANES`] per call while as many are left, then one call of the narrowest
    /// of [`WIDTHS`] that holds the rest: `n` columns, each differentiated slice's entries or
    /// `f64` in parameter order.
    pub fn columns(self) -> TokenStream {
        let Loop {
            params,
            f,
            fresh,
            restore,
            zero_one: (zero, one),
            float,
        } = self;
        let locals = Locals {
            n: fresh("n"),
            c0: fresh("c0"),
            k: fresh("k"),
            c: fresh("c"),
            i: fresh("i"),
            t: fresh("t"),
            l: fresh("l"),
        };
        let mut chunks = Chunks {
            params: &params,
            inputs: Vec::new(),
            outputs: Vec::new(),
            locals,
            zero,
            float,
            wide: Literal::usize_unsuffixed(LANES),
        };
        chunks.read(fresh);
        let (offsets, setup, zeroing) = chunks.setup();
        let (units, clears) = (chunks.set(&one), chunks.set(&chunks.zero));
        let (lend, calls) = chunks.calls(f);
        let scatter = chunks.scatter();
        let Locals { n, c0, k, c, l, .. } = &chunks.locals;
        let widths = chunks.inputs.iter().map(|input| &input.width);
        let choose = choose(&quote!(#n - #c0));
        quote! {
            #(#offsets)*
            let #n: usize = 0 #(+ #widths)*;
            #(#setup)*
            let mut #c0 = 0usize;
            while #c0 < #n {
                let #k: usize = #choose;
                #units
                #(#restore)*
                #(#zeroing)*
                {
                    #(#lend)*
                    #calls
                }
                #clears
                for #l in 0..#k {
                    let #c = #c0 + #l;
                    if #c < #n { #(#scatter)* }
                }
                #c0 += #k;
            }
        }
    }
}

impl<'r> Chunks<'r> {
    /// The differentiated inputs and the outputs, with names for their lanes.
    fn read(&mut self, fresh: &mut dyn FnMut(&str) -> Ident) {
        for (p, role, spec) in self.params {
            let text = names::text(p);
            match role {
                Role::Slice { shadow, .. } | Role::Scalar { shadow, .. } => {
                    let scalar = matches!(role, Role::Scalar { .. });
                    self.inputs.push(Columns {
                        p,
                        shadow,
                        offset: fresh(&format!("o_{text}")),
                        width: if scalar { quote!(1) } else { quote!(#p.len()) },
                        lanes: fresh(&format!("v_{text}")),
                        scalar,
                        array: matches!(spec.kind(), crate::types::Kind::Slice(Some(_))),
                    });
                }
                Role::Written {
                    one,
                    tangent: Some(_),
                    ..
                } => self.outputs.push(Output {
                    p,
                    lanes: fresh(&format!("v_{text}")),
                    lent: (0..LANES)
                        .map(|lane| fresh(&format!("v{lane}_{text}")))
                        .collect(),
                    one: *one,
                }),
                _ => {}
            }
        }
    }

    /// Each input's offset among the columns; every lane array (`[f64; K]` for an `f64` or a
    /// one-entry output, `[Vec<f64>; K]` for a slice); the outputs' tangents zeroed.
    fn setup(&self) -> (Vec<TokenStream>, Vec<TokenStream>, Vec<TokenStream>) {
        let (zero, float, k, t) = (&self.zero, &self.float, &self.wide, &self.locals.t);
        let inputs = &self.inputs;
        let offsets = inputs.iter().enumerate().map(|(at, input)| {
            let (o, before) = (&input.offset, inputs[..at].iter().map(|b| &b.width));
            quote!(let #o: usize = 0 #(+ #before)*;)
        });
        let lanes_of = |p: &Ident, v: &Ident, scalar: bool| {
            if scalar {
                quote!(let mut #v: [#float; #k] = [#zero; #k];)
            } else {
                quote!(let mut #v: [::std::vec::Vec<#float>; #k] =
                    ::core::array::from_fn(|_| ::std::vec![#zero; #p.len()]);)
            }
        };
        let setup = (inputs
            .iter()
            .map(|input| lanes_of(input.p, &input.lanes, input.scalar)))
        .chain((self.outputs.iter()).map(|out| lanes_of(out.p, &out.lanes, out.one)));
        let zeroing = self.outputs.iter().map(|out| {
            let (v, live) = (&out.lanes, &self.locals.k);
            if out.one {
                quote!(#v = [#zero; #k];)
            } else {
                quote!(for #t in #v[..#live].iter_mut() { #t.fill(#zero); })
            }
        });
        (offsets.collect(), setup.collect(), zeroing.collect())
    }

    /// Each lane's direction along its column `c` set to `value`.
    fn set(&self, value: &TokenStream) -> TokenStream {
        let Locals { n, c0, k, c, l, .. } = &self.locals;
        let each = self.inputs.iter().map(|input| {
            let (o, w, v) = (&input.offset, &input.width, &input.lanes);
            let entry = if input.scalar {
                quote!(#v[#l] = #value;)
            } else {
                quote!(#v[#l][#c - #o] = #value;)
            };
            quote!(if #c >= #o && #c < #o + #w { #entry })
        });
        quote! {
            for #l in 0..#k {
                let #c = #c0 + #l;
                if #c < #n { #(#each)* }
            }
        }
    }

    /// The outputs' lanes lent by destructuring, and the call of the sweep as wide as the
    /// chunk: a `match` on its width `k`, each arm's arguments each parameter, then its
    /// direction or tangent in each of the first `k` lanes.
    fn calls(&self, f: &Ident) -> (Vec<TokenStream>, TokenStream) {
        let arms = WIDTHS.iter().map(|&width| {
            let (callee, args) = (names::lanes(f, width), self.args(width));
            let call = quote!(#callee(#(#args),*));
            match width {
                LANES => quote!(_ => #call,),
                _ => {
                    let width = Literal::usize_unsuffixed(width);
                    quote!(#width => #call,)
                }
            }
        });
        // The widest last: its arm is `_`.
        let arms: Vec<TokenStream> = arms.collect();
        let (widest, narrower) = arms.split_first().expect("one width at least");
        let k = &self.locals.k;
        let lend = self.outputs.iter().map(|out| {
            let (v, lent) = (&out.lanes, &out.lent);
            quote!(let [#(#lent),*] = &mut #v;)
        });
        let call = quote!(match #k { #(#narrower)* #widest });
        (lend.collect(), call)
    }

    /// The arguments of the sweep of `width` lanes.
    fn args(&self, width: usize) -> Vec<TokenStream> {
        let mut args = Vec::new();
        let (mut at_input, mut at_output) = (self.inputs.iter(), self.outputs.iter());
        for (p, role, _) in self.params {
            args.push(quote!(#p));
            match role {
                Role::Slice { .. } | Role::Scalar { .. } => {
                    let input = at_input.next().expect("one per input");
                    let v = &input.lanes;
                    args.extend((0..width).map(|lane| {
                        let lane = Literal::usize_unsuffixed(lane);
                        match (input.scalar, input.array) {
                            (true, _) => quote!(#v[#lane]),
                            (false, false) => quote!(&#v[#lane]),
                            (false, true) => quote!((&#v[#lane][..]).try_into().unwrap()),
                        }
                    }));
                }
                Role::Written {
                    tangent: Some(_), ..
                } => {
                    let out = at_output.next().expect("one per output");
                    args.extend(out.lent[..width].iter().map(|v| quote!(#v)));
                }
                _ => {}
            }
        }
        args
    }

    /// Lane `l`'s column `c` into its block: entry `c - o` of row `i` of `d_w`.
    fn scatter(&self) -> Vec<TokenStream> {
        let Locals { c, i, t, l, .. } = &self.locals;
        let scatter = self.inputs.iter().map(|input| {
            let (shadow, o, w) = (input.shadow, &input.offset, &input.width);
            let each = self.outputs.iter().map(|out| {
                let v = &out.lanes;
                let cell = quote!(#shadow[#i * #w + (#c - #o)]);
                if out.one {
                    quote!(#cell = #v[#l]; #i += 1;)
                } else {
                    quote!(for #t in #v[#l].iter() { #cell = *#t; #i += 1; })
                }
            });
            quote! {
                if #c >= #o && #c < #o + #w {
                    let mut #i = 0usize;
                    #(#each)*
                }
            }
        });
        scatter.collect()
    }
}

/// The width of a chunk of `left` columns (never 0): [`LANES`] while that many are left, else
/// the narrowest of [`WIDTHS`] that holds them (`match left { 1 => 1, 2 => 2, 3..=4 => 4,`
/// `_ => 8 }`).
fn choose(left: &TokenStream) -> TokenStream {
    let mut ascending = WIDTHS;
    ascending.sort_unstable();
    let mut from = 1;
    let arms = ascending[..ascending.len() - 1].iter().map(|&width| {
        let (lo, hi) = (
            Literal::usize_unsuffixed(from),
            Literal::usize_unsuffixed(width),
        );
        let arm = match from == width {
            true => quote!(#hi => #hi,),
            false => quote!(#lo..=#hi => #hi,),
        };
        from = width + 1;
        arm
    });
    let arms: Vec<TokenStream> = arms.collect();
    let widest = Literal::usize_unsuffixed(LANES);
    quote!(match #left { #(#arms)* _ => #widest })
}
