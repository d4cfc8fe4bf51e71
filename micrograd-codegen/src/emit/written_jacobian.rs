//! `f_jacobian` of a function returning `()` that writes its outputs through `&mut`
//! parameters: one column per differentiated input entry, each from one call of the generated
//! `f_jvp` (a unit tangent along that entry, the outputs' tangents zero on entry), the outputs
//! restored to their values on entry before each call so every column sees what `f` sees.
//!
//! Before: `#[differentiable(jacobian)] fn f(x: &[f64], a: f64, out: &mut [f64]) { .. }`
//! After: `fn f_jacobian(x: &[f64], d_x: &mut [f64], a: f64, d_a: &mut [f64],
//! out: &mut [f64]) { let m = out.len(); /* check d_x, d_a */ let entry_out = out.to_vec();
//! for j in 0..x.len() { v_x[j] = 1.0; out.copy_from_slice(&entry_out); v_out.fill(0.0);
//! f_jvp(x, &v_x, a, 0.0, out, &mut v_out); v_x[j] = 0.0; /* d_x[i * x.len() + j] = v_out[i] */ }
//! /* a's column into d_a */ }`
//!
//! The outputs are counted in parameter order, each `&mut [f64]`'s entries then each
//! `&mut f64`'s one: `m` of them. A read-only slice `w` is followed by its Jacobian block
//! `d_w` (`m × w.len()`, row-major, as for `-> [f64; M]`), an `f64` `a` by its column `d_a`
//! (`m` entries: the block of a one-entry slice), since `m` is known only when it runs.
//! A written `&mut` parameter `wrt(..)` leaves out is no output but is restored with them.
//! The primal runs once per column (with none, one call along no direction writes the outputs): a sweep sharing
//! one primal among the columns is left to come.

use crate::attr::Options;
use crate::diff::tangent::{LANES, Lanes};
use crate::flavor::Flavor;
use crate::ir::Signature;
use crate::names;
use crate::types::Kind;
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::HashSet;

/// What `f_jacobian` does with a parameter.
pub(super) enum Role {
    /// Passed through; its tangent in `f_jvp`, if it has one, is `None`.
    Through,
    /// A written `&mut [f64]` (`one` for a `&mut f64`), restored to its value on entry
    /// before each call: an output with its `tangent` where `wrt(..)` lists it; else no
    /// output and no tangent, restored all the same, since what `f` reads of it
    /// (`extra[i] += ..`) must be what the first call read.
    Written {
        one: bool,
        entry: Ident,
        tangent: Option<Ident>,
    },
    /// A differentiated `f64`, its column `d_a` after it.
    Scalar { shadow: Ident, tangent: Ident },
    /// A differentiated read-only slice, its block `d_w` after it.
    Slice { shadow: Ident, tangent: Ident },
}

impl Role {
    /// An output's tangent, and whether it is one `&mut f64`.
    fn output(&self) -> Option<(bool, &Ident)> {
        match self {
            Role::Written {
                one,
                tangent: Some(tangent),
                ..
            } => Some((*one, tangent)),
            _ => None,
        }
    }

