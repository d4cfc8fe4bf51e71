//! Checks the function's signature and classifies its parameters.

use crate::error::Errors;
use crate::ir::Scalar;
pub use crate::ir::{Output, ParamSpec, Signature};
use crate::types;

mod float;
pub use crate::primitives::{float_type, is_int_name, segments};
pub use float::{float_in, generic, scalar};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, Pat, ReturnType, Type};

/// Checks everything about `item` but its body; returns its signature as the IR holds it
/// (every generated function is printed from it) if its parameters are all valid.
///
/// The signature comes back whenever the parameters are all valid, even if other parts of it
/// are not, so that the body is still checked and every error is reported in one build.
pub fn check(item: &ItemFn, runtime: &syn::Path, errors: &mut Errors) -> Option<Signature> {
    let sig = &item.sig;
    // `const fn` stays `const`; the generated functions are not (they may call what is not).
    if let Some(token) = &sig.asyncness {
        errors.at(
            token.span,
            "`async fn` is not supported by `#[differentiable]`; remove `async`",
        );
    }
    if let syn::Safety::Unsafe(token) = &sig.safety {
        errors.at(
            token.span,
            "`unsafe fn` is not supported by `#[differentiable]`; remove `unsafe`",
        );
    }
    if let Some(abi) = &sig.abi {
        errors.at(
            abi.extern_token.span,
            "`extern` functions are not supported by `#[differentiable]`",
        );
    }
    if let Some(variadic) = &sig.variadic {
        errors.at(
            variadic.span(),
            "variadic functions are not supported by `#[differentiable]`",
        );
    }
    // A refused generic stands for values the body cannot be checked without.
    let generics_ok = check_generics(&sig.generics, errors);
    let float = generic(&sig.generics);
    if let Some(clause) = &sig.generics.where_clause {
        check_where(clause, float, errors);
    }
    let scalar = scalar(sig, runtime);
    let generics: Vec<String> = sig
        .generics
        .type_params()
        .filter(|p| Some(&p.ident) != float)
        .map(|p| p.ident.to_string())
        .collect();
    // A result of a refused generic type was reported with the generic.
    let refused = |ty: &Type| path_name(ty).is_some_and(|name| generics.contains(&name));
    if !matches!(&sig.output, ReturnType::Type(_, ty) if refused(ty)) {
        check_return(item, scalar, errors);
    }
    let before = errors.len();
    let params: Vec<ParamSpec> = sig
        .inputs
        .iter()
        .filter_map(|arg| param(arg, &generics, scalar, errors))
        .collect();
    let valid = generics_ok && errors.len() == before && params.len() == sig.inputs.len();
    valid.then(|| Signature {
        ident: sig.ident.clone(),
        vis: quote::ToTokens::to_token_stream(&item.vis),
        // Only `<const N: usize>` and a float `T` get here.
        generics: quote::ToTokens::to_token_stream(&sig.generics),
        bounds: bounds(item, scalar),
        scalar,
        params,
        output: output(item, scalar),
        user_names: crate::names::user_names(item),
        length: None,
    })
}

/// `<const N: usize>` is fine (lengths of array parameters), and so is one float type
/// parameter bounded by `Float` (`<T: Float>`); other generics are reported, one error each.
/// Whether there were none.
fn check_generics(generics: &syn::Generics, errors: &mut Errors) -> bool {
    let before = errors.len();
    let float = generic(generics);
    for param in &generics.params {
        let message = match param {
            syn::GenericParam::Type(ty) if Some(&ty.ident) == float => continue,
            syn::GenericParam::Type(ty) if float::is_float_param(generics, &ty.ident) => {
                let float = float.map(|f| f.to_string()).unwrap_or_default();
                errors.at(ty.ident.span(), format!("a `#[differentiable]` function has one float type; use `{float}` for every float, or write the function for `f64`"));
                continue;
            }
            syn::GenericParam::Type(ty) => {
                let name = &ty.ident;
                errors.at(ty.ident.span(), format!("`#[differentiable]` reads a generic type only as a float: bound `{name}` by num-traits' `Float` (`{name}: Float`, from `micrograd_runtime::num_traits::Float`), or write the function for `f64`"));
                continue;
            }
            syn::GenericParam::Const(constant) if is_int_type(&constant.ty) => continue,
            syn::GenericParam::Const(constant) => {
                errors.spanned(
                    &constant.ty,
                    "const generic parameters of `#[differentiable]` functions are integers, such as `<const N: usize>`",
                );
                continue;
            }
            syn::GenericParam::Lifetime(_) => {
                "lifetime parameters are not supported by `#[differentiable]`; leave the references' lifetimes elided"
            }
        };
        errors.at(param.span(), message);
    }
    errors.len() == before
}

