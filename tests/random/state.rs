//! The generator's state: what is in scope (with what is known about each name), what
//! may still be drawn, and the scope bookkeeping every construct uses.

use super::*;
use std::collections::HashSet;

/// An exclusive upper bound known for an integer variable.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    Const(usize),
    Len(String),
}

#[derive(Clone)]
pub struct FVar {
    pub name: String,
    pub mutable: bool,
    pub typed: bool,
    /// Whether it stands for an outside item (`let pi = PI;`, [`tail_draws::LetOutside`]).
    pub outside: bool,
}

#[derive(Clone, Copy, PartialEq)]
pub enum ITy {
    Usize,
    I32,
}

#[derive(Clone)]
pub struct IVar {
    pub name: String,
    pub ty: ITy,
    pub bound: Option<Bound>,
    pub mutable: bool,
    pub depth: usize,
}

#[derive(Clone)]
pub struct SVar {
    pub name: String,
    /// The known minimum length (exact for arrays).
    pub len: usize,
    pub exact: bool,
    pub local: bool,
    pub loop_depth: usize,
    pub typed: bool,
}

#[derive(Clone, Default)]
pub struct Scope {
    pub f: Vec<FVar>,
    pub i: Vec<IVar>,
    pub s: Vec<SVar>,
    pub b: Vec<String>,
}

/// Names that collide with what the macro generates (`t0`, `d_x`, `seed`, versions `x_1`..):
/// the generated code must keep them apart.
pub const TRICKY: [&str; 12] = [
    "t0", "t1", "c0", "d_a0", "d_x0", "seed", "graph", "s_1", "x0_1", "d_t0", "tape", "d_w0",
];

/// The signature of an earlier function, for calls.
#[derive(Clone)]
pub struct Callee {
    pub name: String,
    pub params: Vec<Param>,
    pub out: Option<Out>,
    /// Returns `()`: called only as a statement made for what it writes (lend.rs).
    pub unit: bool,
}

pub struct Gen<'r> {
    pub rng: &'r mut Rng,
    pub value_only: bool,
    pub scopes: Vec<Scope>,
    pub loop_depth: usize,
    pub if_depth: usize,
    /// Whether a `return` may stand here (top level or statement `if`s outside loops).
    pub ret_ok: bool,
    pub returns_left: usize,
    pub loops_left: usize,
    pub calls_left: usize,
    pub arrays_left: usize,
    pub frozen: HashSet<String>,
    /// Arrays that cannot be passed to a call here (a store to them is being generated).
    pub no_pass: Vec<String>,
    pub callees: Vec<Callee>,
    /// What the function being drawn returns: a `return` returns as many values.
    pub out: Option<Out>,
    pub counter: usize,
    /// How many `if` values and `{ .. }` values enclose this point: no `break` or `continue`
    /// leaves one (tests/random/loop_exits.rs).
    pub expr_blocks: usize,
    /// The `&[usize]` parameters of data and their lengths, read as `labels[k]`.
    pub labels: Vec<(String, usize)>,
    /// The `&mut [f64]` parameter a function returning `()` stores its tail into, last
    /// (lend.rs `unit_output`): never passed read-only, as the macro refuses an array changed
    /// after a call reads it.
    pub unit: Option<String>,
}

impl Gen<'_> {
    pub fn fresh(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}", self.counter)
    }

    pub fn push(&mut self) {
        self.scopes.push(Scope::default());
    }

    pub fn pop(&mut self) {
        self.scopes.pop();
    }

    pub fn scope(&mut self) -> &mut Scope {
        self.scopes.last_mut().expect("a scope")
    }

    /// Every name visible, innermost first (and so shadowing), of one kind.
    pub fn visible<T: Clone>(
        &self,
        get: impl Fn(&Scope) -> &Vec<T>,
        name: impl Fn(&T) -> &str,
    ) -> Vec<T> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for scope in self.scopes.iter().rev() {
            for v in get(scope).iter().rev() {
                if seen.insert(name(v).to_string()) {
                    out.push(v.clone());
                }
            }
        }
        out
    }

    /// The `f64` variables (names are never reused across kinds, so none is hidden by an
    /// integer or an array).
    pub fn fvars(&self) -> Vec<FVar> {
        self.visible(|s| &s.f, |v| &v.name)
    }

    pub fn ivars(&self, ty: ITy) -> Vec<IVar> {
        self.visible(|s| &s.i, |v| &v.name)
            .into_iter()
            .filter(|v| v.ty == ty)
            .collect()
    }

    pub fn svars(&self) -> Vec<SVar> {
        self.visible(|s| &s.s, |v| &v.name)
    }

    pub fn bvars(&self) -> Vec<String> {
        self.visible(|s| &s.b, |v| v)
    }

    pub fn depth(&self) -> usize {
        self.scopes.len()
    }
}
