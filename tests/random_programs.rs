//! Differential testing of `#[differentiable]` over random programs.
//!
//! tests/random/generator.rs writes random functions in the whole language (arithmetic, every
//! method, `let`/shadowing/compound assignment, branches and `if` values, early returns, nested
//! loops, slices, local arrays, calls with sub-slices, `wrt(..)`, integer and boolean
//! parameters), a quarter of them with variables named like the macro's own names or as raw
//! identifiers (tests/random/hygiene.rs). This test compiles them, in batches, into crates
//! under `CARGO_TARGET_TMPDIR` (`rustc` against the runtime `cargo test` built for this binary,
//! see [`Runtime`]) whose checker (tests/random/harness.rs) compares each `f_grad`
//! with central finite differences, with forward-mode dual numbers and, where it applies, with
//! the `Value` engine, at random points kept away from kinks and branch boundaries. Some
//! functions return several values (`[f64; M]` or a tuple, taken apart by their callers): an
//! entry that does is checked through the weighted sum `seed · f` (`f_pullback` and the seeded
//! `f_hvp`) and output by output (`f_jvp`, `f_jacobian`; tests/random/vector_check.rs).
//!
//! - `MICROGRAD_RANDOM_PROGRAMS=100000` checks more programs (default 200, one compiled batch,
//!   so that `cargo test --workspace` stays within minutes; 1200 was the default before);
//! - `MICROGRAD_RANDOM_SEED=7` draws other programs (default 1);
//! - `MICROGRAD_RANDOM_ONLY=123` replays one program (as printed by a failure);
//! - `MICROGRAD_RANDOM_BATCH=300` programs per compiled crate;
//! - `MICROGRAD_RANDOM_F32=1` checks every program's `f32` twin too (`=k` every k-th, default 4;
//!   `=0` none): the program written in `f32` throughout (tests/random/single.rs), whose
//!   `f_grad` must return its `f` bit for bit and partials within the rounding of their own
//!   arithmetic of the dual numbers of the program computed in `f32` (tests/random/dual.rs
//!   written in `f32`; tests/random/single_check.rs).
//!
//! A failure prints the program, the point and the check that failed; the report is also kept
//! in `random_programs/failures.txt` under the target's tmp directory.

#[path = "random/generator.rs"]
#[allow(dead_code)]
mod generator;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const HARNESS: &str = include_str!("random/harness.rs");
const SECOND_ORDER: &str = include_str!("random/second_order.rs");
const SINGLE: &str = include_str!("random/single_check.rs");
const DUAL: &str = include_str!("random/dual.rs");
const STD_METHODS: &str = include_str!("random/harness_std.rs");
const VECTOR: &str = include_str!("random/vector_check.rs");

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

/// The runtime this test binary was built with, for the batch crates and the regressions'
/// crates: `rustc` compiles each of them against the rlib of micrograd-runtime that `cargo
/// test` just built beside this binary (`target/debug/deps`), so they expand with the very
/// macro under test and build nothing else. Each was a cargo package of its own before, in a
/// target directory of its own, where micrograd-codegen (16 s of CPU on the idle machine),
/// `syn` (5 s), the macro, the runtime (4 s) and 20 more crates were built a second time from a
/// fresh clone, and the regressions' crates waited for each other on that directory's lock;
/// cargo cannot share the test build's units with another workspace, since a path package's
/// unit hash depends on the workspace it is built from.
struct Runtime {
    rustc: PathBuf,
    deps: PathBuf,
    rlib: PathBuf,
}

