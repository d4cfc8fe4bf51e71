//! Adding a construct: one new file beside this one, and one line in `constructs!` in
//! generator.rs.
//!
//! The file defines a unit struct implementing [`ExprConstruct`] (an `f64` expression) or
//! [`StmtConstruct`] (a statement), and, when the construct needs text of its own, a node type
//! implementing [`ExprNode`] or [`StmtNode`] that prints it in every [`Mode`] (`Plain` for the
//! macro, `Trace` over the dual number `T`, `Value` over the `Value` engine). Generation uses
//! the [`Gen`] helpers (`expr`, `cond`, `usize_expr`, `index`, `push`/`pop`, ...), printing the
//! [`Printer`] ones (`expr`, `cond`, `iexpr`, `line`, `body`, `ty`). A construct must keep the
//! program valid by construction, as the built-in ones do (see generator.rs), and print every
//! variable name it holds through `Printer::name`: hygiene.rs renames variables there.
//!
//! ```ignore
//! // tests/random/while_loop.rs
//! pub struct While;
//! impl StmtConstruct for While {
//!     fn weight(&self, g: &Gen, level: usize) -> u32 { if level < 3 && g.loops_left > 0 { 4 } else { 0 } }
//!     fn generate(&self, g: &mut Gen, level: usize) -> Stmt { .. Stmt::Ext(Rc::new(WhileNode { .. })) }
//! }
//! // generator.rs
//! constructs! {
//!     while_loop => [], [While];
//! }
//! ```
//! Registered constructs are drawn after the built-in ones, so registering none leaves every
//! seed's programs as they were.

use super::*;
use std::fmt::Debug;

/// A kind of `f64` expression the generator may draw.
pub trait ExprConstruct: Sync {
    /// Its weight at this point among all expression kinds (`+ - *` weigh 14; 0: not here).
    fn weight(&self, g: &Gen) -> u32;
    /// Draws one, whose operands have depth below `depth`.
    fn generate(&self, g: &mut Gen, depth: usize) -> Expr;
}

/// A kind of statement the generator may draw.
pub trait StmtConstruct: Sync {
    /// Its weight at this point among all statement kinds (`let` weighs 30; 0: not here);
    /// `level` is the nesting depth (bodies nest only below 3).
    fn weight(&self, g: &Gen, level: usize) -> u32;
    /// Draws one at nesting depth `level`.
    fn generate(&self, g: &mut Gen, level: usize) -> Stmt;
}

/// An expression with text of its own ([`Expr::Ext`]).
pub trait ExprNode: Debug {
    /// Its text in `p.mode`; `typed` asks for suffixed literals (a literal-only receiver).
    fn print(&self, p: &mut Printer, typed: bool) -> String;
    /// Whether it holds statements (then it is not evaluated twice, see `Gen::positive`).
    fn has_stmts(&self) -> bool;
    /// Whether Rust knows it is an `f64` (otherwise it may be an unsuffixed `{float}`).
    fn anchored(&self) -> bool;
    /// Whether it is made of names the function does not define only (tail_draws.rs), whose
    /// type the macro learns from their uses.
    fn outside(&self) -> bool {
        false
    }
}

/// A statement with text of its own ([`Stmt::Ext`]).
pub trait StmtNode: Debug {
    /// Writes its lines with `p.line`, in `p.mode`.
    fn print(&self, p: &mut Printer);
}

/// Declares each construct file and registers its constructs, in order:
/// `file => [expression constructs], [statement constructs];`.
macro_rules! constructs {
    ($($file:ident => [$($e:ident),* $(,)?], [$($s:ident),* $(,)?];)*) => {
        $(mod $file;)*
        /// The registered expression constructs.
        pub static EXPRS: &[&dyn ExprConstruct] = &[$($(&$file::$e,)*)*];
        /// The registered statement constructs.
        pub static STMTS: &[&dyn StmtConstruct] = &[$($(&$file::$s,)*)*];
    };
}

/// The set-up of a construct drawn for the entry after the rest of the program, from a stream
/// of its own (matrix_params.rs, pairs.rs, steps.rs): the stream `mix(seed ^ stream)`, whose
/// first draw decides at `chance` whether the entry gets the construct, and the entry's `f64`
/// parameters. `None` (no construct) also for programs of methods, generic entries, entries
/// without an `f64` parameter and, unless `several_outputs`, entries returning several values.
pub fn entry_draw(
    p: &Program,
    seed: u64,
    stream: u64,
    chance: f64,
    several_outputs: bool,
) -> Option<(Rng, Vec<String>)> {
    let mut rng = Rng::new(mix(seed ^ stream));
    if !rng.chance(chance) || p.methods {
        return None;
    }
    let entry = p.funcs.last().expect("an entry");
    let scalars: Vec<String> = entry
        .params
        .iter()
        .filter(|q| q.kind == PKind::Scalar)
        .map(|q| q.name.clone())
        .collect();
    if (entry.out.is_some() && !several_outputs) || entry.generic || scalars.is_empty() {
        return None;
    }
    Some((rng, scalars))
}
