//! Calls to earlier `#[differentiable]` functions, and the (sub-)slices passed to them.

use super::*;

impl Gen<'_> {
    pub fn call(&mut self, d: usize) -> Expr {
        let callees = self.callable(false);
        if callees.is_empty() {
            return self.leaf();
        }
        self.calls_left -= 1;
        let callee = self.rng.pick(&callees);
        let args = self.call_args(&callee, d);
        Expr::Call(callee.name.clone(), args)
    }

    /// The callees returning one `f64` (or, with `several`, several values) whose slices can
    /// be given something long enough from here.
    pub fn callable(&self, several: bool) -> Vec<Callee> {
        let loop_depth = self.loop_depth;
        let seqs = self.svars();
        let no_pass = &self.no_pass;
        let fits = |min: usize| {
            seqs.iter()
                .any(|s| s.len >= min && self.passable(s, loop_depth) && !no_pass.contains(&s.name))
        };
        self.callees
            .iter()
            .filter(|c| c.out.is_some() == several)
            .filter(|c| {
                c.params.iter().all(|p| match p.kind {
                    PKind::Slice(min)
                    | PKind::Array(min)
                    | PKind::Vec(min)
                    | PKind::ArrayByValue(min) => fits(min),
                    // Lent an array: lend.rs draws those calls.
                    PKind::MutSlice(_) => false,
                    _ => true,
                })
            })
            .cloned()
            .collect()
    }

    /// A float argument of depth below `d`. `g(K1)`: the macro cannot see `g`'s signature, so
    /// a name it cannot see alone says nothing (it asks for `let k: f64 = K1;`) unless another
    /// use in the function does; `K1 * 1.0` does.
    pub fn scalar_arg(&mut self, d: usize) -> Arg {
        let e = self.expr(d);
        match tail_draws::outside_only(self, &e) {
            true => Arg::Scalar(Expr::Bin("*", Box::new(e), Box::new(Expr::Lit(1.0)))),
            false => Arg::Scalar(e),
        }
    }

    /// Arguments for `callee`, scalars of depth below `d`.
    pub fn call_args(&mut self, callee: &Callee, d: usize) -> Vec<Arg> {
        let mut args = Vec::new();
        for p in &callee.params {
            let arg = match p.kind {
                PKind::Scalar => self.scalar_arg(d),
                PKind::Slice(min)
                | PKind::Array(min)
                | PKind::Vec(min)
                | PKind::ArrayByValue(min) => self.slice_arg(min),
                PKind::Usize(max) => {
                    if self.rng.chance(0.5) {
                        Arg::Int(IExpr::Lit(self.rng.range(0, max as i64)))
                    } else {
                        let e = self.usize_expr(1);
                        Arg::Int(IExpr::Bin(
                            "%",
                            Box::new(e),
                            Box::new(IExpr::Lit(max as i64 + 1)),
                        ))
                    }
                }
                PKind::I32(lo, hi) => Arg::Int(IExpr::Lit(self.rng.range(lo as i64, hi as i64))),
                PKind::Bool => Arg::Bool(self.cond(1)),
                PKind::MutSlice(_) => unreachable!("lend.rs draws calls lent an array"),
                PKind::Labels(_) | PKind::Matrix(..) => unreachable!("only entries take data"),
            };
            args.push(arg);
        }
        args
    }

    /// Whether `s` may be passed to a call at `loop_depth`. A local array is passed in the
    /// loop body that declares it (or outside loops, if declared there), or in a loop inside
    /// that once frozen: one declared before a loop and not frozen could change in a later
    /// iteration, after the call, and a frozen one was frozen at its own depth, so before the
    /// loops inside it began (the reverse sweep then adds the calls' adjoints of its windows
    /// into its adjoint, which the macro declares before the loop). Not [`Gen::unit`], which
    /// the function's last statement changes.
    fn passable(&self, s: &SVar, loop_depth: usize) -> bool {
        (!s.local || s.loop_depth == loop_depth || self.frozen.contains(&s.name))
            && self.unit.as_ref() != Some(&s.name)
    }

    /// A slice of at least `min` entries: a parameter, a local array (then frozen: the
    /// macro rejects arrays changed after a call reads them) or a part of one, where
    /// [`Gen::passable`].
    pub fn slice_arg(&mut self, min: usize) -> Arg {
        let loop_depth = self.loop_depth;
        let candidates: Vec<SVar> = self
            .svars()
            .into_iter()
            .filter(|s| s.len >= min && self.passable(s, loop_depth))
            .filter(|s| !self.no_pass.contains(&s.name))
            .collect();
        let s = self.rng.pick(&candidates);
        if s.local {
            self.frozen.insert(s.name.clone());
        }
        let m = s.len;
        let form = match self.rng.below(6) {
            0 if !s.local => SliceForm::Whole,
            // `&w` of an array parameter `w: &[f64; N]` is a `&&[f64; N]`, which Rust does not
            // coerce to `&[f64]`.
            1 if s.local || !s.exact => SliceForm::Ref,
            2 => SliceForm::Full,
            3 => SliceForm::From(IExpr::Lit(self.rng.range(0, (m - min) as i64))),
            4 => SliceForm::To(IExpr::Lit(self.rng.range(min as i64, m as i64))),
            _ => {
                let a = self.rng.range(0, (m - min) as i64);
                if !s.exact && self.rng.chance(0.4) {
                    SliceForm::Range(IExpr::Lit(a), IExpr::Len(s.name.clone()))
                } else {
                    let b = self.rng.range(a + min as i64, m as i64);
                    SliceForm::Range(IExpr::Lit(a), IExpr::Lit(b))
                }
            }
        };
        Arg::Slice(s.name, form)
    }

    // ----- conditions
}
