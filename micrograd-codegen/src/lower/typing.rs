//! The types of the names the function cannot see (`const K`, `static S`, `PI` from a `use`),
//! told by their uses across the whole function, by unification, before the body is lowered.
//!
//! Rust converts nothing implicitly, so every use that puts such a name beside a value of
//! known type decides it, wherever it is: `x * (K * K)` makes `K` an `f64`, and so does
//! `let pi = PI;` followed by `x * pi`, or `K1 * K2` beside `K2.sin()` far below. Each name is
//! a type variable; an expression's type is a known type or a variable; arithmetic,
//! comparisons, assignments, the arms of an `if` or `match`, a loop's `break` values, a
//! method's receiver and arguments and an annotation unify them. A name nothing decides stays
//! undecided, and the lowering's own rules (`expr::operators::unify`: two such names are integers) apply.
//! Each guess is pinned by a type in the generated code, so a wrong one is rustc's error at
//! the name, never a wrong derivative.
//!
//! Before: `let pi = PI; let k = K1 * K2; y * pi + k.sin()`
//! After: `PI`, `K1` and `K2` are `f64`s wherever they are read (`Outside::of`).

mod calls;
mod exprs;
mod stmts;

use super::Lowerer;
use super::paths::Named;
use super::tuple_branch::is_int_type;

use std::collections::HashMap;

use syn::{Expr, Stmt};

/// A type the function's text tells.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Known {
    Float,
    Int,
    Bool,
    /// A slice, array or range `depth` levels deep, of floats or of integers.
    Seq {
        depth: u8,
        float: bool,
    },
}

/// An expression's type: known, or a variable of the unification.
#[derive(Clone, Copy, Debug)]
enum Term {
    Known(Known),
    Var(usize),
}

/// What the whole function's uses say each name it cannot see is, by its path.
#[derive(Default)]
pub(super) struct Outside {
    floats: HashMap<String, bool>,
    /// Of a name the function iterates or indexes (`const W: [f64; 3]`, `for w in W`): whether
    /// its entries are floats, where the uses of the entries say.
    entries: HashMap<String, bool>,
}

impl Outside {
    /// Whether the uses of `path` say it is a float (`Some(true)`), an integer (`Some(false)`),
    /// or nothing.
    pub(super) fn of(&self, path: &[String]) -> Option<bool> {
        self.floats.get(&path.join("::")).copied()
    }

    /// Whether the uses of `path`'s entries say they are floats (`Some(true)`: `for w in W {
    /// s += w * x }`), integers (`x[IDX[k]]`), or nothing.
    pub(super) fn entries_of(&self, path: &[String]) -> Option<bool> {
        self.entries.get(&path.join("::")).copied()
    }
}

impl Lowerer<'_> {
    /// Types the names `body` cannot see by their uses (its parameters already bound).
    pub(super) fn type_outside(&self, body: &syn::Block) -> Outside {
        let mut infer = Infer {
            lowerer: self,
            parent: Vec::new(),
            known: Vec::new(),
            weak: Vec::new(),
            guesses: Vec::new(),
            outside: HashMap::new(),
            scopes: Vec::new(),
            closures: HashMap::new(),
            entries: HashMap::new(),
            loops: Vec::new(),
            output: match self.output {
                Some(crate::ir::Output::Scalar) => Some(Term::Known(Known::Float)),
                _ => None,
            },
        };
        let tail = infer.block(body);
        let output = infer.output;
        infer.unify(tail, output);
        // Hints that decide only what nothing else did (`K as f64`: most often an integer).
        for (var, known) in std::mem::take(&mut infer.weak) {
            let root = infer.find(var);
            if infer.known[root].is_none() {
                infer.known[root] = Some(known);
            }
        }
        infer.guess();
        let mut by_root = HashMap::new();
        for (var, entry) in std::mem::take(&mut infer.entries) {
            let (root, entry) = (infer.find(var), infer.find(entry));
            by_root.insert(root, infer.known[entry]);
        }
        let (mut floats, mut entries) = (HashMap::new(), HashMap::new());
        for (path, var) in std::mem::take(&mut infer.outside) {
            let root = infer.find(var);
            match by_root.get(&root).copied().flatten() {
                Some(Known::Float) => entries.insert(path.clone(), true),
                Some(Known::Int) => entries.insert(path.clone(), false),
                _ => None,
            };
            match infer.known[root] {
                Some(Known::Float) => floats.insert(path, true),
                Some(Known::Int) => floats.insert(path, false),
                _ => None,
            };
        }
        Outside { floats, entries }
    }
}

