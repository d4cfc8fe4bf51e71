//! Printing statements and whole functions.

use super::*;

impl Printer {
    /// `let mut h = [x; N];` (or `vec![x; N]`, style 3) of a float variable `x`.
    fn filled_array(
        &mut self,
        name: &str,
        len: usize,
        var: &str,
        (style, seq): (u8, Option<&str>),
    ) {
        if style == 3 {
            self.vecs.borrow_mut().insert(name.to_string());
        }
        let (name, x) = (self.name(name), self.name(var));
        let len = match (style, seq) {
            (3, Some(seq)) => {
                let seq = self.name(seq);
                format!("{len} + {seq}.len() - {seq}.len()")
            }
            _ => len.to_string(),
        };
        let text = match (self.mode, style) {
            (Mode::Plain, 3) => format!("let mut {name} = vec![{x}; {len}];"),
            (Mode::Trace, 3) => format!("let mut {name}: Vec<T> = vec![{x}; {len}];"),
            (Mode::Plain, 1) => format!("let mut {name}: [f64; {len}] = [{x}; {len}];"),
            (Mode::Plain, _) => format!("let mut {name} = [{x}; {len}];"),
            (Mode::Trace, _) => format!("let mut {name}: [T; {len}] = [{x}; {len}];"),
            (Mode::Value, _) => format!("let mut {name}: Vec<Value> = vec![{x}.clone(); {len}];"),
        };
        self.line(&text);
    }

    pub fn body(&mut self, stmts: &[Stmt]) {
        self.indent += 1;
        for s in stmts {
            self.stmt(s);
        }
        self.indent -= 1;
    }

