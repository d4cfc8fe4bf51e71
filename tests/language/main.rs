//! The language of `#[differentiable]` in `f64`, reverse mode (`f_grad`, `f_pullback` through
//! callers, `f_graph`): every construct the macro accepts, each against independent references
//! (central differences, the `Value` engine, closed forms; `tests/common`). One binary of
//! modules, so a change to the macro relinks one executable, not one per file. A new test of a
//! construct goes in the module of its kind below, or in a new module listed here.

#[path = "../common/mod.rs"]
mod common;

// Operations, functions, constants and numerics.
mod compare_order;
mod consts;
mod detached;
mod float_casts;
mod functions;
mod fused;
mod int_bits;
mod numerics;
mod ops;
mod remainder;

// Control flow, calls and names.
mod adversarial;
mod arm_locals;
mod asserts;
mod block_items;
mod bound_closures;
mod branch_data_reads;
mod callee_names;
mod const_fns;
mod control;
mod custom;
mod element_elements;
mod element_field_loops;
mod element_methods;
mod emptiness;
mod filled_arrays;
mod hygiene;
mod loop_methods;
mod matching;
mod method_programs;
mod methods;
mod mut_methods;
mod outside_array_paths;
mod outside_arrays;
mod outside_calls;
mod outside_consts;
mod outside_uses;
mod outside_whole;
mod tuple_branches;
mod tuple_calls;

// Data: arrays, tuples, parameters of every kind, structs, slices, views, `Vec`s, iterators.
mod array_assign;
mod array_call_assign;
mod array_map;
mod array_results;
mod counted_assigned;
mod drafts;
mod idioms;
mod idioms_more;
mod iterators;
mod matrices;
mod matrix_params;
mod matrix_values;
mod named_length_calls;
mod out_params;
mod params;
mod passive_data;
mod ragged_rows;
mod ref_scalars;
mod rows_calls;
mod rows_whole;
mod skip_take;
mod structs;
mod tail_idioms;
mod tuple_arrays;
mod tuple_data;
mod vecs;
mod view_bounds;
mod view_loops;
mod views;
mod whole_vec_lengths;
mod written_calls;

// Loops, their exits and their tapes; arrays lent as `&mut` to calls.
mod alloc;
mod alloc_loops;
mod chained_sub_slices;
mod clad_loops;
mod fused_loops;
mod fused_then_added;
mod lent_arrays;
mod lent_beside_read_only;
mod lent_fresh_arrays;
mod lent_pairs;
mod lent_scalars;
mod local_slice_calls;
mod loop_counters;
mod loop_exits;
mod loop_forms;
mod loop_heads;
mod loop_labels;
mod loop_sub_slices;
mod loop_values;
mod loop_views;
mod loops;
mod region_inner_loops;

// The reverse sweep's shape: linear folding, gates, long sums, warnings.
mod folding;
mod gates;
mod lints;
mod long_sums;
mod loops_in_vec_items;
mod outside_guesses;
mod passive_every_flavour;
mod ragged_parts;
mod ragged_shapes;
mod sin_cos_pairs;

// Whole programs: micrograd's worked examples and the benchmark tasks.
mod bench_tasks;
mod micrograd;
