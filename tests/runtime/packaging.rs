//! What the three published crates must carry: exact requirements between them, and the
//! license texts their `license` field names.

#![allow(missing_docs)]

use std::path::Path;

const PUBLISHED: [&str; 3] = ["micrograd-codegen", "micrograd-macros", "micrograd-runtime"];

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_published_crates_require_each_other_exactly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = read(&root.join("Cargo.toml"));
    for name in PUBLISHED {
        let line = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{name} = ")))
            .unwrap_or_else(|| panic!("{name} is not in [workspace.dependencies]"));
        assert!(
            line.contains(r#"version = "=0.1.0""#) && line.contains(&format!(r#"path = "{name}""#)),
            "{name} must be required at exactly its version: {line}"
        );
    }
    assert!(manifest.contains(r#"license = "MIT OR Apache-2.0""#));
}

#[test]
fn each_published_crate_carries_both_license_texts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mit = read(&root.join("LICENSE-MIT"));
    let apache = read(&root.join("LICENSE-APACHE"));
    assert!(mit.contains("Permission is hereby granted, free of charge"));
    assert!(apache.contains("Apache License") && apache.contains("Version 2.0, January 2004"));
    for name in PUBLISHED {
        let dir = root.join(name);
        assert_eq!(read(&dir.join("LICENSE-MIT")), mit, "{name}");
        assert_eq!(read(&dir.join("LICENSE-APACHE")), apache, "{name}");
        let manifest = read(&dir.join("Cargo.toml"));
        assert!(manifest.contains("license.workspace = true"), "{name}");
        assert!(
            !manifest.contains("include ="),
            "{name}: an include list would drop the licenses"
        );
    }
}

/// The oldest Rust the published crates' own code needs, from the language and std features
/// they use (each found by grep, or by clippy's `incompatible_msrv`, which CI runs with
/// warnings denied and which flags any std item stabilized after the declared `rust-version`):
/// - edition 2024 (every crate): 1.85;
/// - `let` chains (`if let Some(x) = a && let Some(y) = b`, edition 2024; micrograd-codegen's
///   lowering and folding, e.g. `lower/expr.rs`, `diff/linear.rs`): 1.88;
/// - let-else (1.65), `is_multiple_of` of unsigned integers (1.87) and the rest are older;
/// - not used: a `let` in a `match` arm's guard (1.95), which the test below refuses.
const LANGUAGE_FLOOR: (u32, u32) = (1, 88);

fn version(text: &str) -> (u32, u32) {
    let mut parts = text.split('.').map(|p| p.parse::<u32>().expect(text));
    (parts.next().expect(text), parts.next().unwrap_or(0))
}

/// Each workspace crate declares a `rust-version` at least that of everything it builds with
/// (its dependencies, theirs, and its own dev-dependencies, as resolved in Cargo.lock with every
/// feature) and at least the language floor above; and the published crates declare exactly
/// the oldest such version, so the floor users see is the real one. No other toolchain can be
/// installed here, so this checks declarations, not a build with that toolchain.
#[test]
fn each_crate_declares_the_oldest_rust_version_that_its_dependencies_allow() {
    let output = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--all-features",
            "--locked",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let packages: std::collections::HashMap<&str, &serde_json::Value> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| (p["id"].as_str().expect("id"), p))
        .collect();
    let nodes: std::collections::HashMap<&str, &serde_json::Value> = metadata["resolve"]["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| (n["id"].as_str().expect("id"), n))
        .collect();
    let declared = |id: &str| packages[id]["rust_version"].as_str().map(version);
    for member in metadata["workspace_members"].as_array().expect("members") {
        let member = member.as_str().expect("id");
        let name = packages[member]["name"].as_str().expect("name");
        let own = declared(member).unwrap_or_else(|| panic!("{name} declares no rust-version"));
        // What building and testing `member` compiles: its dependencies of every kind, and
        // their normal and build dependencies, transitively.
        let (mut seen, mut stack) = (std::collections::HashSet::new(), vec![member]);
        while let Some(id) = stack.pop() {
            for dep in nodes[id]["deps"].as_array().expect("deps") {
                let kinds = dep["dep_kinds"].as_array().expect("dep_kinds");
                let builds = kinds.iter().any(|k| k["kind"].as_str() != Some("dev"));
                let pkg = dep["pkg"].as_str().expect("pkg");
                if (builds || id == member) && seen.insert(pkg) {
                    stack.push(pkg);
                }
            }
        }
        let mut floor = (LANGUAGE_FLOOR, "the language features it uses".to_string());
        for id in seen {
            if let Some(needed) = declared(id)
                && needed > floor.0
            {
                let dep = &packages[id];
                let (name, version) = (dep["name"].as_str(), dep["version"].as_str());
                floor = (
                    needed,
                    format!("{} {}", name.expect("name"), version.expect("version")),
                );
            }
        }
        assert!(
            own >= floor.0,
            "{name} declares rust-version {own:?}, but {} needs {:?}",
            floor.1,
            floor.0
        );
        if PUBLISHED.contains(&name) {
            assert_eq!(
                own, floor.0,
                "{name}: the oldest rust-version that builds it is {:?} ({}), not {own:?}",
                floor.0, floor.1
            );
        }
    }
}

/// Whether a `match` arm's guard holds a `let` (`Some(x) if let Ok(y) = f(x) => ..`, or a
/// chain `.. if a && let ..`), stable only since Rust 1.95, later than the `rust-version` the
/// published crates declare (LANGUAGE_FLOOR). Only this post-1.88 feature is checked, the one
/// the code base reached for (no older toolchain can be installed here to build with), and
/// only outside macro calls, whose tokens syn does not parse.
fn guard_has_let(guard: &syn::Expr) -> bool {
    match guard {
        syn::Expr::Let(_) => true,
        syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
            guard_has_let(&b.left) || guard_has_let(&b.right)
        }
        syn::Expr::Paren(p) => guard_has_let(&p.expr),
        _ => false,
    }
}

