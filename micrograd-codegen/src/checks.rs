//! What the attribute's options and `wrt(..)` may ask of the signature, checked before
//! lowering: each option one error at the offending token, saying what to write instead.

use crate::error::Errors;
use crate::{attr, ir, signature, types};

/// The flavours that need one output (`graph`, `hessian`, `derivative(..)`) or several
/// (`jacobian`), and the parameters `f_jacobian` differentiates: `f64`s and read-only slices.
pub(crate) fn check_output(
    function: &syn::ItemFn,
    options: &attr::Options,
    (specs, wrt): (&[ir::ParamSpec], &[String]),
    output: ir::Output,
    errors: &mut Errors,
) {
    let span = match &function.sig.output {
        syn::ReturnType::Type(_, ty) => syn::spanned::Spanned::span(ty),
        syn::ReturnType::Default => function.sig.ident.span(),
    };
    if output.is_unit() {
        return check_unit_output(options, (specs, wrt), span, errors);
    }
    // `f_hessian` lays out a unit tangent per entry, of which a `&mut f64` has none yet.
    if options.hessian {
        for spec in specs.iter().filter(|spec| spec.kind().is_one_entry()) {
            let y = &spec.ident;
            errors.at(y.span(), format!("`hessian` does not take a `&mut` float parameter yet; ask for `hvp` (its `f_hvp` takes `{y}` with its tangent and shadow), or take `{y}` by value and return its new value"));
        }
    }
    if output.is_vector() && options.graph {
        errors.at(
            span,
            "`graph` draws a function of one `f64`, but this one returns several; remove `graph`",
        );
    }
    // A Hessian of several outputs is a tensor: each output's is asked of a function of its
    // own, or `f_hvp` gives the Hessian of a weighted sum times `v`.
    if output.is_vector() && options.hessian {
        errors.at(span, "`hessian` is the second derivative of one `f64`, but this function returns several; ask for `hvp` here (its `f_hvp` takes a seed per output and gives the Hessian-vector product of their weighted sum), or for `hessian` on a function returning the one output you need");
    }
    if output.is_vector() && options.derivative.is_some() {
        errors.at(span, "`derivative(..)` gives the partials of one `f64`, but this function returns several; return one `f64` per function");
    }
    if options.jacobian && !output.is_vector() {
        errors.at(span, "`jacobian` is for functions returning `[f64; M]` or a tuple of `f64`s; the Jacobian of one `f64` is its gradient, `f_grad`");
    }
    if !(options.jacobian && output.is_vector()) {
        return;
    }
    for spec in specs {
        let other = !spec.kind().in_jacobian();
        if other && spec.kind().is_differentiable() && wrt.contains(&spec.ident.to_string()) {
            let (w, ty) = (&spec.ident, types::spelled(&spec.written.0));
            // An array by value has a block by reference (`&[f64; N]`, `&[[f64; N]; M]`).
            let by_reference = match spec.kind() {
                types::Kind::Array(_) | types::Kind::Rows { by_value: true, .. } => {
                    format!(", take it by reference (`{w}: &{ty}`)")
                }
                _ => String::new(),
            };
            errors.at(w.span(), format!("`f_jacobian` differentiates `f64` and read-only slice (`&[f64]`, `&[[f64; N]]`, `&[Vec<f64>]`) parameters, not `{w}: {ty}`; leave it out with `wrt(..)`{by_reference}, or use `f_pullback` with a seed per output"));
        }
    }
}

