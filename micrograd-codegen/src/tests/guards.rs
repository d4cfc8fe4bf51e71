//! diff/guard.rs: reverse code that can only add zeros is skipped when its incoming adjoints
//! are zero, and never when it pops a tape.

use super::{all, differentiate};
use crate::diff::Rev;
use syn::parse_quote;

#[test]
fn a_reversed_loop_is_guarded_by_its_incoming_adjoint() {
    let (_, adjoint) = differentiate(
        &parse_quote! {
            fn f(x: f64, w: &[f64]) -> f64 {
                let a = x.relu();
                let mut s = 0.0;
                for i in 0..w.len() {
                    s += a * w[i];
                }
                s.tanh()
            }
        },
        &[],
    );
    let guards: Vec<_> = all(&adjoint.rev)
        .into_iter()
        .filter_map(|s| match s {
            Rev::Guard { incoming, body } => Some((incoming, body)),
            _ => None,
        })
        .collect();
    assert_eq!(guards.len(), 1, "{:?}", adjoint.rev);
    let (incoming, body) = guards[0];
    assert_eq!(incoming.len(), 1, "one adjoint, the sum's: {incoming:?}");
    assert!(matches!(body.as_slice(), [Rev::Loop { .. }]), "{body:?}");
}

#[test]
fn a_loop_that_pops_is_not_guarded() {
    let (_, adjoint) = differentiate(
        &parse_quote! {
            fn f(x: f64) -> f64 {
                let mut s = x;
                for _ in 0..3 {
                    s = s.sin();
                }
                s.tanh()
            }
        },
        &[],
    );
    assert!(
        !all(&adjoint.rev)
            .iter()
            .any(|s| matches!(s, Rev::Guard { .. })),
        "the loop pops its record, so skipping it would leave the tape out of step: {:?}",
        adjoint.rev
    );
}

#[test]
fn a_loop_lending_an_array_is_not_guarded() {
    // `d_s` may be zero (a ReLU that is off) while `h` still carries adjoint from `h[0]`.
    let (_, adjoint) = differentiate(
        &parse_quote! {
            fn f(x: f64, n: usize) -> f64 {
                let a = x.relu();
                let mut h = [x, 1.0];
                let mut s = 0.0;
                for _ in 0..n {
                    s += g(&mut h, a);
                }
                s.tanh() + h[0]
            }
        },
        &[],
    );
    let guarded = all(&adjoint.rev)
        .into_iter()
        .any(|s| matches!(s, Rev::Guard { .. }));
    assert!(!guarded, "{:?}", adjoint.rev);
}

/// Every gate of `rev`, nested ones included: `(when, body)`.
fn gates(rev: &[Rev]) -> Vec<(bool, &Vec<Rev>)> {
    all(rev)
        .into_iter()
        .filter_map(|s| match s {
            Rev::Gate { when, body, .. } => Some((*when, body)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_relu_unit_is_gated_on_its_activation() {
    let (_, adjoint) = differentiate(
        &parse_quote! {
            fn f(w: &[f64], xs: &[f64]) -> f64 {
                let mut s = 0.0;
                for i in 0..xs.len() {
                    let h = (w[0] * xs[i] + w[1]).relu();
                    s += h * w[2];
                }
                s
            }
        },
        &[],
    );
    let gates = gates(&adjoint.rev);
    assert_eq!(gates.len(), 1, "{:?}", adjoint.rev);
    let (when, body) = gates[0];
    assert!(!when, "the unit's code runs where `h <= 0.0` is false");
    assert!(
        matches!(
            &body[0],
            Rev::Let {
                expr: crate::diff::Expr::Adj(_),
                ..
            }
        ),
        "the select is gone, its arm declared first: {body:?}"
    );
    assert!(
        body.iter()
            .filter(|s| matches!(s, Rev::AddElem(..)))
            .count()
            >= 2,
        "the unit's adds into d_w are inside: {body:?}"
    );
}

#[test]
fn code_reading_another_adjoint_stays_outside_every_gate() {
    // `b`'s partial does not vanish where the ReLU is off: its add into `d_w[1]` runs anyway.
    let (_, adjoint) = differentiate(
        &parse_quote! {
            fn f(w: &[f64], xs: &[f64]) -> f64 {
                let mut s = 0.0;
                for i in 0..xs.len() {
                    let b = w[1] * xs[i];
                    let a = (w[0] * xs[i]).relu();
                    s += a * b;
                }
                s
            }
        },
        &[],
    );
    let adds_into_w1 = |code: &[Rev]| {
        all(code)
            .into_iter()
            .filter(|s| {
                matches!(
                    s,
                    Rev::AddElem(_, crate::ir::IntExpr::Lit { value: 1, .. }, _)
                )
            })
            .count()
    };
    assert_eq!(adds_into_w1(&adjoint.rev), 1, "{:?}", adjoint.rev);
    for (_, body) in gates(&adjoint.rev) {
        assert_eq!(adds_into_w1(body), 0, "{body:?}");
    }
}
