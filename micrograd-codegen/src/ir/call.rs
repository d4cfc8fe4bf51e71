//! Calls of other functions: the callee ([`Extern`]) with what its call returns beside its
//! value ([`Pair`], [`Entry`]) or the rule of `derivative(..)` it calls ([`Rule`]), its
//! arguments ([`Arg`]), and the body of a function with `derivative(..)` rules ([`Custom`]).

use super::{Cond, IntExpr, Operand, Place, VarId};
use proc_macro2::Span;

/// A name the user wrote that the macro does not define: a `const`, a function, a path.
#[derive(Clone, Debug)]
pub struct Extern {
    /// Path segments as written (`["std", "f64", "consts", "PI"]`); a leading `::` is kept as "".
    pub path: Vec<String>,
    /// Where the user wrote it; the printed path resolves there.
    pub span: Span,
    /// For a call of a function with several outputs, the one this call reads.
    pub entry: Option<Entry>,
    /// In a tangent program, a call lent an array as `&mut`: `g_tangent` writes the array and
    /// its tangent as `g` writes the array, so it runs once, for the value and the tangent
    /// together (`let (y, v_y) = g_tangent(..)`).
    pub pair: Option<Pair>,
    /// A name the function does not define (`K`, `PI` from a `use`), read as a float because
    /// of how it is used: printed pinned to the float type (`identity::<f64>(K)`), so a wrong
    /// guess is rustc's error at the name, never a silent conversion.
    pub guessed: bool,
    /// A call made only for what it writes, its value dropped (`g(x, &mut out);`): the callee
    /// may return `()`, whose pullback takes no seed, so the caller goes through
    /// `micrograd_runtime::calls::Dropped`, which passes a zero seed only to a pullback that
    /// takes one.
    pub dropped: bool,
    /// A constant function of a generic float (`T::epsilon()`, `T::max_value()`), whose value
    /// differs between `f32` and `f64`: `path` is its name alone, printed
    /// `<T as Float>::epsilon()` (`Scalar::limit`). A constant: no derivative.
    pub limit: bool,
    /// A rule of `derivative(..)` called for its value.
    pub rule: Option<Box<Rule>>,
    /// Where the user wrote each argument of a call ([`Extern::args_at`]), boxed: an `Extern`
    /// is in every `IntExpr`.
    pub arg_spans: Option<Box<Vec<Span>>>,
}

/// The tangent a call lent an array returns beside its value ([`Extern::pair`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    /// The variable that receives it; `None` where nothing reads it.
    pub tangent: Option<VarId>,
}

/// Output `k` of a called function returning `m` values (`g(x)[k]` or `g(x).k`): its pullback
/// is seeded with `seed` at `k` and zeros elsewhere.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Which output: a literal where the outputs are unrolled, the loop's counter where they
    /// are read in a loop over the callee's hidden output count (`let oc = sub3(o, c);`).
    pub k: Box<IntExpr>,
    /// How many outputs the callee returns; `None` where the caller cannot see it, the seed
    /// then an array whose length rustc infers from the pullback (`calls::unit(k, seed, 0.0)`).
    pub m: Option<usize>,
    /// A tuple (`.k`) rather than an array (`[k]`).
    pub tuple: bool,
}

impl Extern {
    /// The name `path` written at `span`, read as written: a plain call or constant, none of
    /// the flags set (no output read, no pair, not guessed, not dropped, not a generic float's
    /// constant, no rule). Each other kind sets its field on it:
    /// `Extern { guessed: true, ..Extern::new(path, span) }`.
    pub fn new(path: Vec<String>, span: Span) -> Extern {
        Extern {
            path,
            span,
            entry: None,
            pair: None,
            guessed: false,
            dropped: false,
            limit: false,
            rule: None,
            arg_spans: None,
        }
    }
}

impl Extern {
    /// Where the user wrote each argument of a call: each printed argument is located there,
    /// so rustc's error about one (a wrong type) is at the user's token. Empty where unknown.
    pub fn args_at(&self) -> &[Span] {
        self.arg_spans.as_deref().map_or(&[], Vec::as_slice)
    }

    /// The call `self` with its arguments written at `spans`.
    pub fn with_args_at(self, spans: Vec<Span>) -> Extern {
        Extern {
            arg_spans: Some(Box::new(spans)),
            ..self
        }
    }
}

