//! The floating-point type a function is written in, and constant arithmetic in it.
//!
//! The IR keeps every float constant as an `f64` that the function's scalar holds exactly:
//! a literal is parsed in the scalar (`0.1` in an `f32` function is the `f32` nearest 0.1,
//! widened), and every constant folded at compile time is computed in the scalar's own
//! arithmetic, so the generated code rounds where `f` would. The printer of its type and of
//! its literals is in `emit/scalar.rs`.

/// `f32`, `f64` or the function's generic float `T: Float`: one per function, fixed by its
/// signature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// `f32`
    F32,
    /// `f64`
    #[default]
    F64,
    /// The type parameter bounded by `Float` of the function being expanded. Constants are
    /// kept and parsed as `f64`s and printed as `T::from(c)`, so at `f64` they are `f`'s to the
    /// bit, and at `f32` they round where the user's own `T::from(c)` does.
    Generic(GenericFloat),
}

/// The function's float type parameter: its name, and the runtime's path the generated code
/// reaches num-traits through (`#runtime::num_traits`, the path kept as its text and printed at
/// the call site, `emit/scalar.rs`). The pair is interned once per distinct pair and named by
/// its number, so that a [`Scalar`] stays `Copy` and small (it is in every IR function) and
/// [`Scalar::name`] a `&'static str`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GenericFloat(u32);

/// What a [`GenericFloat`] names.
#[derive(Debug, PartialEq, Eq)]
struct Named {
    /// `T`
    name: String,
    /// `::micrograd_runtime`, or the attribute's `crate = ..`, as text.
    runtime: String,
}

/// Every pair interned so far, by number: a few per crate, leaked once each.
static INTERNED: std::sync::Mutex<Vec<&'static Named>> = std::sync::Mutex::new(Vec::new());

fn interned() -> std::sync::MutexGuard<'static, Vec<&'static Named>> {
    INTERNED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl GenericFloat {
    /// The float type parameter `name`, its constants reached through `runtime`.
    pub fn new(name: &str, runtime: &syn::Path) -> GenericFloat {
        let named = Named {
            name: name.to_owned(),
            runtime: quote::ToTokens::to_token_stream(runtime).to_string(),
        };
        let mut interned = interned();
        let k = match interned.iter().position(|known| **known == named) {
            Some(k) => k,
            None => {
                interned.push(Box::leak(Box::new(named)));
                interned.len() - 1
            }
        };
        GenericFloat(u32::try_from(k).expect("fewer than 2^32 generic floats"))
    }

    fn named(self) -> &'static Named {
        interned()[self.0 as usize]
    }

    /// `T`
    pub fn name(self) -> &'static str {
        &self.named().name
    }

    /// The runtime's path, printed at the call site.
    pub fn runtime(self) -> proc_macro2::TokenStream {
        self.named()
            .runtime
            .parse()
            .expect("internal error: a path printed by syn parses again")
    }
}

impl Scalar {
    /// The type's name as written in Rust.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
            Scalar::Generic(generic) => generic.name(),
        }
    }

    /// The primitive float a type name (or a literal suffix) names: `f32` or `f64`. Where the
    /// function's own generic float may be meant, ask its scalar ([`Scalar::named`]).
    pub fn from_name(name: &str) -> Option<Scalar> {
        match name {
            "f32" => Some(Scalar::F32),
            "f64" => Some(Scalar::F64),
            _ => None,
        }
    }

    /// The float `name` names in a function whose scalar is `self`: `f32`, `f64`, or `self`'s
    /// generic float by its name.
    pub fn named(self, name: &str) -> Option<Scalar> {
        match self {
            Scalar::Generic(generic) if generic.name() == name => Some(self),
            _ => Scalar::from_name(name),
        }
    }

    /// Whether this is a generic float `T`.
    pub fn is_generic(self) -> bool {
        matches!(self, Scalar::Generic(_))
    }

    /// The decimal digits of a literal (`1_000.5e-3` without its suffix and underscores),
    /// rounded once, to this type.
    pub fn parse(self, digits: &str) -> Option<f64> {
        match self {
            Scalar::F32 => digits.parse::<f32>().ok().map(f64::from),
            Scalar::F64 | Scalar::Generic(_) => digits.parse::<f64>().ok(),
        }
    }

    /// `c` as this type holds it.
    pub fn round(self, c: f64) -> f64 {
        match self {
            Scalar::F32 => f64::from(c as f32),
            Scalar::F64 | Scalar::Generic(_) => c,
        }
    }

    /// `a + b`, computed in this type.
    pub fn add(self, a: f64, b: f64) -> f64 {
        match self {
            Scalar::F32 => f64::from(a as f32 + b as f32),
            Scalar::F64 | Scalar::Generic(_) => a + b,
        }
    }

    /// `a * b`, computed in this type.
    pub fn mul(self, a: f64, b: f64) -> f64 {
        match self {
            Scalar::F32 => f64::from(a as f32 * b as f32),
            Scalar::F64 | Scalar::Generic(_) => a * b,
        }
    }
}

