//! CPython's `random` module: the generator micrograd's `Neuron` draws its weights from.

use super::{Mt19937, key_words};

/// CPython's `random.Random`, seeded as `random.seed(seed)` seeds it for a non-negative integer:
/// the same [`random`](PythonRandom::random) and [`uniform`](PythonRandom::uniform) values.
///
/// ```
/// use micrograd_runtime::rng::PythonRandom;
///
/// // Python: random.seed(1337); [random.random() for _ in range(3)]
/// let mut random = PythonRandom::new(1337);
/// assert_eq!(
///     [random.random(), random.random(), random.random()],
///     [0.6177528569514706, 0.5332655736050008, 0.36584835924937553]
/// );
/// ```
#[derive(Clone, Debug)]
pub struct PythonRandom {
    mt: Mt19937,
}

impl PythonRandom {
    /// `random.seed(seed)`: MT19937's `init_by_array` with the seed's 32-bit words.
    ///
    /// ```
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// // Python: random.seed(2**32 + 5); random.random()
    /// assert_eq!(PythonRandom::new((1 << 32) + 5).random(), 0.15727238718789782);
    /// ```
    pub fn new(seed: u64) -> PythonRandom {
        PythonRandom {
            mt: Mt19937::from_key(&key_words(seed)),
        }
    }

    /// `random.random()`: uniform in [0, 1), 53 random bits.
    ///
    /// ```
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// // Python: random.seed(1337); random.random()
    /// assert_eq!(PythonRandom::new(1337).random(), 0.6177528569514706);
    /// ```
    pub fn random(&mut self) -> f64 {
        self.mt.next_f64()
    }

    /// `random.uniform(a, b)`, computed as CPython does: `a + (b - a) * random()`.
    ///
    /// ```
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// // Python: random.seed(1337); [random.uniform(-1, 1) for _ in range(3)]
    /// let mut random = PythonRandom::new(1337);
    /// let drawn = [(); 3].map(|()| random.uniform(-1.0, 1.0));
    /// assert_eq!(drawn, [0.23550571390294128, 0.06653114721000164, -0.26830328150124894]);
    /// ```
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.random()
    }

    /// `random.getrandbits(32)`: the generator's next 32-bit word.
    ///
    /// ```
    /// use micrograd_runtime::rng::PythonRandom;
    ///
    /// // Python: random.seed(1337); random.getrandbits(32)
    /// assert_eq!(PythonRandom::new(1337).next_u32(), 2653228291);
    /// ```
    pub fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
    }
}