/// [`check_output`] of a function returning `()`: its outputs are its `&mut` parameters, which
/// the flavours of one returned value, the Jacobian's rows and the second order do not take
/// yet; errors at `span`, the output, or at a parameter.
fn check_unit_output(
    options: &attr::Options,
    (specs, wrt): (&[ir::ParamSpec], &[String]),
    span: proc_macro2::Span,
    errors: &mut Errors,
) {
    let refused = [
        (options.graph, "graph"),
        (options.hvp && !options.hessian, "hvp"),
        (options.hessian, "hessian"),
        (options.derivative.is_some(), "derivative(..)"),
    ];
    for (_, option) in refused.iter().filter(|(asked, _)| *asked) {
        errors.at(span, format!("`{option}` is not available yet for a function that returns `()` and writes its outputs into `&mut` parameters; remove `{option}` (`f_pullback` takes the outputs' adjoints in their shadows and `jvp` writes their tangents), or return the outputs (`-> f64`, `-> [f64; M]`)"));
    }
    // `f_jvp` writes the tangents of the outputs `wrt(..)` lists, and none of one it
    // leaves out (written as `f` writes it, its value on entry a constant): listing none
    // leaves it no tangent to write. (`f_jacobian`'s own error below says the same.)
    let chosen = |spec: &ir::ParamSpec| wrt.contains(&spec.ident.to_string());
    let mut written = specs.iter().filter(|spec| spec.kind().is_written());
    let outputs: Vec<String> = written.clone().map(|s| s.ident.to_string()).collect();
    if options.jvp && !options.jacobian && !outputs.is_empty() && !written.any(chosen) {
        errors.at(options.wrt_span.unwrap_or(span), format!("`f_jvp` of a function returning `()` writes the tangents of the `&mut` parameters `wrt(..)` lists, and it lists none of `{}`; list the outputs to differentiate in `wrt(..)` beside the inputs", outputs.join("`, `")));
    }
    // `f_jacobian` calls `f_jvp` once per column: along `f64`s and read-only slices, the
    // outputs the `&mut` parameters `wrt(..)` selects.
    if options.jacobian {
        for spec in specs.iter().filter(|spec| chosen(spec)) {
            let kind = spec.kind();
            let taken = kind.is_written()
                || matches!(
                    kind,
                    types::Kind::Scalar | types::Kind::Slice(_) | types::Kind::Vec
                );
            if kind.is_differentiable() && !taken {
                let (w, ty) = (&spec.ident, types::spelled(&spec.written.0));
                // Rows of one length are one flat slice to `f_jacobian`'s columns.
                let flat = match kind {
                    types::Kind::Array(_) => format!(", take it by reference (`{w}: &{ty}`)"),
                    types::Kind::Rows { .. } => format!(
                        ", take them flat (`{w}: &[f64]`, `{w}[i * N + j]` for `{w}[i][j]`)"
                    ),
                    _ => String::new(),
                };
                errors.at(w.span(), format!("`f_jacobian` of a function that writes its outputs through `&mut` differentiates `f64` and read-only slice (`&[f64]`) parameters, not `{w}: {ty}` yet; leave it out with `wrt(..)`{flat}, or use `f_jvp`"));
            }
        }
        if !specs
            .iter()
            .any(|spec| chosen(spec) && spec.kind().is_written())
        {
            errors.at(span, "`f_jacobian` of a function returning `()` differentiates the `&mut` parameters it writes, and `wrt(..)` lists none; list them in `wrt(..)` beside the inputs");
        }
    }
}

