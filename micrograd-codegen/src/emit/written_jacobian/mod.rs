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

mod parts;

use parts::Parts;

use crate::attr::Options;
use crate::diff::tangent::{LANES, Lanes};
use crate::flavor::Flavor;
use crate::header::Param;
use crate::ir::{ParamSpec, Signature};
use crate::names;
use crate::types::Kind;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

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
    /// A differentiated read-only slice, its block `d_w` after it; `fixed` for a `&[f64; N]`,
    /// whose tangent is a `&[f64; N]` too.
    Slice {
        shadow: Ident,
        tangent: Ident,
        fixed: bool,
    },
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

/// `f_jacobian`'s parameters of `sig`, a function returning `()`, as [`generate`] prints them:
/// each parameter, a differentiated `f64` followed by its column and a differentiated slice by
/// its block (each a [`Role::Shadow`](crate::header::Role::Shadow)).
pub fn parameters(sig: &Signature, chosen: &[bool]) -> Vec<Param> {
    Parts::new(sig, chosen).params(&sig.params)
}

/// `f_jacobian` of `sig`, a function returning `()`, from its `f_jvp`, or where `lanes` are
/// given (one merged program per width of `WIDTHS`) from `__f_jvp_lanes` and its narrower
/// kin (`super::lanes`), one call per chunk of columns.
pub fn generate(
    sig: &Signature,
    chosen: &[bool],
    lanes: Option<&[Lanes]>,
    options: &Options,
) -> TokenStream {
    let specs = &sig.params;
    let mut parts = Parts::new(sig, chosen);
    let (vis, generics, bounds) = (&sig.vis, &sig.generics, &sig.bounds);
    let name = crate::header::name(sig, Flavor::Jacobian);
    let jvp = crate::header::name(sig, Flavor::Jvp);
    let f = &sig.ident;
    let params = parts
        .params(specs)
        .iter()
        .map(Param::typed)
        .collect::<Vec<_>>();
    let (counts, checks, setup) = (parts.counts(), parts.checks(&name), parts.setup());
    let call = parts.call(&jvp);
    let widths = parts.widths();
    let m = parts.m.clone();
    let (lanes_function, columns) = match lanes {
        Some(lanes) => {
            let entries = parts.entries();
            let Parts {
                idents,
                roles,
                used,
                float,
                zero,
                one,
                ..
            } = &mut parts;
            let chunks = super::lanes::Loop {
                params: (idents.iter().zip(roles.iter()).zip(specs))
                    .map(|((p, role), spec)| (p, role, spec))
                    .collect(),
                f,
                fresh: &mut |base: &str| names::free(used, base),
                restore: &entries,
                zero_one: (zero.clone(), one.clone()),
                float: float.clone(),
            };
            let functions = lanes
                .iter()
                .map(|l| super::lanes::function(sig, l, options));
            (quote!(#(#functions)*), vec![chunks.columns()])
        }
        None => (quote!(), parts.per_column(&call)),
    };
    let doc = doc(f, &jvp, lanes.is_some());
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

/// `f_jacobian`'s rustdoc; `lanes` says whether it calls `__f_jvp_lanes`.
fn doc(f: &Ident, jvp: &Ident, lanes: bool) -> String {
    let how = match lanes {
        true => format!(
            "One sweep per {LANES} columns, computing `{f}` once and the {LANES} columns beside it; the last sweep as narrow as the columns left allow."
        ),
        false => format!("One call of `{jvp}` per column."),
    };
    format!(
        " The outputs `{f}` writes and their Jacobian: each differentiated read-only slice `w` is followed by its block `d_w` (outputs × `w.len()`, row-major, row `i` output `i`'s gradient over `w`), each differentiated `f64` by its column (one entry per output); the outputs are the `&mut` parameters' entries in parameter order, written as `{f}` writes them (the last column's call writes them). {how}"
    )
}

/// What `f_jacobian` does with parameter `spec`, `wrt(..)` selecting it where `chosen`; its
/// `shadow` name, and `fresh` for the names it binds.
fn role(
    spec: &ParamSpec,
    chosen: bool,
    shadow: &Option<Ident>,
    fresh: &mut impl FnMut(&str) -> Ident,
) -> Role {
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
        kind @ (Kind::Slice(_) | Kind::Vec) => Role::Slice {
            shadow,
            tangent,
            fixed: matches!(kind, Kind::Slice(Some(_))),
        },
        kind => Role::Written {
            one: kind.is_one_entry(),
            entry: fresh(&format!("entry_{name}")),
            tangent: Some(tangent),
        },
    }
}
