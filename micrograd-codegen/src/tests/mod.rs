//! Unit tests of the passes, one file per pass, on IR lowered by the crate's own lowering from
//! `syn::parse_quote!` input: a failure names its pass. End-to-end behaviour (gradients,
//! generated text) is the integration tests' subject.

mod activity;
mod data_forms;
mod desugaring;
mod driver;
mod emitting;
mod flavors;
mod folding;
mod fuse;
mod guards;
mod header;
mod items;
mod layouts;
mod lowering;
mod methods;
mod naming;
mod needs;
mod out_params;
mod remat;
mod reuse;
mod rewrites;
mod siblings;
mod signature;
mod tangent;
mod types;
mod typing;
mod visiting;

use crate::diff::{Adjoint, Rev};
use crate::error::Errors;
use crate::ir::{Function, Origin, VarId};
use std::collections::HashSet;

/// `item` lowered, differentiating the parameters `wrt` names (all `f64`s and slices if empty).
fn lower(item: &syn::ItemFn, wrt: &[&str]) -> Function {
    let mut errors = Errors::default();
    let sig = crate::signature::check(item, &syn::parse_quote!(::micrograd_runtime), &mut errors)
        .expect("a valid signature");
    let chosen = |ident: &syn::Ident| wrt.is_empty() || wrt.iter().any(|w| ident == w);
    let function = crate::lower::lower(item, &sig, &chosen, &mut errors);
    assert!(errors.is_empty(), "lowering reported errors");
    function.expect("the function lowers")
}

/// `item` lowered and differentiated with respect to its `wrt` parameters.
fn differentiate(item: &syn::ItemFn, wrt: &[&str]) -> (Function, Adjoint) {
    let function = lower(item, wrt);
    let adjoint = crate::diff::differentiate(&function, &wrt_vars(&function));
    (function, adjoint)
}

fn wrt_vars(function: &Function) -> HashSet<VarId> {
    function
        .params
        .iter()
        .filter(|p| p.wrt)
        .map(|p| p.var)
        .collect()
}

/// The variable of the `version`-th binding of local `name`.
fn var(function: &Function, name: &str, version: u32) -> VarId {
    let found = function.vars.iter().position(|info| {
        matches!(&info.origin, Origin::Named { name: n, version: v } if n == name && *v == version)
    });
    VarId(found.unwrap_or_else(|| panic!("no variable `{name}` version {version}")) as u32)
}

/// The variable of parameter `k`.
fn param(function: &Function, k: usize) -> VarId {
    function.params[k].var
}

/// Every statement of `rev`, nested ones included.
fn all(rev: &[Rev]) -> Vec<&Rev> {
    let mut out = Vec::new();
    collect(rev, &mut out);
    out
}

fn collect<'a>(rev: &'a [Rev], out: &mut Vec<&'a Rev>) {
    for stmt in rev {
        out.push(stmt);
        match stmt {
            Rev::If {
                then, otherwise, ..
            } => {
                collect(then, out);
                collect(otherwise, out);
            }
            Rev::Loop { body, .. } | Rev::Guard { body, .. } | Rev::Gate { body, .. } => {
                collect(body, out)
            }
            _ => {}
        }
    }
}
