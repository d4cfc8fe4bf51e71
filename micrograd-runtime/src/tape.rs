//! The stack on which a loop's forward sweep records what its reverse sweep reads back.

/// Values recorded in a loop's forward sweep, popped in reverse order by the reverse sweep.
///
/// Generated code uses it only where a loop overwrites a value its reverse sweep needs,
/// sized up front from the loop's trip count. A dot product records nothing.
///
/// Up to `INLINE` values (16 for scalars) live in the tape itself, so a short loop records
/// without touching the heap; a longer one moves them to a `Vec`, reserved once for the whole
/// trip count. Generated code records whole local arrays with `INLINE = 0`, keeping large
/// arrays off the stack.
///
/// ```
/// use micrograd_runtime::Tape;
///
/// let mut tape = Tape::<f64>::new();
/// tape.reserve(20); // more than 16: one allocation for all 20
/// for i in 0..20 {
///     tape.push(i as f64);
/// }
/// assert_eq!(tape.pop(), 19.0);
/// assert_eq!(tape.pop(), 18.0);
///
/// let mut arrays = Tape::<[f64; 2], 0>::new();
/// arrays.push([1.0, 2.0]);
/// assert_eq!(arrays.pop(), [1.0, 2.0]);
/// ```
///
#[derive(Debug)]
pub struct Tape<T: Record, const INLINE: usize = 16> {
    /// The values, while they fit here.
    inline: [T; INLINE],
    /// How many of `inline` hold values.
    len: usize,
    /// All the values, once they did not fit in `inline` (then `inline` is unused).
    heap: Option<Vec<T>>,
}

impl<T: Record, const INLINE: usize> Clone for Tape<T, INLINE> {
    fn clone(&self) -> Self {
        Tape {
            inline: self.inline,
            len: self.len,
            heap: self.heap.clone(),
        }
    }

    /// Copies `source` into a tape that keeps its allocation: each reverse sweep of a
    /// Jacobian takes a fresh copy of the entries lent to calls, which the callees' pullbacks
    /// overwrite, into one buffer.
    ///
    /// ```
    /// use micrograd_runtime::Tape;
    ///
    /// let mut lent = Tape::<f64>::new();
    /// lent.extend_from_slice(&[1.0; 20]);
    /// let mut copy = Tape::new();
    /// for _ in 0..2 {
    ///     copy.clone_from(&lent);
    ///     copy.last_mut(20)[0] = 5.0;
    ///     assert_eq!(lent.last_mut(20)[0], 1.0);
    /// }
    /// ```
    fn clone_from(&mut self, source: &Self) {
        self.inline = source.inline;
        self.len = source.len;
        self.heap.clone_from(&source.heap);
    }
}

/// A value a [`Tape`] can record: `f64`, `f32`, `bool`, the primitive integers (trip counts
/// and loop counters), and arrays of them: `'static`, so that `f_hessian` of a struct of a
/// generic float `T` can number its entries (`for_each_entry::<T>`).
///
/// ```
/// use micrograd_runtime::{Record, Tape};
///
/// assert_eq!(<[f64; 2]>::BLANK, [0.0, 0.0]);
/// let mut branches = Tape::<bool>::new(); // which way each `if` went
/// branches.push(true);
/// assert!(branches.pop());
/// ```
pub trait Record: Copy + 'static {
    /// The value that fills a tape's unused inline slots.
    const BLANK: Self;
}

impl Record for f64 {
    const BLANK: Self = 0.0;
}

impl Record for f32 {
    const BLANK: Self = 0.0;
}

impl Record for bool {
    const BLANK: Self = false;
}

/// Integers: trip counts (`usize`), and the counters a loop body steps (`i += 1`), whatever
/// integer type the user's code gives them.
macro_rules! record_integers {
    ($($int:ty),*) => {
        $(impl Record for $int {
            const BLANK: Self = 0;
        })*
    };
}

record_integers!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
);

impl<T: Record, const N: usize> Record for [T; N] {
    const BLANK: Self = [T::BLANK; N];
}

