//! Integration tests, examples and benchmarks of micrograd-rs live in `tests/`, `examples/` and
//! `benches/`. The repository's README follows; being this crate's doc, its examples run as
//! doctests.
#![doc = include_str!("../README.md")]
