//! Two `Vec`s whose lengths are written apart (`vec![x; n]`, `vec![2.0; m]`), assigned or
//! swapped whole: `f` panics where the lengths differ, so every flavour does, by the check
//! the lowering keeps in the forward sweep, with its message; where they agree, the value is
//! `f`'s and the gradient central differences'.

use crate::common;
use micrograd_runtime::prelude::*;

#[differentiable]
fn assigned(x: f64, n: usize, m: usize) -> f64 {
    let mut u = vec![x; n];
    let v = vec![x * x; m];
    u = v;
    u[0] * 3.0
}

#[differentiable]
fn swapped(x: f64, n: usize, m: usize) -> f64 {
    let mut u = vec![x; n];
    let mut v = vec![2.0; m];
    std::mem::swap(&mut u, &mut v);
    u[0] * v[0]
}

#[test]
fn lengths_that_agree_give_f_and_its_gradient() {
    let x = 0.7;
    let (value, dx) = assigned_grad(x, 2, 2);
    common::assert_same_value("assigned", value, assigned(x, 2, 2), &[x]);
    let numeric = common::derivative(|x| assigned(x, 2, 2), x);
    common::assert_near("assigned", dx, numeric, 1e-6);
    let (value, dx) = swapped_grad(x, 3, 3);
    common::assert_same_value("swapped", value, swapped(x, 3, 3), &[x]);
    let numeric = common::derivative(|x| swapped(x, 3, 3), x);
    common::assert_near("swapped", dx, numeric, 1e-6);
}

#[test]
#[should_panic(expected = "assigns or swaps whole `Vec`s of one length only: `u` and `v` differ")]
fn an_assignment_of_another_length_panics_in_f_grad() {
    assigned_grad(0.7, 2, 3);
}

#[test]
#[should_panic(expected = "assigns or swaps whole `Vec`s of one length only: `u` and `v` differ")]
fn a_swap_of_another_length_panics_in_f_grad() {
    swapped_grad(0.7, 3, 2);
}
