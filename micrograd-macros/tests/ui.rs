//! Compile-fail tests: every construct outside the language of `#[differentiable]` is a
//! spanned error from the macro, never a panic, and never a cascade of follow-on errors.
//!
//! Each `tests/ui/NAME.rs` breaks one rule; `tests/ui/NAME.stderr` is the expected output.
//! Re-bless after an intended change with
//! `TRYBUILD=overwrite cargo test -p micrograd-macros --test ui`, then read every changed file.

#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
