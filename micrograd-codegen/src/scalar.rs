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
    /// The type parameter bounded by `Float` of the function being expanded
    /// ([`Scalar::generic`]). Constants are kept and parsed as `f64`s and printed as
    /// `T::from(c)`, so at `f64` they are `f`'s to the bit, and at `f32` they round where the
    /// user's own `T::from(c)` does.
    Generic,
}

/// The function's float type parameter: its name, and the runtime's path the generated code
/// reaches num-traits through (`#runtime::num_traits`).
#[derive(Clone)]
pub struct Generic {
    /// `T`, leaked once per distinct name so that [`Scalar::name`] stays a `&'static str`.
    pub name: &'static str,
    /// `::micrograd_runtime`, or the attribute's `crate = ..`.
    pub runtime: syn::Path,
}

thread_local! {
    static GENERIC: std::cell::RefCell<Option<Generic>> = const { std::cell::RefCell::new(None) };
    static NAMES: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` with `generic` as the function's float type parameter (what [`Scalar::Generic`]
/// names), restoring the previous one after: one expansion at a time, on this thread.
pub fn with_generic<R>(generic: Option<(&str, syn::Path)>, f: impl FnOnce() -> R) -> R {
    let generic = generic.map(|(name, runtime)| Generic {
        name: NAMES.with(|names| {
            let mut names = names.borrow_mut();
            match names.iter().find(|known| **known == name) {
                Some(known) => *known,
                None => {
                    let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
                    names.push(leaked);
                    leaked
                }
            }
        }),
        runtime,
    });
    let previous = GENERIC.with(|cell| cell.replace(generic));
    let result = f();
    GENERIC.with(|cell| cell.replace(previous));
    result
}

impl Scalar {
    /// The function's float type parameter, while one is being expanded.
    pub fn generic() -> Option<Generic> {
        GENERIC.with(|cell| cell.borrow().clone())
    }

    /// The type's name as written in Rust.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
            Scalar::Generic => Scalar::generic().map_or("T", |generic| generic.name),
        }
    }

    /// The scalar a type name (or a literal suffix) names.
    pub fn from_name(name: &str) -> Option<Scalar> {
        match name {
            "f32" => Some(Scalar::F32),
            "f64" => Some(Scalar::F64),
            _ if Scalar::generic().is_some_and(|generic| generic.name == name) => {
                Some(Scalar::Generic)
            }
            _ => None,
        }
    }

    /// The decimal digits of a literal (`1_000.5e-3` without its suffix and underscores),
    /// rounded once, to this type.
    pub fn parse(self, digits: &str) -> Option<f64> {
        match self {
            Scalar::F32 => digits.parse::<f32>().ok().map(f64::from),
            Scalar::F64 | Scalar::Generic => digits.parse::<f64>().ok(),
        }
    }

    /// `c` as this type holds it.
    pub fn round(self, c: f64) -> f64 {
        match self {
            Scalar::F32 => f64::from(c as f32),
            Scalar::F64 | Scalar::Generic => c,
        }
    }

    /// `a + b`, computed in this type.
    pub fn add(self, a: f64, b: f64) -> f64 {
        match self {
            Scalar::F32 => f64::from(a as f32 + b as f32),
            Scalar::F64 | Scalar::Generic => a + b,
        }
    }

    /// `a * b`, computed in this type.
    pub fn mul(self, a: f64, b: f64) -> f64 {
        match self {
            Scalar::F32 => f64::from(a as f32 * b as f32),
            Scalar::F64 | Scalar::Generic => a * b,
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
    fn a_generic_float_is_named_while_its_function_expands() {
        use super::with_generic;
        assert_eq!(Scalar::from_name("F"), None);
        let runtime: syn::Path = syn::parse_quote!(::micrograd_runtime);
        let inside = with_generic(Some(("F", runtime)), || {
            (
                Scalar::from_name("F"),
                Scalar::Generic.name(),
                Scalar::from_name("f64"),
            )
        });
        assert_eq!(inside, (Some(Scalar::Generic), "F", Some(Scalar::F64)));
        // Restored after: the next function is not generic.
        assert_eq!(Scalar::from_name("F"), None);
        assert_eq!(super::float_const("LN_2"), Some(std::f64::consts::LN_2));
    }
}