impl<T: Record, const INLINE: usize> Default for Tape<T, INLINE> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Record, const INLINE: usize> Tape<T, INLINE> {
    /// An empty tape.
    ///
    /// ```
    /// let mut tape = micrograd_runtime::Tape::<f64>::new();
    /// tape.push(1.5);
    /// assert_eq!(tape.pop(), 1.5);
    /// ```
    pub fn new() -> Self {
        Tape {
            inline: [T::BLANK; INLINE],
            len: 0,
            heap: None,
        }
    }

    /// Makes room for `additional` more values: nothing to do while they fit inline, else one
    /// allocation that takes every value.
    ///
    /// ```
    /// let mut tape = micrograd_runtime::Tape::<f64>::new();
    /// tape.reserve(100); // the loop's trip count, known before it runs
    /// for i in 0..100 {
    ///     tape.push(f64::from(i));
    /// }
    /// assert_eq!(tape.pop(), 99.0);
    /// ```
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        match &mut self.heap {
            Some(heap) => heap.reserve(additional),
            None if self.len + additional <= INLINE => {}
            None => self.move_to_heap(additional),
        }
    }

    /// Records a value.
    ///
    /// ```
    /// let mut tape = micrograd_runtime::Tape::<[f64; 3], 0>::new();
    /// tape.push([1.0, 2.0, 3.0]);
    /// assert_eq!(tape.pop(), [1.0, 2.0, 3.0]);
    /// ```
    #[inline]
    pub fn push(&mut self, value: T) {
        if let Some(heap) = &mut self.heap {
            heap.push(value);
        } else if let Some(slot) = self.inline.get_mut(self.len) {
            *slot = value;
            self.len += 1;
        } else {
            self.move_to_heap(1);
            self.push(value);
        }
    }

    /// The most recently recorded value that was not popped yet.
    ///
    /// ```
    /// let mut tape = micrograd_runtime::Tape::<f64>::new();
    /// tape.push(1.0);
    /// tape.push(2.0);
    /// assert_eq!((tape.pop(), tape.pop()), (2.0, 1.0)); // last in, first out
    /// ```
    ///
    /// # Panics
    /// If the tape is empty, which generated code never does: every pop mirrors a push.
    #[inline]
    pub fn pop(&mut self) -> T {
        let value = match &mut self.heap {
            Some(heap) => heap.pop(),
            None => self.len.checked_sub(1).map(|last| {
                self.len = last;
                self.inline[last]
            }),
        };
        match value {
            Some(value) => value,
            None => {
                panic!("micrograd-rs: a reverse sweep popped an empty tape; please report this bug")
            }
        }
    }

    /// Records every value of `values`, first to last: the entries of an array that a call
    /// is about to write, which its pullback reads back with [`Tape::last_mut`].
    ///
    /// ```
    /// let mut tape = micrograd_runtime::Tape::<f64>::new();
    /// tape.extend_from_slice(&[1.0, 2.0, 3.0]);
    /// assert_eq!(tape.pop(), 3.0);
    /// ```
    #[inline]
    pub fn extend_from_slice(&mut self, values: &[T]) {
        self.reserve(values.len());
        match &mut self.heap {
            Some(heap) => heap.extend_from_slice(values),
            // `reserve` left them inline only if they fit.
            None => {
                let end = self.len + values.len();
                self.inline[self.len..end].copy_from_slice(values);
                self.len = end;
            }
        }
    }

    /// Records `len` blank values at once and returns them, to be written in place: a loop
    /// whose trip count is known records each iteration's values in its own chunk of this
    /// region, which its reversed loop reads back with [`Tape::last`], instead of a push and a
    /// pop per value (a check of the tape's room and length each).
    ///
    /// ```
    /// let mut tape = micrograd_runtime::Tape::<f64>::new();
    /// tape.push(0.5);
    /// let region = tape.grow(3);
    /// for (i, slot) in region.iter_mut().enumerate() {
    ///     *slot = i as f64;
    /// }
    /// assert_eq!(tape.last_mut(3), &[0.0, 1.0, 2.0]);
    /// tape.discard(3);
    /// assert_eq!(tape.pop(), 0.5);
    /// ```
    #[inline]
    pub fn grow(&mut self, len: usize) -> &mut [T] {
        self.reserve(len);
        match &mut self.heap {
            Some(heap) => {
                let start = heap.len();
                heap.resize(start + len, T::BLANK);
                &mut heap[start..]
            }
            // `reserve` left them inline only if they fit.
            None => {
                let start = self.len;
                self.len += len;
                let region = &mut self.inline[start..self.len];
                region.fill(T::BLANK);
                region
            }
        }
    }

    /// The last `len` values recorded, in the order they were recorded, to read and overwrite
    /// in place (a pullback writes the array it is lent), before [`Tape::discard`] drops them.
    ///
    /// ```
    /// let mut tape = micrograd_runtime::Tape::<f64>::new();
    /// tape.push(0.5);
    /// tape.extend_from_slice(&[1.0, 2.0]);
    /// tape.last_mut(2)[0] *= 10.0;
    /// assert_eq!(tape.last_mut(2), &[10.0, 2.0]);
    /// tape.discard(2);
    /// assert_eq!(tape.pop(), 0.5);
    /// ```
    ///
    /// # Panics
    /// If fewer than `len` values are recorded, which generated code never does.
    #[inline]
    pub fn last_mut(&mut self, len: usize) -> &mut [T] {
        let values = match &mut self.heap {
            Some(heap) => &mut heap[..],
            None => &mut self.inline[..self.len],
        };
        let start = tail_start(values.len(), len, "read past a tape's start");
        &mut values[start..]
    }

    /// The last `len` values recorded, in the order they were recorded: the region a loop
    /// recorded into with [`Tape::grow`], which its reversed loop reads before
    /// [`Tape::discard`] drops it.
    ///
    /// ```
    /// let mut tape = micrograd_runtime::Tape::<f64>::new();
    /// tape.push(0.5);
    /// tape.grow(2).copy_from_slice(&[1.0, 2.0]);
    /// assert_eq!(tape.last(2), &[1.0, 2.0]);
    /// tape.discard(2);
    /// assert_eq!(tape.pop(), 0.5);
    /// ```
    ///
    /// # Panics
    /// If fewer than `len` values are recorded, which generated code never does.
    #[inline]
    pub fn last(&self, len: usize) -> &[T] {
        let values = match &self.heap {
            Some(heap) => &heap[..],
            None => &self.inline[..self.len],
        };
        &values[tail_start(values.len(), len, "read past a tape's start")..]
    }

    /// Drops the last `len` values recorded.
    ///
    /// # Panics
    /// If fewer than `len` values are recorded, which generated code never does.
    #[inline]
    pub fn discard(&mut self, len: usize) {
        let recorded = self.heap.as_ref().map_or(self.len, Vec::len);
        let left = tail_start(recorded, len, "popped an empty tape");
        match &mut self.heap {
            Some(heap) => heap.truncate(left),
            None => self.len = left,
        }
    }

    /// A reader that pops this tape's values, last first, leaving the tape as it is: so that
    /// several reverse sweeps (one per output, for a Jacobian) read one forward sweep's record.
    ///
    /// ```
    /// let mut tape = micrograd_runtime::Tape::<f64>::new();
    /// tape.push(1.0);
    /// tape.push(2.0);
    /// for _ in 0..2 {
    ///     let mut replay = tape.replay();
    ///     assert_eq!((replay.pop(), replay.pop()), (2.0, 1.0));
    /// }
    /// ```
    pub fn replay(&self) -> Replay<'_, T> {
        let values = match &self.heap {
            Some(heap) => &heap[..],
            None => &self.inline[..self.len],
        };
        Replay { values }
    }

    /// Moves the inline values to a vector with room for `additional` more.
    #[cold]
    fn move_to_heap(&mut self, additional: usize) {
        let mut heap = Vec::with_capacity(self.len + additional);
        heap.extend_from_slice(&self.inline[..self.len]);
        self.len = 0;
        self.heap = Some(heap);
    }
}

