//! Rows of their own lengths (`&[Vec<f64>]`) as the code `#[differentiable]` writes reads them.
//!
//! A function differentiated along `w: &[Vec<f64>]` reads entry `j` of row `i` as `w[i][j]`,
//! as the user wrote it, and adds its gradient into `d_w[i][j]` of the shadow
//! `d_w: &mut [Vec<f64>]`: the generated code holds the entry's row and column as one index,
//! so it reads the rows in place (no copy into a flat buffer), through these wrappers (`w[i]`
//! a row; `w[(i, j)]` and `w[(i, a)..(i, b)]` index by the pair as well). A row passed on to
//! a call is `&w[i]` (`&mut d_w[i]`), a part of one `&w[i][a..b]`.
//!
//! ```
//! use micrograd_runtime::ragged::{Ragged, RaggedMut};
//!
//! let w = vec![vec![1.0, 2.0], vec![3.0]];
//! let rows = Ragged::new(&w);
//! assert_eq!((rows.len(), rows[1].len(), rows[(0, 1)]), (2, 1, 2.0));
//! assert_eq!(&rows[(0, 0)..(0, 2)], &[1.0, 2.0]);
//!
//! let mut d_w = vec![vec![0.0; 2], vec![0.0]];
//! let mut shadow = RaggedMut::new(&mut d_w);
//! shadow[(1, 0)] += 0.5;
//! assert_eq!(d_w, [vec![0.0, 0.0], vec![0.5]]);
//! ```

use core::ops::{Deref, Index, IndexMut, Range, RangeFull};

/// Rows of their own lengths read by `(row, column)`. The generated code holds a reference to
/// one (`let w = &Ragged::new(w);`), which passes on to a call as the rows it reads.
#[derive(Clone, Copy, Debug)]
pub struct Ragged<'a, T>(pub &'a [Vec<T>]);

/// Rows of their own lengths written by `(row, column)`: a shadow or a tangent's.
#[derive(Debug)]
pub struct RaggedMut<'a, T>(pub &'a mut [Vec<T>]);