impl Lowerer<'_> {
    /// What the whole function's uses say `expr` is (`Some(true)` a float), where it is made
    /// of names the function cannot see (`K`, `K1 * K2`, `{ ..; -K }`).
    pub(super) fn outside_type(&self, expr: &Expr) -> Option<bool> {
        match expr {
            Expr::Paren(inner) => self.outside_type(&inner.expr),
            Expr::Group(inner) => self.outside_type(&inner.expr),
            Expr::Unary(unary) => self.outside_type(&unary.expr),
            Expr::Block(block) => match block.block.stmts.last() {
                Some(Stmt::Expr(tail, None)) => self.outside_type(tail),
                _ => None,
            },
            Expr::Binary(binary) => {
                let spine = crate::spine::spine(binary);
                let last = spine[spine.len() - 1];
                (spine.iter().map(|node| &*node.right))
                    .chain([&*last.left])
                    .find_map(|side| self.outside_type(side))
            }
            Expr::Path(path) => {
                if let Some(ident) = path.path.get_ident()
                    && self.lookup(&ident.to_string()).is_some()
                {
                    return None;
                }
                match super::paths::classify(path, self.scalar) {
                    Named::Other(outside) => self.outside.of(&outside.path),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// A local's type, or a closure bound by `let` (its parameters' and its value's).
#[derive(Clone)]
enum Local {
    Value(Option<Term>),
    Closure(Vec<Option<Term>>, Option<Term>),
}

struct Infer<'l, 'e> {
    lowerer: &'l Lowerer<'e>,
    /// The unification's variables: each one's parent, and the type of each root.
    parent: Vec<usize>,
    known: Vec<Option<Known>>,
    /// Types that apply to a variable only if nothing else decides it.
    weak: Vec<(usize, Known)>,
    /// Names read whole where the lowering needs a type now and nothing else decides them
    /// ([`Infer::guess`]): each variable, with the other arguments of the call it is passed
    /// to (`None` for a `let mut` binding it).
    guesses: Vec<(usize, Option<Vec<Option<Term>>>)>,
    /// The names the function cannot see, by path: their variables.
    outside: HashMap<String, usize>,
    /// The function's locals, innermost scope last.
    scopes: Vec<HashMap<String, Local>>,
    /// Closures bound by `let`, by name.
    closures: HashMap<String, (Vec<Option<Term>>, Option<Term>)>,
    /// The variable of the entries of a variable iterated or indexed (`W` in `for w in W`),
    /// by the variable's root when it was first asked.
    entries: HashMap<usize, usize>,
    /// The enclosing loops, innermost last: their labels and the variable of their value.
    loops: Vec<(Option<String>, usize)>,
    /// What the function returns, where it is one float.
    output: Option<Term>,
}

const FLOAT: Option<Term> = Some(Term::Known(Known::Float));
const INT: Option<Term> = Some(Term::Known(Known::Int));
const BOOL: Option<Term> = Some(Term::Known(Known::Bool));

impl Infer<'_, '_> {
    fn fresh(&mut self) -> usize {
        self.parent.push(self.parent.len());
        self.known.push(None);
        self.parent.len() - 1
    }

    fn find(&mut self, mut var: usize) -> usize {
        while self.parent[var] != var {
            self.parent[var] = self.parent[self.parent[var]];
            var = self.parent[var];
        }
        var
    }

    fn resolve(&mut self, term: Option<Term>) -> Option<Known> {
        match term? {
            Term::Known(known) => Some(known),
            Term::Var(var) => {
                let root = self.find(var);
                self.known[root]
            }
        }
    }

    /// Two expressions of one type: the type of both.
    fn unify(&mut self, a: Option<Term>, b: Option<Term>) -> Option<Term> {
        match (a, b) {
            (None, term) | (term, None) => term,
            (Some(Term::Known(known)), Some(Term::Var(var)))
            | (Some(Term::Var(var)), Some(Term::Known(known))) => {
                let root = self.find(var);
                if self.known[root].is_none() && matches!(known, Known::Float | Known::Int) {
                    self.known[root] = Some(known);
                }
                Some(Term::Known(known))
            }
            (Some(Term::Var(a)), Some(Term::Var(b))) => {
                let (a, b) = (self.find(a), self.find(b));
                if a != b {
                    self.parent[b] = a;
                    if self.known[a].is_none() {
                        self.known[a] = self.known[b];
                    }
                }
                Some(Term::Var(a))
            }
            (known @ Some(Term::Known(_)), Some(Term::Known(_))) => known,
        }
    }

    /// What nothing in the function decides, where the lowering needs a type now, is a float
    /// (each guess is pinned in the generated code, `identity::<f64>(K)`, so a wrong one is
    /// rustc's error at the name): a name bound by `let mut y = k;` (rustc types `k` by its
    /// item, which the macro cannot see), and a name passed whole to a helper beside a float
    /// argument (`gf(k, y)`, where `gf<T: Float>(a: T, b: T)` makes both one type).
    fn guess(&mut self) {
        for (var, beside) in std::mem::take(&mut self.guesses) {
            let root = self.find(var);
            if self.known[root].is_some() {
                continue;
            }
            let float = match beside {
                None => true,
                Some(others) => {
                    (others.into_iter()).any(|other| self.resolve(other) == Some(Known::Float))
                }
            };
            if float {
                self.known[root] = Some(Known::Float);
            }
        }
    }

    /// Whether `expr` is a name read whole (`k`, `(k)`, `{ ..; k }`), which the lowering
    /// binds as the name it is when nothing decides its type.
    fn whole_name(expr: &Expr) -> bool {
        match expr {
            Expr::Path(_) => true,
            Expr::Paren(inner) => Self::whole_name(&inner.expr),
            Expr::Group(inner) => Self::whole_name(&inner.expr),
            Expr::Block(block) if block.label.is_none() => match block.block.stmts.last() {
                Some(Stmt::Expr(tail, None)) => Self::whole_name(tail),
                _ => false,
            },
            _ => false,
        }
    }

    fn lookup(&self, name: &str) -> Option<&Local> {
        self.scopes.iter().rev().find_map(|scope| scope.get(name))
    }

    fn bind(&mut self, name: String, term: Option<Term>) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name, Local::Value(term));
        }
    }

    /// The type `ty` names: a float, an integer, a `bool`, or a sequence of them.
    fn annotation(&self, ty: &syn::Type) -> Option<Term> {
        Some(Term::Known(self.annotated(ty)?))
    }

    fn annotated(&self, ty: &syn::Type) -> Option<Known> {
        match ty {
            _ if self.lowerer.is_scalar(ty) => Some(Known::Float),
            _ if is_int_type(ty) => Some(Known::Int),
            syn::Type::Path(path) if path.path.is_ident("bool") => Some(Known::Bool),
            syn::Type::Reference(reference) => self.annotated(&reference.elem),
            syn::Type::Paren(inner) => self.annotated(&inner.elem),
            syn::Type::Array(array) => deeper(self.annotated(&array.elem)?),
            syn::Type::Slice(slice) => deeper(self.annotated(&slice.elem)?),
            syn::Type::Path(path) => {
                let last = path.path.segments.last()?;
                let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                    return None;
                };
                match args.args.first()? {
                    syn::GenericArgument::Type(inner) if last.ident == "Vec" => {
                        deeper(self.annotated(inner)?)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The type of an entry of a sequence of type `term`.
    fn entry(&mut self, term: Option<Term>) -> Option<Term> {
        // A name the function cannot see, iterated or indexed: its entries are a variable.
        if let Some(Term::Var(var)) = term
            && self.resolve(term).is_none()
        {
            let root = self.find(var);
            let entry = match self.entries.get(&root) {
                Some(&entry) => entry,
                None => {
                    let entry = self.fresh();
                    self.entries.insert(root, entry);
                    entry
                }
            };
            return Some(Term::Var(entry));
        }
        match self.resolve(term)? {
            Known::Seq { depth: 1, float } => Some(Term::Known(scalar(float))),
            Known::Seq { depth, float } => Some(Term::Known(Known::Seq {
                depth: depth - 1,
                float,
            })),
            _ => None,
        }
    }
}

/// A sequence of `entry`s.
fn deeper(entry: Known) -> Option<Known> {
    match entry {
        Known::Float => Some(Known::Seq {
            depth: 1,
            float: true,
        }),
        Known::Int => Some(Known::Seq {
            depth: 1,
            float: false,
        }),
        Known::Seq { depth, float } => Some(Known::Seq {
            depth: depth.checked_add(1)?,
            float,
        }),
        Known::Bool => None,
    }
}

/// What a value of the structural type `ty` is to the inference: a float, an integer, a
/// `bool`, or a sequence of floats or integers.
fn of_type(ty: &crate::types::Type) -> Option<Known> {
    use crate::types::Type;
    match ty.referent() {
        Type::Float(_) => Some(Known::Float),
        Type::Int(_) => Some(Known::Int),
        Type::Bool => Some(Known::Bool),
        Type::Array(elem, _) | Type::Slice(elem) | Type::Vec(elem) => deeper(of_type(elem)?),
        _ => None,
    }
}

fn scalar(float: bool) -> Known {
    if float { Known::Float } else { Known::Int }
}
