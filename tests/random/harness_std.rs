//! The dual number `T` (dual.rs) on what std defines through other functions (`sin_cos`,
//! `to_radians`, `to_degrees`, `log`, `copysign`, `fract`) and on the tests of a float's class
//! (`is_finite`, ...), each derivative written from its mathematics, independently of the
//! macro's rules. Appended to dual.rs in each checker crate as its module `std_methods`.

use super::{T, decide, moves, note, sign};
use std::f64::consts::PI;

impl T {
    pub fn sin_cos(self) -> (T, T) {
        (self.sin(), self.cos())
    }
    pub fn to_radians(self) -> T {
        note(self.v.to_radians(), self.d * (PI / 180.0))
    }
    pub fn to_degrees(self) -> T {
        note(self.v.to_degrees(), self.d * (180.0 / PI))
    }
    /// Jumps at every integer: the integer part is a decision.
    pub fn fract(self) -> T {
        decide(self.v.trunc() as i64);
        note(self.v.fract(), self.d)
    }
    /// |a| with b's sign: a kink at a = 0, a jump where b's sign bit flips.
    pub fn copysign(self, s: T) -> T {
        decide(sign(self.v));
        decide(i64::from(s.v.is_sign_negative()));
        let same = self.v.is_sign_negative() == s.v.is_sign_negative();
        let d = if self.v == 0.0 {
            0.0
        } else if same {
            self.d
        } else {
            -self.d
        };
        note(self.v.copysign(s.v), d)
    }
    /// ln a / ln b: poles at a = 0, b = 0 and b = 1.
    pub fn log(self, b: T) -> T {
        moves(self.d / self.v);
        moves(b.d / b.v);
        moves(b.d / (b.v - 1.0));
        decide(sign(self.v));
        decide(sign(b.v) + 3 * sign(b.v - 1.0));
        let (ln_a, ln_b) = (self.v.ln(), b.v.ln());
        let d = self.d / (self.v * ln_b) - ln_a * b.d / (b.v * ln_b * ln_b);
        note(self.v.log(b.v), d)
    }
    fn class(test: bool) -> bool {
        decide(i64::from(test));
        test
    }
    pub fn is_nan(self) -> bool {
        T::class(self.v.is_nan())
    }
    pub fn is_finite(self) -> bool {
        T::class(self.v.is_finite())
    }
    pub fn is_infinite(self) -> bool {
        T::class(self.v.is_infinite())
    }
    pub fn is_sign_negative(self) -> bool {
        T::class(self.v.is_sign_negative())
    }
    pub fn is_sign_positive(self) -> bool {
        T::class(self.v.is_sign_positive())
    }
}
