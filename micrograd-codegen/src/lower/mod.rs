//! From `syn` to the IR: one operation per binding, fresh names for every reassignment.
//!
//! Before: `c += c + 1.0;` After: `let t0 = c + 1.0; let c_1 = c + t0;`
//!
//! Names live in a stack of scopes; a reassignment rebinds the name where it was declared, so
//! after a branch or a loop body the lowerer compares bindings to find joins and slots.

mod apply;
mod asserts;
mod assign;
mod bind;
mod bound_closures;
mod branch;
mod call;
mod collect;
mod data;
mod derived;
pub(crate) mod desugar;
mod exits;
mod expr;
mod fields;
mod for_items;
mod fork;
mod ints;
mod iter;
mod literal;
mod loops;
mod matching;
mod outputs;
mod params;
mod paths;
mod pattern;
pub(crate) mod scan;
mod steps;
mod stmt;
mod tuple_branch;
mod typing;
mod unsupported;
mod values;
mod vecs;
mod vector_call;
mod view;
mod whole;

pub(crate) use view::View;

/// Whether the lowering reads `x.name(..)` itself (a method of `f64`, of integers, of slices or
/// of iterators), rather than as a call of a `#[differentiable]` method of a struct.
pub(crate) fn known_method(name: &str) -> bool {
    use crate::math::{Func, Func2, Func3};
    Func::from_name(name).is_some()
        || Func2::from_name(name).is_some()
        || Func3::from_name(name).is_some()
        || derived::DERIVED.contains(&name)
        || ints::is_int_method(name)
        || iter::is_iterator_method(name)
        || fields::is_slice_method(name)
        || [
            "powi", "collect", "to_vec", "clone", "min", "max", "abs", "pow",
        ]
        .contains(&name)
}

use crate::error::Errors;
use crate::ir::{
    Block, BranchId, Function, LoopId, Op, Operand, Origin, Scalar, Stmt, Ty, VarId, VarInfo,
};
use crate::ir::{Output, Signature};
use proc_macro2::Span;
use std::collections::HashMap;

/// Where a name is bound.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Binding {
    var: VarId,
}

/// The names a block binds, and the block's id: a branch's copy of the scopes keeps it, a new
/// block gets a fresh one.
#[derive(Clone, Debug)]
struct Scope {
    id: u32,
    names: HashMap<String, Binding>,
}

impl Default for Scope {
    fn default() -> Self {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        Scope {
            id: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            names: HashMap::new(),
        }
    }
}

/// Two scopes are equal when they bind the same names to the same variables.
impl PartialEq for Scope {
    fn eq(&self, other: &Scope) -> bool {
        self.names == other.names
    }
}

impl std::ops::Deref for Scope {
    type Target = HashMap<String, Binding>;
    fn deref(&self) -> &Self::Target {
        &self.names
    }
}

impl std::ops::DerefMut for Scope {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.names
    }
}

type Scopes = Vec<Scope>;

