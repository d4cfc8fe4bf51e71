//! The checker's side of arrays lent to calls (tests/random/lend.rs): what source.rs writes
//! for an entry that takes `&mut [f64]`.

use super::*;

/// The checker's `jv` and `hv` of an entry without `hvp`, never called (`Prog::second`).
pub fn no_second_order() -> String {
    let never = "unreachable!(\"no hvp: tests/random/lend.rs\")";
    format!(
        "pub fn jv(a: &Args, dir: usize) -> (f64, f64) {{\n    {never}\n}}\n\
         pub fn hv(a: &Args, dir: usize) -> (f64, Vec<Option<f64>>) {{\n    {never}\n}}\n"
    )
}

/// Statements of the checker's `f_grad` adapter after its call: `callee` (`f`) at the same
/// point (read again with `point` and `unpack`, into `q0`, `q1`, ..) must leave in each
/// `&mut [f64]` parameter the values `f_grad` left in it (in `p0`, `p1`, .., bit for bit).
pub fn writes_as_f(
    entry: &Func,
    point: &str,
    unpack: &str,
    names: &[String],
    callee: &str,
) -> String {
    let written: Vec<usize> = (0..entry.params.len())
        .filter(|&k| matches!(entry.params[k].kind, PKind::MutSlice(_)))
        .collect();
    if written.is_empty() {
        return String::new();
    }
    let again = unpack.replace("    let p", "    let q");
    let args: Vec<String> = names.iter().map(|n| n.replacen('p', "q", 1)).collect();
    let mut out = format!("{point}{again}    {callee}({});\n", args.join(", "));
    for k in written {
        out.push_str(&format!(
            "    assert!(p{k}.iter().map(|v| v.to_bits()).eq(q{k}.iter().map(|v| v.to_bits())), \"f_grad leaves {{:?}} in parameter {k}, f {{:?}}\", p{k}, q{k});\n"
        ));
    }
    out
}