    pub fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Let {
                name,
                mutable,
                annot,
                expr,
            } => {
                let (m, name) = (if *mutable { "mut " } else { "" }, self.name(name));
                let a = if *annot {
                    format!(": {}", self.ty())
                } else {
                    String::new()
                };
                let e = self.expr(expr, false);
                self.line(&format!("let {m}{name}{a} = {e};"));
            }
            Stmt::LetInt {
                name,
                mutable,
                expr,
            } => {
                let (m, name) = (if *mutable { "mut " } else { "" }, self.name(name));
                let e = self.iexpr(expr);
                self.line(&format!("let {m}{name}: usize = {e};"));
            }
            Stmt::LetBool { name, cond } => {
                let (name, c) = (self.name(name), self.cond(cond));
                self.line(&format!("let {name} = {c};"));
            }
            Stmt::LetArr {
                name,
                len,
                fill,
                fill_var,
                style,
                seq,
            } => {
                if let Some(var) = fill_var {
                    return self.filled_array(name, *len, var, (*style, seq.as_deref()));
                }
                if *style == 3 {
                    self.vecs.borrow_mut().insert(name.clone());
                }
                let name = self.name(name);
                let len = match (style, seq) {
                    (3, Some(seq)) => {
                        let seq = self.name(seq);
                        format!("{len} + {seq}.len() - {seq}.len()")
                    }
                    _ => len.to_string(),
                };
                let text = match (self.mode, style) {
                    (Mode::Plain, 3) => format!("let mut {name} = vec![{fill:?}; {len}];"),
                    (Mode::Trace, 3) => {
                        format!("let mut {name}: Vec<T> = vec![T::c({fill:?}); {len}];")
                    }
                    (Mode::Plain, 0) => format!("let mut {name} = [{fill:?}; {len}];"),
                    (Mode::Plain, 1) => {
                        format!("let mut {name}: [f64; {len}] = [{fill:?}; {len}];")
                    }
                    (Mode::Plain, _) => format!("let mut {name} = [{fill:?}_f64; {len}];"),
                    (Mode::Trace, _) => {
                        format!("let mut {name}: [T; {len}] = [T::c({fill:?}); {len}];")
                    }
                    (Mode::Value, _) => {
                        format!("let mut {name}: Vec<Value> = vec![Value::new({fill:?}); {len}];")
                    }
                };
                self.line(&text);
            }
            Stmt::Assign { name, op, expr } => {
                let (name, e) = (self.name(name), self.expr(expr, false));
                // `T` and `Value` overload `+=`, which borrows the target before `e` runs
                // (and `e` may read or even change it); the primitive `f64` evaluates `e`
                // first. A temporary keeps that order.
                match (self.mode, *op) {
                    (Mode::Plain, _) => self.line(&format!("{name} {op} {e};")),
                    (Mode::Trace, _) | (Mode::Value, "=") => {
                        self.line(&format!("{{ let rhs__ = {e}; {name} {op} rhs__; }}"))
                    }
                    (Mode::Value, _) => {
                        let op = &op[..1];
                        self.line(&format!(
                            "{{ let rhs__ = {e}; {name} = {name}.clone() {op} rhs__; }}"
                        ))
                    }
                }
            }
            Stmt::AssignInt { name, op, expr } => {
                let (name, e) = (self.name(name), self.iexpr(expr));
                self.line(&format!("{name} {op} {e};"));
            }
            Stmt::Store { arr, idx, op, expr } => {
                let vec = self.vecs.borrow().contains(arr);
                let (arr, i) = (self.name(arr), self.iexpr(idx));
                let e = self.expr(expr, false);
                // (`Vec`'s `IndexMut` also borrows the vector before the index runs, so an
                // index that reads its length is computed first, after the value, as `f64`
                // arrays order them.)
                match (self.mode, *op) {
                    (Mode::Plain, _) if !vec => self.line(&format!("{arr}[{i}] {op} {e};")),
                    (Mode::Plain | Mode::Trace, _) | (Mode::Value, "=") => self.line(&format!(
                        "{{ let rhs__ = {e}; let i__ = {i}; {arr}[i__] {op} rhs__; }}"
                    )),
                    (Mode::Value, _) => {
                        let op = &op[..1];
                        self.line(&format!(
                            "{{ let rhs__ = {e}; let i__ = {i}; {arr}[i__] = {arr}[i__].clone() {op} rhs__; }}"
                        ))
                    }
                }
            }
            Stmt::If { arms, els } => {
                for (k, (c, body)) in arms.iter().enumerate() {
                    let c = self.cond(c);
                    if k == 0 {
                        self.line(&format!("if {c} {{"));
                    } else {
                        self.line(&format!("}} else if {c} {{"));
                    }
                    self.body(body);
                }
                if let Some(body) = els {
                    self.line("} else {");
                    self.body(body);
                }
                self.line("}");
            }
            Stmt::For {
                var,
                lo,
                hi,
                inclusive,
                body,
            } => {
                let v = var.as_deref().map_or("_".to_string(), |v| self.name(v));
                let r = if *inclusive { "..=" } else { ".." };
                let (lo, hi) = (self.iexpr(lo), self.iexpr(hi));
                self.line(&format!("for {v} in {lo}{r}{hi} {{"));
                self.body(body);
                self.line("}");
            }
            Stmt::Return(e) => {
                let e = self.expr(e, false);
                self.line(&format!("return {e};"));
            }
            Stmt::Block(body) => {
                self.line("{");
                self.body(body);
                self.line("}");
            }
            Stmt::Ext(node) => node.print(self),
        }
    }

    pub fn func(&mut self, f: &Func) {
        // A length the macro cannot count, a `const` before the function (and its attribute).
        let named_len = match &f.out {
            Some(Out { m, tuple: false }) if f.named_len && self.mode == Mode::Plain => {
                let len = format!("{}_LEN", f.name.trim_start_matches("r#").to_uppercase());
                self.line(&format!("const {len}: usize = {m};"));
                Some(len)
            }
            _ => None,
        };
        if self.mode == Mode::Plain {
            // `hvp` (with `jvp`'s): the checker also runs forward mode and second order.
            let mut options = Vec::new();
            if f.hvp {
                options.push("hvp".to_string());
            }
            if f.jacobian {
                options.push("jacobian".into());
            }
            if let Some(w) = &f.wrt {
                let w: Vec<String> = w.iter().map(|p| self.name(p)).collect();
                options.push(format!("wrt({})", w.join(", ")));
            }
            match options.is_empty() {
                true => self.line("#[differentiable]"),
                false => self.line(&format!("#[differentiable({})]", options.join(", "))),
            }
        }
        let generic = f.generic && self.mode == Mode::Plain;
        let params: Vec<String> = f
            .params
            .iter()
            .map(|p| {
                let ty = match (&p.kind, self.mode) {
                    (PKind::Scalar, Mode::Plain) if generic => "T".to_string(),
                    (PKind::Slice(_), Mode::Plain) if generic => "&[T]".to_string(),
                    (PKind::Scalar, m) => printer_ty(m).to_string(),
                    (PKind::Slice(_), m) => format!("&[{}]", printer_ty(m)),
                    (PKind::Array(n), Mode::Plain) => format!("&[f64; {n}]"),
                    (PKind::Array(_), m) => format!("&[{}]", printer_ty(m)),
                    (PKind::Vec(_), Mode::Plain) => "&Vec<f64>".to_string(),
                    (PKind::ArrayByValue(n), Mode::Plain) => format!("[f64; {n}]"),
                    (PKind::Vec(_) | PKind::ArrayByValue(_), m) => format!("&[{}]", printer_ty(m)),
                    (PKind::MutSlice(_), m) => format!("&mut [{}]", printer_ty(m)),
                    (PKind::Usize(_), _) => "usize".to_string(),
                    (PKind::I32(..), _) => "i32".to_string(),
                    (PKind::Bool, _) => "bool".to_string(),
                    (PKind::Labels(_), _) => "&[usize]".to_string(),
                    (PKind::Matrix(_, c, MatrixForm::Rows), Mode::Plain) => {
                        format!("&[[f64; {c}]]")
                    }
                    (PKind::Matrix(r, c, MatrixForm::Fixed), Mode::Plain) => {
                        format!("&[[f64; {c}]; {r}]")
                    }
                    (PKind::Matrix(r, c, MatrixForm::Value), Mode::Plain) => {
                        format!("[[f64; {c}]; {r}]")
                    }
                    (PKind::Matrix(.., MatrixForm::Pairs), m) => {
                        format!("&[({0}, {0})]", printer_ty(m))
                    }
                    (PKind::Matrix(_, c, _), m) => format!("&[[{}; {c}]]", printer_ty(m)),
                };
                format!("{}: {ty}", self.name(&p.name))
            })
            .collect();
        let name = match self.mode {
            Mode::Plain => f.name.clone(),
            Mode::Trace => format!("{}_t", f.name),
            Mode::Value => format!("{}_v", f.name),
        };
        let outer = std::mem::replace(&mut self.generic, generic);
        let ty = match &f.out {
            None => self.ty().to_string(),
            // A length the macro cannot count, a `const` beside the function.
            Some(Out { m, tuple: false }) => match &named_len {
                Some(len) => format!("[{}; {len}]", self.ty()),
                None => format!("[{}; {m}]", self.ty()),
            },
            Some(Out { m, tuple: true }) => format!("({})", vec![self.ty(); *m].join(", ")),
        };
        let bound = if generic { "<T: Float>" } else { "" };
        let mut params = params;
        if self.methods && self.mode == Mode::Plain && !f.generic {
            params.insert(0, "&self".to_string());
        }
        let ty = match &f.unit {
            Some(_) => String::new(),
            None => format!(" -> {ty}"),
        };
        self.line(&format!(
            "pub fn {name}{bound}({}){ty} {{",
            params.join(", ")
        ));
        self.body(&f.body);
        if let Some(t) = &f.tail {
            self.indent += 1;
            let t = self.expr(t, false);
            match &f.unit {
                // Its output is what it writes.
                Some(w) => self.line(&format!("{}[0] = {t};", self.name(w))),
                None => self.line(&t),
            }
            self.indent -= 1;
        }
        self.line("}");
        self.generic = outer;
    }
}
