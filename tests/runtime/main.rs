//! micrograd-runtime: the `Value` engine, the drawable `Graph`, networks, losses, optimizers,
//! the training loop, data sets, generators, the demo picture, the `moons` example's command
//! line and micrograd's demo reproduced number for number, the argmin bridge, and what the
//! published crates carry. One binary of modules; a new test of the runtime goes in the module
//! of its kind below, or in a new module listed here.

// The runtime's engines and networks.
mod graph;
mod nn;
mod value;

// Training: data sets, generators, losses and optimizers, the loop, saved models.
mod data;
#[cfg(feature = "serde")]
mod model;
mod optim;
mod rng;
mod training;

// The main job (`cargo run --example moons`): micrograd's demo, its command line and picture.
mod micrograd_demo;
mod moons_args;
mod plot;

// Feature `argmin` (CI and the README's test command pass `--all-features`).
#[cfg(feature = "argmin")]
mod argmin;

// The published crates.
mod packaging;
