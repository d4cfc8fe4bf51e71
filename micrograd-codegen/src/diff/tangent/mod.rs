//! Forward mode as a rewrite of the IR into the IR: the tangent program.
//!
//! Every active `f64` gets a tangent variable beside it, every active array a tangent array,
//! and loops, branches, loads, stores and calls keep their shape; the tangent program computes
//! `f` and its directional derivative in one sweep. It is an ordinary [`Function`] (its
//! parameters are `f`'s with a tangent after each varying one, its result the tangent of `f`'s
//! result), so the reverse sweep applies to it unchanged: reverse over forward gives
//! `∇(∇f · v) = H v` for the whole language at once.
//!
//! No second derivative table: every pullback of [`rules`] is linear in its adjoint, so the
//! tangent of `y = op(a, b)` is the sum of the pullback's parts with the adjoint replaced by
//! `ȧ` and `ḃ`. Only active values (varying and useful, [`Activity`]) get a tangent; the
//! others' is zero and folds away.
//!
//! Before: `let c = a * b; let y = c.tanh();`
//! After: `let c = a * b; let v_c = v_a * b + v_b * a; let y = c.tanh(); let v_y = v_c * (1.0 - y * y);`

mod columns;
mod lanes;
mod select;
mod stmts;

pub use columns::{Columns, columns};
pub use lanes::{LANES, Lanes, WIDTHS, lanes};

use super::Activity;
use crate::ir::{Block, Function, Operand, Origin, Param, Stmt, Ty, VarId, VarInfo};
use std::collections::{HashMap, HashSet};

/// A function's tangent program.
pub struct Tangent {
    /// Computes `f`'s value and tangent; its results are the tangents of `f`'s.
    pub function: Function,
    /// `f`'s results, bit for bit: the value the tangent flavours return first.
    pub values: Vec<Operand>,
    /// For each parameter of `f`, its tangent parameter in [`Tangent::function`], if it varies.
    pub tangents: Vec<Option<VarId>>,
    /// The tangent parameters nothing reads: their parameter is not active.
    pub unread: Vec<VarId>,
}

impl Tangent {
    /// The program returning `f`'s value before its tangent, `(y, ẏ)`: what a caller that
    /// lends `f` an array calls, once, since a second call would write the array again.
    pub fn with_value(mut self) -> Tangent {
        self.function
            .results
            .splice(0..0, self.values.iter().cloned());
        self.function.shape = crate::ir::Shape::Tuple;
        self
    }
}

/// The tangent program of `function` along tangents of the parameters `varying` (the others
/// are held constant).
pub fn transform(function: &Function, varying: &HashSet<VarId>) -> Tangent {
    let activity = Activity::of(function, varying);
    let mut pass = Pass {
        activity: &activity,
        vars: function.vars.clone(),
        dot: HashMap::new(),
        branches: function.branches as u32,
        scalar: function.scalar,
    };
    let TangentParams {
        params,
        fields,
        structs,
        tangents,
    } = pass.params(function, varying);
    let unread = unread(function, &activity, &tangents);
    let mut body = pass.written_constants(function, varying);
    body.extend(pass.block(&function.body));
    let results = function.results.iter().map(|r| pass.tangent(r)).collect();
    Tangent {
        function: Function {
            name: function.name.clone(),
            params,
            fields,
            structs,
            body,
            results,
            shape: function.shape,
            scalar: function.scalar,
            vars: pass.vars,
            branches: pass.branches as usize,
            loops: function.loops,
        },
        values: function.results.clone(),
        tangents,
        unread,
    }
}

/// The tangent parameters of a function ([`Pass::params`]).
struct TangentParams {
    /// The parameters, each varying one followed by its tangent.
    params: Vec<Param>,
    /// The function's fields and the tangents of those that vary.
    fields: Vec<crate::ir::Field>,
    /// The function's structs and the tangents of those that vary.
    structs: Vec<VarId>,
    /// Each parameter's tangent, in order.
    tangents: Vec<Option<VarId>>,
}

/// The tangents of `tangents` (each parameter's, in order) the tangent program never reads:
/// those of parameters no result depends on, neither a field nor a struct with an active field.
fn unread(function: &Function, activity: &Activity, tangents: &[Option<VarId>]) -> Vec<VarId> {
    function
        .params
        .iter()
        .zip(tangents)
        .filter(|(param, _)| !activity.is_active(param.var))
        .filter(|(param, _)| !function.fields.iter().any(|f| f.var == param.var))
        // A struct is read through its fields: its tangent is read if one of theirs is.
        .filter(|(param, _)| {
            !function
                .fields
                .iter()
                .any(|f| f.root == param.var && activity.is_active(f.var))
        })
        .filter_map(|(_, tangent)| *tangent)
        .collect()
}

