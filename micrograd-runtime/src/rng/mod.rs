//! The random number generators micrograd's demo is made with, reproduced from their published
//! algorithms, so that a seed gives here the numbers it gives in Python.
//!
//! - [`Mt19937`]: Matsumoto and Nishimura's Mersenne Twister (1998), the generator under both.
//! - [`PythonRandom`]: CPython's `random` module (`random.seed(n)`, `random()`, `uniform(a, b)`),
//!   which draws micrograd's initial weights.
//! - [`RandomState`]: NumPy's legacy `np.random` (`np.random.seed(n)`, `random_sample`, `normal`,
//!   `shuffle`), which scikit-learn's `make_moons` draws from.
//!
//! The uniform draws are integer arithmetic and exact floating-point operations, the same bits
//! on every platform. The normal draws also take a logarithm, the platform's as in NumPy, so
//! they match NumPy's bits on the same platform (checked on Linux with glibc).
//!
//! ```
//! use micrograd_runtime::rng::{PythonRandom, RandomState};
//!
//! // Python: random.seed(1337); random.uniform(-1, 1)
//! assert_eq!(PythonRandom::new(1337).uniform(-1.0, 1.0), 0.23550571390294128);
//! // Python: np.random.seed(1337); np.random.random_sample()
//! assert_eq!(RandomState::new(1337).random_sample(), 0.2620246750155817);
//! ```

mod numpy;
mod python;

pub use numpy::RandomState;
pub use python::PythonRandom;

/// The state size of MT19937, in 32-bit words.
const N: usize = 624;
/// The middle word of the recurrence.
const M: usize = 397;
/// The twist matrix's last row.
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// The 32-bit Mersenne Twister MT19937 (Matsumoto and Nishimura, 1998), with its reference
/// seeding routines `init_genrand` ([`Mt19937::new`]) and `init_by_array`
/// ([`Mt19937::from_key`]).
///
/// ```
/// use micrograd_runtime::rng::Mt19937;
///
/// // The reference implementation's published test vector (mt19937ar.out).
/// let mut mt = Mt19937::from_key(&[0x123, 0x234, 0x345, 0x456]);
/// assert_eq!([mt.next_u32(), mt.next_u32(), mt.next_u32()], [1067595299, 955945823, 477289528]);
/// ```
#[derive(Clone)]
pub struct Mt19937 {
    state: Box<[u32; N]>,
    /// The next word of `state` to temper and return; `N` when the state must be regenerated.
    index: usize,
}

impl Mt19937 {
    /// The reference `init_genrand(seed)`; NumPy's `np.random.seed(seed)` for an integer seed.
    ///
    /// ```
    /// use micrograd_runtime::rng::Mt19937;
    ///
    /// // NumPy: np.random.seed(0); np.random.randint(0, 2**32, dtype=np.uint64)
    /// assert_eq!(Mt19937::new(0).next_u32(), 2357136044);
    /// ```
    pub fn new(seed: u32) -> Mt19937 {
        let mut state = Box::new([0; N]);
        state[0] = seed;
        for i in 1..N {
            let previous = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(previous ^ (previous >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, index: N }
    }

    /// The reference `init_by_array(key)`; CPython's `random.seed(n)` with `n`'s 32-bit words,
    /// least significant first.
    ///
    /// ```
    /// use micrograd_runtime::rng::Mt19937;
    ///
    /// // Python: random.seed(1337); random.getrandbits(32)
    /// assert_eq!(Mt19937::from_key(&[1337]).next_u32(), 2653228291);
    /// ```
    ///
    /// # Panics
    /// If `key` is empty (the reference routine reads its first word).
    pub fn from_key(key: &[u32]) -> Mt19937 {
        assert!(!key.is_empty(), "an MT19937 key needs at least one word");
        let mut mt = Mt19937::new(19_650_218);
        let s = &mut mt.state;
        let (mut i, mut j) = (1, 0);
        for _ in 0..N.max(key.len()) {
            let previous = s[i - 1] ^ (s[i - 1] >> 30);
            s[i] = (s[i] ^ previous.wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j = (j + 1) % key.len();
            if i >= N {
                s[0] = s[N - 1];
                i = 1;
            }
        }
        for _ in 0..N - 1 {
            let previous = s[i - 1] ^ (s[i - 1] >> 30);
            s[i] = (s[i] ^ previous.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                s[0] = s[N - 1];
                i = 1;
            }
        }
        // Guarantees a non-zero state whatever the key.
        s[0] = 0x8000_0000;
        mt
    }

    /// The next 32 random bits (the reference `genrand_int32`).
    ///
    /// ```
    /// use micrograd_runtime::rng::Mt19937;
    ///
    /// // The reference mt19937ar.c: init_genrand(5489), the first output.
    /// assert_eq!(Mt19937::new(5489).next_u32(), 3499211612);
    /// ```
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        // Tempering.
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// A double uniform in [0, 1) with 53 random bits (the reference `genrand_res53`), which is
    /// both CPython's `random.random()` and NumPy's legacy `random_sample()`.
    ///
    /// ```
    /// use micrograd_runtime::rng::Mt19937;
    ///
    /// // Python: random.seed(1337); random.random()
    /// assert_eq!(Mt19937::from_key(&[1337]).next_f64(), 0.6177528569514706);
    /// ```
    pub fn next_f64(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        // 2^26 and 2^53: both products and the quotient are exact.
        (f64::from(a) * 67_108_864.0 + f64::from(b)) / 9_007_199_254_740_992.0
    }

    /// Regenerates the whole state. Entry `i` reads entries `i + 1` and `i + M` (mod `N`); those
    /// below `i` are already new, as in the reference's three loops.
    fn twist(&mut self) {
        let s = &mut self.state;
        for i in 0..N {
            let y = (s[i] & UPPER_MASK) | (s[(i + 1) % N] & LOWER_MASK);
            let odd = if y & 1 == 1 { MATRIX_A } else { 0 };
            s[i] = s[(i + M) % N] ^ (y >> 1) ^ odd;
        }
        self.index = 0;
    }
}

impl std::fmt::Debug for Mt19937 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // 624 words say nothing to a reader; where the generator stands does.
        f.debug_struct("Mt19937")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

/// A seed's 32-bit words, least significant first, as CPython's `random.seed(n)` splits an
/// integer (and NumPy's `np.random.seed([lo, hi])` reads an array): `[n]` below 2^32.
fn key_words(seed: u64) -> Vec<u32> {
    let (low, high) = (seed as u32, (seed >> 32) as u32);
    if high == 0 {
        vec![low]
    } else {
        vec![low, high]
    }
}
