//! The benchmark tasks (benches/tasks/) as plain tests: every contender's gradient equals the
//! hand-written one to 1e-9 relative, on sizes small enough for `cargo test`.

#[allow(dead_code)]
#[path = "../../benches/tasks/mod.rs"]
mod tasks;

#[test]
fn t1_readme_all_contenders_agree() {
    tasks::readme::check();
    // micrograd's README numbers.
    let (g, da, db) = tasks::readme::readme_hand(-4.0, 2.0);
    assert_eq!(
        [format!("{g:.4}"), format!("{da:.4}"), format!("{db:.4}")],
        ["24.7041", "138.8338", "645.5773"]
    );
}

#[test]
fn t9_grid_mlp_agrees_with_the_hand_written_gradient() {
    for name in [
        "tanh-2-16-16-1",
        "relu-2-32-32-1",
        "tanh-2-64-1",
        "relu-10-8-8-8-1",
        "linear-8-16-16-1",
        "tanh-64-4-4-4-4-1",
        "relu-1-128-1",
        "sigmoid-8-16-16-1",
    ] {
        // One block of points (under 256): the sums run in the same order.
        tasks::grid::check(name, 200);
    }
}

#[test]
fn t2_neuron64_all_contenders_agree() {
    tasks::neuron64::check();
}

#[test]
fn t3_moons_all_contenders_agree() {
    // num-dual's 337 forward passes over 10 points stay fast in a debug build.
    tasks::moons::check(10, true);
}

#[test]
fn t3_moons_full_data_set() {
    tasks::moons::check(100, false);
}

#[test]
fn t4_scaling_all_contenders_agree() {
    for n in [1, 2, 10, 100] {
        tasks::scaling::check(n, 100);
    }
}

#[test]
fn t7_t8_loops_with_exits_agree_with_hand_written() {
    tasks::exits::check();
}

/// Prints what `#[differentiable]` writes for the task functions, like `cargo expand`:
/// `cargo test --release --test bench_tasks -- --ignored --nocapture expansions`.
/// BENCHMARKS.md reads these to explain the gaps to the hand-written gradients.
#[test]
#[ignore = "prints the generated code of the benchmark tasks; run on demand"]
fn expansions_of_the_task_functions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/tasks");
    for task in ["readme", "neuron64", "moons", "scaling", "exits"] {
        let source = std::fs::read_to_string(dir.join(format!("{task}.rs"))).unwrap();
        let file = syn::parse_file(&source).unwrap();
        for item in file.items {
            let syn::Item::Fn(mut function) = item else {
                continue;
            };
            let Some(at) = function
                .attrs
                .iter()
                .position(|a| a.path().is_ident("differentiable"))
            else {
                continue;
            };
            let attr = function.attrs.remove(at);
            let args = match attr.meta {
                syn::Meta::List(list) => list.tokens,
                _ => proc_macro2::TokenStream::new(),
            };
            let expanded = micrograd_codegen::expand(args, quote::quote!(#function));
            let expanded: syn::File = syn::parse2(expanded).unwrap();
            println!(
                "// ===== benches/tasks/{task}.rs\n{}",
                prettyplease::unparse(&expanded)
            );
        }
    }
}

#[test]
fn t6_iterators_agree_with_index_loops() {
    tasks::iterators::check();
}
