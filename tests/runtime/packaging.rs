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
