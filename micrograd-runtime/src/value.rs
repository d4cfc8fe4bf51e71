//! (in progress)

/// A scalar of a run-time graph (in progress).
#[derive(Debug)]
pub struct Value;