/// The names `wrt(..)` selects, after checking each names an `f64` or slice parameter.
///
/// Without `wrt(..)`, every parameter of a type the macro differentiates is selected and the
/// others are data; a function whose only floats are in data it cannot differentiate yet
/// would have nothing to differentiate, which is reported at that data.
pub(crate) fn check_wrt(
    options: &attr::Options,
    (specs, scalar): (&[ir::ParamSpec], ir::Scalar),
    errors: &mut Errors,
) -> Vec<String> {
    let float_data = |spec: &ir::ParamSpec| float_data(spec, scalar);
    let differentiable = |spec: &ir::ParamSpec| spec.kind().is_differentiable();
    let Some(names) = &options.wrt else {
        if !specs.iter().any(differentiable) {
            for spec in specs.iter().filter(|spec| float_data(spec)) {
                if spec.passive {
                    let (a, ty) = (&spec.ident, types::spelled(&spec.written.0));
                    errors.spanned(&spec.written, format!("`{a}: {ty}` is data unless `wrt(..)` lists it, so this function has nothing to differentiate; list it: `#[differentiable(wrt({a}))]`"));
                    continue;
                }
                errors.spanned(&spec.written, format!("{}, so this function has nothing to differentiate; take the values to differentiate as `f64`, `&[f64]`, `[f64; N]` or `&Vec<f64>` parameters", not_yet(spec)));
            }
        }
        return specs
            .iter()
            .filter(|s| differentiable(s))
            .map(|s| s.ident.to_string())
            .collect();
    };
    if names.is_empty() {
        let span = options
            .wrt_span
            .unwrap_or_else(proc_macro2::Span::call_site);
        errors.at(span, "`wrt()` lists no parameters; list the ones to differentiate, or remove `wrt(..)` to differentiate all");
    }
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            errors.at(
                name.span(),
                format!("`{name}` is listed twice in `wrt(..)`"),
            );
            continue;
        }
        match specs.iter().find(|spec| spec.ident == *name) {
            None => errors.at(name.span(), format!("`{name}` is not a parameter of this function; `wrt(..)` lists parameters to differentiate")),
            Some(spec) if float_data(spec) => errors.at(
                name.span(),
                format!("{}; leave it out of `wrt(..)`, and the function reads it as data{}", not_yet(spec), instead(spec)),
            ),
            Some(spec) if !differentiable(spec) => errors.at(
                name.span(),
                format!("`{name}` is not an `f64`, slice or array parameter, so it has no derivative; `wrt(..)` lists `f64`, slice and array parameters"),
            ),
            Some(_) => {}
        }
    }
    names.iter().map(ToString::to_string).collect()
}

/// Whether `spec` is data holding floats, which the macro cannot differentiate yet.
fn float_data(spec: &ir::ParamSpec, scalar: ir::Scalar) -> bool {
    // A float among a path's generic arguments (`Option<f64>`) is seen in the type as written.
    let written = || syn::parse2::<syn::Type>(spec.written.0.clone());
    matches!(spec.kind(), types::Kind::Data)
        && (spec.value.float().is_some()
            || written().is_ok_and(|ty| signature::float_in(&ty, scalar).is_some()))
}

/// What to write for floats the macro differentiates in another shape: rows (`&[&[f64]]`,
/// `Vec<Vec<f64>>` by value) as `&[Vec<f64>]`, or `&[[f64; N]]` where they have one length;
/// a sequence of tuples of floats (`&[(f64, f64)]`, `[(f64, f64); N]`) as rows of their width.
fn instead(spec: &ir::ParamSpec) -> String {
    match spec.value.elem() {
        Some(row) if row.is_float_sequence() => {
            "; to differentiate rows, take them as `&[Vec<f64>]` (rows of one length as `&[[f64; N]]`)".to_string()
        }
        Some(types::Type::Tuple(parts))
            if !parts.is_empty() && parts.iter().all(|p| matches!(p, types::Type::Float(_))) =>
        {
            let float = parts[0].float().map_or("f64", |scalar| scalar.name());
            let row = format!("[{float}; {}]", parts.len());
            let rows = match &spec.value {
                types::Type::Array(_, len) => format!("[{row}; {}]", types::spelled(len)),
                _ => format!("&[{row}]"),
            };
            format!("; to differentiate tuples of floats, take them as rows `{rows}` (`p[i][k]` where `p[i].k` was)")
        }
        _ => String::new(),
    }
}

/// "`pts: &[[f64; 2]]` cannot be differentiated yet".
fn not_yet(spec: &ir::ParamSpec) -> String {
    let ty = types::spelled(&spec.written.0);
    format!("`{}: {ty}` cannot be differentiated yet", spec.ident)
}
