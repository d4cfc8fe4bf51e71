//! The flavours other than `f_grad` on `f64`: forward mode and second order (`f_jvp`, `f_hvp`,
//! `f_hessian`), vector outputs (`f_pullback` with one seed per output, `f_jacobian`),
//! `f_graph`, the pullback's skipped shadows, and every flavour in `f32`. Each against
//! independent references (num-dual on generic twins, central differences, the same function in
//! `f64`; `tests/common`). A new test of a flavour goes in the module of its kind below.

#[path = "../common/mod.rs"]
mod common;

// Forward mode and second order (its own folder of modules and helpers).
mod forward;

// Functions with `derivative(..)` rules, and their callers, in every flavour.
mod custom_rules;
mod rule_turbofish;

// Derivatives of derivatives: `g_grad` and `g_jvp` called inside a differentiated function.
mod nested_derivatives;

// Functions returning `[f64; M]` or tuples: vector-Jacobian products and Jacobians.
mod const_outputs;
mod const_outputs_wrt;
mod counted_calls;
mod impl_siblings;
mod issue25_probes;
mod matrix_jacobians;
mod vector_array_params;
mod vector_calls;
mod vector_columns;
mod vector_control;
mod vector_forward;
mod vector_lane_widths;
mod vector_lanes;
mod vector_outputs;
mod vector_slices;
mod written_jacobian;

// `f_graph` and `f_pullback`'s own promises.
mod f_graph;
mod pullback_skip;

// Every flavour in `f32`.
mod f32_flavours;
mod f32_language;
mod f32_network;
mod f32_ops;

// Every flavour of functions generic over `T: Float`, at `f64` and `f32`.
mod generic_graph;
mod generic_infinities;
mod generic_limits;
mod generic_method_rules;
mod generic_methods;
mod generic_nested;
mod generics;
mod written_jacobian_columns;
mod written_outside_wrt;
