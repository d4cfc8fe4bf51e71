//! Every identifier of the generated code comes from here.
//!
//! Parameters keep the user's identifiers. Everything else is printed with
//! `Span::mixed_site()`, so it can neither capture nor be captured by the user's names: the
//! versions of a source variable (`c`, `c_1`), temporaries (`t0`), decisions (`c0`),
//! adjoints (`d_c`), tapes. Within the generated function the names are made unique.

use crate::ir::{Origin, Ty, VarId, VarInfo};
use proc_macro2::{Ident, Span};
use std::collections::HashSet;

/// The printed names of one generated function.
pub struct Names {
    vars: Vec<Ident>,
    adjoints: Vec<Ident>,
    used: HashSet<String>,
}

impl Names {
    /// Names every variable of `vars`; `params` are the parameters' own identifiers by variable.
    pub fn new(vars: &[VarInfo], params: &[(VarId, Ident)]) -> Names {
        let mut names = Names {
            vars: Vec::new(),
            adjoints: Vec::new(),
            used: HashSet::new(),
        };
        for (_, ident) in params {
            names.used.insert(ident.to_string());
        }
        let (mut temps, mut decisions) = (0, 0);
        for (index, info) in vars.iter().enumerate() {
            let param = params.iter().find(|(var, _)| var.0 as usize == index);
            let ident = match (&info.origin, param) {
                (_, Some((_, ident))) => ident.clone(),
                (Origin::Named { name, version: 0 }, None) => names.fresh(name),
                (Origin::Named { name, version }, None) => {
                    names.fresh(&format!("{name}_{version}"))
                }
                (_, None) if info.ty == Ty::Bool => {
                    decisions += 1;
                    names.fresh(&format!("c{}", decisions - 1))
                }
                (_, None) => {
                    temps += 1;
                    names.fresh(&format!("t{}", temps - 1))
                }
            };
            names.vars.push(ident);
        }
        for (index, info) in vars.iter().enumerate() {
            let base = format!("d_{}", names.vars[index]);
            let ident = match params.iter().find(|(var, _)| var.0 as usize == index) {
                Some((_, ident)) if matches!(info.ty, Ty::Slice { .. }) => {
                    Ident::new(&base, ident.span())
                }
                _ => names.fresh(&base),
            };
            names.adjoints.push(ident);
        }
        names
    }

    /// A new identifier starting with `base`, unused so far.
    pub fn fresh(&mut self, base: &str) -> Ident {
        let mut name = base.to_string();
        while !self.used.insert(name.clone()) {
            name.push('_');
        }
        Ident::new(&name, Span::mixed_site())
    }

    /// The name of a forward variable.
    pub fn var(&self, var: VarId) -> &Ident {
        &self.vars[var.0 as usize]
    }

    /// The name of its adjoint (for a slice parameter, its shadow `d_w`).
    pub fn adjoint(&self, var: VarId) -> &Ident {
        &self.adjoints[var.0 as usize]
    }
}