struct Pass<'a> {
    activity: &'a Activity,
    vars: Vec<VarInfo>,
    /// The tangent of each active variable defined so far.
    dot: HashMap<VarId, VarId>,
    /// `if`s so far: the selects of the tangent rules become `if`s too.
    branches: u32,
    /// The function's float type, whose constants (`LN_2`) the rules name.
    scalar: crate::ir::Scalar,
}

impl Pass<'_> {
    /// The function's parameters, each varying one followed by its tangent (none for a
    /// field no result depends on), with the fields and structs the tangents add, and each
    /// parameter's tangent in order.
    fn params(&mut self, function: &Function, varying: &HashSet<VarId>) -> TangentParams {
        let mut params = Vec::new();
        let mut tangents = Vec::new();
        let (mut fields, mut structs) = (function.fields.clone(), function.structs.clone());
        for param in &function.params {
            params.push(param.clone());
            let field = function.fields.iter().find(|f| f.var == param.var);
            // A field that no result depends on has no tangent, so none is bound and left unread.
            let inactive_field = field.is_some() && !self.activity.is_active(param.var);
            let tangent = (varying.contains(&param.var) && !inactive_field).then(|| {
                let info = self.info(param.var).clone();
                let tangent = self.new_var(Origin::Param, info.ty);
                // Where the user wrote the parameter (a field's read): an error about it
                // points there.
                self.vars[tangent.0 as usize].span = info.span;
                self.dot.insert(param.var, tangent);
                params.push(Param {
                    var: tangent,
                    wrt: false,
                });
                tangent
            });
            if let Some(tangent) = tangent {
                if function.structs.contains(&param.var) {
                    structs.push(tangent);
                }
                if let Some(field) = field {
                    self.rename(param.var, tangent);
                    let root = *self
                        .dot
                        .get(&field.root)
                        .expect("internal error: a varying field's struct varies");
                    fields.push(crate::ir::Field {
                        var: tangent,
                        root,
                        ..field.clone()
                    });
                }
            }
            tangents.push(tangent);
        }
        TangentParams {
            params,
            fields,
            structs,
            tangents,
        }
    }

    fn info(&self, var: VarId) -> &VarInfo {
        &self.vars[var.0 as usize]
    }

    fn new_var(&mut self, origin: Origin, ty: Ty) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(VarInfo {
            origin,
            ty,
            span: proc_macro2::Span::mixed_site(),
        });
        id
    }

    /// A tangent variable for `var`, named after it (`v_c` for `c`).
    fn tangent_of(&mut self, var: VarId) -> VarId {
        let VarInfo { ty, span, .. } = self.info(var).clone();
        let tangent = self.new_var(Origin::Temp, ty);
        self.vars[tangent.0 as usize].span = span;
        self.rename(var, tangent);
        self.dot.insert(var, tangent);
        tangent
    }

    /// The tangent of `operand`: zero for constants and inactive values.
    fn tangent(&self, operand: &Operand) -> Operand {
        match operand {
            Operand::Var(v) => self
                .dot
                .get(v)
                .map_or(Operand::Const(0.0), |t| Operand::Var(*t)),
            _ => Operand::Const(0.0),
        }
    }

    /// A local tangent, zeros on entry, for each `&mut [f64]` parameter held constant (left
    /// out of `wrt(..)`, so without a tangent parameter) that the body writes with varying
    /// values and reads back, directly or through a call it is lent to.
    ///
    /// Before: `w[0] = x * x; w[0] * 3.0` with `wrt(x)`
    /// After: `let mut v_w = vec![0.0; w.len()]; w[0] = x * x; v_w[0] = 2.0 * x * v_x; ..`
    fn written_constants(&mut self, function: &Function, varying: &HashSet<VarId>) -> Block {
        let mut prologue = Vec::new();
        for param in &function.params {
            let written = self.info(param.var).ty.is_lent_mut();
            if !written || varying.contains(&param.var) || !self.active(param.var) {
                continue;
            }
            let len = crate::ir::IntExpr::Len(param.var);
            let dst = self.new_var(Origin::Temp, Ty::local(len, true));
            self.rename(param.var, dst);
            self.dot.insert(param.var, dst);
            prologue.push(Stmt::Array {
                dst,
                fill: Operand::Const(0.0),
            });
        }
        prologue
    }

    fn active(&self, var: VarId) -> bool {
        self.activity.is_active(var)
    }

    fn block(&mut self, block: &Block) -> Block {
        let mut out = Vec::new();
        for stmt in block {
            self.stmt(stmt, &mut out);
        }
        out
    }

    /// Gives `tangent` the name the tangent of `var` has.
    fn rename(&mut self, var: VarId, tangent: VarId) {
        let origin = match self.info(var).origin.clone() {
            Origin::Named { name, version } => Origin::Named {
                name: format!("v_{}", name.strip_prefix("r#").unwrap_or(&name)),
                version,
            },
            _ => Origin::Temp,
        };
        self.vars[tangent.0 as usize].origin = origin;
    }
}
