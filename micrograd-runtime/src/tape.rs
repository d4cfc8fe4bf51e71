//! The stack on which a loop's forward sweep records what its reverse sweep reads back.

/// Values recorded in a loop's forward sweep, popped in reverse order by the reverse sweep.
///
/// Generated code uses it only where a loop overwrites a value its reverse sweep needs,
/// sized up front from the loop's trip count. A dot product records nothing.
///
/// ```
/// use micrograd_runtime::Tape;
///
/// let mut tape = Tape::new();
/// tape.reserve(2);
/// tape.push(1.5);
/// tape.push(2.5);
/// assert_eq!(tape.pop(), 2.5);
/// assert_eq!(tape.pop(), 1.5);
/// ```
#[derive(Debug, Default)]
pub struct Tape<T> {
    values: Vec<T>,
}

impl<T> Tape<T> {
    /// An empty tape.
    pub fn new() -> Self {
        Tape { values: Vec::new() }
    }

    /// Makes room for `additional` more values.
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        self.values.reserve(additional);
    }

    /// Records a value.
    #[inline]
    pub fn push(&mut self, value: T) {
        self.values.push(value);
    }

    /// The most recently recorded value that was not popped yet.
    ///
    /// # Panics
    /// If the tape is empty, which generated code never does: every pop mirrors a push.
    #[inline]
    pub fn pop(&mut self) -> T {
        match self.values.pop() {
            Some(value) => value,
            None => {
                panic!("micrograd-rs: a reverse sweep popped an empty tape; please report this bug")
            }
        }
    }
}