/// num-traits' `FloatConst` constants (`T::PI()`), with their `f64` values: a generic float's
/// constants are `T::from` of the `f64` (`emit::scalar`), which at `f32` is the `f32`
/// constant (tests/flavours/generics.rs checks every one).
pub const FLOAT_CONSTS: [(&str, f64); 19] = {
    use std::f64::consts as c;
    [
        ("E", c::E),
        ("FRAC_1_PI", c::FRAC_1_PI),
        ("FRAC_1_SQRT_2", c::FRAC_1_SQRT_2),
        ("FRAC_2_PI", c::FRAC_2_PI),
        ("FRAC_2_SQRT_PI", c::FRAC_2_SQRT_PI),
        ("FRAC_PI_2", c::FRAC_PI_2),
        ("FRAC_PI_3", c::FRAC_PI_3),
        ("FRAC_PI_4", c::FRAC_PI_4),
        ("FRAC_PI_6", c::FRAC_PI_6),
        ("FRAC_PI_8", c::FRAC_PI_8),
        ("LN_10", c::LN_10),
        ("LN_2", c::LN_2),
        ("LOG10_E", c::LOG10_E),
        ("LOG2_E", c::LOG2_E),
        ("PI", c::PI),
        ("SQRT_2", c::SQRT_2),
        ("TAU", c::TAU),
        ("LOG10_2", c::LOG10_2),
        ("LOG2_10", c::LOG2_10),
    ]
};

/// The `f64` value of the constant `name` of `f64::consts` (and of num-traits' `FloatConst`).
pub fn float_const(name: &str) -> Option<f64> {
    FLOAT_CONSTS
        .iter()
        .find(|(known, _)| *known == name)
        .map(|(_, c)| *c)
}

#[cfg(test)]
mod tests {
    use super::Scalar;

    #[test]
    fn f32_rounds_once_in_its_own_arithmetic() {
        let tenth = Scalar::F32.parse("0.1").expect("parses");
        assert_eq!(tenth, f64::from(0.1_f32));
        assert_eq!(Scalar::F64.parse("0.1"), Some(0.1));
        // 0.1f32 * 3 in f32 is not (0.1f32 * 3 in f64) rounded: the fold must match f32.
        assert_eq!(Scalar::F32.mul(tenth, 3.0), f64::from(0.1_f32 * 3.0_f32));
        assert_eq!(
            Scalar::F32.add(1.0, 1e-30),
            1.0,
            "the sum rounds to f32 in one step"
        );
        assert_eq!(Scalar::F32.mul(1e30, 1e30), f64::INFINITY);
        assert_eq!(Scalar::F32.round(0.1), tenth);
    }

    #[test]
    fn a_generic_float_is_named_by_its_function_only() {
        use super::GenericFloat;
        let runtime: syn::Path = syn::parse_quote!(::micrograd_runtime);
        let generic = Scalar::Generic(GenericFloat::new("F", &runtime));
        assert_eq!(Scalar::from_name("F"), None);
        assert_eq!(Scalar::F64.named("F"), None);
        assert_eq!(generic.named("F"), Some(generic));
        assert_eq!(generic.named("f64"), Some(Scalar::F64));
        assert_eq!(generic.name(), "F");
        assert_eq!(
            GenericFloat::new("F", &runtime),
            GenericFloat::new("F", &runtime),
            "interned once"
        );
        assert_eq!(super::float_const("LN_2"), Some(std::f64::consts::LN_2));
    }
}
