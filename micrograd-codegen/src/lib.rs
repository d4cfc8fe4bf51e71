//! The compiler behind `#[differentiable]`, callable as a plain function on token streams.
//!
//! [`expand`] runs the pipeline `parse -> validate -> differentiate -> emit`:
//! [`signature`] and `lower` read the function into the typed IR of [`ir`], reporting every
//! construct outside the language; `diff` builds the reverse sweep on the IR alone; `emit`
//! prints `f_grad` and `f_pullback`. Users reach it through `micrograd_runtime::prelude::*`.
//!
//! ```
//! let item = quote::quote! { fn square(x: f64) -> f64 { x * x } };
//! let code = micrograd_codegen::expand(Default::default(), item).to_string();
//! assert!(code.contains("fn square_grad"));
//! ```

mod attr;
mod custom;
mod derive;
mod diff;
mod driver;
mod emit;
mod error;
mod fallback;
mod flavor;
mod header;
pub mod ir;
mod lower;
mod math;
mod methods;
mod names;
mod nested;
mod nesting;
mod primitives;
mod provenance;
pub mod scalar;
pub mod signature;
mod spine;
#[cfg(test)]
mod tests;
pub mod types;

pub use derive::derive;
use error::Errors;
use proc_macro2::TokenStream;
use quote::quote;

/// Expands `#[differentiable(attr)] item` into `item`, `item_grad` and `item_pullback`, or into
/// `item` with spanned `compile_error!`s (and stubs, so callers see one error, not two).
pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    if let Some(method) = methods::expand(&attr, &item) {
        return method;
    }
    methods::associated(&attr, &item)
}

