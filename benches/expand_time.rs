//! Compile-time cost: how long `micrograd_codegen::expand` (the whole macro: parse, check,
//! differentiate, emit `f_grad` and `f_pullback`) takes on straight-line functions of 100, 1000
//! and 5000 statements, built as token streams. Expansion should grow about linearly.
//!
//! `CARGO_TARGET_DIR=/work/target-e cargo bench --bench expand_time`
//!
//! Prints, per size, the best of several expansions, the time per statement and the size of
//! the emitted code; no assertion on time.

use std::time::Instant;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// A deterministic straight-line function of `n` statements over four `f64` parameters: each
/// statement combines one of the last few values with an older one (chosen by an LCG) through
/// a rotating mix of `+ - * /`, `tanh`, `relu`, `powi`, `exp`, `sin`.
fn straight_line(n: usize) -> TokenStream {
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut pick = |bound: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % bound
    };
    let name = format_ident!("straight_{}", n);
    let mut statements = Vec::with_capacity(n);
    for i in 0..n {
        let v = format_ident!("v{}", i);
        // Operands: the previous value and a random earlier one (parameters before v0 exists).
        let operand = |k: usize| -> TokenStream {
            if k < 4 {
                let x = format_ident!("x{}", k);
                quote!(#x)
            } else {
                let v = format_ident!("v{}", k - 4);
                quote!(#v)
            }
        };
        let a = operand(i + 3);
        let b = operand(pick(i + 4));
        let c = operand(pick(i + 4));
        let rhs = match i % 8 {
            0 => quote!(#a * #b + #c),
            1 => quote!((#a - #b).tanh() * 0.5),
            2 => quote!(#a / (1.0 + #b * #b)),
            3 => quote!((#a + #b).relu() - 0.25 * #c),
            4 => quote!(#a.powi(2) * 0.1 + #b),
            5 => quote!((#a * 0.1).exp() - #b),
            6 => quote!((#a).sin() + #b * #c),
            _ => quote!(0.5 * (#a + #b)),
        };
        statements.push(quote!(let #v = #rhs;));
    }
    let last = format_ident!("v{}", n - 1);
    quote! {
        fn #name(x0: f64, x1: f64, x2: f64, x3: f64) -> f64 {
            #(#statements)*
            #last
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; this target takes no options.
    println!("micrograd_codegen::expand on straight-line functions (best of the repetitions)");
    println!(
        "{:>10} {:>6} {:>12} {:>14} {:>14}",
        "statements", "reps", "expand (ms)", "µs/statement", "output (KiB)"
    );
    let mut per_statement = Vec::new();
    for n in [100, 1000, 5000] {
        let item = straight_line(n);
        let reps = if n >= 5000 { 3 } else { 7 };
        let mut best = f64::INFINITY;
        let mut output = 0;
        for _ in 0..reps {
            let input = item.clone();
            let start = Instant::now();
            let expanded = micrograd_codegen::expand(TokenStream::new(), input);
            best = best.min(start.elapsed().as_secs_f64());
            let text = expanded.to_string();
            assert!(
                !text.contains("compile_error"),
                "the generated function must be accepted"
            );
            output = text.len();
        }
        let micros = best * 1e6 / n as f64;
        per_statement.push(micros);
        println!(
            "{n:>10} {reps:>6} {:>12.2} {micros:>14.2} {:>14.0}",
            best * 1e3,
            output as f64 / 1024.0
        );
    }
    println!(
        "growth of the time per statement from 100 to 5000 statements: {:.2}x (1.0 = linear)",
        per_statement[2] / per_statement[0]
    );
}
