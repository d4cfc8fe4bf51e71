//! One `+=` per shadow entry: contributions to the same `d_w[i]` within a straight stretch of
//! the reverse sweep are summed first.
//!
//! Before: `d_x[i] += d_t9; d_x[i - 1] += d_t6; d_x[i] += d_t4;`
//! After: `d_x[i - 1] += d_t6; d_x[i] += d_t9 + d_t4;`
//!
//! Two read-modify-writes of one entry in a row stall the store-to-load forwarding of the CPU;
//! one write of the sum does not.

use super::Rev;
use super::expr::Expr;
use crate::ir::VarId;

/// Merges repeated additions into the same entry in `block` and every block nested in it.
pub fn merge_adds(rev: &mut Vec<Rev>) {
    super::each_block_mut(rev, None, true, &mut |block, _| merge_block(block));
}

fn merge_block(block: &mut Vec<Rev>) {
    let mut i = 0;
    while i < block.len() {
        if let Some(j) = later_add_to_same_entry(block, i) {
            let Rev::AddElem(_, _, first) = block.remove(i) else {
                continue;
            };
            if let Rev::AddElem(_, _, second) = &mut block[j - 1] {
                *second = first + std::mem::replace(second, Expr::Const(0.0));
            }
        } else {
            i += 1;
        }
    }
}

/// The next `AddElem` to the same entry as `block[i]`, if nothing in between touches that array.
fn later_add_to_same_entry(block: &[Rev], i: usize) -> Option<usize> {
    let Rev::AddElem(array, index, _) = &block[i] else {
        return None;
    };
    for (j, rev) in block.iter().enumerate().skip(i + 1) {
        match rev {
            Rev::AddElem(other, other_index, expr) if other == array => {
                if reads(expr, *array) {
                    return None;
                }
                if other_index == index {
                    return Some(j);
                }
            }
            Rev::AddElem(_, _, expr)
            | Rev::Let { expr, .. }
            | Rev::Set(_, expr)
            | Rev::Add(_, expr) => {
                if reads(expr, *array) {
                    return None;
                }
            }
            Rev::Zero(_) => {}
            Rev::ZeroElem(other, _) | Rev::ZeroArray(other) if other != array => {}
            _ => return None,
        }
    }
    None
}

/// Whether `expr` reads the adjoint of `array`.
fn reads(expr: &Expr, array: VarId) -> bool {
    let mut found = false;
    expr.visit_adjoint_arrays(&mut |a| found |= a == array);
    found
}
