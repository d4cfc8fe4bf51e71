//! The ports, grouped by the loop forms they use.

mod arrays;
mod counted;
mod exits;
mod others;
mod whiles;
