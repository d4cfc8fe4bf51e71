//! NumPy's legacy global generator (`np.random.seed`, `RandomState`): what scikit-learn's data
//! sets draw from when no `random_state` is given.

use super::{Mt19937, key_words};

/// NumPy's legacy `RandomState`: MT19937 with NumPy's seeding, its `random_sample`, its polar
/// Box-Muller `normal` (which keeps the second value of each pair for the next call) and its
/// Fisher-Yates `shuffle`.
///
/// ```
/// use micrograd_runtime::rng::RandomState;
///
/// // NumPy: np.random.seed(1337); np.random.normal(size=3)
/// let mut state = RandomState::new(1337);
/// let drawn = [(); 3].map(|()| state.standard_normal());
/// assert_eq!(drawn, [-0.7031873098624105, -0.49028236278771464, -0.3218143296501526]);
/// ```
#[derive(Clone, Debug)]
pub struct RandomState {
    mt: Mt19937,
    /// The second normal of the last pair, returned by the next call (NumPy's `has_gauss`).
    gauss: Option<f64>,
}

impl RandomState {
    /// `np.random.seed(seed)` for a seed below 2^32 (MT19937's `init_genrand`); a larger seed
    /// is read as NumPy's `np.random.seed([low, high])` reads its two 32-bit words
    /// (`init_by_array`), since NumPy takes no integer seed above 2^32 - 1.
    ///
    /// ```
    /// use micrograd_runtime::rng::RandomState;
    ///
    /// // NumPy: np.random.seed(7); np.random.random_sample()
    /// assert_eq!(RandomState::new(7).random_sample(), 0.07630828937395717);
    /// // NumPy: np.random.seed([5, 1]); np.random.random_sample()
    /// assert_eq!(RandomState::new((1 << 32) + 5).random_sample(), 0.15727238718789782);
    /// ```
    pub fn new(seed: u64) -> RandomState {
        let mt = match u32::try_from(seed) {
            Ok(seed) => Mt19937::new(seed),
            Err(_) => Mt19937::from_key(&key_words(seed)),
        };
        RandomState { mt, gauss: None }
    }

    /// `random_sample()`: uniform in [0, 1), 53 random bits.
    ///
    /// ```
    /// use micrograd_runtime::rng::RandomState;
    ///
    /// let mut state = RandomState::new(1337);
    /// let x = state.random_sample();
    /// assert!((0.0..1.0).contains(&x));
    /// assert_eq!(RandomState::new(1337).random_sample(), x); // the seed fixes every draw
    /// ```
    pub fn random_sample(&mut self) -> f64 {
        self.mt.next_f64()
    }

    /// `standard_normal()` of the legacy generator (`legacy_gauss`): the polar method draws a
    /// point uniform in the unit disc and returns two normals from it, the second one on the
    /// next call.
    ///
    /// ```
    /// use micrograd_runtime::rng::RandomState;
    ///
    /// // NumPy: np.random.seed(1337); np.random.normal(loc=1.0, scale=0.5), which is 1 + 0.5 z
    /// let z = RandomState::new(1337).standard_normal();
    /// assert_eq!(1.0 + 0.5 * z, 0.6484063450687947);
    /// ```
    pub fn standard_normal(&mut self) -> f64 {
        if let Some(kept) = self.gauss.take() {
            return kept;
        }
        let (x1, x2, r2) = loop {
            let x1 = 2.0 * self.random_sample() - 1.0;
            let x2 = 2.0 * self.random_sample() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                break (x1, x2, r2);
            }
        };
        // The platform's logarithm, which NumPy calls too: the same bits as NumPy on the same
        // platform (musl's, in the `libm` crate, differs from glibc's in the last bit for 7%
        // of arguments).
        let f = (-2.0 * r2.ln() / r2).sqrt();
        self.gauss = Some(f * x1);
        f * x2
    }

    /// `normal(loc, scale)`, computed as NumPy does: `loc + scale * standard_normal()`.
    ///
    /// ```
    /// use micrograd_runtime::rng::RandomState;
    ///
    /// // NumPy: np.random.seed(1337); np.random.normal(loc=1.0, scale=0.5)
    /// assert_eq!(RandomState::new(1337).normal(1.0, 0.5), 0.6484063450687947);
    /// ```
    pub fn normal(&mut self, loc: f64, scale: f64) -> f64 {
        loc + scale * self.standard_normal()
    }

    /// An integer uniform in `0..=max` (NumPy's `random_interval`): the 32-bit draws are masked
    /// to the smallest power of two above `max` and drawn again until they fall in range.
    ///
    /// ```
    /// use micrograd_runtime::rng::RandomState;
    ///
    /// let mut state = RandomState::new(7);
    /// assert!((0..20).all(|_| state.interval(9) <= 9));
    /// assert_eq!(state.interval(0), 0);
    /// ```
    pub fn interval(&mut self, max: u32) -> u32 {
        if max == 0 {
            return 0;
        }
        let mask = u32::MAX >> max.leading_zeros();
        loop {
            let value = self.mt.next_u32() & mask;
            if value <= max {
                return value;
            }
        }
    }

    /// `shuffle(items)`: Fisher-Yates from the last item down, each swapped with an item
    /// drawn by [`interval`](RandomState::interval) at or before it.
    ///
    /// ```
    /// use micrograd_runtime::rng::RandomState;
    ///
    /// // NumPy: np.random.seed(1337); a = np.arange(10); np.random.shuffle(a)
    /// let mut a: Vec<u32> = (0..10).collect();
    /// RandomState::new(1337).shuffle(&mut a);
    /// assert_eq!(a, [6, 3, 0, 4, 5, 2, 1, 9, 8, 7]);
    /// ```
    ///
    /// # Panics
    /// If `items` holds more than 2^32 entries.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let max = u32::try_from(i).expect("shuffle takes at most 2^32 items");
            items.swap(i, self.interval(max) as usize);
        }
    }
}
