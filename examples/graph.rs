//! Draws computation graphs like micrograd's `draw_dot`: micrograd's README expression and the
//! tanh neuron of its lecture, each with every value's data and gradient.
//!
//! `cargo run --example graph` writes `readme.svg`, `readme.dot`, `neuron.svg`, `neuron.dot`
//! (or into the directory given as the first argument).

// micrograd's README expression, verbatim: `c += c + 1.0` is what it computes.
#![allow(clippy::misrefactored_assign_op)]

use micrograd_runtime::prelude::*;
use std::path::{Path, PathBuf};

/// micrograd's README expression.
#[differentiable(graph)]
fn readme(a: f64, b: f64) -> f64 {
    let mut c = a + b;
    let mut d = a * b + b.powi(3);
    c += c + 1.0;
    c += 1.0 + c + (-a);
    d += d * 2.0 + (b + a).relu();
    d += 3.0 * d + (b - a).relu();
    let e = c - d;
    let f = e.powi(2);
    let mut g = f / 2.0;
    g += 10.0 / f;
    g
}

/// The lecture's neuron: o = tanh(x1 w1 + x2 w2 + b).
#[differentiable(graph)]
fn neuron(x1: f64, x2: f64, w1: f64, w2: f64, b: f64) -> f64 {
    let x1w1 = x1 * w1;
    let x2w2 = x2 * w2;
    let n = x1w1 + x2w2 + b;
    n.tanh()
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("."), PathBuf::from);
    let readme = (
        readme(-4.0, 2.0),
        readme_graph(-4.0, 2.0),
        ["a", "b"].as_slice(),
    );
    let args = (2.0, 0.0, -3.0, 1.0, 6.881_373_587_019_543);
    let neuron = (
        neuron(args.0, args.1, args.2, args.3, args.4),
        neuron_graph(args.0, args.1, args.2, args.3, args.4),
        ["x1", "x2", "w1", "w2", "b"].as_slice(),
    );
    for (name, (value, graph, inputs)) in [("readme", &readme), ("neuron", &neuron)] {
        println!(
            "{name} = {value:.4}, a graph of {} nodes",
            graph.nodes().len()
        );
        for input in *inputs {
            if let Some(node) = graph.find(input) {
                println!("  d{name}/d{input} = {:.4}", node.grad());
            }
        }
        write(&dir.join(format!("{name}.dot")), &graph.to_dot());
        write(&dir.join(format!("{name}.svg")), &graph.to_svg());
    }
}

fn write(path: &Path, text: &str) {
    match std::fs::write(path, text) {
        Ok(()) => println!("wrote {}", path.display()),
        Err(error) => {
            eprintln!("cannot write {}: {error}", path.display());
            std::process::exit(1);
        }
    }
}
