//! How the function's float type and its literals are printed. Every type, literal, cast and
//! constant path of the generated code goes through here, so nothing else spells `f64`.

use crate::ir::{GenericFloat, Scalar};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, quote};

/// `T` and `#runtime::num_traits` of a generic float.
fn generic(generic: GenericFloat) -> (Ident, TokenStream) {
    let runtime = generic.runtime();
    (
        crate::names::ident(generic.name(), Span::call_site()),
        quote!(#runtime::num_traits),
    )
}

impl Scalar {
    /// `::core::primitive::f64`: absolute, so a user's `struct f64;` cannot shadow it; the
    /// type parameter `T` itself for a generic float.
    pub fn ty(self) -> TokenStream {
        if let Scalar::Generic(float) = self {
            return generic(float).0.into_token_stream();
        }
        let name = Ident::new(self.name(), Span::call_site());
        quote!(::core::primitive::#name)
    }

    /// `n as f64` of an integer `n`; for a generic float `T::from(n).unwrap()`, which cannot
    /// fail for a float type (num-traits' `NumCast` of an integer into `f32` or `f64`).
    pub fn from_int(self, n: TokenStream) -> TokenStream {
        if let Scalar::Generic(float) = self {
            let (ty, num) = generic(float);
            return quote!(<#ty as #num::NumCast>::from(#n).unwrap());
        }
        let ty = self.ty();
        quote!(#n as #ty)
    }

    /// `<T as Float>::name()` of a constant function of a generic float (`epsilon`,
    /// `max_value`, `min_value`, `min_positive_value`: [`crate::ir::Extern::limit`]), its name
    /// at the user's `span`; for `f64` and `f32` the type's constant (`f64::EPSILON`).
    pub fn limit(self, name: &str, span: Span) -> TokenStream {
        if let Scalar::Generic(float) = self {
            let (ty, num) = generic(float);
            let name = Ident::new(name, span);
            return quote!(<#ty as #num::Float>::#name());
        }
        let constant = match name {
            "epsilon" => "EPSILON",
            "max_value" => "MAX",
            "min_value" => "MIN",
            _ => "MIN_POSITIVE",
        };
        let (ty, constant) = (self.ty(), Ident::new(constant, span));
        quote!(#ty::#constant)
    }

    /// `::core::f64::consts::NAME`; for a generic float `T::from` of the `f64` constant (see
    /// [`Scalar::literal`]).
    pub fn consts(self, name: &str) -> TokenStream {
        if let Scalar::Generic(float) = self {
            let name = Ident::new(name, Span::mixed_site());
            return generic_from(float, quote!(::core::f64::consts::#name));
        }
        let (ty, name) = (
            Ident::new(self.name(), Span::call_site()),
            Ident::new(name, Span::mixed_site()),
        );
        quote!(::core::#ty::consts::#name)
    }

    /// The literal `|c|` (`2.0`, or `2.0_f64` with `suffixed`, where a method is called on it
    /// and the type must be spelled); `INFINITY` / `NAN` as the type's constants. The sign is
    /// the caller's: it decides the parentheses.
    ///
    /// A generic float's constants are `T::zero()`, `T::one()` and `T::from(c).unwrap()` of the
    /// `f64` literal otherwise, all through num-traits' `Float` (which `T` is bounded by), by
    /// the runtime's path: at `f64` the conversion is the identity, and at `f32` it rounds as
    /// the user's own `T::from(c)` does; LLVM folds it to the constant either way.
    pub fn literal(self, c: f64, suffixed: bool) -> TokenStream {
        if let Scalar::Generic(float) = self {
            let (ty, num) = generic(float);
            return match c.abs() {
                0.0 => quote!(<#ty as #num::Zero>::zero()),
                1.0 => quote!(<#ty as #num::One>::one()),
                c if c.is_nan() => quote!(<#ty as #num::Float>::nan()),
                // Signed here, as the primitives' `NEG_INFINITY` is: `constant` leaves a
                // non-finite constant's sign to the literal.
                _ if c == f64::NEG_INFINITY => quote!(<#ty as #num::Float>::neg_infinity()),
                c if c.is_infinite() => quote!(<#ty as #num::Float>::infinity()),
                c => generic_from(float, Literal::f64_unsuffixed(c).into_token_stream()),
            };
        }
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
            Scalar::F64 | Scalar::Generic(_) => {
                (format!("{:?}", c.abs()), Literal::f64_unsuffixed(c.abs()))
            }
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

/// `<T as NumCast>::from(c).unwrap()` of an `f64` expression `c`: never `None` for a float
/// type (an out-of-range `f64` becomes an infinity in `f32`).
fn generic_from(float: GenericFloat, c: TokenStream) -> TokenStream {
    let (ty, num) = generic(float);
    quote!(<#ty as #num::NumCast>::from(#c).unwrap())
}

impl Scalar {
    /// `0.0`, or `T::zero()`.
    pub fn zero(self) -> TokenStream {
        self.literal(0.0, false)
    }

    /// `1.0`, or `T::one()`.
    pub fn one(self) -> TokenStream {
        self.literal(1.0, false)
    }
}