/// The guards of `match` arms that hold a `let`, in source order, each as its arm's pattern and
/// guard printed.
#[derive(Default)]
struct LetGuards(Vec<String>);

impl<'ast> syn::visit::Visit<'ast> for LetGuards {
    // syn 3 holds an arm's guard in its pattern (`Pat::Guard`), the only place one parses.
    fn visit_pat_guard(&mut self, guarded: &'ast syn::PatGuard) {
        if guard_has_let(&guarded.guard) {
            let (pat, guard) = (&guarded.pat, &guarded.guard);
            self.0.push(quote::quote!(#pat if #guard).to_string());
        }
        syn::visit::visit_pat_guard(self, guarded);
    }
}

fn rust_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() && !path.ends_with("target") {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The line of `text` at which `needle` starts, both compared without whitespace (the printed
/// tokens are spaced differently from the source; without proc-macro2's `span-locations`,
/// which would build syn twice, a parsed span has no line), searching from `from` (a position
/// in `text` without whitespace) so that equal arms get their own lines.
fn line_of(text: &str, needle: &str, from: &mut usize) -> Option<usize> {
    let (mut dense, mut lines) = (String::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        for c in line.chars().filter(|c| !c.is_whitespace()) {
            dense.push(c);
            lines.push(n + 1);
        }
    }
    let needle: String = needle.chars().filter(|c| !c.is_whitespace()).collect();
    let at = *from + dense.get(*from..)?.find(&needle)?;
    *from = at + needle.len();
    Some(lines[dense[..at].chars().count()])
}

#[test]
fn the_published_crates_use_no_let_in_a_match_guard() {
    // syn's parser recurses deeper on the larger files than a test thread's 2 MiB allow in a
    // debug build.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(no_let_in_a_match_guard)
        .expect("thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

fn no_let_in_a_match_guard() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (mut found, mut parsed) = (Vec::new(), 0);
    for name in PUBLISHED {
        let mut files = Vec::new();
        rust_files(&root.join(name), &mut files);
        for path in files {
            let text = read(&path);
            let file = syn::parse_file(&text)
                .unwrap_or_else(|e| panic!("{}: does not parse: {e}", path.display()));
            parsed += 1;
            let mut guards = LetGuards::default();
            syn::visit::Visit::visit_file(&mut guards, &file);
            let mut from = 0;
            for arm in guards.0 {
                let shown = path.strip_prefix(root).unwrap_or(&path).display();
                match line_of(&text, &arm, &mut from) {
                    Some(line) => found.push(format!("{shown}:{line}: {arm}")),
                    None => found.push(format!("{shown}: {arm}")),
                }
            }
        }
    }
    assert!(
        parsed > 100,
        "only {parsed} files of the published crates parsed"
    );
    assert!(
        found.is_empty(),
        "a `let` in a match arm's guard needs Rust 1.95, newer than the declared rust-version \
         {LANGUAGE_FLOOR:?}: compute the value before the match, or move the `let` into the \
         arm's body\n{}",
        found.join("\n")
    );
}
