//! Integration tests, examples and benchmarks of micrograd-rs live in `tests/`, `examples/` and `benches/`.
