//! The attribute's arguments: `#[differentiable]`, or any of `wrt(a, w)`, `graph`, `jvp`,
//! `hvp`, `hessian`, `jacobian`, `show_code`, `derivative(x = rule, ..)` and `crate = path`,
//! separated by commas.

use crate::error::Errors;
use proc_macro2::{Span, TokenStream};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, Lit, Meta, Token};

/// What the attribute asks for.
#[derive(Default)]
pub struct Options {
    /// `wrt(..)`: the parameters to differentiate with respect to; `None` means all.
    pub wrt: Option<Vec<Ident>>,
    /// Where `wrt` was written.
    pub wrt_span: Option<Span>,
    /// `crate = path`: where the generated code finds the runtime (`Tape`, `Graph`); `None`
    /// means `::micrograd_runtime`. A crate that renames the dependency, or a facade crate
    /// that re-exports the runtime, names it here, as serde's `#[serde(crate = "..")]`.
    pub krate: Option<syn::Path>,
    /// `graph`: also generate `f_graph`. Off by default: it is the costliest flavour to
    /// compile, and most callers never draw.
    pub graph: bool,
    /// `show_code`: `f_grad`'s rustdoc shows the generated code (pretty-printed at expansion).
    pub show_code: bool,
    /// `jacobian`: also generate `f_jacobian` for a function with several outputs. Off by
    /// default: it holds one reverse sweep per output.
    pub jacobian: bool,
    /// `derivative(x = rule, ..)`: the user's partial derivative of the function for each named
    /// parameter; the body is then called, never differentiated (see `custom`).
    pub derivative: Option<Vec<(Ident, syn::Path)>>,
    /// Where `derivative` was written.
    pub derivative_span: Option<Span>,
    /// `jvp`: also generate forward mode, `f_jvp` (and `f_tangent` for callers' tangents).
    pub jvp: bool,
    /// `hvp`: also generate `f_hvp` (and `f_tangent_pullback` for callers'), with `jvp`'s.
    pub hvp: bool,
    /// `hessian`: also generate `f_hessian`, with `hvp`'s.
    pub hessian: bool,
}

impl Options {
    /// The path the generated code prints before `Tape` and `Graph`.
    pub fn runtime(&self) -> syn::Path {
        self.krate
            .clone()
            .unwrap_or_else(|| syn::parse_quote!(::micrograd_runtime))
    }
}

/// Parses the attribute arguments, recording problems in `errors`.
pub fn parse(attr: TokenStream, errors: &mut Errors) -> Options {
    let mut options = Options::default();
    let metas = match Punctuated::<Meta, Token![,]>::parse_terminated.parse2(attr) {
        Ok(metas) => metas,
        Err(error) => {
            errors.push(error);
            return options;
        }
    };
    for meta in metas {
        match &meta {
            Meta::List(list) if list.path.is_ident("wrt") => {
                if options.wrt.is_some() {
                    errors.at(
                        span_of(&meta),
                        "`wrt` is given twice; list every parameter in one `wrt(..)`",
                    );
                }
                // Any identifier, keywords too: `wrt(self)` outside a method is then "`self` is
                // not a parameter of this function" (a method's `self` is renamed before).
                let names = (|input: syn::parse::ParseStream| {
                    Punctuated::<Ident, Token![,]>::parse_terminated_with(
                        input,
                        syn::ext::IdentExt::parse_any,
                    )
                })
                .parse2(list.tokens.clone());
                match names {
                    Ok(names) => {
                        options.wrt = Some(names.into_iter().collect());
                        options.wrt_span = Some(span_of(&meta));
                    }
                    Err(error) => errors.push(syn::Error::new(
                        error.span(),
                        "`wrt(..)` takes parameter names separated by commas, such as `wrt(a, w)`",
                    )),
                }
            }
            Meta::List(list) if list.path.is_ident("derivative") => {
                if options.derivative.is_some() {
                    errors.at(
                        span_of(&meta),
                        "`derivative` is given twice; list every rule in one `derivative(..)`",
                    );
                }
                options.derivative = Some(rules(list, errors));
                options.derivative_span = Some(span_of(&meta));
            }
            Meta::Path(path) if flag(&mut options, path).is_some() => {
                let Some(flag) = flag(&mut options, path) else {
                    continue;
                };
                if *flag {
                    errors.at(span_of(&meta), "this argument is given twice; give it once");
                }
                *flag = true;
            }
            Meta::NameValue(pair) if pair.path.is_ident("crate") => {
                if options.krate.is_some() {
                    errors.at(span_of(&meta), "`crate` is given twice; give it once");
                }
                match crate_path(&pair.value) {
                    Some(path) => options.krate = Some(path),
                    None => errors.at(
                        value_span(&pair.value),
                        "`crate = ..` takes the path of the runtime crate, such as `crate = ::micrograd_runtime` or `crate = \"my_facade::runtime\"`",
                    ),
                }
            }
            _ => errors.at(
                span_of(&meta),
                "unknown argument to `#[differentiable]`; the arguments are `wrt(a, b, ..)`, `graph`, `jvp`, `hvp`, `hessian`, `jacobian`, `show_code`, `derivative(x = rule, ..)` and `crate = path`",
            ),
        }
    }
    options
}

/// The `x = rule` pairs of `derivative(..)`, each rule a path to a function.
fn rules(list: &syn::MetaList, errors: &mut Errors) -> Vec<(Ident, syn::Path)> {
    const FORM: &str = "`derivative(..)` takes `parameter = rule` pairs separated by commas, such as `derivative(x = erf_dx, y = erf_dy)`, where each rule is a function";
    let pairs =
        Punctuated::<syn::MetaNameValue, Token![,]>::parse_terminated.parse2(list.tokens.clone());
    let pairs = match pairs {
        Ok(pairs) => pairs,
        Err(error) => {
            errors.push(syn::Error::new(error.span(), FORM));
            return Vec::new();
        }
    };
    let mut rules = Vec::new();
    for pair in pairs {
        let name = pair.path.get_ident();
        let rule = match &pair.value {
            Expr::Path(path) if path.qself.is_none() && path.attrs.is_empty() => Some(&path.path),
            _ => None,
        };
        match (name, rule) {
            (Some(name), Some(rule)) => rules.push((name.clone(), rule.clone())),
            (None, _) => errors.spanned(&pair.path, FORM),
            (_, None) => errors.spanned(&pair.value, FORM),
        }
    }
    rules
}

/// The switch a bare word such as `graph` turns on, if it names one.
fn flag<'a>(options: &'a mut Options, path: &syn::Path) -> Option<&'a mut bool> {
    let name = path.get_ident()?.to_string();
    match name.as_str() {
        "graph" => Some(&mut options.graph),
        "show_code" => Some(&mut options.show_code),
        "jvp" => Some(&mut options.jvp),
        "hvp" => Some(&mut options.hvp),
        "hessian" => Some(&mut options.hessian),
        "jacobian" => Some(&mut options.jacobian),
        _ => None,
    }
}

/// `crate = path` or, as serde also accepts, `crate = "path"`.
fn crate_path(value: &Expr) -> Option<syn::Path> {
    match value {
        Expr::Path(path) if path.qself.is_none() && path.attrs.is_empty() => {
            Some(path.path.clone())
        }
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(text) => text.parse::<syn::Path>().ok(),
            _ => None,
        },
        _ => None,
    }
}

fn value_span(value: &Expr) -> Span {
    syn::spanned::Spanned::span(value)
}

fn span_of(meta: &Meta) -> Span {
    meta.path()
        .segments
        .first()
        .map_or_else(Span::call_site, |segment| segment.ident.span())
}