/// Expands `item`, printing `printed` as the user's function: `item` is what the pipeline
/// reads (a method's receiver as a parameter struct, `methods`), `printed` what the user wrote.
fn expand_as(attr: TokenStream, item: TokenStream, printed: &TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let options = attr::parse(attr, &mut errors);
    if let Some(span) = nesting::too_deep(&item) {
        errors.at(
            span,
            format!(
                "this is nested more than {} deep (parentheses, brackets and blocks), deeper than `#[differentiable]` reads; bind inner parts to variables with `let`",
                nesting::MAX_DEPTH
            ),
        );
        let errors = errors.to_compile_errors();
        return quote!(#item #errors);
    }
    let function: Parsed = match syn::parse2(item.clone()) {
        Ok(function) => Parsed(function),
        Err(_) => {
            let span = item
                .clone()
                .into_iter()
                .next()
                .map_or_else(proc_macro2::Span::call_site, |t| t.span());
            errors.at(
                span,
                "`#[differentiable]` applies to functions only: `fn f(x: f64) -> f64 { .. }`",
            );
            let errors = errors.to_compile_errors();
            return quote!(#item #errors);
        }
    };
    let float = signature::generic(&function.sig.generics);
    // A generic float named as a primitive one (`fn f<f64: Float>`) would be read as that
    // primitive wherever the body names it: one error, nothing generated.
    if let Some(float) = float.filter(|float| matches!(names::text(float).as_str(), "f32" | "f64"))
    {
        errors.at(float.span(), format!("a generic float named `{float}` reads as the primitive `{float}` in the body; give the type parameter another name, such as `T`"));
        let errors = errors.to_compile_errors();
        return quote!(#item #errors);
    }
    expand_function(&function, printed, &options, errors)
}

/// `expand_as` of the parsed `function`, printed as `printed`.
fn expand_function(
    function: &Parsed,
    printed: &TokenStream,
    options: &attr::Options,
    mut errors: Errors,
) -> TokenStream {
    let function = &**function;
    // A function generic over `T: Float` is expanded with `T` as its float type
    // (`Scalar::Generic`), beside `f32` and `f64`.
    let scalar = signature::scalar(&function.sig, &options.runtime());
    let mut sig = signature::check(function, &options.runtime(), &mut errors);
    passive_rows(sig.as_mut(), options);
    let wrt = sig
        .as_ref()
        .map(|sig| check_wrt(options, (&sig.params, scalar), &mut errors));
    let declared = signature::output(function, scalar);
    let output = declared.unwrap_or(ir::Output::Scalar);
    if let Some((sig, wrt)) = sig.as_ref().zip(wrt.as_ref()) {
        check_output(function, options, (&sig.params, wrt), output, &mut errors);
    }
    // What a caller differentiates a call of `f_grad` or `f_jvp` through: from the signature
    // alone, so every path below prints them.
    // `code` is the output they read `f_tangent_pullback`'s body from (none beside an error).
    let nested = |code: Option<&TokenStream>| {
        sig.as_ref().zip(wrt.as_ref()).map(|(sig, wrt)| {
            let chosen: Vec<bool> = sig
                .params
                .iter()
                .map(|spec| wrt.contains(&spec.ident.to_string()))
                .collect();
            nested::flavors(sig, &chosen, options, code)
        })
    };
    // With `derivative(..)` the body is called, not differentiated: it is never read, and the
    // function is lowered as its rules say (`custom::lower`).
    let custom = options.derivative.is_some();
    if custom {
        let lowered = sig
            .as_ref()
            .zip(wrt.as_ref())
            .and_then(|(sig, wrt)| custom::lower((function, sig), wrt, options, &mut errors));
        let code = lowered
            .zip(sig.as_ref())
            .and_then(|((lowered, checks), sig)| {
                let flavors = driver::run(sig, &lowered, options, &mut errors)?;
                let missing = fallback::missing_callee_flavors(sig, options);
                // The flavours run `f`'s body rather than call `f`, so `f` may go unused.
                Some(quote! {
                    #[allow(dead_code)]
                    #printed
                    #checks
                    #flavors
                    #missing
                })
            });
        if let Some(code) = code.filter(|_| errors.is_empty()) {
            let nested = nested(Some(&code));
            return quote!(#code #nested);
        }
    }
    let lowered = sig.as_ref().zip(wrt.as_ref()).filter(|_| !custom);
    let lowered = lowered.and_then(|(sig, wrt)| {
        lower::lower(
            function,
            sig,
            &|ident| wrt.contains(&ident.to_string()),
            &mut errors,
        )
    });
    if lowered.is_none() && sig.is_some() && errors.is_empty() && !custom {
        let float = scalar.name();
        let message = format!("the function must end with an `{float}` value (or `return` one)");
        errors.at(function.block.brace_token.span.close(), message);
    }
    let generated = lowered.zip(sig.as_ref()).filter(|_| errors.is_empty());
    if let Some(code) = generated.and_then(|(lowered, sig)| {
        generate((function, printed), sig, &lowered, options, &mut errors)
    }) {
        let nested = nested(Some(&code));
        return quote!(#code #nested);
    }
    let nested = nested(None);
    let function = fallback::without_body(function);
    let stubs = sig.zip(wrt).map(|(sig, wrt)| {
        let mut stubs = fallback::stubs(&sig, &wrt, options);
        stubs.extend(fallback::missing_callee_flavors(&sig, options));
        stubs
    });
    let errors = errors.to_compile_errors();
    quote!(#function #stubs #nested #errors)
}

/// Rows of floats that `wrt(..)` leaves out are data, as they were before the macro
/// differentiated them: no shadow, read as written.
fn passive_rows(sig: Option<&mut ir::Signature>, options: &attr::Options) {
    if let Some(sig) = sig {
        for spec in &mut sig.params {
            let listed = |names: &Vec<syn::Ident>| names.contains(&spec.ident);
            spec.passive = spec.kind().row().is_some() && !options.wrt.as_ref().is_some_and(listed);
        }
    }
}

/// The user's function as `syn` reads it, dropped without a recursion as deep as its
/// expressions (`spine::drop_block`).
struct Parsed(syn::ItemFn);

impl std::ops::Deref for Parsed {
    type Target = syn::ItemFn;

    fn deref(&self) -> &syn::ItemFn {
        &self.0
    }
}

impl Drop for Parsed {
    fn drop(&mut self) {
        spine::drop_block(&mut self.0.block);
    }
}

/// The user's function (`tokens`, as written) with the flavours `options` and `output` call
/// for, printed from its signature `sig` and the lowered `function` (`driver::run`); `None`
/// after an error.
fn generate(
    (function, tokens): (&syn::ItemFn, &TokenStream),
    sig: &ir::Signature,
    lowered: &ir::Function,
    options: &attr::Options,
    errors: &mut Errors,
) -> Option<TokenStream> {
    lent_arrays_in_graph(lowered, options, errors);
    let flavors = driver::run(sig, lowered, options, errors)?;
    // The language loops over indices (`for i in 0..w.len()`), which clippy would otherwise
    // ask the user to rewrite into an iterator the macro cannot read. And `f_grad` does not call
    // `f`, so a user who only calls `f_grad` would be told `f` is never used: `dead_code` is
    // allowed on `f` rather than `f` named in a `const _`, because the output must also be valid
    // inside an `impl` block (an associated `f`), where `const _` is not an item and `f` alone
    // does not resolve. `f` is printed from its own tokens: printing the syntax tree back
    // recurses as deep as its deepest expression.
    let provenance = provenance::checks(function, &options.runtime());
    let missing = fallback::missing_callee_flavors(sig, options);
    Some(quote! {
        #[allow(clippy::needless_range_loop, dead_code)]
        #tokens
        #provenance
        #flavors #missing
    })
}

/// Reports each call lent an array as `&mut` when `options` ask for `graph`: `f_graph` would
/// need a node per written entry.
fn lent_arrays_in_graph(lowered: &ir::Function, options: &attr::Options, errors: &mut Errors) {
    if !options.graph {
        return;
    }
    ir::walk(&lowered.body, &mut |stmt| {
        if let ir::Stmt::Assign {
            op: ir::Op::Call(callee, args),
            ..
        } = stmt
            && args.iter().any(ir::Arg::is_mut)
        {
            errors.at(callee.span, "`graph` does not go through a call that writes an array lent as `&mut` yet (every other flavour does); remove `graph` here, or let the callee return what it computes rather than write it");
        }
    });
}

/// The flavours that need one output (`graph`, `hessian`, `derivative(..)`) or several
/// (`jacobian`), and the parameters `f_jacobian` differentiates: `f64`s and read-only slices.
fn check_output(
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
    // A function returning `()`: its outputs are its `&mut` parameters, which the flavours of
    // one returned value, the Jacobian's rows and the second order do not take yet.
    if output.count() == 0 {
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
                    let w = &spec.ident;
                    errors.at(w.span(), format!("`f_jacobian` of a function that writes its outputs through `&mut` differentiates `f64` and read-only slice (`&[f64]`) parameters, not `{w}` yet; leave it out with `wrt(..)`, or use `f_jvp`"));
                }
            }
            if !specs
                .iter()
                .any(|spec| chosen(spec) && spec.kind().is_written())
            {
                errors.at(span, "`f_jacobian` of a function returning `()` differentiates the `&mut` parameters it writes, and `wrt(..)` lists none; list them in `wrt(..)` beside the inputs");
            }
        }
        return;
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
            let w = &spec.ident;
            errors.at(w.span(), format!("`f_jacobian` differentiates `f64` and read-only slice (`&[f64]`) parameters, not `{w}`; leave it out with `wrt(..)`, or use `f_pullback` with a seed per output"));
        }
    }
}

/// The names `wrt(..)` selects, after checking each names an `f64` or slice parameter.
///
/// Without `wrt(..)`, every parameter of a type the macro differentiates is selected and the
/// others are data; a function whose only floats are in data it cannot differentiate yet
/// would have nothing to differentiate, which is reported at that data.
fn check_wrt(
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

/// What to write for floats the macro differentiates in another shape: rows of one length
/// (`&[[f64; N]]`) for ragged ones.
fn instead(spec: &ir::ParamSpec) -> &'static str {
    let rows = |elem: &types::Type| matches!(elem, types::Type::Vec(e) if matches!(**e, types::Type::Float(_)));
    match &spec.value {
        types::Type::Ref { elem, .. } if matches!(&**elem, types::Type::Slice(e) if rows(e)) => {
            "; to differentiate rows of one length, take them as `&[[f64; N]]`"
        }
        _ => "",
    }
}

/// "`pts: &[[f64; 2]]` cannot be differentiated yet".
fn not_yet(spec: &ir::ParamSpec) -> String {
    let ty = types::spelled(&spec.written.0);
    format!("`{}: {ty}` cannot be differentiated yet", spec.ident)
}
