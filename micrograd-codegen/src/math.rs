//! The functions of `f64` the language knows, each declared once: its method name, its IR
//! variant, and its pullback (what it adds to its operands' adjoints) side by side.
//!
//! The enums [`Func`], [`Func2`] and [`Func3`], lowering's table of method names, the printer's
//! names and the derivative rules are all generated from the three lists below: a new function
//! is one line here. With `y = f(a)` (or `f(a, b)`) and `d` the adjoint of `y`, each pullback
//! gives the contribution to `a` (and `b`), or `None` where it is identically zero. Kinks follow PyTorch:
//! relu'(0) = 0, |x|'(0) = 0, a tie of `max` / `min` splits the gradient in half, and the
//! piecewise-constant functions (`signum`, `floor`, ...) pass no gradient at all.
//!
//! Each list is a macro that hands its lines to another (an X-macro): this file declares the
//! enums from them, and `diff/functions.rs` the pullbacks, whose rules are tokens resolved
//! where the derivative expressions (`diff::Expr`) are. So this file, on the lowest floor of
//! the crate with `ir`, imports nothing.

/// Declares [`Func`] from `unary_functions`'s list (the pullbacks are `diff/functions.rs`'s).
macro_rules! unary {
    ($( $(#[$doc:meta])* $variant:ident $name:literal |$a:pat_param, $y:pat_param, $d:pat_param| $rule:expr, )*) => {
        /// Elementary functions of one `f64`, written `x.name()` or `f64::name(x)`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Func {
            $( $(#[$doc])* #[doc = concat!("`x.", $name, "()`")] $variant, )*
        }

        impl Func {
            /// Every one of them, in declaration order.
            pub const ALL: &'static [Func] = &[$(Func::$variant),*];

            /// The method name.
            pub fn name(self) -> &'static str {
                match self { $(Func::$variant => $name,)* }
            }

            /// The function a method name calls, if the language knows it.
            pub fn from_name(name: &str) -> Option<Func> {
                Func::ALL.iter().copied().find(|f| f.name() == name)
            }
        }
    };
}

/// Declares [`Func2`] from `binary_functions`'s list.
macro_rules! binary {
    ($( $variant:ident $name:literal |$a:pat_param, $b:pat_param, $y:pat_param, $d:pat_param| $rule:expr, )*) => {
        /// Functions of two `f64`s, written `a.name(b)` or `f64::name(a, b)`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Func2 {
            $( #[doc = concat!("`a.", $name, "(b)`")] $variant, )*
        }

        impl Func2 {
            /// Every one of them, in declaration order.
            pub const ALL: &'static [Func2] = &[$(Func2::$variant),*];

            /// The method name.
            pub fn name(self) -> &'static str {
                match self { $(Func2::$variant => $name,)* }
            }

            /// The function a method name calls, if the language knows it.
            pub fn from_name(name: &str) -> Option<Func2> {
                Func2::ALL.iter().copied().find(|f| f.name() == name)
            }
        }
    };
}

/// Declares [`Func3`] from `ternary_functions`'s list.
macro_rules! ternary {
    ($( $variant:ident $name:literal |$a:pat_param, $b:pat_param, $c:pat_param, $y:pat_param, $d:pat_param| $rule:expr, )*) => {
        /// Functions of three `f64`s, written `a.name(b, c)` or `f64::name(a, b, c)`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Func3 {
            $( #[doc = concat!("`a.", $name, "(b, c)`")] $variant, )*
        }

        impl Func3 {
            /// Every one of them, in declaration order.
            pub const ALL: &'static [Func3] = &[$(Func3::$variant),*];

            /// The method name.
            pub fn name(self) -> &'static str {
                match self { $(Func3::$variant => $name,)* }
            }

            /// The function a method name calls, if the language knows it.
            pub fn from_name(name: &str) -> Option<Func3> {
                Func3::ALL.iter().copied().find(|f| f.name() == name)
            }
        }
    };
}

