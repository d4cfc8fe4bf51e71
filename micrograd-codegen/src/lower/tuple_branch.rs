//! Branches whose arms end in tuples, taken apart by `let`: each position goes through a
//! hidden variable that every arm assigns, so the branch joins the positions as it joins any
//! variable an arm assigns, and arms that exit lower as they do for an `f64` value.
//!
//! Before: `let (lo, hi) = if x < y { (x, y) } else { (y, x) };`
//! After: `if x < y { __mg_part = x; __mg_part_ = y; } else { __mg_part = y; __mg_part_ = x; }`
//! `let (lo, hi) = (__mg_part, __mg_part_);`

use super::Lowerer;
use std::rc::Rc;
use syn::spanned::Spanned;
use syn::{Expr, Pat, Stmt, parse_quote_spanned};

mod tails;
use tails::{arity, collect_tails, collect_value_tails, literal_len};

impl Lowerer<'_> {
    /// Whether `branch`, used as a value other than by `let (a, b) = branch;`, has an arm
    /// ending in a tuple or array literal; reported once, at the first.
    pub(super) fn tuple_arms(&mut self, branch: &Expr) -> bool {
        let mut tails = Vec::new();
        collect_tails(branch, &mut tails);
        let Some(tail) = tails.into_iter().find(|tail| literal_len(tail).is_some()) else {
            return false;
        };
        self.errors.at(tail.span(), "a branch whose arms end in tuples is taken apart where it is bound, by a pattern of as many names: `let (a, b) = if c { (x, y) } else { (y, x) };`");
        true
    }

    /// The statements to lower instead of `local` when it is `let (a, b) = branch;` (or
    /// `let [a, b] = branch;`) with arms ending in tuples or array literals. Each hidden
    /// variable is bound to a placeholder that is never read, as in `values.rs`, so an arm's
    /// assignment gives it the kind of the arm's value. Arms of another arity are reported,
    /// and the pattern's names poisoned.
    pub(super) fn unfold_tuple(&mut self, local: &syn::Local) -> Option<Rc<Vec<Stmt>>> {
        let init = local.init.as_ref().filter(|init| init.diverge.is_none())?;
        if self.integer_branch(local, &init.expr) {
            return Some(self.unfold_parts(local, &init.expr, 1, true));
        }
        let arity = arity(&local.pat)?;
        let branch = &*init.expr;
        let is_branch = match branch {
            Expr::If(branch) => branch.else_branch.is_some(),
            Expr::Match(_) => true,
            _ => false,
        };
        let mut tails = Vec::new();
        collect_tails(branch, &mut tails);
        if !is_branch || tails.iter().all(|tail| literal_len(tail).is_none()) {
            return None;
        }
        if !self.check_tails(&tails, arity) {
            self.poison(&local.pat);
            return Some(Rc::new(Vec::new()));
        }
        Some(self.unfold_parts(local, branch, arity, false))
    }

    /// The statements of the unfolding of `let pat = branch;`: with `single`, one value
    /// rather than a tuple of `arity`.
    fn unfold_parts(
        &mut self,
        local: &syn::Local,
        branch: &Expr,
        arity: usize,
        single: bool,
    ) -> Rc<Vec<Stmt>> {
        let hidden: Vec<syn::Ident> = (0..arity)
            .map(|_| crate::names::free(&mut self.used, crate::names::lowered::PART))
            .collect();
        for name in &hidden {
            let placeholder =
                self.new_var(crate::ir::Origin::Temp, crate::ir::Ty::Int, branch.span());
            self.bind(&name.to_string(), placeholder);
        }
        let mut finish = local.clone();
        if let Some(init) = &mut finish.init {
            *init.expr = match single {
                true => parse_quote_spanned!(branch.span()=> #(#hidden)*),
                false => parse_quote_spanned!(branch.span()=> (#(#hidden,)*)),
            };
        }
        let body = assign_parts(branch, &hidden, single);
        Rc::new(vec![
            Stmt::Expr(body, Some(Default::default())),
            Stmt::Local(finish),
        ])
    }

    /// Whether `let m = branch;` binds an integer, which the branch's arms say (integer
    /// literals, variables, lengths, casts) or the pattern's type does; arms of names the
    /// function does not define alone (`if MAX < N { MAX } else { N }`) are integers where
    /// the condition holds no float. Such a branch lowers as a tuple branch of one position,
    /// since a branch used as a value is otherwise an `f64`.
    fn integer_branch(&mut self, local: &syn::Local, branch: &Expr) -> bool {
        let (pat, ty) = match &local.pat {
            Pat::Type(typed) => (&*typed.pat, Some(&*typed.ty)),
            other => (other, None),
        };
        let Pat::Ident(name) = pat else {
            return false;
        };
        if name.subpat.is_some() {
            return false;
        }
        let cond = match branch {
            Expr::If(branch) if branch.else_branch.is_some() => Some(&*branch.cond),
            Expr::Match(_) => None,
            _ => return false,
        };
        let mut tails = Vec::new();
        collect_value_tails(branch, &mut tails);
        let values: Vec<&Expr> = tails.into_iter().filter(|tail| !is_exit(tail)).collect();
        if values.is_empty() || !values.iter().all(|tail| self.int_like(tail, false)) {
            return false;
        }
        // What the whole function's uses say the arms' outside names are (`typing.rs`).
        let decided = values.iter().find_map(|tail| self.outside_type(tail));
        match ty {
            Some(ty) => is_int_type(ty),
            None if values.iter().any(|tail| self.int_like(tail, true)) => true,
            None if decided.is_some() => decided == Some(false),
            // Arms of outside names only (`if n > 2 { K } else { J }`, `match k { 0 => N, _ =>
            // M }`) that no use in the function decides (`typing.rs`): a float condition makes
            // them floats.
            None if !cond.is_some_and(|cond| self.int_like(cond, false)) => false,
            None => {
                self.errors.at(name.ident.span(), format!("cannot tell whether `{name}` is an `{float}` or an integer, since its arms are names this function does not define and no use of it says; annotate it: `let {name}: {float} = ..;` or `let {name}: usize = ..;`", name = name.ident, float = self.scalar.name()));
                true
            }
        }
    }

    /// Whether `expr` can only be an integer, or (without `surely`) may be one: integer
    /// literals, integer variables, `.len()`, casts to integers, and (without `surely`) names
    /// the function does not define, through arithmetic, comparisons and `!`.
    pub(super) fn int_like(&self, expr: &Expr, surely: bool) -> bool {
        // A read of data (`labels[i]`, `pairs[i].1` of `pairs: &[(f64, usize)]`) is what its
        // type says, which the signature tells.
        if let Some(ty) = self.data_type(expr) {
            return matches!(ty.referent(), crate::types::Type::Int(_));
        }
        match expr {
            Expr::Lit(lit) => matches!(lit.lit, syn::Lit::Int(_)),
            Expr::Path(path) => match path.path.get_ident() {
                Some(name) => match self.lookup(&name.to_string()) {
                    Some(binding) => {
                        !self.aliases.contains_key(&binding.var)
                            && matches!(self.ty(binding.var), crate::ir::Ty::Int)
                    }
                    None => !surely,
                },
                None => !surely && path.path.segments.len() > 1 && path.qself.is_none(),
            },
            Expr::Paren(inner) => self.int_like(&inner.expr, surely),
            Expr::Unary(unary) => self.int_like(&unary.expr, surely),
            Expr::Cast(cast) => is_int_type(&cast.ty),
            Expr::MethodCall(call) => call.method == "len" && call.args.is_empty(),
            // `[4, 7, 3][i % 3]`: an entry of an array of integers.
            Expr::Index(index) => match &*index.expr {
                Expr::Array(array) => {
                    !array.elems.is_empty()
                        && array.elems.iter().all(|entry| self.int_like(entry, surely))
                }
                _ => false,
            },
            // `^ & | << >>` are integers' only.
            Expr::Binary(binary) if super::ints::bit_op(&binary.op).is_some() => {
                !surely || self.int_like(&binary.left, true) || self.int_like(&binary.right, true)
            }
            Expr::Binary(binary) => {
                let spine = crate::spine::spine(binary);
                let sides = spine.iter().map(|node| &node.right);
                let mut sides = sides.chain([&spine[spine.len() - 1].left]);
                match surely {
                    true => sides.any(|side| self.int_like(side, true)),
                    false => sides.all(|side| self.int_like(side, false)),
                }
            }
            _ => false,
        }
    }
}

impl Lowerer<'_> {
    /// The type of a read of data, `x`, `x[i]` or `x.k` (through parentheses and `&`) of a
    /// parameter that is data or a name bound to a place of one (`let p = pts[i];`), as its
    /// type in the signature says; `None` for anything else.
    pub(super) fn data_type(&self, expr: &Expr) -> Option<crate::types::Type> {
        match expr {
            Expr::Paren(inner) => self.data_type(&inner.expr),
            Expr::Group(inner) => self.data_type(&inner.expr),
            Expr::Reference(reference) => self.data_type(&reference.expr),
            Expr::Path(path) if path.qself.is_none() => {
                let binding = self.lookup(&path.path.get_ident()?.to_string())?;
                match self.aliases.get(&binding.var) {
                    Some(super::expr::Value::Data(_, ty)) => Some(ty.clone()),
                    Some(_) => None,
                    None => match self.ty(binding.var) {
                        crate::ir::Ty::Data(ty) => Some(ty.clone()),
                        _ => None,
                    },
                }
            }
            Expr::Index(index) if !matches!(&*index.index, Expr::Range(_)) => {
                self.data_type(&index.expr)?.elem().cloned()
            }
            Expr::Field(field) => match &field.member {
                syn::Member::Unnamed(k) => self
                    .data_type(&field.base)?
                    .field(k.index as usize)
                    .cloned(),
                syn::Member::Named(_) => None,
            },
            _ => None,
        }
    }
}

fn is_exit(expr: &Expr) -> bool {
    matches!(expr, Expr::Return(_) | Expr::Break(_) | Expr::Continue(_))
}

pub(super) fn is_int_type(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.path.get_ident().is_some_and(|ident| crate::signature::is_int_name(&ident.to_string())))
}