impl PartialEq for Extern {
    fn eq(&self, other: &Extern) -> bool {
        let arguments = |e: &Extern| {
            e.rule.as_ref().map(|rule| {
                let each = rule.arguments.iter().map(ToString::to_string);
                each.collect::<Vec<_>>()
            })
        };
        self.path == other.path && self.entry == other.entry && arguments(self) == arguments(other)
    }
}

/// A rule of `derivative(..)` as a call reads it ([`Extern::rule`]).
#[derive(Clone, Debug)]
pub struct Rule {
    /// The function pointer type it is checked against where it is called
    /// (`fn(f64, usize) -> f64`, spanned at the rule), so a rule of other parameters is one
    /// "mismatched types" error at the rule.
    pub pointer: proc_macro2::TokenStream,
    /// The generic arguments written on each segment of [`Extern::path`] (`power_dx::<3>`:
    /// `["power_dx"]` with `[::<3>]`, a leading `::` an empty entry), printed after it and after
    /// the names suffixed to it (`power_dx_pullback::<3>`), so each call means the function the
    /// user named.
    pub arguments: Vec<proc_macro2::TokenStream>,
}

/// One argument of a call to another `#[differentiable]` function.
#[derive(Clone, Debug)]
pub enum Arg {
    /// An `f64`, passed as `&y` to a `&f64` parameter where the flag is set.
    Scalar(Operand, bool),
    /// An integer.
    Int(IntExpr),
    /// A boolean.
    Bool(Cond),
    /// Data, passed on as written: `pts`, or `&rows[i]` with `reference`.
    Data {
        /// What is passed.
        place: Place,
        /// Borrowed at the call (`&rows[i]`).
        reference: bool,
        /// Passed by value but maybe not `Copy` (`cfg: Config`): the generated code calls the
        /// callee more than once (its forward sweep and its pullback), so it passes clones.
        clone: bool,
    },
    /// A slice parameter or local array, whole or `&a[lo..hi]`.
    Slice {
        /// The slice or array.
        array: VarId,
        /// `lo` of `&a[lo..hi]`.
        lo: Option<IntExpr>,
        /// `hi` of `&a[lo..hi]`.
        hi: Option<IntExpr>,
        /// A whole array passed by value (`g(a)`, `g(*r)`) to a `[f64; N]` parameter, whose
        /// partials the pullback returns rather than adds into a shadow.
        by_value: bool,
        /// Passed as `&mut` (`g(&mut h)`, or a `&mut [f64]` parameter `g(w)`): the call may
        /// write it, so the forward sweep records the entries it passes, which the callee's
        /// pullback reads in the reverse sweep, and the call is a store into the array.
        mutable: bool,
        /// A sequence of rows of this many floats passed whole (`g(a)` of `a: &[[f64; N]]`,
        /// `g(&l)` of `let l = [[0.0; N]; M];`), which the IR holds row-major and flat: printed
        /// as rows again (`a.as_chunks::<N>().0`), its shadow and tangent too.
        rows: Option<IntExpr>,
        /// A local `f64` lent as `&mut e` to a `y: &mut f64` parameter, which the body holds
        /// as a one-entry array for the call: passed as `&mut a[0]`, and so are its recorded
        /// entries, its shadow and its tangent.
        entry: bool,
    },
}

impl Arg {
    /// Whether it is an array passed as `&mut`.
    pub fn is_mut(&self) -> bool {
        matches!(self, Arg::Slice { mutable: true, .. })
    }
}

/// The body of `#[differentiable(derivative(x = rule, ..))] fn f`, which the macro does not
/// read: a closure of `f`'s parameters called with them. Its derivative is the rules' values,
/// which the forward sweep computed before it (ordinary calls of the rules, [`Op::Call`]), so
/// its pullback (`x ← d · ∂f/∂x`) and tangent (`Σ ∂f/∂x · ẋ`) read them as operands, and
/// reverse over forward differentiates those calls through the rules' own pullbacks.
///
/// [`Op::Call`]: super::Op::Call
#[derive(Clone, Debug)]
pub struct Custom {
    /// `(|x: f64, n: usize| -> f64 { .. })`: `f`'s body as written, with its parameters.
    pub body: proc_macro2::TokenStream,
    /// `f`'s parameters, passed to it in order.
    pub args: Vec<Arg>,
    /// Each `f64` parameter with the variable holding its rule's value, `∂f/∂x`.
    pub partials: Vec<(Operand, VarId)>,
}