impl Runtime {
    /// The `rustc` beside `$CARGO` (the toolchain `cargo test` runs; `rustc` on the `PATH`
    /// otherwise) and the newest `libmicrograd_runtime-*.rlib` beside this binary: the one this
    /// invocation of cargo built or found fresh (a unit of other features built later has the
    /// same sources, or this invocation would have rebuilt its own after it).
    fn find() -> Runtime {
        let exe = std::env::current_exe().expect("the test binary's path");
        let deps = exe
            .parent()
            .expect("the test binary's directory")
            .to_path_buf();
        let rlib = std::fs::read_dir(&deps)
            .expect("read the test binary's directory")
            .flatten()
            .filter(|e| {
                let name = e.file_name().to_string_lossy().to_string();
                name.starts_with("libmicrograd_runtime-") && name.ends_with(".rlib")
            })
            .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok())
            .map(|e| e.path())
            .unwrap_or_else(|| {
                panic!(
                    "no libmicrograd_runtime-*.rlib beside {}: run this test through `cargo test`",
                    exe.display()
                )
            });
        let rustc = std::env::var_os("CARGO")
            .map(|cargo| Path::new(&cargo).with_file_name("rustc"))
            .filter(|rustc| rustc.exists())
            .unwrap_or_else(|| "rustc".into());
        Runtime { rustc, deps, rlib }
    }

    /// The command compiling the crate in `dir` (`src/main.rs` and its modules) into the
    /// executable `dir/NAME`, or `None` if that is up to date: newer than every file in `src`
    /// and than the rlib, and built against this rlib (named in its stamp `NAME.rlib-used`), so
    /// reruns are incremental. Unoptimized, without debug info: building dominates, the checks
    /// take milliseconds, and `f64` arithmetic is the same at every optimization level. Errors
    /// come in rustc's short format, relative to `dir` (`src/p12.rs:3:5: error: ..`).
    fn compile(&self, dir: &Path, name: &str) -> Option<Command> {
        let out = dir.join(name);
        let built = out.metadata().and_then(|m| m.modified()).ok();
        let newest = std::fs::read_dir(dir.join("src"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .chain([self.rlib.clone()])
            .filter_map(|path| path.metadata().and_then(|m| m.modified()).ok())
            .max();
        let stamp = std::fs::read_to_string(dir.join(format!("{name}.rlib-used"))).ok();
        if built.is_some()
            && newest < built
            && stamp.as_deref() == Some(&*self.rlib.to_string_lossy())
        {
            return None;
        }
        let mut rustc = Command::new(&self.rustc);
        rustc
            .args([
                "--edition",
                "2024",
                "--crate-type",
                "bin",
                "--crate-name",
                name,
            ])
            .args([
                "--error-format",
                "short",
                "-C",
                "debuginfo=0",
                "-C",
                "strip=debuginfo",
            ])
            .arg("--extern")
            .arg(format!("micrograd_runtime={}", self.rlib.display()))
            .arg("-L")
            .arg(format!("dependency={}", self.deps.display()))
            .args(["-o", name, "src/main.rs"])
            .current_dir(dir)
            .env_remove("RUSTFLAGS");
        Some(rustc)
    }

    /// Records that `dir/NAME` was built against this rlib.
    fn stamp(&self, dir: &Path, name: &str) {
        write_if_changed(
            &dir.join(format!("{name}.rlib-used")),
            &self.rlib.to_string_lossy(),
        );
    }
}

/// Writes `contents` to `path` unless it already holds exactly that (keeps builds incremental).
fn write_if_changed(path: &Path, contents: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(contents) {
        std::fs::write(path, contents).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }
}

/// The results of one batch.
#[derive(Default)]
struct Totals {
    passed: usize,
    failed: usize,
    skipped: usize,
    points: usize,
    rejected: [usize; 4],
    /// Points where an `f32` twin was checked, and where it was too ill-conditioned to be.
    single: [usize; 2],
    report: String,
}

/// Every how many programs one has its `f32` twin checked (`MICROGRAD_RANDOM_F32`, default 4),
/// if any (0: none).
fn single_share() -> Option<usize> {
    match env_or("MICROGRAD_RANDOM_F32", 4) {
        0 => None,
        k => Some(k),
    }
}

/// How many crates a batch is split into: they build in parallel.
fn parts() -> usize {
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    env_or("MICROGRAD_RANDOM_JOBS", cores.clamp(1, 4))
}

/// Splits `programs` into `n` parts of about the same source size, so their crates, built at
/// once, end about together: each program, largest first, goes to the part with the least
/// source so far (kept in id order within a part). Split by count before, the default run's two
/// parts were 2.24 and 2.01 MB, and the smaller one's rustc ended 15 s before the larger one's
/// (the lead's log at `8db42a4`), one core idle meanwhile.
fn balanced(programs: &[generator::Program], n: usize) -> Vec<Vec<&generator::Program>> {
    let mut by_size: Vec<(usize, &generator::Program)> = programs
        .iter()
        .map(|p| (generator::module_source(p).len(), p))
        .collect();
    by_size.sort_by_key(|&(len, p)| (std::cmp::Reverse(len), p.id));
    let mut parts: Vec<(usize, Vec<&generator::Program>)> = vec![(0, Vec::new()); n];
    for (len, p) in by_size {
        let part = parts
            .iter_mut()
            .min_by_key(|(total, _)| *total)
            .expect("at least one part");
        part.0 += len;
        part.1.push(p);
    }
    parts
        .into_iter()
        .map(|(_, mut part)| {
            part.sort_by_key(|p| p.id);
            part
        })
        .collect()
}

/// Writes the batch into `dir`: one crate per part (`dir/partK/src`), each a checker
/// binary over its programs.
fn write_batch(dir: &Path, parts: &[Vec<&generator::Program>]) {
    std::fs::create_dir_all(dir).expect("create the batch directory");
    // Parts of an earlier, larger split.
    for k in parts.len()..16 {
        let _ = std::fs::remove_dir_all(dir.join(format!("part{k}")));
    }
    for (k, programs) in parts.iter().enumerate() {
        let src = dir.join(format!("part{k}")).join("src");
        std::fs::create_dir_all(&src).expect("create the crate directory");
        write_if_changed(&src.join("rt.rs"), HARNESS);
        write_if_changed(&src.join("second.rs"), SECOND_ORDER);
        write_if_changed(&src.join("single.rs"), SINGLE);
        let dual = format!("{DUAL}\npub mod std_methods {{\n{STD_METHODS}}}\n");
        write_if_changed(&src.join("dual32.rs"), &generator::to_f32(&dual));
        write_if_changed(&src.join("dual.rs"), &dual);
        write_if_changed(&src.join("vector.rs"), VECTOR);
        let mut main = String::from(
            "#![allow(warnings)]\nmod dual;\nmod dual32;\nmod rt;\nmod second;\nmod single;\nmod vector;\n",
        );
        for p in programs.iter() {
            let _ = writeln!(main, "mod p{};", p.id);
            write_if_changed(
                &src.join(format!("p{}.rs", p.id)),
                &generator::module_source(p),
            );
        }
        main.push_str("static PROGRAMS: &[rt::Prog] = &[\n");
        for p in programs.iter() {
            main.push_str(&generator::table_entry(p).replace("Prog {", "rt::Prog {"));
        }
        main.push_str("];\n\nfn main() {\n    rt::run(PROGRAMS);\n}\n");
        write_if_changed(&src.join("main.rs"), &main);
        // Program files of an earlier batch in this directory.
        let keep: Vec<String> = programs.iter().map(|p| format!("p{}.rs", p.id)).collect();
        for entry in std::fs::read_dir(&src)
            .expect("read the crate directory")
            .flatten()
        {
            let file = entry.file_name().to_string_lossy().to_string();
            if file.starts_with('p') && file.ends_with(".rs") && !keep.contains(&file) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// The name of part `k` of the batch in slot `slot`, and of its checker binary.
fn part_name(slot: usize, k: usize) -> String {
    format!("random_programs_{slot}_{k}")
}

/// Builds the batch in `dir`, its parts at once; on failure, the ids of the programs the
/// errors point into and the errors.
fn build(
    dir: &Path,
    slot: usize,
    nparts: usize,
    runtime: &Runtime,
) -> Result<(), (Vec<usize>, String)> {
    let jobs: Vec<(PathBuf, String, std::process::Child)> = (0..nparts)
        .filter_map(|k| {
            let part = dir.join(format!("part{k}"));
            let name = part_name(slot, k);
            let mut rustc = runtime.compile(&part, &name)?;
            let child = rustc
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("run rustc");
            Some((part, name, child))
        })
        .collect();
    let mut stderr = String::new();
    for (part, name, child) in jobs {
        let out = child.wait_with_output().expect("wait for rustc");
        if out.status.success() {
            runtime.stamp(&part, &name);
        } else {
            stderr.push_str(&String::from_utf8_lossy(&out.stderr));
        }
    }
    if stderr.is_empty() {
        return Ok(());
    }
    let mut ids: Vec<usize> = Vec::new();
    for line in stderr.lines().filter(|l| l.contains("error")) {
        if let Some(rest) = line.split("src/p").nth(1)
            && let Some(id) = rest.split(".rs").next().and_then(|s| s.parse().ok())
            && !ids.contains(&id)
        {
            ids.push(id);
        }
    }
    Err((ids, stderr))
}

/// Generates, builds and runs one batch.
fn batch(root: &Path, slot: usize, seed: u64, ids: &[usize], only: Option<usize>) -> Totals {
    let mut totals = Totals::default();
    let dir = root.join(format!("batch{slot}"));
    let runtime = Runtime::find();
    let single = single_share();
    let mut programs: Vec<generator::Program> = ids
        .iter()
        .map(|&id| generator::Program {
            single: single.is_some_and(|k| id % k == 0),
            ..generator::program(seed, id)
        })
        .collect();
    let nparts = parts().min(programs.len()).max(1);
    let start = Instant::now();
    loop {
        write_batch(&dir, &balanced(&programs, nparts));
        match build(&dir, slot, nparts, &runtime) {
            Ok(()) => break,
            Err((bad, stderr)) if !bad.is_empty() => {
                // Keep the rest of the batch: report these and build again without them.
                let kept = root.join("failed");
                let _ = std::fs::create_dir_all(&kept);
                for id in &bad {
                    let p = programs
                        .iter()
                        .find(|p| p.id == *id)
                        .expect("a program of the batch");
                    let errors: Vec<&str> = stderr
                        .lines()
                        .filter(|l| l.contains(&format!("src/p{id}.rs")))
                        .take(12)
                        .collect();
                    let _ = writeln!(
                        totals.report,
                        "FAIL program {id} (MICROGRAD_RANDOM_SEED={seed} MICROGRAD_RANDOM_ONLY={id}): does not compile\n{}\nsource:\n{}",
                        errors.join("\n"),
                        generator::plain_source(p)
                    );
                    totals.failed += 1;
                    // Keep the generated module (with the oracles) for a look.
                    let file = format!("p{id}.rs");
                    for k in 0..nparts {
                        let _ = std::fs::copy(
                            dir.join(format!("part{k}")).join("src").join(&file),
                            kept.join(&file),
                        );
                    }
                }
                programs.retain(|p| !bad.contains(&p.id));
            }
            Err((_, stderr)) => {
                panic!(
                    "the batch crate in {} fails to build:\n{stderr}",
                    dir.display()
                )
            }
        }
    }
    let built = start.elapsed();
    for k in 0..nparts {
        let failures = dir.join(format!("failures{k}.txt"));
        let bin = dir.join(format!("part{k}")).join(part_name(slot, k));
        let mut run = Command::new(&bin);
        run.arg(seed.to_string()).arg(&failures);
        if let Some(id) = only {
            run.arg(id.to_string());
        }
        let out = run
            .output()
            .unwrap_or_else(|e| panic!("run {}: {e}", bin.display()));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let result = stdout
            .lines()
            .find_map(|l| l.strip_prefix("RESULT "))
            .unwrap_or_else(|| {
                panic!(
                    "{} ended without a result ({}):\n{stdout}\n{}",
                    bin.display(),
                    out.status,
                    String::from_utf8_lossy(&out.stderr)
                )
            });
        let n: Vec<usize> = result
            .split_whitespace()
            .map(|s| s.parse().expect("a count"))
            .collect();
        totals.passed += n[0];
        totals.failed += n[1];
        totals.skipped += n[2];
        totals.points += n[3];
        for (r, v) in totals.rejected.iter_mut().zip(&n[4..8]) {
            *r += v;
        }
        totals.single[0] += n[8];
        totals.single[1] += n[9];
        totals
            .report
            .push_str(&std::fs::read_to_string(&failures).unwrap_or_default());
    }
    println!(
        "programs {}..={}: built in {:.1?}, checked in {:.1?}: {} passed, {} failed, {} skipped",
        ids[0],
        ids[ids.len() - 1],
        built,
        start.elapsed() - built,
        totals.passed,
        totals.failed,
        totals.skipped
    );
    totals
}

#[test]
fn random_programs_match_finite_differences() {
    let count: usize = env_or("MICROGRAD_RANDOM_PROGRAMS", 200);
    let seed: u64 = env_or("MICROGRAD_RANDOM_SEED", 1);
    let per_batch: usize = env_or("MICROGRAD_RANDOM_BATCH", 300).max(1);
    let only: Option<usize> = std::env::var("MICROGRAD_RANDOM_ONLY").ok().map(|v| {
        v.trim()
            .parse()
            .expect("MICROGRAD_RANDOM_ONLY is a program id")
    });
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("random_programs");
    std::fs::create_dir_all(&root).expect("create the work directory");
    let ids: Vec<usize> = match only {
        Some(id) => vec![id],
        None => (0..count).collect(),
    };
    let start = Instant::now();
    let mut all = Totals::default();
    for (b, chunk) in ids.chunks(per_batch).enumerate() {
        // The default run's batches keep their own crates (reruns are incremental); a long run
        // rotates through two more.
        let slot = if only.is_some() {
            99
        } else if b < 8 {
            b
        } else {
            8 + b % 2
        };
        let t = batch(&root, slot, seed, chunk, only);
        all.passed += t.passed;
        all.failed += t.failed;
        all.skipped += t.skipped;
        all.points += t.points;
        for k in 0..4 {
            all.rejected[k] += t.rejected[k];
        }
        for k in 0..2 {
            all.single[k] += t.single[k];
        }
        all.report.push_str(&t.report);
    }
    let failures = root.join("failures.txt");
    std::fs::write(&failures, &all.report).expect("write the failures file");
    println!(
        "random programs (seed {seed}): {} passed, {} failed, {} skipped, in {:.1?}; {} points; rejected points: {} out of range, {} near a kink or branch, {} too curved, {} too steep; f32 twins checked at {} points, {} too ill-conditioned for f32",
        all.passed,
        all.failed,
        all.skipped,
        start.elapsed(),
        all.points,
        all.rejected[0],
        all.rejected[1],
        all.rejected[2],
        all.rejected[3],
        all.single[0],
        all.single[1],
    );
    assert!(
        all.failed == 0,
        "{} of {} random programs failed (report in {}):\n{}",
        all.failed,
        ids.len(),
        failures.display(),
        all.report
    );
    // Nearly every program must have found a usable point, or the check proves little.
    assert!(
        all.skipped * 10 <= ids.len().max(10),
        "{} of {} programs found no usable point",
        all.skipped,
        ids.len()
    );
}

// ------------------------------------------------------------------------------------------
// Macro bugs the random programs found, minimized: regression tests once fixed. Each builds
// its program in a crate of its own (a bug may fail to compile, or compute a wrong value). A
// bug not fixed yet is `#[ignore]`d and the generator avoids its construct meanwhile, under a
// TODO naming the test; run those with `cargo test --test random_programs -- --ignored`.

/// Builds `source` (with `main`) in its own crate and runs it: the compiler's errors, or the
/// program's failure.
fn build_and_run(name: &str, source: &str, main: &str) -> Result<(), String> {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("random_programs");
    let dir = root.join("regressions").join(name);
    let src = dir.join("src");
    std::fs::create_dir_all(&src).expect("create the crate directory");
    write_if_changed(
        &src.join("main.rs"),
        &format!(
            "#![allow(warnings)]\nuse micrograd_runtime::prelude::*;\n\n{source}\nfn main() {{\n{main}\n}}\n"
        ),
    );
    let runtime = Runtime::find();
    let bin = format!("regression_{name}");
    if let Some(mut rustc) = runtime.compile(&dir, &bin) {
        let out = rustc.output().expect("run rustc");
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).to_string());
        }
        runtime.stamp(&dir, &bin);
    }
    let out = Command::new(dir.join(&bin))
        .output()
        .expect("run the regression");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).to_string())
    }
}

