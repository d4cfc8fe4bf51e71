//! micrograd-rs as a [GradBench](https://github.com/gradbench/gradbench) tool.
//!
//! The binary reads GradBench's messages from stdin, one JSON object per line, and answers each
//! on stdout ([`protocol`]). Every eval is a module of [`evals`] whose functions are written as
//! ordinary `#[differentiable]` Rust from the eval's specification; each derivative GradBench
//! asks for comes from the code the macro generates (`f_grad`, `f_jacobian`, ...), never from a
//! formula derived by hand.
//!
//! ```sh
//! cargo run --release -p micrograd-gradbench < messages.jsonl
//! ```

pub mod evals;
pub mod protocol;
pub mod timing;