impl Lowerer<'_> {
    /// Whether every tail is a tuple or array literal of `arity` values or an exit; reports
    /// the others.
    fn check_tails(&mut self, tails: &[&Expr], arity: usize) -> bool {
        let mut fine = true;
        for tail in tails {
            let message = match literal_len(tail) {
                Some(len) if len == arity => continue,
                Some(len) => format!(
                    "this arm gives {len} value{s} where the pattern takes {arity}; end every arm of the branch in a tuple of {arity} values",
                    s = if len == 1 { "" } else { "s" }
                ),
                None if matches!(tail, Expr::Return(_) | Expr::Break(_) | Expr::Continue(_)) => {
                    continue;
                }
                None => format!(
                    "end this arm in a tuple of {arity} values written out, `(a, b)`, as the other arms do"
                ),
            };
            self.errors.at(tail.span(), message);
            fine = false;
        }
        fine
    }
}

/// `expr` with each tuple it ends in assigned to `hidden`, position by position; with
/// `single`, each value it ends in assigned to the one `hidden`.
fn assign_parts(expr: &Expr, hidden: &[syn::Ident], single: bool) -> Expr {
    match expr {
        Expr::If(branch) => {
            let mut branch = branch.clone();
            assign_block_tail(&mut branch.then_branch, hidden, single);
            if let Some((_, otherwise)) = &mut branch.else_branch {
                **otherwise = assign_parts(otherwise, hidden, single);
            }
            Expr::If(branch)
        }
        Expr::Match(matching) => {
            let mut matching = matching.clone();
            for arm in &mut matching.arms {
                *arm.body = assign_parts(&arm.body, hidden, single);
            }
            Expr::Match(matching)
        }
        Expr::Block(block) if block.label.is_none() => {
            let mut block = block.clone();
            assign_block_tail(&mut block.block, hidden, single);
            Expr::Block(block)
        }
        value if single && !is_exit(value) => {
            let name = &hidden[0];
            parse_quote_spanned!(value.span()=> { #name = #value; })
        }
        Expr::Tuple(syn::ExprTuple { elems, .. }) | Expr::Array(syn::ExprArray { elems, .. }) => {
            let parts = elems.iter().zip(hidden).map(|(value, name)| -> Stmt {
                parse_quote_spanned!(value.span()=> #name = #value;)
            });
            parse_quote_spanned!(expr.span()=> { #(#parts)* })
        }
        other => other.clone(),
    }
}

/// The block with its tail, if it has one, assigned to `hidden`.
fn assign_block_tail(block: &mut syn::Block, hidden: &[syn::Ident], single: bool) {
    if let Some(Stmt::Expr(tail, semi @ None)) = block.stmts.last_mut() {
        *tail = assign_parts(tail, hidden, single);
        *semi = Some(Default::default());
    }
}
