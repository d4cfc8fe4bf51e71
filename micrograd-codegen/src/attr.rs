//! The attribute's arguments: `#[differentiable]` or `#[differentiable(wrt(a, w))]`.

use crate::error::Errors;
use proc_macro2::{Span, TokenStream};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Ident, Meta, Token};

/// What the attribute asks for.
#[derive(Default)]
pub struct Options {
    /// `wrt(..)`: the parameters to differentiate with respect to; `None` means all.
    pub wrt: Option<Vec<Ident>>,
    /// Where `wrt` was written.
    pub wrt_span: Option<Span>,
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
                let names =
                    Punctuated::<Ident, Token![,]>::parse_terminated.parse2(list.tokens.clone());
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
            _ => errors.at(
                span_of(&meta),
                "unknown argument to `#[differentiable]`; the only argument is `wrt(a, b, ..)`",
            ),
        }
    }
    options
}

fn span_of(meta: &Meta) -> Span {
    meta.path()
        .segments
        .first()
        .map_or_else(Span::call_site, |segment| segment.ident.span())
}
