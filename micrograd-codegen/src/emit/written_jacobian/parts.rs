//! The parts of `f_jacobian` of a function writing its outputs (the module's), each printed
//! from the parameters' roles.

use super::{Role, role};
use crate::header::{self, Param};
use crate::ir::{ParamSpec, Signature};
use crate::names;
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::HashSet;

/// What `f_jacobian` is printed from: each parameter's name and role, the names it binds
/// (`m`, the outputs' count; `i`, `j`, `t`), the names taken, and the float.
pub(super) struct Parts {
    pub(super) idents: Vec<Ident>,
    pub(super) roles: Vec<Role>,
    pub(super) m: Ident,
    i: Ident,
    j: Ident,
    t: Ident,
    pub(super) used: HashSet<String>,
    pub(super) float: TokenStream,
    pub(super) zero: TokenStream,
    pub(super) one: TokenStream,
}

impl Parts {
    /// The parameters of `sig` and their roles, `wrt(..)` selecting `chosen`.
    pub(super) fn new(sig: &Signature, chosen: &[bool]) -> Parts {
        let specs = &sig.params;
        let idents: Vec<(&Ident, bool)> = specs.iter().map(|s| (&s.ident, true)).collect();
        let shadows = names::shadows(&idents);
        let mut used: HashSet<String> = sig.user_names.clone();
        used.extend(specs.iter().map(|s| names::text(&s.ident)));
        used.extend(shadows.iter().flatten().map(names::text));
        let mut fresh = |base: &str| names::free(&mut used, base);
        let (m, i, j, t) = (fresh("m"), fresh("i"), fresh("j"), fresh("t"));
        let roles = specs
            .iter()
            .zip(chosen)
            .zip(&shadows)
            .map(|((spec, &chosen), shadow)| role(spec, chosen, shadow, &mut fresh))
            .collect();
        Parts {
            idents: specs.iter().map(|s| names::param(&s.ident)).collect(),
            roles,
            m,
            i,
            j,
            t,
            used,
            float: sig.scalar.ty(),
            zero: sig.scalar.zero(),
            one: sig.scalar.one(),
        }
    }

    /// Each parameter and its role.
    fn each(&self) -> impl Iterator<Item = (&Ident, &Role)> {
        self.idents.iter().zip(&self.roles)
    }

    /// `f_jacobian`'s parameters: each of `specs`, a differentiated one followed by its block.
    pub(super) fn params(&self, specs: &[ParamSpec]) -> Vec<Param> {
        let float = &self.float;
        let mut params = Vec::new();
        for (of, (spec, role)) in specs.iter().zip(&self.roles).enumerate() {
            let (ident, ty) = (names::param(&spec.ident), crate::header::param_type(spec));
            params.push(Param {
                ident,
                ty,
                of,
                role: header::Role::Value,
            });
            if let Role::Scalar { shadow, .. } | Role::Slice { shadow, .. } = role {
                params.push(Param {
                    ident: shadow.clone(),
                    ty: quote!(&mut [#float]),
                    of,
                    role: header::Role::Shadow,
                });
            }
        }
        params
    }

    /// The outputs' entries, summed into `m`.
    pub(super) fn counts(&self) -> Vec<TokenStream> {
        self.each()
            .filter_map(|(p, role)| match role.output()? {
                (true, _) => Some(quote!(1)),
                (false, _) => Some(quote!(#p.len())),
            })
            .collect()
    }

    /// Each block's and column's length checked against `m`.
    pub(super) fn checks(&self, name: &Ident) -> Vec<TokenStream> {
        let m = &self.m;
        self.each().map(|(p, role)| match role {
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
        })
        .collect()
    }

    /// The written parameters' entries saved, the tangents zeroed.
    pub(super) fn setup(&self) -> Vec<TokenStream> {
        let (float, zero) = (&self.float, &self.zero);
        self.each()
            .map(|(p, role)| match role {
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
            })
            .collect()
    }

    /// Before each call: the written parameters as on entry, the outputs' tangents zero.
    fn restore(&self) -> Vec<TokenStream> {
        let zero = &self.zero;
        self.each()
            .filter_map(|(p, role)| {
                let zeroed = role.output().map(|(one, tangent)| match one {
                    true => quote!(#tangent = #zero;),
                    false => quote!(#tangent.fill(#zero);),
                });
                role.entry(p).map(|entry| quote!(#entry #zeroed))
            })
            .collect()
    }

    /// The same for the lanes' chunks, whose outputs' tangents are their own.
    pub(super) fn entries(&self) -> Vec<TokenStream> {
        self.each().filter_map(|(p, role)| role.entry(p)).collect()
    }

    /// The call of `f_jvp`, named `jvp`, with each parameter and its tangent.
    pub(super) fn call(&self, jvp: &Ident) -> TokenStream {
        let args = self.each().map(|(p, role)| match role {
            Role::Through | Role::Written { tangent: None, .. } => quote!(#p),
            Role::Scalar { tangent, .. } => quote!(#p, #tangent),
            // A `&[f64; N]`'s tangent is a `&[f64; N]` too.
            Role::Slice {
                tangent,
                fixed: true,
                ..
            } => {
                quote!(#p, (&#tangent[..]).try_into().unwrap())
            }
            Role::Slice { tangent, .. } => quote!(#p, &#tangent),
            Role::Written {
                tangent: Some(tangent),
                ..
            } => quote!(#p, &mut #tangent),
        });
        quote!(#jvp(#(#args),*);)
    }

    /// A column of the block `shadow` (entry `at` of row `i`) from the outputs' tangents.
    fn scatter(&self, shadow: &Ident, at: TokenStream) -> TokenStream {
        let (i, t) = (&self.i, &self.t);
        let each = self.roles.iter().map(|role| match role.output() {
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
    }

    /// One `call` per column, each after the written parameters are restored.
    pub(super) fn per_column(&self, call: &TokenStream) -> Vec<TokenStream> {
        let (i, j, zero, one) = (&self.i, &self.j, &self.zero, &self.one);
        let restore = self.restore();
        self.each()
            .map(|(p, role)| match role {
                Role::Slice {
                    shadow, tangent, ..
                } => {
                    let scatter = self.scatter(shadow, quote!(#i * #p.len() + #j));
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
                    let scatter = self.scatter(shadow, quote!(#i));
                    quote! {
                        #tangent = #one;
                        #(#restore)*
                        #call
                        #tangent = #zero;
                        #scatter
                    }
                }
                _ => quote!(),
            })
            .collect()
    }

    /// How many columns there are: with none, one call writes the outputs.
    pub(super) fn widths(&self) -> Vec<TokenStream> {
        self.each()
            .filter_map(|(p, role)| match role {
                Role::Slice { .. } => Some(quote!(#p.len())),
                Role::Scalar { .. } => Some(quote!(1)),
                _ => None,
            })
            .collect()
    }
}