fn assert_ok(name: &str, source: &str, main: &str) {
    if let Err(errors) = build_and_run(name, source, main) {
        panic!("{name}:\n{source}\n{errors}");
    }
}

/// Regression (found by this suite): values computed from literals alone, such as
/// `(1.0_f64 + 0.5).sqrt()`, keep their `f64` type in `f_grad`.
#[test]
fn literal_only_values_keep_their_type() {
    let source = r#"
#[differentiable]
fn suffixed(a: f64) -> f64 {
    a * (1.0_f64 + 0.5).sqrt()
}

#[differentiable]
fn path_call(a: f64) -> f64 {
    a * f64::recip(1.0 + 0.5)
}

#[differentiable]
fn annotated(a: f64) -> f64 {
    let c: f64 = 1.0 - 0.5;
    a * c.sqrt()
}

#[differentiable]
fn inferred(a: f64) -> f64 {
    let mut s = 0.0;
    s = s + 1.0;
    a * f64::tanh(s)
}
"#;
    let main = "assert_eq!(suffixed_grad(2.0).1, 1.5_f64.sqrt());
        assert_eq!(path_call_grad(2.0).1, 1.5_f64.recip());
        assert_eq!(annotated_grad(2.0).1, 0.5_f64.sqrt());
        assert_eq!(inferred_grad(2.0).1, 1.0_f64.tanh());";
    assert_ok("literal_type", source, main);
}

