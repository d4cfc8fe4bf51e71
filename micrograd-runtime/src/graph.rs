//! (in progress)

/// A computation graph (in progress).
#[derive(Debug, Default)]
pub struct Graph;