/// The values of a [`Tape`], popped last first without changing the tape.
#[derive(Debug)]
pub struct Replay<'t, T> {
    /// What is left to pop, last on top.
    values: &'t [T],
}

impl<T: Copy> Replay<'_, T> {
    /// The last `len` values not replayed yet, in the order they were recorded (as
    /// [`Tape::last`] reads them), before [`Replay::discard`] passes them.
    ///
    /// ```
    /// let mut tape = micrograd_runtime::Tape::<f64>::new();
    /// tape.extend_from_slice(&[0.5, 1.0, 2.0]);
    /// let mut replay = tape.replay();
    /// assert_eq!(replay.last(2), &[1.0, 2.0]);
    /// replay.discard(2);
    /// assert_eq!(replay.pop(), 0.5);
    /// ```
    ///
    /// # Panics
    /// If fewer than `len` values are left, which generated code never does.
    #[inline]
    pub fn last(&self, len: usize) -> &[T] {
        &self.values[tail_start(self.values.len(), len, "replayed past a tape's start")..]
    }

    /// Passes the last `len` values not replayed yet.
    ///
    /// # Panics
    /// If fewer than `len` values are left, which generated code never does.
    #[inline]
    pub fn discard(&mut self, len: usize) {
        let left = tail_start(self.values.len(), len, "replayed past a tape's start");
        self.values = &self.values[..left];
    }

    /// The last value not replayed yet.
    ///
    /// # Panics
    /// If every value was replayed, which generated code never does: every pop mirrors a push.
    #[inline]
    pub fn pop(&mut self) -> T {
        match self.values.split_last() {
            Some((last, rest)) => {
                self.values = rest;
                *last
            }
            None => panic!(
                "micrograd-rs: a reverse sweep replayed past a tape's start; please report this bug"
            ),
        }
    }
}