/// The functions of one `f64`, one a line: `Variant "name" |a, y, d| pullback`, handed to
/// `$declare` (here this file's `Func`, and the pullbacks in `diff/functions.rs`).
macro_rules! unary_functions {
    ($declare:ident) => {
        $declare! {
            // tanh' = 1 - y²
            Tanh "tanh" |_, y, d| Some(d * (one() - y.clone() * y)),
            /// (micrograd_runtime's `Activation`)
            // relu' = 1 where y > 0, else 0 (0 at the kink; a NaN input passes the gradient, as in PyTorch)
            Relu "relu" |_, y, d| Some(Expr::select(Test::Cmp(CmpOp::Le, y, zero()), zero(), d)),
            /// (micrograd_runtime's `Activation`)
            // σ' = y (1 - y)
            Sigmoid "sigmoid" |_, y, d| Some(d * (y.clone() * (one() - y))),
            // exp' = y
            Exp "exp" |_, y, d| Some(d * y),
            // (2ˣ)' = y ln 2
            Exp2 "exp2" |_, y, d| Some(d * (y * Expr::consts("LN_2"))),
            // (eˣ - 1)' = y + 1
            ExpM1 "exp_m1" |_, y, d| Some(d * (y + one())),
            // ln' = 1 / a
            Ln "ln" |a, _, d| Some(d * (one() / a)),
            // ln(1 + a)' = 1 / (1 + a)
            Ln1p "ln_1p" |a, _, d| Some(d * (one() / (a + one()))),
            // log₂' = 1 / (a ln 2)
            Log2 "log2" |a, _, d| Some(d * (one() / (a * Expr::consts("LN_2")))),
            // log₁₀' = 1 / (a ln 10)
            Log10 "log10" |a, _, d| Some(d * (one() / (a * Expr::consts("LN_10")))),
            // √' = 1 / (2 y)
            Sqrt "sqrt" |_, y, d| Some(d * (one() / (Expr::Const(2.0) * y))),
            // ∛' = 1 / (3 y²)
            Cbrt "cbrt" |_, y, d| Some(d * (one() / (Expr::Const(3.0) * y.clone() * y))),
            // sin' = cos a
            Sin "sin" |a, _, d| Some(d * a.call(Func::Cos)),
            // cos' = -sin a
            Cos "cos" |a, _, d| Some(d * -a.call(Func::Sin)),
            // tan' = 1 + y²
            Tan "tan" |_, y, d| Some(d * (one() + y.clone() * y)),
            // asin' = 1 / √(1 - a²)
            Asin "asin" |a, _, d| Some(d * (one() / (one() - a.clone() * a).call(Func::Sqrt))),
            // acos' = -1 / √(1 - a²)
            Acos "acos" |a, _, d| Some(d * -(one() / (one() - a.clone() * a).call(Func::Sqrt))),
            // atan' = 1 / (1 + a²)
            Atan "atan" |a, _, d| Some(d * (one() / (one() + a.clone() * a))),
            // sinh' = cosh a
            Sinh "sinh" |a, _, d| Some(d * a.call(Func::Cosh)),
            // cosh' = sinh a
            Cosh "cosh" |a, _, d| Some(d * a.call(Func::Sinh)),
            // asinh' = 1 / √(a² + 1)
            Asinh "asinh" |a, _, d| Some(d * (one() / (a.clone() * a + one()).call(Func::Sqrt))),
            // acosh' = 1 / √(a² - 1)
            Acosh "acosh" |a, _, d| Some(d * (one() / (a.clone() * a - one()).call(Func::Sqrt))),
            // atanh' = 1 / (1 - a²)
            Atanh "atanh" |a, _, d| Some(d * (one() / (one() - a.clone() * a))),
            // |a|' = sign a, 0 at ±0 (PyTorch's sgn), NaN at NaN
            Abs "abs" |a, _, d| Some(sign(a, d)),
            // (1/a)' = -y²
            Recip "recip" |_, y, d| Some(d * -(y.clone() * y)),
            // signum' = 0 (PyTorch's sign backward is zero everywhere)
            Signum "signum" |_, _, _| None,
            // floor' = 0 (PyTorch: zero everywhere, the jumps included)
            Floor "floor" |_, _, _| None,
            // ceil' = 0
            Ceil "ceil" |_, _, _| None,
            // round' = 0
            Round "round" |_, _, _| None,
            // trunc' = 0
            Trunc "trunc" |_, _, _| None,
            // fract' = 1 (std: a - trunc a, and trunc' = 0; PyTorch's frac passes the gradient)
            Fract "fract" |_, _, d| Some(d),
            // std: a · (π / 180) with the constant rounded once, which `1.to_radians()` is exactly
            ToRadians "to_radians" |_, _, d| Some(d * one().call(Func::ToRadians)),
            // std: a · (180 / π), its constant `1.to_degrees()` exactly
            ToDegrees "to_degrees" |_, _, d| Some(d * one().call(Func::ToDegrees)),
            /// (micrograd_runtime's `Detach`)
            // detach' = 0: the value passes, the gradient stops (PyTorch's `detach`)
            Detach "detach" |_, _, _| None,
        }
    };
}

