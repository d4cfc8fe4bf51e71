//! How the function's float type and its literals are printed. Every type, literal, cast and
//! constant path of the generated code goes through here, so nothing else spells `f64`.

use crate::ir::Scalar;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, quote};

impl Scalar {
    /// `::core::primitive::f64`: absolute, so a user's `struct f64;` cannot shadow it.
    pub fn ty(self) -> TokenStream {
        let name = Ident::new(self.name(), Span::call_site());
        quote!(::core::primitive::#name)
    }

    /// `::core::f64::consts::NAME`
    pub fn consts(self, name: &str) -> TokenStream {
        let (ty, name) = (
            Ident::new(self.name(), Span::call_site()),
            Ident::new(name, Span::mixed_site()),
        );
        quote!(::core::#ty::consts::#name)
    }

    /// The literal `|c|` (`2.0`, or `2.0_f64` with `suffixed`, where a method is called on it
    /// and the type must be spelled); `INFINITY` / `NAN` as the type's constants. The sign is
    /// the caller's: it decides the parentheses.
    pub fn literal(self, c: f64, suffixed: bool) -> TokenStream {
        if !c.is_finite() {
            let name = if c.is_nan() {
                "NAN"
            } else if c > 0.0 {
                "INFINITY"
            } else {
                "NEG_INFINITY"
            };
            let (ty, name) = (self.ty(), Ident::new(name, Span::mixed_site()));
            return quote!(#ty::#name);
        }
        // Printed from the value the type holds, so `0.1` in `f32` reads `0.1`, not the
        // widened `0.10000000149011612`.
        let (text, bare) = match self {
            Scalar::F32 => (
                format!("{:?}", c.abs() as f32),
                Literal::f32_unsuffixed(c.abs() as f32),
            ),
            Scalar::F64 => (format!("{:?}", c.abs()), Literal::f64_unsuffixed(c.abs())),
        };
        if suffixed {
            format!("{text}_{}", self.name())
                .parse()
                .unwrap_or_else(|_| bare.to_token_stream())
        } else {
            bare.to_token_stream()
        }
    }
}
