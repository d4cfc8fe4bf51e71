//! `__g_grad_tangent` and `__g_jvp_tangent`: the tangents of `g_grad` and `g_jvp`, from the
//! inlined body of `__g_tangent_pullback` (the module's `second_order`).

use super::Nested;
use crate::flavor::Flavor;
use crate::header;
use crate::names;
use crate::types::Kind;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

impl Nested<'_> {
    /// `__g_grad_tangent` or `__g_jvp_tangent`.
    pub(super) fn tangent_body(&mut self) -> TokenStream {
        let everything = vec![true; self.called_specs.len()];
        let all = header::tangent_specs(&self.called_specs, &everything, Flavor::Tangent);
        // Each parameter of the called function, and its tangent in this one.
        let mut dots: Vec<(Ident, Option<Ident>)> = Vec::new();
        let mut it = all.iter().peekable();
        for spec in &self.called_specs {
            let own = names::param(&it.next().expect("the parameter").ident);
            let dot = spec
                .kind()
                .is_differentiable()
                .then(|| names::param(&it.next().expect("its tangent").ident));
            dots.push((own, dot));
        }
        match self.of {
            Flavor::Grad => self.grad_tangent(&dots),
            _ => self.jvp_tangent(&dots),
        }
    }

    /// `__g_grad_tangent`: `(∇g · ġ, (H ġ)_x, ..)` for the tangents `dots` of `g_grad`'s
    /// parameters, `g`'s own.
    fn grad_tangent(&mut self, dots: &[(Ident, Option<Ident>)]) -> TokenStream {
        let tangents: Vec<Option<TokenStream>> = dots
            .iter()
            .map(|(_, dot)| dot.as_ref().map(|d| quote!(#d)))
            .collect();
        let (call, pairs) = self.second_order(&tangents);
        let mut value = Vec::new();
        let mut partials = Vec::new();
        let mut pairs = pairs.into_iter();
        for ((spec, chosen), (_, dot)) in self.specs.iter().zip(self.chosen).zip(dots) {
            if !matches!(spec.kind(), Kind::Scalar) {
                continue;
            }
            let (h, g) = pairs.next().expect("one pair per `f64`");
            let dot = dot.as_ref().expect("an `f64` has a tangent");
            value.push(quote!(#g * #dot));
            if *chosen {
                partials.push(quote!(#h));
            }
        }
        let value = self.sum(value);
        quote! {
            #call
            (#value, #(#partials),*)
        }
    }

    /// `__g_jvp_tangent`: `(∇g · ȧ, ȧ · H v + ∇g · v̇)` for the tangents `dots` of `g_jvp`'s
    /// parameters: `g`'s, each followed by its tangent `v` where `g_jvp` has one.
    fn jvp_tangent(&mut self, dots: &[(Ident, Option<Ident>)]) -> TokenStream {
        let jvp = self.jvp_tangents();
        let mut it = dots.iter();
        let mut tangents = Vec::new();
        let mut rows = Vec::new();
        for (spec, v) in self.specs.iter().zip(&jvp) {
            let (_, dot) = it.next().expect("the parameter");
            let v_dot = v
                .as_ref()
                .map(|_| it.next().expect("its tangent").1.clone());
            tangents.push(v.clone());
            if matches!(spec.kind(), Kind::Scalar) {
                rows.push((
                    dot.clone().expect("an `f64` has a tangent"),
                    v_dot.flatten(),
                ));
            }
        }
        let (call, pairs) = self.second_order(&tangents);
        let (mut value, mut tangent) = (Vec::new(), Vec::new());
        for ((h, g), (dot, v_dot)) in pairs.into_iter().zip(rows) {
            value.push(quote!(#g * #dot));
            tangent.push(quote!(#h * #dot));
            if let Some(v_dot) = v_dot {
                tangent.push(quote!(#g * #v_dot));
            }
        }
        let (value, tangent) = (self.sum(value), self.sum(tangent));
        quote! {
            #call
            (#value, #tangent)
        }
    }

    /// `a + b + ..`, or a zero of the float type without terms.
    fn sum(&self, terms: Vec<TokenStream>) -> TokenStream {
        let float = &self.float;
        match terms.is_empty() {
            true => quote!(0.0 as #float),
            false => quote!(#(#terms)+*),
        }
    }
}
