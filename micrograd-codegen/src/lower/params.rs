//! The parameters as the body sees them, and the lowered function put together.

use super::{Lowerer, fields, view};
use crate::ir::{
    Block, Field, FieldKind, Function, Operand, Origin, Output, Param, ParamSpec, Shape, Signature,
    Ty,
};
use crate::types::Kind;

impl Lowerer<'_> {
    /// The parameters, each bound to its name, then the fields of parameter structs the
    /// body reads, each a parameter of its own, differentiated where its struct is.
    pub(super) fn params(
        &mut self,
        body: &syn::Block,
        specs: &[ParamSpec],
        wrt: &dyn Fn(&syn::Ident) -> bool,
    ) -> (Vec<Param>, Vec<Field>) {
        let mut params: Vec<Param> = specs
            .iter()
            .map(|spec| self.param(spec, wrt(&spec.ident)))
            .collect();
        let fields = self.fields(body, specs, &params);
        let field_params: Vec<Param> = fields
            .iter()
            .map(|field| Param {
                var: field.var,
                wrt: params.iter().any(|p| p.var == field.root && p.wrt)
                    && matches!(
                        field.kind,
                        FieldKind::Scalar
                            | FieldKind::Slice
                            | FieldKind::Whole
                            | FieldKind::Elements
                    ),
            })
            .collect();
        params.extend(field_params);
        (params, fields)
    }

    /// The lowered function: its `body` and its `result` (a vector output's entries were
    /// recorded as it was lowered, and `result` is a placeholder for them).
    pub(super) fn finish(
        self,
        sig: &Signature,
        (params, fields): (Vec<Param>, Vec<Field>),
        body: Block,
        result: Operand,
    ) -> Function {
        let (results, shape) = match sig.output {
            // A length that is not a literal is lowered as `__f_into` (`returned/`).
            Some(Output::Scalar | Output::Counted) | None => (vec![result], Shape::Scalar),
            Some(Output::Array(_)) => (self.results, Shape::Array),
            Some(Output::Tuple(_)) => (self.results, Shape::Tuple),
        };
        Function {
            name: sig.ident.to_string(),
            scalar: self.scalar,
            params,
            fields,
            structs: self.structs,
            body,
            results,
            shape,
            vars: self.vars,
            branches: self.ids.0 as usize,
            loops: self.ids.1 as usize,
        }
    }

    fn param(&mut self, spec: &ParamSpec, wrt: bool) -> Param {
        // The IR's type for the kind's layout: a new kind answers `Kind::layout`, not this.
        let row = spec.kind().row().map(|row| self.len_expr(row));
        let ty: Ty = spec.kind().layout().map(
            // Rows are held flat: their number times the row's length.
            |len| match (self.len_expr(len), row) {
                (len, Some(row)) => view::mul(len, row),
                (len, None) => len,
            },
            |()| spec.value.clone(),
        );
        let differentiable = ty == Ty::F64 || ty.is_lent();
        let var = self.new_var(Origin::Param, ty, spec.ident.span());
        if let Some(row) = spec.kind().row() {
            let row = self.len_expr(row);
            self.rows.insert(var, view::Row::Len(row));
        }
        if matches!(spec.kind(), Kind::Ragged) {
            self.rows.insert(var, view::Row::Own);
        }
        if matches!(spec.kind(), Kind::Scalar)
            && matches!(spec.value, crate::types::Type::Ref { .. })
        {
            self.scalar_refs.push(var);
        }
        if spec.kind().is_one_entry() {
            self.scalar_muts.push(var);
        }
        self.bind(&spec.ident.to_string(), var);
        if matches!(spec.kind(), Kind::Struct(_)) {
            self.structs.push(var);
        }
        Param {
            var,
            wrt: wrt && differentiable,
        }
    }

    /// An array parameter's length, lowered from its tokens as written.
    fn len_expr(&mut self, len: &crate::types::Len) -> crate::ir::IntExpr {
        let len: syn::Expr =
            syn::parse2(len.tokens.0.clone()).expect("an array type's length is an expression");
        self.int_expr(&len)
    }

    /// The fields of the parameter structs that the body reads, each a variable of its own
    /// named after its path (`p_layer_w`), with its kind's type.
    fn fields(&mut self, body: &syn::Block, specs: &[ParamSpec], params: &[Param]) -> Vec<Field> {
        let roots: Vec<syn::Ident> = specs
            .iter()
            .filter(|spec| matches!(spec.kind(), Kind::Struct(_)))
            .map(|spec| spec.ident.clone())
            .collect();
        let uses = fields::scan(body, &roots, self.errors);
        let whole = |field: &fields::FieldUse| {
            uses.iter().any(|other| {
                other.kind.is_whole()
                    && other.root == field.root
                    && other.path.len() < field.path.len()
                    && field.path.starts_with(&other.path)
            })
        };
        let mut fields = Vec::new();
        for field in uses.iter().filter(|field| !field.path.is_empty()) {
            let Some(root) = specs.iter().position(|spec| spec.ident == field.root) else {
                continue;
            };
            let ty = match field.kind {
                FieldKind::Scalar => Ty::F64,
                FieldKind::Int => Ty::Int,
                FieldKind::Bool => Ty::Bool,
                FieldKind::Slice | FieldKind::Whole | FieldKind::Elements => Ty::slice(None, false),
            };
            let name = field.key().replace('.', "_");
            let var = self.named(&name, ty, field.span);
            self.fields.insert(field.key(), var);
            fields.push(Field {
                var,
                root: params[root].var,
                path: field.path.iter().map(crate::names::text).collect(),
                kind: field.kind,
                buffered: field.kind == FieldKind::Slice && whole(field),
            });
        }
        fields
    }
}