/// Regression (found by this suite): a block statement ending in an `if` yields nothing.
#[test]
fn block_statement_ending_in_if() {
    let source = r#"
#[differentiable]
fn f(a: f64) -> f64 {
    let mut y = a;
    {
        if a > 0.0 {
            y = y * 2.0;
        }
    }
    y
}
"#;
    assert_ok(
        "block_ending_in_if",
        source,
        "assert_eq!(f_grad(1.0), (2.0, 2.0));",
    );
}

/// Regression (found by this suite): an assignment in the right operand of `||` happens only
/// when the left one fails, so the variable is joined after it like after an `if` (it named a
/// version out of its scope: "cannot find value `x_1`"); an array declared and written there
/// is mutable (it "is not declared as mutable").
#[test]
fn short_circuit_right_operand_assigns() {
    let source = r#"
#[differentiable(graph)]
fn f(a: f64) -> f64 {
    let mut x = a;
    if a > 1.5 || a > { x *= a; 0.0 } {
        x = x + 1.0;
    }
    x
}

#[differentiable]
fn g(a: f64, k: usize) -> f64 {
    let mut x = a;
    if x > 0.5 || { let mut h = [0.0; 2]; h[0] = a; h[k % 2] * a } > 0.2 {
        x = x * 2.0;
    }
    x
}
"#;
    // f(1.0): 1.0 > 1.5 is false, so x = 1.0 * 1.0, then 1.0 > 0.0: x = x + 1.0 = 2.0.
    let main = "assert_eq!(f_grad(1.0), (2.0, 2.0));
        assert_eq!(g_grad(1.0, 0), (2.0, 2.0));
        assert!(!f_graph(1.0).to_dot().is_empty());";
    assert_ok("short_circuit_assignment", source, main);
}