/// The state of lowering one function body.
pub struct Lowerer<'e> {
    errors: &'e mut Errors,
    /// The float type the function is written in.
    scalar: Scalar,
    vars: Vec<VarInfo>,
    scopes: Scopes,
    blocks: Vec<Block>,
    versions: HashMap<String, u32>,
    /// Enclosing `for`s.
    loops: usize,
    /// Names that stand for a value rather than hold one: slice views (`let x = &xs[a..b];`)
    /// and tuples (`let t = (a, b);`), by their variable.
    aliases: HashMap<VarId, expr::Value>,
    /// `if`s and loops lowered so far: the next ids.
    ids: (u32, u32),
    /// The loops being lowered, innermost last.
    frames: Vec<exits::Frame>,
    /// Set while lowering a loop statement whose exits to enclosing code are handled after it.
    exits_prepared: bool,
    /// The `&f64` parameters: passed on by name, they are passed as the references they are.
    scalar_refs: Vec<VarId>,
    /// The `&mut f64` parameters, one-entry `&mut [f64]`s: `*y` reads and writes entry 0.
    scalar_muts: Vec<VarId>,
    /// Local `f64`s lent as `&mut e` to the call being lowered, each held in a one-entry
    /// array for it: read back into `e` after the call (`lower/call.rs`).
    written_back: Vec<(String, VarId, Span)>,
    /// The `const` and `static` items bound so far, by the block that declares them and
    /// their name, which Rust makes unique in a block (`paths::declare_items`).
    items: std::collections::HashSet<(u32, String)>,
    /// Whether the expression being lowered must be a float, so that names the function does
    /// not define are read as floats even when nothing else in it says so (`x * (K * K)`).
    float_context: bool,
    /// What the function returns; `None` when the signature's return type was refused.
    output: Option<Output>,
    /// A vector output's entries, once its returned value is lowered.
    results: Vec<Operand>,
    /// The hidden array a vector output is stored into where it is returned from a branch,
    /// an arm or a loop (`outputs.rs`).
    out: Option<VarId>,
    /// The fields of parameter structs the body reads, by path (`p.layer.w`).
    fields: HashMap<String, VarId>,
    /// The parameter structs.
    structs: Vec<VarId>,
    /// Every identifier of the function, and those minted for it: a minted one is new.
    used: std::collections::HashSet<String>,
    /// The closures bound by `let` so far, by name (`bound_closures.rs`).
    closures: HashMap<String, std::rc::Rc<bound_closures::Bound>>,
    /// The sequences of rows (`[[f64; N]; M]` locals, `&[[f64; N]]` parameters), held flat,
    /// by their variable: the length of a row.
    rows: HashMap<VarId, view::Row>,
    /// The sequences of rows that are tuples (`[(f64, f64); N]` locals), among `rows`, by
    /// their variable: how many elements a tuple has. Indexing one yields a tuple of its row's
    /// entries, `pts[i].0`, `let (x, y) = pts[i];`.
    tuples: HashMap<VarId, u128>,
    /// What the whole function's uses say the names it cannot see are (`typing.rs`).
    outside: typing::Outside,
    /// What the syntax of each loop and branch says, read by the desugaring pass
    /// (`desugar.rs`), and what it left the lowering of the loops it rewrote.
    desugared: desugar::Nodes,
}

/// Lowers `item`'s body; `None` if it used anything outside the language (errors say what).
pub fn lower(
    item: &syn::ItemFn,
    sig: &Signature,
    wrt: &dyn Fn(&syn::Ident) -> bool,
    errors: &mut Errors,
) -> Option<Function> {
    let (specs, output) = (&sig.params, sig.output);
    let before = errors.len();
    let mut used = sig.user_names.clone();
    let (block, desugared) = desugar::desugar(
        &item.block,
        (sig.scalar, desugar::bound_by(&item.sig)),
        &mut used,
    );
    let mut lowerer = Lowerer {
        errors,
        scalar: sig.scalar,
        vars: Vec::new(),
        scopes: vec![Scope::default()],
        blocks: vec![Vec::new()],
        versions: HashMap::new(),
        loops: 0,
        aliases: HashMap::new(),
        ids: (0, 0),
        frames: Vec::new(),
        exits_prepared: false,
        scalar_refs: Vec::new(),
        scalar_muts: Vec::new(),
        written_back: Vec::new(),
        items: Default::default(),
        float_context: false,
        output,
        results: Vec::new(),
        out: None,
        fields: HashMap::new(),
        structs: Vec::new(),
        used,
        closures: HashMap::new(),
        rows: HashMap::new(),
        tuples: HashMap::new(),
        outside: Default::default(),
        desugared,
    };
    let (params, fields) = lowerer.params(&block, specs, wrt);
    lowerer.outside = lowerer.type_outside(&block);
    let result = lowerer.function_body(&block);
    lowerer.load_results(item.block.brace_token.span.close());
    let body = lowerer
        .blocks
        .pop()
        .expect("internal error: the lowering pops the function's block last");
    lowerer.lent_in_conditions(&body);
    // A vector output's entries were recorded as it was lowered; `result` is a placeholder.
    // A function returning `()` may end in a statement: its outputs are its `&mut` parameters.
    let result = match output {
        Some(Output::Tuple(0)) => result.unwrap_or(Operand::Const(0.0)),
        _ => result?,
    };
    let function = lowerer.finish(sig, (params, fields), body, result);
    (errors.len() == before).then_some(function)
}

