//! The ports, grouped by the loop forms they use.

mod arrays;
mod counted;
mod exits;
mod lending;
mod others;
mod whiles;