    /// A written parameter `p` set back to its value on entry, else nothing.
    fn entry(&self, p: &Ident) -> Option<TokenStream> {
        match self {
            Role::Written {
                one: true, entry, ..
            } => Some(quote!(*#p = #entry;)),
            Role::Written { entry, .. } => Some(quote!(#p.copy_from_slice(&#entry);)),
            _ => None,
        }
    }
}

/// `f_jacobian` of `sig`, a function returning `()`, from its `f_jvp`, or where `lanes` are
/// given from `__f_jvp_lanes` (`super::lanes`), one call per chunk of columns.
pub fn generate(
    sig: &Signature,
    chosen: &[bool],
    lanes: Option<&Lanes>,
    options: &Options,
) -> TokenStream {
    let specs = &sig.params;
    let float = sig.scalar.ty();
    let (zero, one) = (sig.scalar.zero(), sig.scalar.one());
    let idents: Vec<(&Ident, bool)> = specs.iter().map(|s| (&s.ident, true)).collect();
    let shadows = names::shadows(&idents);
    let mut used: HashSet<String> = sig.user_names.clone();
    used.extend(specs.iter().map(|s| names::text(&s.ident)));
    used.extend(shadows.iter().flatten().map(names::text));
    let mut fresh = |base: &str| names::free(&mut used, base);
    let (m, i, j, t) = (fresh("m"), fresh("i"), fresh("j"), fresh("t"));
    let roles: Vec<Role> = specs
        .iter()
        .zip(chosen)
        .zip(&shadows)
        .map(|((spec, &chosen), shadow)| {
            let name = names::text(&spec.ident);
            if !Flavor::Jvp.has_tangent(spec, chosen) {
                return match spec.kind() {
                    kind if kind.is_written() => Role::Written {
                        one: kind.is_one_entry(),
                        entry: fresh(&format!("entry_{name}")),
                        tangent: None,
                    },
                    _ => Role::Through,
                };
            }
            let shadow = shadow
                .clone()
                .expect("every parameter has a shadow name here");
            let tangent = fresh(&format!("v_{name}"));
            match spec.kind() {
                Kind::Scalar => Role::Scalar { shadow, tangent },
                Kind::Slice(_) | Kind::Vec => Role::Slice { shadow, tangent },
                kind => Role::Written {
                    one: kind.is_one_entry(),
                    entry: fresh(&format!("entry_{name}")),
                    tangent: Some(tangent),
                },
            }
        })
        .collect();
    let vis = &sig.vis;
    let generics = &sig.generics;
    let bounds = &sig.bounds;
    let name = crate::header::name(sig, Flavor::Jacobian);
    let jvp = crate::header::name(sig, Flavor::Jvp);
    let f = &sig.ident;
    let params = specs.iter().zip(&roles).map(|(spec, role)| {
        let ident = names::param(&spec.ident);
        let ty = crate::header::param_type(spec);
        match role {
            Role::Scalar { shadow, .. } | Role::Slice { shadow, .. } => {
                quote!(#ident: #ty, #shadow: &mut [#float])
            }
            _ => quote!(#ident: #ty),
        }
    });
    let idents: Vec<Ident> = specs.iter().map(|s| names::param(&s.ident)).collect();
    // m, the outputs' entries; each block checked; the outputs' entries saved.
    let counts = idents
        .iter()
        .zip(&roles)
        .filter_map(|(p, role)| match role.output()? {
            (true, _) => Some(quote!(1)),
            (false, _) => Some(quote!(#p.len())),
        });
    let checks = idents.iter().zip(&roles).map(|(p, role)| match role {
        Role::Slice { shadow, .. } => {
            let message = format!("{name}: the Jacobian block `{shadow}` has {{}} entries but `{p}` has {{}} and there are {{}} outputs; it must have the outputs' count times {p}.len()");
            quote! {
                if #shadow.len() != #m * #p.len() {
                    ::core::panic!(#message, #shadow.len(), #p.len(), #m);
                }
            }
        }
        Role::Scalar { shadow, .. } => {
            let message = format!("{name}: the Jacobian column `{shadow}` has {{}} entries but there are {{}} outputs; it must have one per output");
            quote! {
                if #shadow.len() != #m {
                    ::core::panic!(#message, #shadow.len(), #m);
                }
            }
        }
        _ => quote!(),
    });
    let setup = idents.iter().zip(&roles).map(|(p, role)| match role {
        Role::Written {
            one: true,
            entry,
            tangent,
        } => {
            let tangent = tangent.iter();
            quote!(let #entry: #float = *#p; #(let mut #tangent: #float = #zero;)*)
        }
        Role::Written { entry, tangent, .. } => {
            let tangent = tangent.iter();
            quote! {
                let #entry = #p.to_vec();
                #(let mut #tangent = ::std::vec![#zero; #p.len()];)*
            }
        }
        Role::Slice { tangent, .. } => {
            quote!(let mut #tangent = ::std::vec![#zero; #p.len()];)
        }
        Role::Scalar { tangent, .. } => quote!(let mut #tangent: #float = #zero;),
        Role::Through => quote!(),
    });
    // Before each call: the written parameters as on entry, the outputs' tangents zero.
    let restore: Vec<TokenStream> = idents
        .iter()
        .zip(&roles)
        .filter_map(|(p, role)| {
            let zeroed = role.output().map(|(one, tangent)| match one {
                true => quote!(#tangent = #zero;),
                false => quote!(#tangent.fill(#zero);),
            });
            role.entry(p).map(|entry| quote!(#entry #zeroed))
        })
        .collect();
    // The same for the lanes' chunks, whose outputs' tangents are their own.
    let entries: Vec<TokenStream> = idents
        .iter()
        .zip(&roles)
        .filter_map(|(p, role)| role.entry(p))
        .collect();
    let args: Vec<TokenStream> = (idents.iter().zip(&roles).zip(specs))
        .map(|((p, role), spec)| match role {
            Role::Through | Role::Written { tangent: None, .. } => quote!(#p),
            Role::Scalar { tangent, .. } => quote!(#p, #tangent),
            // A `&[f64; N]`'s tangent is a `&[f64; N]` too.
            Role::Slice { tangent, .. } if matches!(spec.kind(), Kind::Slice(Some(_))) => {
                quote!(#p, (&#tangent[..]).try_into().unwrap())
            }
            Role::Slice { tangent, .. } => quote!(#p, &#tangent),
            Role::Written {
                tangent: Some(tangent),
                ..
            } => quote!(#p, &mut #tangent),
        })
        .collect();
    let call = quote!(#jvp(#(#args),*););
    // A column of the block `shadow` (entry `at` of row `i`) from the outputs' tangents.
    let scatter = |shadow: &Ident, at: TokenStream| {
        let each = roles.iter().map(|role| match role.output() {
            Some((true, tangent)) => quote! {
                #shadow[#at] = #tangent;
                #i += 1;
            },
            Some((false, tangent)) => quote! {
                for #t in #tangent.iter() {
                    #shadow[#at] = *#t;
                    #i += 1;
                }
            },
            None => quote!(),
        });
        quote!(let mut #i = 0usize; #(#each)*)
    };
    let per_column = idents.iter().zip(&roles).map(|(p, role)| match role {
        Role::Slice { shadow, tangent } => {
            let scatter = scatter(shadow, quote!(#i * #p.len() + #j));
            quote! {
                for #j in 0..#p.len() {
                    #tangent[#j] = #one;
                    #(#restore)*
                    #call
                    #tangent[#j] = #zero;
                    #scatter
                }
            }
        }
        Role::Scalar { shadow, tangent } => {
            let scatter = scatter(shadow, quote!(#i));
            quote! {
                #tangent = #one;
                #(#restore)*
                #call
                #tangent = #zero;
                #scatter
            }
        }
        _ => quote!(),
    });
    let (lanes_function, columns) = match lanes {
        Some(lanes) => {
            let chunks = super::lanes::Loop {
                params: (idents.iter().zip(&roles).zip(specs))
                    .map(|((p, role), spec)| (p, role, spec))
                    .collect(),
                f,
                fresh: &mut fresh,
                restore: &entries,
                zero_one: (zero.clone(), one.clone()),
                float: float.clone(),
            };
            let function = super::lanes::function(sig, lanes, options);
            (function, vec![chunks.columns()])
        }
        None => (quote!(), per_column.collect()),
    };
    // How many columns there are: with none, one call writes the outputs.
    let widths = idents
        .iter()
        .zip(&roles)
        .filter_map(|(p, role)| match role {
            Role::Slice { .. } => Some(quote!(#p.len())),
            Role::Scalar { .. } => Some(quote!(1)),
            _ => None,
        });
    let how = match lanes {
        Some(_) => format!(
            "One sweep per {LANES} columns, computing `{f}` once and the {LANES} columns beside it."
        ),
        None => format!("One call of `{jvp}` per column."),
    };
    let doc = format!(
        " The outputs `{f}` writes and their Jacobian: each differentiated read-only slice `w` is followed by its block `d_w` (outputs × `w.len()`, row-major, row `i` output `i`'s gradient over `w`), each differentiated `f64` by its column (one entry per output); the outputs are the `&mut` parameters' entries in parameter order, written as `{f}` writes them (the last column's call writes them). {how}"
    );
    quote! {
        #[doc = #doc]
        #[allow(dead_code, unused_parens, unused_mut, unused_variables, unused_assignments, clippy::all)]
        #vis fn #name #generics (#(#params),*) #bounds {
            let #m: usize = 0 #(+ #counts)*;
            #(#checks)*
            #(#setup)*
            #(#columns)*
            // Each column's call wrote the outputs as `f` does; with no column, one call
            // along no direction (every tangent zero) does.
            if 0 #(+ #widths)* == 0 {
                #call
            }
        }
        #lanes_function
    }
}
