//! The ids of a function's variables, branches and loops, and the side tables indexed by
//! the last two.

/// An index into [`Function::vars`](super::Function::vars).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Which `if` of a function: an index below [`Function::branches`](super::Function::branches).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BranchId(pub u32);

/// Which loop of a function: an index below [`Function::loops`](super::Function::loops).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LoopId(pub u32);

/// A side table with one entry per branch or loop of a function, indexed by its id.
#[derive(Clone, Debug)]
pub struct Table<K, V> {
    entries: Vec<V>,
    key: std::marker::PhantomData<K>,
}

/// An id that indexes a [`Table`].
pub trait Id: Copy {
    /// Its position in the table.
    fn index(self) -> usize;
}

impl Id for BranchId {
    fn index(self) -> usize {
        self.0 as usize
    }
}

impl Id for LoopId {
    fn index(self) -> usize {
        self.0 as usize
    }
}

impl<K: Id, V: Default> Table<K, V> {
    /// `len` default entries.
    pub fn new(len: usize) -> Self {
        Table {
            entries: (0..len).map(|_| V::default()).collect(),
            key: std::marker::PhantomData,
        }
    }
}

impl<K: Id, V> std::ops::Index<K> for Table<K, V> {
    type Output = V;
    fn index(&self, key: K) -> &V {
        &self.entries[key.index()]
    }
}

impl<K: Id, V> std::ops::IndexMut<K> for Table<K, V> {
    fn index_mut(&mut self, key: K) -> &mut V {
        &mut self.entries[key.index()]
    }
}

impl<K, V> Table<K, V> {
    /// Every entry, in id order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter()
    }
}
