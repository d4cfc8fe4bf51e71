//! Custom derivatives: `#[differentiable(derivative(x = rule, ..))]` on a function whose body
//! the macro does not read (a foreign `erf`, an iterative solver, a numerically better formula).
//!
//! Each rule is a `#[differentiable]` function of the same parameters that returns one partial
//! derivative. The function is lowered into the IR without reading its body: a call of each
//! rule (an ordinary [`ir::Op::Call`], whose value is `∂f/∂x`), then the body as one
//! [`ir::Op::Custom`] whose pullback and tangent read those values. So every flavour comes from
//! the one pipeline, as for any other function (Clad keeps user rules in the table of its
//! built-ins): `f_grad` and `f_pullback` multiply the seed by the rules' values, `f_jvp` sums
//! them times the tangents, and reverse over forward differentiates the rules' calls through
//! the rules' own pullbacks (the second order).
//!
//! Before: `#[differentiable(derivative(x = erf_dx))] fn erf(x: f64) -> f64 { series(x) }`
//! After (the IR): `let t0 = erf_dx(x); let t1 = (|x: f64| -> f64 { series(x) })(x);`,
//! returning `t1`, whose partial in `x` is `t0`; and a check that `erf_dx` is
//! `#[differentiable]`.

use crate::attr::Options;
use crate::error::Errors;
use crate::flavor::Flavor;
use crate::ir::{self, Arg, Cond, Function, IntExpr, Op, Operand, Origin, Param, ParamSpec};
use crate::ir::{Place, Shape, Signature, Stmt, Ty, VarId, VarInfo};
use crate::names;
use crate::types::{Kind, Type};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

/// The rule of each parameter, in parameter order (`None` for integers and booleans).
type Rules<'a> = Vec<Option<&'a syn::Path>>;

/// `item` lowered as its rules say, with the check that each rule is `#[differentiable]`;
/// `None` after recording what is wrong with `derivative(..)` in `errors`. `wrt` lists what
/// `wrt(..)` selects.
pub fn lower(
    (item, sig): (&syn::ItemFn, &Signature),
    wrt: &[String],
    options: &Options,
    errors: &mut Errors,
) -> Option<(Function, TokenStream)> {
    let rules = check(item, &sig.params, options, errors)?;
    let function = function((item, sig), wrt, &rules);
    // With `hvp`, the flavours call each rule's pullback, and that call is the check.
    let checks = (!Flavor::Hvp.requested(options)).then(|| rule_checks(&item.sig.ident, &rules));
    Some((function, checks.unwrap_or_default()))
}

