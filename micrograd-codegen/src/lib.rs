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
mod checks;
mod counted;
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
mod returned;
pub mod scalar;
mod siblings;
pub mod signature;
mod spine;
#[cfg(test)]
mod tests;
mod twice;
pub mod types;

use checks::{check_output, check_wrt};
pub use derive::derive;
use error::Errors;
use proc_macro2::TokenStream;
use quote::quote;

/// Expands `#[differentiable(attr)] item` into `item`, `item_grad` and `item_pullback`, or into
/// `item` with spanned `compile_error!`s (and stubs, so callers see one error, not two).
pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    // `#[differentiable]` twice on one function: one error at the second (`twice.rs`).
    let (item, twice) = twice::strip(item);
    let twice = twice.map(twice::error);
    // A function returning `[F; M]` has its output count beside it, which a caller binding
    // its value without a type reads (`counted.rs`).
    let count = counted::constant(&item);
    let expanded = if let Some(returned) = returned::expand(&attr, &item) {
        returned
    } else if let Some(method) = methods::expand(&attr, &item) {
        method
    } else {
        methods::associated(&attr, &item)
    };
    quote!(#expanded #count #twice)
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
    let (sig, wrt) = read_signature(function, options, &mut errors);
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
        let code = sig.as_ref().zip(wrt.as_ref()).and_then(|(sig, wrt)| {
            custom_code((function, printed), (sig, wrt), options, &mut errors)
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

/// The signature of `function` as the IR holds it, with the parameters `wrt(..)` selects (every
/// differentiable one without it), each once its checks passed.
fn read_signature(
    function: &syn::ItemFn,
    options: &attr::Options,
    errors: &mut Errors,
) -> (Option<ir::Signature>, Option<Vec<String>>) {
    let scalar = signature::scalar(&function.sig, &options.runtime());
    let mut sig = signature::check(function, &options.runtime(), errors);
    passive_rows(sig.as_mut(), options);
    let wrt = sig
        .as_ref()
        .map(|sig| check_wrt(options, (&sig.params, scalar), errors));
    (sig, wrt)
}

/// The output of a function with `derivative(..)`: `f` as written, the rules' checks, and the
/// flavours the driver prints from the function lowered as its rules say (`custom::lower`).
fn custom_code(
    (function, printed): (&syn::ItemFn, &TokenStream),
    (sig, wrt): (&ir::Signature, &[String]),
    options: &attr::Options,
    errors: &mut Errors,
) -> Option<TokenStream> {
    let (lowered, checks) = custom::lower((function, sig), wrt, options, errors)?;
    let flavors = driver::run(sig, &lowered, options, errors)?;
    let missing = fallback::missing_callee_flavors(sig, options);
    // The flavours run `f`'s body rather than call `f`, so `f` may go unused.
    Some(quote! {
        #[allow(dead_code)]
        #printed
        #checks
        #flavors
        #missing
    })
}

/// Rows of floats that `wrt(..)` leaves out are data, as they were before the macro
/// differentiated them: no shadow, read as written.
fn passive_rows(sig: Option<&mut ir::Signature>, options: &attr::Options) {
    if let Some(sig) = sig {
        for spec in &mut sig.params {
            let listed = |names: &Vec<syn::Ident>| names.contains(&spec.ident);
            spec.passive = spec.kind().is_rows() && !options.wrt.as_ref().is_some_and(listed);
        }
    }
}

/// The user's function as `syn` reads it, dropped without a recursion as deep as its
/// expressions (`spine::drop_block`).
pub(crate) struct Parsed(pub(crate) syn::ItemFn);

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
