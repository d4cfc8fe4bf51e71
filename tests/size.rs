//! Size and depth: `expand` on a function of 5,000 straight-line statements and on expressions
//! nested 120 deep, on a thread with the default 2 MiB stack of a test thread (rustc runs
//! proc macros with a larger one), and how its time grows with the number of statements.
//!
//! A stack overflow aborts the whole process, so each deep expansion runs in a child process
//! (this test binary again, running `child` with `MICROGRAD_SIZE_CHILD` set); the parent also
//! searches for the deepest nesting the 2 MiB stack takes, and prints it.

use proc_macro2::TokenStream;
use std::process::Command;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The stack of a test thread (`RUST_MIN_STACK` unset).
const TEST_STACK: usize = 2 << 20;

/// A function of `n` straight-line statements, each a few operations on the previous ones.
fn straight_line(n: usize) -> String {
    let mut body = String::from("let mut x0 = a * b;\n");
    for k in 1..n {
        let p = k - 1;
        let line = match k % 5 {
            0 => format!("let x{k} = (x{p} * 0.5 + a).tanh();\n"),
            1 => format!("let x{k} = x{p} * b - a / (x{p} * x{p} + 1.0);\n"),
            2 => format!("let x{k} = x{p}.sin() + x{p}.max(b);\n"),
            3 => format!("x0 += x{p} * 0.001;\nlet x{k} = x{p} - x0;\n"),
            _ => format!("let x{k} = (x{p}.powi(2) + 1.0).ln();\n"),
        };
        body.push_str(&line);
    }
    format!("fn f(a: f64, b: f64) -> f64 {{\n{body}x{} + x0\n}}", n - 1)
}

/// A function whose value is one expression nested `depth` deep, in one of three shapes.
fn nested(shape: &str, depth: usize) -> String {
    let expr = match shape {
        // (x * (x + (x * (.. x))))
        "parens" => {
            let mut e = String::from("x");
            for k in 0..depth {
                let op = if k % 2 == 0 { '+' } else { '*' };
                e = format!("(x {op} {e})");
            }
            e
        }
        // x.sin().cos().sin()..
        "methods" => {
            let mut e = String::from("x");
            for k in 0..depth {
                e.push_str(if k % 2 == 0 { ".sin()" } else { ".cos()" });
            }
            e
        }
        // if x > 0.0 { (if x > 0.0 { .. } else { x }) * 0.5 } else { x }
        "ifs" => {
            let mut e = String::from("x");
            for _ in 0..depth {
                e = format!("if x > 0.0 {{ ({e}) * 0.5 }} else {{ x }}");
            }
            e
        }
        other => panic!("unknown shape {other}"),
    };
    format!("fn f(x: f64) -> f64 {{ {expr} }}")
}

/// Expands `source` on a thread with `stack` bytes: the output, or the panic.
fn expand_on_thread(source: String, stack: usize) -> Result<String, String> {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let item = TokenStream::from_str(&source).expect("the case is tokens");
            micrograd_codegen::expand(TokenStream::new(), item).to_string()
        })
        .expect("spawn a thread")
        .join()
        .map_err(|panic| {
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        })
}

/// Checks one expansion's output: code with `f_grad`, no `compile_error!`. The output holds
/// the user's function as written, so parsing it back is as deep as the input: that runs on a
/// 64 MiB thread, outside what is measured.
fn assert_expanded(what: &str, output: &str) {
    assert!(
        !output.contains("compile_error"),
        "{what}: expand reported an error:\n{}",
        &output[..output.len().min(2000)]
    );
    assert!(output.contains("fn f_grad"), "{what}: no f_grad");
    let (what, output) = (what.to_string(), output.to_string());
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            syn::parse_file(&output)
                .unwrap_or_else(|e| panic!("{what}: the output does not parse: {e}"));
        })
        .expect("spawn a thread")
        .join()
        .expect("the output parses");
}

/// Runs in the child process: expands one case and exits, or does nothing in a normal run.
#[test]
fn child() {
    let Ok(spec) = std::env::var("MICROGRAD_SIZE_CHILD") else {
        return;
    };
    let parts: Vec<&str> = spec.split_whitespace().collect();
    let (shape, depth, stack) = (
        parts[0],
        parts[1].parse().expect("a depth"),
        parts[2].parse().expect("a stack size"),
    );
    if parts.get(3) == Some(&"syn") {
        // syn's parse alone, for comparison.
        let source = nested(shape, depth);
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || {
                let item = TokenStream::from_str(&source).expect("the case is tokens");
                syn::parse2::<syn::ItemFn>(item).expect("the case parses");
            })
            .expect("spawn a thread")
            .join()
            .expect("syn parses");
        println!("CHILD-OK");
        return;
    }
    let output = expand_on_thread(nested(shape, depth), stack)
        .unwrap_or_else(|panic| panic!("expand panicked: {panic}"));
    assert_expanded(&format!("{shape} nested {depth} deep"), &output);
    println!("CHILD-OK");
}

/// Whether `shape` nested `depth` deep expands on a `stack`-byte thread, in a child process.
fn expands_in_child(shape: &str, depth: usize, stack: usize) -> bool {
    let out = Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--exact", "child", "--nocapture", "--test-threads", "1"])
        .env("MICROGRAD_SIZE_CHILD", format!("{shape} {depth} {stack}"))
        .output()
        .expect("run the child");
    out.status.success() && String::from_utf8_lossy(&out.stdout).contains("CHILD-OK")
}

