//! `const` items inside blocks and closures (issue 24, items keyed by their block and name,
//! no longer by address): a closure whose body declares a constant, inlined at each of its two
//! calls, and the same constant declared in two sibling blocks, checked against central
//! differences, the value bit for bit `f`'s. With items keyed by address, the closure's second
//! call did not bind `K`.

use crate::common;

use common::check2;
use micrograd_runtime::prelude::*;

#[differentiable]
fn closure_item(x: f64, y: f64) -> f64 {
    let scaled = |t: f64| {
        const K: f64 = 3.0;
        t * t * K
    };
    scaled(x) + scaled(y)
}

#[differentiable]
fn sibling_items(x: f64, y: f64) -> f64 {
    let a = {
        const K: f64 = 1.5;
        x * K
    };
    let b = {
        const K: f64 = 1.5;
        y.sin() * K
    };
    a * b
}

#[test]
fn items_in_closures_and_blocks_against_differences() {
    let points = [[0.3, -1.1], [1.7, 0.4], [-0.8, 2.3]];
    check2("closure_item", closure_item, closure_item_grad, &points);
    check2("sibling_items", sibling_items, sibling_items_grad, &points);
}