/// The functions of two `f64`s, one a line: `Variant "name" |a, b, y, d| (to a, to b)`, handed to
/// `$declare` (here this file's `Func2`, and the pullbacks in `diff/functions.rs`).
macro_rules! binary_functions {
    ($declare:ident) => {
        $declare! {
            // y = aᵇ: a ← d b aᵇ⁻¹ (0 where b = 0), b ← d y ln a (0 where a = 0 and b ≥ 0), as in PyTorch
            Powf "powf" |a, b, y, d| powf(a, b, y, d),
            // y = max(a, b): the operand returned gets d; a tie gives each d / 2
            Max "max" |a, b, _, d| split(CmpOp::Gt, a, b, d),
            // y = min(a, b): the operand returned gets d; a tie gives each d / 2
            Min "min" |a, b, _, d| split(CmpOp::Lt, a, b, d),
            // y = √(a² + b²): a ← d a / y, b ← d b / y
            Hypot "hypot" |a, b, y, d| (Some(d.clone() * a / y.clone()), Some(d * b / y)),
            // y = ln a / ln b (std's `log`): a ← d / (a ln b), b ← -d y / (b ln b)
            Log "log" |a, b, y, d| {
                let ln_b = b.clone().call(Func::Ln);
                (Some(d.clone() / (a * ln_b.clone())), Some(-(d * y / (b * ln_b))))
            },
            // y = |a| with b's sign: a ← d y / a (0 where a = 0), b ← 0, as PyTorch's copysign
            Copysign "copysign" |a, _, y, d| {
                let ratio = Expr::select(Test::Cmp(CmpOp::Eq, a.clone(), zero()), zero(), y / a);
                (Some(d * ratio), None)
            },
            // y = a % b = a - trunc(a / b) b: a ← d, b ← -d trunc(a / b), as PyTorch's fmod (the
            // operator `%`, not a method: printed infix, and its "name" is no method's)
            Rem "%" |a, b, _, d| (Some(d.clone()), Some(-(d * (a / b).call(Func::Trunc)))),
            // y = atan2(a, b): a ← d b / (a² + b²), b ← -d a / (a² + b²)
            Atan2 "atan2" |a, b, _, d| {
                let norm = a.clone() * a.clone() + b.clone() * b.clone();
                (Some(d.clone() * b / norm.clone()), Some(-(d * a / norm)))
            },
        }
    };
}

/// The functions of three `f64`s, one a line: `Variant "name" |a, b, c, y, d| [to a, to b, to c]`, handed to
/// `$declare` (here this file's `Func3`, and the pullbacks in `diff/functions.rs`).
macro_rules! ternary_functions {
    ($declare:ident) => {
        $declare! {
            // y = a·b + c, fused (one rounding, as `f` computes it): a ← d b, b ← d a, c ← d
            MulAdd "mul_add" |a, b, _, _, d| [Some(d.clone() * b), Some(d.clone() * a), Some(d)],
            // y = clamp(a, lo, hi), called as written so it panics where `f` does (lo > hi, a NaN
            // bound): the operand returned gets d, `lo` where a < lo, `hi` where a > hi, else `a`
            Clamp "clamp" |a, lo, hi, _, d| clamp(a, lo, hi, d),
        }
    };
}

/// Declares [`Func::passes_gradient`] from `unary_functions`'s list, by the form of each rule:
/// `None` passes no gradient, `Some(..)` does (every unary rule is written one way or the
/// other, so a rule of another form fails to compile here).
macro_rules! unary_passing {
    ($( $(#[$doc:meta])* $variant:ident $name:literal |$a:pat_param, $y:pat_param, $d:pat_param| $kind:ident $(($($rule:tt)*))?, )*) => {
        impl Func {
            /// Whether `y = f(a)` passes a gradient to `a`: `false` for the functions whose
            /// pullback is identically zero (`signum`, `floor`, `detach`, ...).
            pub fn passes_gradient(self) -> bool {
                match self { $(Func::$variant => passes!($kind),)* }
            }
        }
    };
}

/// `Some` or `None`, the form of a rule: whether it passes a gradient.
macro_rules! passes {
    (Some) => {
        true
    };
    (None) => {
        false
    };
}

impl Func2 {
    /// Whether `y = f(a, b)` passes a gradient to operand `k` (0 for `a`, 1 for `b`): `false`
    /// only for the sign operand of `copysign`, whose pullback to it is identically zero
    /// (the rules are expressions that return both sides at once; `tests/activity.rs` checks
    /// this against each rule).
    pub fn passes_gradient(self, k: usize) -> bool {
        !matches!((self, k), (Func2::Copysign, 1))
    }
}

pub(crate) use {binary_functions, ternary_functions, unary_functions};

unary_functions!(unary);
unary_functions!(unary_passing);
binary_functions!(binary);
ternary_functions!(ternary);