/// Where the last `len` of `recorded` values start. Generated code never asks for more than it
/// recorded; if it does, a panic saying the reverse sweep `what` (a bug to report).
#[inline]
fn tail_start(recorded: usize, len: usize, what: &str) -> usize {
    match recorded.checked_sub(len) {
        Some(start) => start,
        None => panic!("micrograd-rs: a reverse sweep {what}; please report this bug"),
    }
}

#[cfg(test)]
mod tests {
    use super::Tape;

    #[test]
    fn pops_in_reverse_across_the_inline_slots() {
        let mut tape = Tape::<f64, 4>::new();
        tape.reserve(10);
        assert!(tape.heap.as_ref().is_some_and(|heap| heap.capacity() >= 10));
        for round in 0..2 {
            for i in 0..10 {
                tape.push(f64::from(i + round));
            }
            for i in (0..10).rev() {
                assert_eq!(tape.pop(), f64::from(i + round));
            }
        }
        // Interleaved, as a loop nested in a loop records.
        tape.push(1.0);
        tape.push(2.0);
        assert_eq!(tape.pop(), 2.0);
        tape.push(3.0);
        assert_eq!((tape.pop(), tape.pop()), (3.0, 1.0));
    }

    #[test]
    fn a_short_loop_stays_off_the_heap() {
        let mut tape = Tape::<bool>::new();
        tape.reserve(16);
        assert!(tape.heap.is_none());
        let mut arrays = Tape::<[f64; 3], 0>::new();
        arrays.reserve(2);
        arrays.push([1.0, 2.0, 3.0]);
        assert_eq!(arrays.pop(), [1.0, 2.0, 3.0]);
    }

    #[test]
    fn pushing_past_the_inline_slots_moves_them_to_the_heap() {
        let mut tape = Tape::<f64, 2>::new();
        for i in 0..5 {
            tape.push(f64::from(i));
        }
        assert!(tape.heap.is_some());
        for i in (0..5).rev() {
            assert_eq!(tape.pop(), f64::from(i));
        }
    }

    #[test]
    fn slices_of_entries_come_back_across_the_inline_slots() {
        let mut tape = Tape::<f64, 4>::new();
        tape.push(-1.0);
        tape.extend_from_slice(&[1.0, 2.0]);
        tape.extend_from_slice(&[3.0, 4.0, 5.0]); // past the inline slots
        assert!(tape.heap.is_some());
        tape.last_mut(3)[2] = 50.0;
        assert_eq!(tape.last_mut(3), &[3.0, 4.0, 50.0]);
        tape.discard(3);
        assert_eq!(tape.last_mut(2), &[1.0, 2.0]);
        tape.discard(2);
        assert_eq!(tape.pop(), -1.0);
        let mut inline = Tape::<f64>::new();
        inline.extend_from_slice(&[1.0, 2.0]);
        inline.discard(1);
        assert_eq!(inline.last_mut(1), &[1.0]);
    }

    #[test]
    #[should_panic(expected = "popped an empty tape")]
    fn popping_an_empty_tape_panics() {
        Tape::<f64>::new().pop();
    }
}