/// A compound assignment reads its target before its value runs: Rust evaluates the value of
/// `x /= { x += 1.0; x * 2.0 }` first (x = 3, then 3 / 6 = 0.5); `f_grad` divides the old `x`
/// (2 / 6), so its value is not `f`'s.
#[test]
fn compound_assignment_reads_after_its_value() {
    let source = r#"
#[differentiable]
fn g(a: f64) -> f64 {
    let mut x = a;
    x /= { x += 1.0; x * 2.0 };
    x
}
"#;
    let main = "assert_eq!(g(2.0), 0.5);
        assert_eq!(g_grad(2.0).0, g(2.0), \"f_grad's value is not f's\");
        assert_eq!(g_grad(2.0).1, 0.0);";
    assert_ok("compound_assignment", source, main);
}

/// Regression (found by this suite): an array declared in a branch and read after it is
/// exported from the branch; the other branch yields an array of zeros, not `0.0` (the
/// branches of `f_grad` returned tuples of different types: "expected `(f64, bool, bool,
/// bool, {float}, ..)`, found `(f64, bool, bool, bool, [f64; 5], ..)`").
#[test]
fn array_in_returning_branch() {
    let source = r#"
#[differentiable]
fn f(a: f64) -> f64 {
    let k: usize = 0;
    if a > 7.0 {
    } else {
        let mut h = [0.0; 5];
        if a < { let x = a.powf(h[1]); x } {
        } else if a < 3.0 {
            return if a < 0.1 {
                h[0] /= a;
                h[k]
            } else {
                a
            };
        }
    }
    a
}

#[differentiable]
fn g(a0: f64, flag1: bool, w2: &[f64], a3: f64) -> f64 {
    if (((w2[((w2.len() + 3) % w2.len())])) <= 0.25) {
    } else if (true && (a3 > a0)) {
        if flag1 {
        } else {
            return a0;
        }
    } else {
    }
    let mut h39 = [1.5; 3];
    let mut c0 = a3;
    if (h39[(h39.len() % h39.len())] != a0) {
    } else if (a0 > 0.1) {
        c0 /= ((a0 - ((w2[((h39.len() * 1) % w2.len())] - a0) + ({
            2.0
        } + std::f64::consts::PI))) + 1.5);
    }
    c0
}
"#;
    let main = "assert_eq!(f_grad(2.0), (2.0, 1.0));
        assert_eq!(g_grad(2.0, true, &[0.0], &mut [0.0], 1.0).0, g(2.0, true, &[0.0], 1.0));";
    assert_ok("array_in_returning_branch", source, main);
}

/// Regression (found by this suite): the branches of an `if` with an early `return` never
/// meet again, so an integer declared before may be reassigned after it (this was rejected:
/// "`k` is an integer or boolean declared outside this `if` or `for`").
#[test]
fn integer_reassigned_after_return() {
    let source = r#"
#[differentiable]
fn f(a: f64) -> f64 {
    let mut k: usize = 1;
    if a > 0.0 {
        return a;
    }
    k = k + 1;
    a * (k as f64)
}
"#;
    assert_ok(
        "integer_after_return",
        source,
        "assert_eq!(f_grad(-1.0), (-2.0, 2.0));",
    );
}

/// Regression (found by this suite): a loop to the length of an array declared in a branch
/// (the array leaves the branch for the reversed loop; the branches of `f_grad` disagreed in
/// type: "expected `(f64, [f64; 5])`, found `(f64, {float})`").
#[test]
fn loop_over_array_declared_in_branch() {
    let source = r#"
#[differentiable]
fn f(a: f64) -> f64 {
    let mut x = a;
    if a > 5.0 {
        let h = [1.0; 5];
        for _ in 0..h.len() {
            x = a;
        }
    }
    x
}
"#;
    assert_ok(
        "array_in_branch_loop",
        source,
        "assert_eq!(f_grad(1.0), (1.0, 1.0));",
    );
}

/// Regression (found by this suite): a local array passed to a call inside a loop, declared in
/// a branch or followed by another array, is accepted: nothing changes it after the call (it
/// was rejected: "this array changes after it is passed to a `#[differentiable]` function").
#[test]
fn array_passed_in_loop() {
    let source = r#"
#[differentiable]
fn g(w: &[f64]) -> f64 {
    w[0] * w[1]
}

#[differentiable]
fn in_branch(a: f64) -> f64 {
    let mut s = a;
    for _ in 0..2 {
        if a > 0.0 {
        } else {
            let h = [1.0; 2];
            s = s * g(&h);
        }
    }
    s
}

#[differentiable]
fn then_another(a: f64) -> f64 {
    let mut s = a;
    for _ in 0..2 {
        let h = [1.0; 2];
        s = s * g(&h);
        let h2 = [0.0; 2];
    }
    s
}
"#;
    let main = "assert_eq!(in_branch_grad(-1.0), (-1.0, 1.0));
        assert_eq!(then_another_grad(3.0), (3.0, 1.0));";
    assert_ok("array_passed_in_loop", source, main);
}

/// Regression (found by this suite): an array changed in a branch that returns, and passed to
/// a call after the `if`, is accepted: the change and the call are on different paths (it
/// was rejected: "this array changes after it is passed").
#[test]
fn array_passed_after_return() {
    let source = r#"
#[differentiable]
fn g(w: &[f64]) -> f64 {
    w[0] * w[1]
}

#[differentiable]
fn f(a: f64) -> f64 {
    let mut h = [0.0; 2];
    if a > 0.25 {
    } else {
        h[0] = a;
        return a;
    }
    g(&h) * a
}
"#;
    assert_ok(
        "array_passed_after_return",
        source,
        "assert_eq!(f_grad(1.0), (0.0, 0.0));",
    );
}

/// Regression (found by this suite): a boolean argument with `||` whose right operand
/// computes on a variable of an `if` branch is evaluated once, and the pullback gets its
/// value (it re-evaluated the condition, naming that variable out of its scope: "cannot find
/// value `x1`").
#[test]
fn short_circuit_argument_in_branch() {
    let source = r#"
#[differentiable]
fn g(flag: bool, a: f64) -> f64 {
    if flag { a } else { 2.0 * a }
}

#[differentiable]
fn f(a: f64, b: f64) -> f64 {
    let y = if a < 1.5 {
        let x1 = a + 1.0;
        g(b < a || x1.hypot(a) < a, a)
    } else {
        a
    };
    y * a
}
"#;
    // f(1.0, 2.0): 2 < 1 is false, hypot(2, 1) < 1 is false: y = 2a, f = 2a^2.
    assert_ok(
        "short_circuit_argument",
        source,
        "assert_eq!(f_grad(1.0, 2.0), (2.0, 4.0, 0.0));",
    );
}