impl<'a, T> Ragged<'a, T> {
    /// The rows `rows`.
    pub fn new(rows: &'a [Vec<T>]) -> Self {
        Ragged(rows)
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no rows (a caller's empty tangent or shadow).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a, T> RaggedMut<'a, T> {
    /// The rows `rows`.
    pub fn new(rows: &'a mut [Vec<T>]) -> Self {
        RaggedMut(rows)
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no rows (a caller's empty shadow).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Sets every entry to `value` (`f_jacobian` zeroes its blocks).
    pub fn fill(&mut self, value: T)
    where
        T: Clone,
    {
        for row in self.0.iter_mut() {
            row.fill(value.clone());
        }
    }
}

/// The first row whose length differs between `rows` and `like`, as `(row, its length in
/// rows, its length in like)`; rows past the shorter of the two are not compared (the
/// generated code checks the numbers of rows first).
fn first_mismatch<T, U>(rows: &[Vec<T>], like: &[Vec<U>]) -> Option<(usize, usize, usize)> {
    (rows.iter().zip(like).enumerate())
        .find(|(_, (a, b))| a.len() != b.len())
        .map(|(i, (a, b))| (i, a.len(), b.len()))
}

impl<T> Ragged<'_, T> {
    /// The first row whose length differs from `like`'s row of the same index, as `(row, its
    /// length here, its length in like)`: a tangent must have its parameter's shape.
    ///
    /// ```
    /// use micrograd_runtime::ragged::Ragged;
    ///
    /// let (w, v_w) = (vec![vec![1.0, 2.0], vec![3.0]], vec![vec![0.5, 0.5], vec![]]);
    /// assert_eq!(Ragged::new(&v_w).mismatch(&w), Some((1, 0, 1)));
    /// assert_eq!(Ragged::new(&w).mismatch(&w), None);
    /// ```
    pub fn mismatch<U>(&self, like: &[Vec<U>]) -> Option<(usize, usize, usize)> {
        first_mismatch(self.0, like)
    }
}

impl<T> RaggedMut<'_, T> {
    /// The first row whose length differs from `like`'s row of the same index, as `(row, its
    /// length here, its length in like)`: a shadow must have its parameter's shape.
    pub fn mismatch<U>(&self, like: &[Vec<U>]) -> Option<(usize, usize, usize)> {
        first_mismatch(self.0, like)
    }
}

/// Rows of `rows`' shape, every entry zero: `f_hessian`'s tangent and shadow of rows of their
/// own lengths. With [`zero`] and [`for_each_entry`] it is what
/// [`Differentiable`](crate::shadow::Differentiable) gives a parameter struct, for any float
/// type: a generic `T: Float` has no `Differentiable`, so `Vec<Vec<T>>` has none either.
///
/// ```
/// use micrograd_runtime::ragged;
///
/// let mut rows = ragged::zeroed_like(&[vec![1.0, 2.0], vec![], vec![3.0]]);
/// let mut count = 0;
/// ragged::for_each_entry::<f64>(&mut rows, &mut |entry| {
///     count += 1;
///     *entry = count as f64;
/// });
/// assert_eq!((count, &rows), (3, &vec![vec![1.0, 2.0], vec![], vec![3.0]]));
/// ragged::zero(&mut rows);
/// assert_eq!(rows, [vec![0.0, 0.0], vec![], vec![0.0]]);
/// ```
#[doc(hidden)]
pub fn zeroed_like<T: num_traits::Zero + Clone>(rows: &[Vec<T>]) -> Vec<Vec<T>> {
    rows.iter().map(|row| vec![T::zero(); row.len()]).collect()
}

/// Sets every entry of `rows` to zero (see [`zeroed_like`]).
#[doc(hidden)]
pub fn zero<T: num_traits::Zero>(rows: &mut [Vec<T>]) {
    for entry in rows.iter_mut().flatten() {
        *entry = T::zero();
    }
}

/// Visits every entry of `rows`, row by row (row-major: `f_hessian`'s order; see
/// [`zeroed_like`]).
#[doc(hidden)]
pub fn for_each_entry<T>(rows: &mut [Vec<T>], visit: &mut dyn FnMut(&mut T)) {
    for entry in rows.iter_mut().flatten() {
        visit(entry);
    }
}

/// Entries `from.1..to.1` of row `from.0` (`to.0` is the same row).
fn row_range(range: &Range<(usize, usize)>) -> (usize, Range<usize>) {
    debug_assert_eq!(range.start.0, range.end.0, "a range of entries of one row");
    (range.start.0, range.start.1..range.end.1)
}

macro_rules! index {
    ($ty:ident) => {
        impl<T> Index<usize> for $ty<'_, T> {
            type Output = [T];
            fn index(&self, i: usize) -> &[T] {
                &self.0[i]
            }
        }

        impl<T> Index<(usize, usize)> for $ty<'_, T> {
            type Output = T;
            fn index(&self, (i, j): (usize, usize)) -> &T {
                &self.0[i][j]
            }
        }

        impl<T> Index<Range<(usize, usize)>> for $ty<'_, T> {
            type Output = [T];
            fn index(&self, range: Range<(usize, usize)>) -> &[T] {
                let (i, columns) = row_range(&range);
                &self.0[i][columns]
            }
        }
    };
}

index!(Ragged);
index!(RaggedMut);

/// The rows whole, `&w[..]`: passed on to a call taking `&[Vec<f64>]`.
impl<T> Index<RangeFull> for Ragged<'_, T> {
    type Output = [Vec<T>];
    fn index(&self, _: RangeFull) -> &[Vec<T>] {
        self.0
    }
}

/// The rows whole, `&mut d_w[..]`: a shadow passed on to a call.
impl<T> Index<RangeFull> for RaggedMut<'_, T> {
    type Output = [Vec<T>];
    fn index(&self, _: RangeFull) -> &[Vec<T>] {
        self.0
    }
}

impl<T> IndexMut<RangeFull> for RaggedMut<'_, T> {
    fn index_mut(&mut self, _: RangeFull) -> &mut [Vec<T>] {
        self.0
    }
}

/// The rows as a slice, so `w` passes on to a call taking `&[Vec<f64>]`.
impl<T> Deref for Ragged<'_, T> {
    type Target = [Vec<T>];
    fn deref(&self) -> &[Vec<T>] {
        self.0
    }
}

impl<T> IndexMut<usize> for RaggedMut<'_, T> {
    fn index_mut(&mut self, i: usize) -> &mut [T] {
        &mut self.0[i]
    }
}

impl<T> IndexMut<(usize, usize)> for RaggedMut<'_, T> {
    fn index_mut(&mut self, (i, j): (usize, usize)) -> &mut T {
        &mut self.0[i][j]
    }
}

impl<T> IndexMut<Range<(usize, usize)>> for RaggedMut<'_, T> {
    fn index_mut(&mut self, range: Range<(usize, usize)>) -> &mut [T] {
        let (i, columns) = row_range(&range);
        &mut self.0[i][columns]
    }
}