/// A `where` clause may bound the float type parameter (`where T: Float + Sum`) and nothing
/// else.
fn check_where(clause: &syn::WhereClause, float: Option<&syn::Ident>, errors: &mut Errors) {
    let Some(float) = float else {
        errors.at(
            clause.where_token.span,
            "`where` clauses are not supported by `#[differentiable]` outside a function generic over a float (`<T: Float>`); write the function for `f64`",
        );
        return;
    };
    for predicate in &clause.predicates {
        match predicate {
            syn::WherePredicate::Type(predicate)
                if float::bounds_param(&predicate.bounded_ty, float) => {}
            other => errors.spanned(other, format!("a `where` clause of a `#[differentiable]` function bounds its float type `{float}` only (`{float}: Float + Sum`)")),
        }
    }
}

/// The `where` clause of the generated functions: the user's, and for a function generic over a
/// float `T` the one bound the generated code adds, `T: Record`, so that a loop's values of `T`
/// can be recorded on a `Tape<T>` (`f32` and `f64` have it). Its constants need only `Float`
/// (`T::from`, `T::zero`, `T::one`, through `#runtime::num_traits`). A trailing comma, so that
/// a stub can add a bound (`fallback`).
fn bounds(item: &ItemFn, scalar: Scalar) -> proc_macro2::TokenStream {
    let clause = &item.sig.generics.where_clause;
    let predicates = clause.iter().flat_map(|clause| &clause.predicates);
    let float = generic(&item.sig.generics);
    let record = match scalar {
        Scalar::Generic(generic) if float.is_some_and(|float| float == generic.name()) => {
            let (ty, runtime) = (scalar.ty(), generic.runtime());
            Some(quote::quote!(#ty: #runtime::Record))
        }
        _ => None,
    };
    let mut predicates = predicates
        .map(quote::ToTokens::to_token_stream)
        .chain(record)
        .peekable();
    match predicates.peek() {
        Some(_) => quote::quote!(where #(#predicates,)*),
        None => proc_macro2::TokenStream::new(),
    }
}
/// The output `item` declares, if it is one the macro supports: floats of the function's
/// scalar type `scalar`.
pub fn output(item: &ItemFn, scalar: Scalar) -> Option<Output> {
    let ReturnType::Type(_, ty) = &item.sig.output else {
        // `()`: its outputs are what it leaves in its `&mut` parameters (`out: &mut [f64]`,
        // `err: &mut f64`), a vector output of no returned entries.
        return writes_outputs(item, scalar).then_some(Output::Tuple(0));
    };
    let float = |ty: &Type| float_type(ty, scalar) == Some(scalar);
    match &**ty {
        ty if float(ty) => Some(Output::Scalar),
        Type::Array(array) if float(&array.elem) => match &array.len {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(m),
                ..
            }) => m.base10_parse().ok().filter(|m| *m > 0).map(Output::Array),
            _ => None,
        },
        Type::Tuple(tuple) if tuple.elems.is_empty() && writes_outputs(item, scalar) => {
            Some(Output::Tuple(0))
        }
        Type::Tuple(tuple) if !tuple.elems.is_empty() && tuple.elems.iter().all(float) => {
            Some(Output::Tuple(tuple.elems.len()))
        }
        _ => None,
    }
}

/// Whether a parameter of `item` is written through a reference (`&mut [f64]`, `&mut f64`).
fn writes_outputs(item: &ItemFn, scalar: Scalar) -> bool {
    item.sig
        .inputs
        .iter()
        .any(|arg| matches!(arg, FnArg::Typed(typed) if types::read(&typed.ty, scalar).kind().is_written()))
}

fn is_int_type(ty: &Type) -> bool {
    path_name(ty).is_some_and(|name| is_int_name(&name))
}

fn check_return(item: &ItemFn, scalar: Scalar, errors: &mut Errors) {
    if output(item, scalar).is_some() {
        return;
    }
    // A float type other than the function's own in the returned type.
    let mixed = match &item.sig.output {
        ReturnType::Type(_, ty) => float_in(ty, scalar).filter(|&(_, found)| found != scalar),
        ReturnType::Default => None,
    };
    match (&item.sig.output, mixed) {
        (ReturnType::Default, _) => errors.at(
            item.sig.ident.span(),
            "`#[differentiable]` functions return `f64`, or write their outputs into `&mut` parameters (`out: &mut [f64]`, `err: &mut f64`); add `-> f64` to the signature",
        ),
        (ReturnType::Type(_, ty), _) if matches!(&**ty, Type::Array(a) if float_type(&a.elem, scalar) == Some(scalar)) => errors.spanned(
            ty,
            "the length of an array of a generic float returned, or of one returned by a method, must be a literal such as `[T; 3]`, so that `#[differentiable]` knows how many outputs to differentiate (an `f64` or `f32` function may return `[f64; M]` of a `const M`)",
        ),
        (_, Some((float, found))) => errors.mixed(float.span(), scalar, found),
        (ReturnType::Type(_, ty), _) if matches!(&**ty, Type::Tuple(t) if t.elems.is_empty()) => {
            errors.at(
                ty.span(),
                "a `#[differentiable]` function returning `()` writes its outputs into `&mut` parameters (`out: &mut [f64]`, `err: &mut f64`), and this one has none; return what it computes (`-> f64`), or write it into one",
            )
        }
        (ReturnType::Type(_, ty), _) => errors.at(
            ty.span(),
            "`#[differentiable]` functions return `f64`, `[f64; M]` or a tuple of `f64`s",
        ),
    }
}

fn param(
    arg: &FnArg,
    generics: &[String],
    scalar: Scalar,
    errors: &mut Errors,
) -> Option<ParamSpec> {
    let typed = match arg {
        FnArg::Receiver(receiver) => {
            errors.at(
                receiver.self_token.span,
                "`self` is not supported: `#[differentiable]` takes free functions; pass the fields as parameters",
            );
            return None;
        }
        FnArg::Typed(typed) => typed,
    };
    let ident = match &*typed.pat {
        Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => pat.ident.clone(),
        other => {
            errors.at(
                other.span(),
                "parameters must be plain names such as `x: f64`, not patterns",
            );
            return None;
        }
    };
    if path_name(&typed.ty).is_some_and(|name| generics.contains(&name)) {
        return None; // the generic parameter itself was reported
    }
    accepted(&typed.ty, scalar, errors)?;
    Some(ParamSpec {
        ident,
        value: types::read(&typed.ty, scalar),
        written: types::Tokens(quote::ToTokens::to_token_stream(&*typed.ty)),
        passive: false,
    })
}

/// Whether `ty` is a parameter type the macro accepts, reporting it if not; how
/// differentiation treats it is then a query on its structural type (`types::Type::kind`).
fn accepted(ty: &Type, scalar: Scalar, errors: &mut Errors) -> Option<()> {
    if let Some((float, found)) = float_in(ty, scalar) {
        if found != scalar {
            errors.mixed(float.span(), scalar, found);
            return None;
        }
        if float_type(ty, scalar).is_some() {
            return Some(());
        }
    }
    if path_name(ty).is_some_and(|name| name == "bool" || is_int_name(&name)) {
        return Some(());
    }
    let message = match ty {
        // What the function writes is a kind of its own (`&mut [f64]`): the type model says.
        Type::Reference(_) if types::read(ty, scalar).kind().is_written() => return Some(()),
        Type::Reference(reference) if reference.mutability.is_some() => {
            let message = "`&mut` parameters are supported as `w: &mut [f64]` and `y: &mut f64`; for anything else take `w: &[f64]`, and `f_grad` adds its gradient into the shadow `d_w`";
            let (and, mutability) = (&reference.and_token, &reference.mutability);
            errors.spanned(quote::quote!(#and #mutability), message);
            return None;
        }
        // A float slice or array, a `&Vec<f64>`, a parameter struct, or data read through
        // the reference, whatever it holds.
        Type::Reference(_) => return Some(()),
        Type::Array(array) if float_type(&array.elem, scalar).is_some() => return Some(()),
        ty if is_vec_f64(ty, scalar) => {
            "`Vec<f64>` by value is not supported; take `w: &[f64]` (or `&Vec<f64>`), and `f_grad` adds the gradient into the shadow `d_w`"
        }
        Type::ImplTrait(_) => "`impl Trait` parameters are not supported; use `f64` or `&[f64]`",
        // Data by value; where the generated code passes it on more than once (a call's
        // forward sweep and pullback, `f_hessian`'s `f_hvp` calls), what may not be `Copy` is
        // cloned.
        Type::Array(_) | Type::Tuple(_) | Type::Path(_) | Type::Paren(_) => return Some(()),
        _ => {
            "unsupported parameter type; use `f64`, `&[f64]`, `&[f64; N]`, `[f64; N]`, `&Vec<f64>`, `&mut [f64]`, an integer type, `bool`, or data by reference (`&[T]`)"
        }
    };
    errors.spanned(ty, message);
    None
}

/// Whether `ty` is `Vec<f64>` or `Vec<f32>` (also `std::vec::Vec<..>` or `alloc::vec::Vec<..>`).
fn is_vec_f64(ty: &Type, scalar: Scalar) -> bool {
    let Type::Path(path) = ty else { return false };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    let spelled = match segments(&path.path).as_slice() {
        [vec] => vec == "Vec",
        [root, module, vec] => {
            (root == "std" || root == "alloc") && module == "vec" && vec == "Vec"
        }
        _ => false,
    };
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return false;
    };
    spelled
        && path.qself.is_none()
        && matches!(args.args.first(), Some(syn::GenericArgument::Type(elem)) if args.args.len() == 1 && float_type(elem, scalar).is_some())
}

fn path_name(ty: &Type) -> Option<String> {
    let Type::Path(path) = ty else { return None };
    (path.qself.is_none() && path.path.segments.len() == 1)
        .then(|| path.path.segments[0].ident.to_string())
}