impl Lowerer<'_> {
    /// A fresh id for an `if` about to be emitted.
    fn branch_id(&mut self) -> BranchId {
        self.ids.0 += 1;
        BranchId(self.ids.0 - 1)
    }

    /// A fresh id for a loop about to be emitted.
    fn loop_id(&mut self) -> LoopId {
        self.ids.1 += 1;
        LoopId(self.ids.1 - 1)
    }

    fn new_var(&mut self, origin: Origin, ty: Ty, span: Span) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(VarInfo { origin, ty, span });
        id
    }

    /// A fresh variable for the next binding of the source name `name`.
    fn named(&mut self, name: &str, ty: Ty, span: Span) -> VarId {
        let origin = self.next_version(name);
        self.new_var(origin, ty, span)
    }

    fn next_version(&mut self, name: &str) -> Origin {
        let version = self.versions.entry(name.to_string()).or_insert(0);
        let origin = Origin::Named {
            name: name.to_string(),
            version: *version,
        };
        *version += 1;
        origin
    }

    /// All of `var`, a slice parameter or a local array: its rows where it holds rows.
    fn whole(&self, var: VarId) -> View {
        View::rows_of(var, self.rows.get(&var).cloned())
    }

    /// The base's index of entry `i` of `view`, checked as indexing the view checks it: folded
    /// where it is a literal entry of a literal row of rows (`m[1][1]`, not `m[2 + 1]`).
    fn entry(&self, view: &View, i: crate::ir::IntExpr) -> crate::ir::IntExpr {
        let at = view.checked_at(i);
        match self.rows.contains_key(&view.base) {
            true => view::folded(at),
            false => at,
        }
    }

    fn ty(&self, var: VarId) -> &Ty {
        &self.vars[var.0 as usize].ty
    }

    fn emit(&mut self, stmt: Stmt) {
        if let Some(block) = self.blocks.last_mut() {
            block.push(stmt);
        }
    }

    /// Runs `f` with a fresh output block and returns what it emitted.
    fn capture<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> (Block, T) {
        self.blocks.push(Vec::new());
        let value = f(self);
        let block = self
            .blocks
            .pop()
            .expect("internal error: the lowering pops each block it pushed");
        (block, value)
    }

    /// Emits `op` into a fresh temporary.
    fn temp(&mut self, op: Op, span: Span) -> Operand {
        let dst = self.new_var(Origin::Temp, Ty::F64, span);
        self.emit(Stmt::Assign { dst, op });
        Operand::Var(dst)
    }

    /// Binds `value` to a new version of `name`: renames the temporary that holds it when
    /// it was just computed, so `let c = a + b;` prints as one line, not two.
    fn define(&mut self, name: &str, value: Operand, span: Span) -> VarId {
        if let Operand::Var(var) = value {
            let fresh = self.vars[var.0 as usize].origin == Origin::Temp && self.just_defined(var);
            if fresh {
                self.vars[var.0 as usize].origin = self.next_version(name);
                self.vars[var.0 as usize].span = span;
                return var;
            }
        }
        let dst = self.named(name, Ty::F64, span);
        // `let z = a;` of a `&f64` parameter `a`: `z` is a `&f64` too, passed on borrowed.
        if matches!(value, Operand::Var(var) if self.scalar_refs.contains(&var)) {
            self.scalar_refs.push(dst);
        }
        self.emit(Stmt::Assign {
            dst,
            op: Op::Copy(value),
        });
        dst
    }

    fn just_defined(&self, var: VarId) -> bool {
        let last = self.blocks.last().and_then(|block| block.last());
        match last {
            Some(Stmt::Assign { dst, .. }) => *dst == var,
            Some(Stmt::If(branch)) => branch.joins.iter().any(|join| join.dst == var),
            _ => false,
        }
    }

    fn bind(&mut self, name: &str, var: VarId) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_string(), Binding { var });
        }
    }

    /// Points `name` at `var` in the scope that declared it.
    fn rebind(&mut self, name: &str, var: VarId) {
        if let Some(binding) = self
            .scopes
            .iter_mut()
            .rev()
            .find_map(|scope| scope.get_mut(name))
        {
            binding.var = var;
        }
    }

    fn lookup(&self, name: &str) -> Option<Binding> {
        self.scopes
            .iter()
            .rev()
            .find_map(|scope| scope.get(name).copied())
    }

    fn in_scope<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        self.scopes.push(Scope::default());
        let value = f(self);
        self.scopes.pop();
        value
    }
}
