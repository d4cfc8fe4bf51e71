//! The floating-point type a function is written in, and constant arithmetic in it.
//!
//! The IR keeps every float constant as an `f64` that the function's scalar holds exactly:
//! a literal is parsed in the scalar (`0.1` in an `f32` function is the `f32` nearest 0.1,
//! widened), and every constant folded at compile time is computed in the scalar's own
//! arithmetic, so the generated code rounds where `f` would. The printer of its type and of
//! its literals is in `emit` (the only module that writes tokens).

/// `f32` or `f64`: one per function, fixed by its signature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// `f32`
    F32,
    /// `f64`
    #[default]
    F64,
}

impl Scalar {
    /// The type's name as written in Rust.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
        }
    }

    /// The scalar a type name (or a literal suffix) names.
    pub fn from_name(name: &str) -> Option<Scalar> {
        match name {
            "f32" => Some(Scalar::F32),
            "f64" => Some(Scalar::F64),
            _ => None,
        }
    }

    /// The decimal digits of a literal (`1_000.5e-3` without its suffix and underscores),
    /// rounded once, to this type.
    pub fn parse(self, digits: &str) -> Option<f64> {
        match self {
            Scalar::F32 => digits.parse::<f32>().ok().map(f64::from),
            Scalar::F64 => digits.parse::<f64>().ok(),
        }
    }

    /// `c` as this type holds it.
    pub fn round(self, c: f64) -> f64 {
        match self {
            Scalar::F32 => f64::from(c as f32),
            Scalar::F64 => c,
        }
    }

    /// `a + b`, computed in this type.
    pub fn add(self, a: f64, b: f64) -> f64 {
        match self {
            Scalar::F32 => f64::from(a as f32 + b as f32),
            Scalar::F64 => a + b,
        }
    }

    /// `a * b`, computed in this type.
    pub fn mul(self, a: f64, b: f64) -> f64 {
        match self {
            Scalar::F32 => f64::from(a as f32 * b as f32),
            Scalar::F64 => a * b,
        }
    }
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
}
