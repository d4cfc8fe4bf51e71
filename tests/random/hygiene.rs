//! Hygiene: a quarter of the programs print their variables under the names the macro itself
//! generates (`d_x`, `t0`, `seed`, `tape`, `i`, `value`, `inputs`, a callee's `f0_pullback`,
//! versions `x_1`, ...) or as raw identifiers (`r#in`, `r#type`), so that a generated name
//! capturing a user's, or the other way round, shows up as a wrong gradient or a failed build.
//!
//! The renaming is a table ([`Program::names`]) that every printer applies: the program itself
//! is unchanged, and drawn from its own stream of random numbers, so the other programs of a
//! seed stay what they were.

use super::*;
use std::collections::BTreeSet;

/// Names the generated code binds or calls, whatever the user's names.
const GENERATED: [&str; 24] = [
    "t0",
    "t1",
    "t2",
    "c0",
    "c1",
    "seed",
    "tape",
    "branches",
    "graph",
    "i",
    "value",
    "inputs",
    "node",
    "partial",
    "constant0",
    "shadow0",
    "partial0",
    "aliased0",
    "aliased1",
    "d_seed",
    "d_t0",
    "d_i",
    "graph_node",
    "tape_1",
];

/// Keywords as raw identifiers (never `r#self`, `r#crate`, ...: Rust refuses those).
const RAW: [&str; 14] = [
    "r#in", "r#type", "r#loop", "r#match", "r#fn", "r#as", "r#ref", "r#move", "r#dyn", "r#box",
    "r#try", "r#gen", "r#yield", "r#struct",
];

/// Renames some variables of `p` (all in a quarter of the programs) to tricky names.
pub fn rename(p: &mut Program, seed: u64) {
    let mut rng = Rng::new(mix(seed ^ 0x4859_4749_454E_4521));
    if !rng.chance(0.25) {
        return;
    }
    let used = names(p);
    let functions: BTreeSet<String> = p
        .funcs
        .iter()
        .flat_map(|f| {
            [
                f.name.clone(),
                format!("{}_t", f.name),
                format!("{}_v", f.name),
            ]
        })
        .collect();
    let mut pool: BTreeSet<String> = GENERATED
        .iter()
        .chain(&RAW)
        .map(|s| s.to_string())
        .collect();
    for name in &used {
        pool.extend(["d_", "d_d_"].map(|prefix| format!("{prefix}{name}")));
        pool.extend(["_1", "_2", "_node", "_tape"].map(|suffix| format!("{name}{suffix}")));
    }
    for f in &p.funcs {
        pool.extend(["_pullback", "_graph", "_grad"].map(|suffix| format!("{}{suffix}", f.name)));
    }
    // A new name is never one that stays, nor a function's.
    pool.retain(|name| !used.contains(name) && !functions.contains(name));
    for name in &used {
        if pool.is_empty() || !rng.chance(0.6) {
            continue;
        }
        let choices: Vec<String> = pool.iter().cloned().collect();
        let new = rng.pick(&choices);
        pool.remove(&new);
        p.names.insert(name.clone(), new);
    }
}

/// Every variable name of `p`, as generated: what a printing of it asks [`Printer::name`].
fn names(p: &Program) -> BTreeSet<String> {
    let mut printer = Printer::new(p, Mode::Plain);
    for f in &p.funcs {
        printer.func(f);
    }
    printer.seen.take()
}