/// The IR of `f`: each rule called, then the body, whose value is returned.
fn function((item, sig): (&syn::ItemFn, &Signature), wrt: &[String], rules: &Rules) -> Function {
    let mut vars = Vec::new();
    let mut var = |ty: Ty, origin: Origin, span: Span| {
        vars.push(VarInfo { origin, ty, span });
        VarId(vars.len() as u32 - 1)
    };
    let (mut params, mut args) = (Vec::new(), Vec::new());
    for spec in &sig.params {
        let v = var(ty(spec), Origin::Param, spec.ident.span());
        params.push(Param {
            var: v,
            wrt: matches!(spec.kind(), Kind::Scalar) && wrt.contains(&spec.ident.to_string()),
        });
        args.push(arg(spec, v));
    }
    let pointer = pointer(&sig.params, &sig.scalar.ty());
    let (mut body, mut partials) = (Vec::new(), Vec::new());
    for (param, rule) in params.iter().zip(rules) {
        let Some(rule) = rule else { continue };
        let partial = var(Ty::F64, Origin::Temp, rule.span());
        let callee = ir::Extern {
            rule: Some(Box::new(ir::Rule {
                pointer: quote_spanned!(rule.span()=> #pointer),
                arguments: arguments(rule),
            })),
            ..ir::Extern::new(path(rule), rule.span())
        };
        body.push(Stmt::Assign {
            dst: partial,
            op: Op::Call(callee, args.clone()),
        });
        partials.push((Operand::Var(param.var), partial));
    }
    let value = var(Ty::F64, Origin::Temp, item.sig.ident.span());
    body.push(Stmt::Assign {
        dst: value,
        op: Op::Custom(Box::new(ir::Custom {
            body: closure(item, sig.scalar),
            args,
            partials,
        })),
    });
    Function {
        name: sig.ident.to_string(),
        scalar: sig.scalar,
        params,
        fields: Vec::new(),
        structs: Vec::new(),
        body,
        results: vec![Operand::Var(value)],
        shape: Shape::Scalar,
        vars,
        branches: 0,
        loops: 0,
    }
}

/// The IR type of a parameter `check` accepted: an `f64`, an integer, a `bool`, or data.
fn ty(spec: &ParamSpec) -> Ty {
    match spec.kind() {
        Kind::Scalar => Ty::F64,
        Kind::Int => Ty::Int,
        Kind::Bool => Ty::Bool,
        _ => Ty::Data(spec.value.clone()),
    }
}

/// The parameter `v` passed on as it came: a `&f64` borrowed again, data cloned unless `Copy`.
fn arg(spec: &ParamSpec, v: VarId) -> Arg {
    match spec.kind() {
        Kind::Scalar => Arg::Scalar(Operand::Var(v), matches!(spec.value, Type::Ref { .. })),
        Kind::Int => Arg::Int(IntExpr::Var(v)),
        Kind::Bool => Arg::Bool(Cond::Var(v)),
        _ => Arg::Data {
            place: Place {
                root: v,
                steps: Vec::new(),
            },
            reference: false,
            clone: !spec.value.is_copy(),
        },
    }
}

/// A rule's path as the IR holds one: its segments, a leading `::` as "".
fn path(rule: &syn::Path) -> Vec<String> {
    let leading = rule.leading_colon.map(|_| String::new());
    leading
        .into_iter()
        .chain(rule.segments.iter().map(|s| s.ident.to_string()))
        .collect()
}

/// The generic arguments of each segment of `rule` as written (`::<3>`, or nothing), aligned
/// with [`path`]'s segments.
fn arguments(rule: &syn::Path) -> Vec<TokenStream> {
    let leading = rule.leading_colon.map(|_| TokenStream::new());
    let each = rule.segments.iter().map(|s| s.arguments.to_token_stream());
    leading.into_iter().chain(each).collect()
}

/// `fn(f64, usize) -> f64`: the type of every rule of `f`, which each rule is bound to where
/// it is called, so a rule of other parameters or result is one "mismatched types" error at
/// the rule and the call through the binding adds none of its own.
fn pointer(specs: &[ParamSpec], float: &TokenStream) -> TokenStream {
    let types = specs.iter().map(|spec| match (&spec.kind(), &spec.value) {
        (Kind::Scalar, Type::Ref { .. }) => spec.written.0.clone(),
        (Kind::Scalar, _) => float.clone(),
        (Kind::Bool, _) => quote!(::core::primitive::bool),
        _ => spec.written.0.clone(),
    });
    quote!(fn(#(#types),*) -> #float)
}

/// One rule per `f64` parameter and none for anything else; `None` after an error.
fn check<'o>(
    item: &syn::ItemFn,
    specs: &[ParamSpec],
    options: &'o Options,
    errors: &mut Errors,
) -> Option<Rules<'o>> {
    let before = errors.len();
    let given = options.derivative.as_deref().unwrap_or_default();
    let at = options.derivative_span.unwrap_or_else(Span::call_site);
    for (k, (name, _)) in given.iter().enumerate() {
        if given[..k].iter().any(|(other, _)| other == name) {
            errors.at(
                name.span(),
                format!("`{name}` has two rules in `derivative(..)`; give one"),
            );
        }
        match specs.iter().find(|spec| spec.ident == *name) {
            None => errors.at(name.span(), format!("`{name}` is not a parameter of this function; `derivative(..)` gives a rule for each `f64` parameter")),
            Some(spec) if !matches!(spec.kind(), Kind::Scalar) => errors.at(name.span(), format!("`{name}` is not an `f64` parameter, so it has no derivative; rules are for `f64` parameters")),
            Some(_) => {}
        }
    }
    let mut rules = Vec::new();
    for spec in specs {
        let rule = given.iter().find(|(name, _)| *name == spec.ident);
        let (x, f) = (&spec.ident, &item.sig.ident);
        match &spec.kind() {
            // A method's receiver, a parameter struct (`methods`).
            _ if *x == crate::names::method::RECEIVER => errors.spanned(&spec.written, "a method's `self` has no rule in `derivative(..)`: give the rules on an associated function of the floats it reads, `fn f(k: f64, x: f64) -> f64`, and call that from the method, `Self::f(self.k, x)`"),
            Kind::Scalar if rule.is_none() => errors.at(x.span(), format!("`{x}` has no rule in `derivative(..)`; add `{x} = rule`, a `#[differentiable]` function of the same parameters returning ∂{f}/∂{x}")),
            kind if kind.is_differentiable() && !matches!(kind, Kind::Scalar) => errors.spanned(&spec.written, "`derivative(..)` does not support slice or array parameters: each rule returns one `f64` partial; pass the entries as `f64` parameters, or let `#[differentiable]` differentiate the body"),
            _ => {}
        }
        rules.push(rule.map(|(_, path)| path));
    }
    if !specs.iter().any(|spec| matches!(spec.kind(), Kind::Scalar)) && errors.len() == before {
        errors.at(at, "this function has no `f64` parameter, so `derivative(..)` has nothing to give; remove it");
    }
    (errors.len() == before).then_some(rules)
}

/// `f`'s body as a closure of `f`'s parameters as written (the generated ones are hygienic),
/// called where the value is computed, rather than a call of `f`: inside an `impl` block `f`
/// alone does not name the associated function (and could name a free function of that name),
/// and outside one `Self::f` does not resolve.
fn closure(item: &syn::ItemFn, scalar: crate::ir::Scalar) -> TokenStream {
    let (inputs, block) = (&item.sig.inputs, &item.block);
    let float = scalar.ty();
    quote!((|#inputs| -> #float #block))
}

/// Each rule is `#[differentiable]` (its `rule_grad` exists), so that flavours of higher order
/// can differentiate it in turn. A hidden function rather than a `const _`, so the output is
/// also valid inside an `impl` (where the rules are `Self::rule`).
fn rule_checks(f: &Ident, rules: &Rules) -> TokenStream {
    // `rule_grad`, which every `#[differentiable]` function of one `f64` has: `rule_pullback`
    // is generic over its seed, so naming it alone would leave its type unknown.
    let each = rules.iter().flatten().map(|rule| {
        let grad = suffixed(rule, "_grad");
        quote_spanned!(rule.span()=> let _ = #grad;)
    });
    let name = names::rules(f);
    quote! {
        #[doc(hidden)]
        #[allow(dead_code, non_snake_case)]
        fn #name() {
            #(#each)*
        }
    }
}

/// `path` with `suffix` after its last segment: `rule_pullback` of `rule`.
fn suffixed(path: &syn::Path, suffix: &str) -> syn::Path {
    let mut path = path.clone();
    if let Some(last) = path.segments.last_mut() {
        last.ident = names::suffixed(&last.ident, suffix);
    }
    path
}
