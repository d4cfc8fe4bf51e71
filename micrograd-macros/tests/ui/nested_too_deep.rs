use micrograd_runtime::prelude::*;

// Nesting deeper than syn can read on rustc's 8 MiB stack (256 groups, counting the body's
// braces) is refused at the group past the limit, before it is parsed: a crash aborted rustc.
#[differentiable]
#[rustfmt::skip]
fn f(x: f64) -> f64 {
    2.0 * ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x) + x)
}

fn main() {}