#[test]
fn five_thousand_statements_on_a_test_thread() {
    let output = expand_on_thread(straight_line(5000), TEST_STACK)
        .unwrap_or_else(|panic| panic!("expand panicked: {panic}"));
    assert_expanded("5,000 statements", &output);
}

/// The smallest of 2, 4, .., 64 MiB on which `shape` nested `depth` deep expands (or, with
/// `syn_only`, only parses), in child processes.
fn smallest_stack(shape: &str, depth: usize, syn_only: bool) -> Option<usize> {
    [2usize, 4, 8, 16, 32, 64].into_iter().find(|&mib| {
        let stack = format!("{}{}", mib << 20, if syn_only { " syn" } else { "" });
        expands_in_child_spec(&format!("{shape} {depth} {stack}"))
    })
}

fn expands_in_child_spec(spec: &str) -> bool {
    let out = Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--exact", "child", "--nocapture", "--test-threads", "1"])
        .env("MICROGRAD_SIZE_CHILD", spec)
        .output()
        .expect("run the child");
    out.status.success() && String::from_utf8_lossy(&out.stdout).contains("CHILD-OK")
}

/// Expressions nested 120 deep expand, and need no more stack than syn needs to parse them:
/// the stack each takes is printed. On a 2 MiB thread they may not (in the test profile, as
/// proc macros are built in dev builds): syn's recursive parser alone overflows there, near
/// 150 parentheses or 100 nested `if`s (see `deepest_nesting_on_a_test_thread`). rustc's own
/// thread has 8 MiB; the macro refuses what nests more than 256 groups deep (120 `if`s are
/// 240: a block and a parenthesis each), since syn overflows that stack near 450.
#[test]
fn nested_120_deep() {
    for shape in ["parens", "methods", "ifs"] {
        let parse = smallest_stack(shape, 120, true);
        let expand = smallest_stack(shape, 120, false);
        let show = |s: Option<usize>| s.map_or("more than 64 MiB".into(), |m| format!("{m} MiB"));
        println!(
            "{shape} nested 120 deep: syn parses it on {}, expand needs {}{}",
            show(parse),
            show(expand),
            if expand == Some(2) {
                ""
            } else {
                " (more than a 2 MiB test thread)"
            }
        );
        let expand = expand.unwrap_or_else(|| panic!("{shape} 120 deep: no expansion on 64 MiB"));
        assert!(
            expand <= parse.unwrap_or(64).max(2) * 2,
            "{shape} 120 deep: expand needs {expand} MiB, parsing {:?} MiB",
            parse
        );
    }
}

/// The deepest nesting of each shape that a 2 MiB thread expands (a search over child
/// processes), printed; nothing asserted. It takes minutes, so it runs with
/// `MICROGRAD_SIZE_SEARCH=1` only.
#[test]
fn deepest_nesting_on_a_test_thread() {
    if std::env::var_os("MICROGRAD_SIZE_SEARCH").is_none() {
        println!("set MICROGRAD_SIZE_SEARCH=1 to search for the deepest nesting");
        return;
    }
    for shape in ["parens", "methods", "ifs"] {
        let expands = |depth: usize| expands_in_child(shape, depth, TEST_STACK);
        let (mut ok, mut bad) = (0, 0);
        let mut depth = 25;
        let limit = 20_000;
        while bad == 0 && ok < limit {
            if expands(depth) {
                ok = depth;
                depth = (depth * 2).min(limit);
            } else {
                bad = depth;
            }
        }
        while bad != 0 && bad - ok > (ok / 20).max(1) {
            let mid = (ok + bad) / 2;
            if expands(mid) {
                ok = mid;
            } else {
                bad = mid;
            }
        }
        if bad == 0 {
            println!("{shape}: expands {limit} deep on a 2 MiB thread (searched no deeper)");
        } else {
            println!("{shape}: expands {ok} deep on a 2 MiB thread, not {bad}");
        }
    }
}

fn time_expansion(n: usize) -> Duration {
    let source = straight_line(n);
    (0..3)
        .map(|_| {
            let source = source.clone();
            let start = Instant::now();
            let output = expand_on_thread(source, 64 << 20).expect("expand");
            let elapsed = start.elapsed();
            assert!(output.contains("fn f_grad"));
            elapsed
        })
        .min()
        .expect("three runs")
}

/// Expansion time grows about linearly: timed at 100, 1,000 and 5,000 statements (the best
/// of three, in the test profile), asserting only a generous bound on the last ratio.
#[test]
fn expansion_time_is_roughly_linear() {
    let times: Vec<(usize, Duration)> = [100, 1000, 5000]
        .into_iter()
        .map(|n| (n, time_expansion(n)))
        .collect();
    for (n, t) in &times {
        println!(
            "expand, {n} statements: {t:.1?} ({:.1} us per statement)",
            t.as_secs_f64() * 1e6 / *n as f64
        );
    }
    let ratio = times[2].1.as_secs_f64() / times[1].1.as_secs_f64();
    println!("time(5000) / time(1000) = {ratio:.2} (5.0 if linear)");
    assert!(
        ratio < 15.0,
        "5,000 statements take {ratio:.1} times as long as 1,000: worse than linear"
    );
}
