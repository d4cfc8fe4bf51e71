//! The adapters of an entry returning several values (tests/random/vec_calls.rs), in the
//! checker module `pN.rs`. The checker's scalar is `seed · f` with the program's seed
//! ([`Program::seed`]): `f`, `t` and `v` weigh the outputs, `g` is `f_pullback` with the seed
//! (differentiating every `f64` and slice, `wrt(..)` or not; the others' partials are `None`),
//! `hv` the seeded `f_hvp`, `jv` weighs `f_jvp`'s tangent, so every scalar check applies to the
//! weighted sum. tests/random/vector_check.rs checks each output on its own through `fv`, `tv`
//! (the outputs and their dual numbers), `jvv` (`f_jvp`) and `jac` (`f_jacobian`).

use super::*;
use std::fmt::Write;

/// The outputs of `r`, a value shaped like `out`: `r[k]` or `r.k`.
pub fn parts(out: &Out, r: &str) -> Vec<String> {
    (0..out.m)
        .map(|k| match out.tuple {
            true => format!("{r}.{k}"),
            false => format!("{r}[{k}]"),
        })
        .collect()
}

/// `seed · r` in `mode` (`Plain` serves `f32` too: the weights are unsuffixed), summed left to
/// right as every adapter does, so that equal outputs give equal sums bit for bit.
pub fn seeded(p: &Program, r: &str, mode: Mode) -> String {
    let out = p.entry().out.as_ref().expect("several values");
    let terms: Vec<String> = parts(out, r)
        .into_iter()
        .zip(&p.seed)
        .map(|(part, w)| match mode {
            Mode::Plain => format!("{w:?} * {part}"),
            Mode::Trace => format!("T::c({w:?}) * {part}"),
            Mode::Value => format!("Value::new({w:?}) * {part}.clone()"),
        })
        .collect();
    terms.join(" + ")
}

/// The value the checker's scalar adapters take from `call`, which returns `f`'s value:
/// `call` itself for one output, else `seed · call`.
pub fn weighed(p: &Program, call: &str, mode: Mode) -> String {
    match p.entry().out {
        None => call.to_string(),
        Some(_) => format!("{{ let r = {call}; {} }}", seeded(p, "r", mode)),
    }
}

/// The seed as `f_pullback` and `f_hvp` take it: `[w0, w1]` or `(w0, w1)`.
pub fn seed_literal(p: &Program) -> String {
    let weights: Vec<String> = p.seed.iter().map(|w| format!("{w:?}")).collect();
    match p.entry().out.as_ref().is_some_and(|o| o.tuple) {
        true => format!("({},)", weights.join(", ")),
        false => format!("[{}]", weights.join(", ")),
    }
}

/// `fv` (the outputs), `tv` (their dual numbers along coordinate `dir`) and, with `jacobian`,
/// `jac` (`f_jacobian`'s value and rows, each row in the layout of `Prog::g`).
pub fn vector_adapters(p: &Program) -> String {
    let entry = p.entry();
    let out = entry.out.as_ref().expect("several values");
    let name = &entry.name;
    let path = entry_path(p, "");
    let list = |r: &str| format!("vec![{}]", parts(out, r).join(", "));
    let (s, names) = unpack(entry, "f64");
    let (st, _) = unpack(entry, "T");
    let args = names.join(", ");
    let mut text = format!(
        "pub fn fv(a: &Args) -> Vec<f64> {{\n    let mut c = Cur::new(&a.x, a);\n{s}    let r = {path}({args});\n    {}\n}}\n\
         pub fn tv(a: &Args, dir: usize) -> Vec<T> {{\n    let xs = duals(&a.x, dir);\n    let mut c = Cur::new(&xs, a);\n{st}    let r = {name}_t({args});\n    {}\n}}\n",
        list("r"),
        list("r"),
    );
    if !entry.jacobian {
        return text;
    }
    let (mut call, mut blocks, mut rows) = (Vec::new(), String::new(), String::new());
    let mut column = 0;
    for (k, q) in entry.params.iter().enumerate() {
        call.push(format!("p{k}"));
        match (&q.kind, entry.is_wrt(q)) {
            (PKind::Scalar, true) => {
                let _ = writeln!(rows, "        row.push(Some(j[k][{column}]));");
                column += 1;
            }
            (PKind::Scalar, false) => rows.push_str("        row.push(None);\n"),
            (PKind::Slice(_) | PKind::Array(_) | PKind::Vec(_), true) => {
                let _ = writeln!(
                    blocks,
                    "    let mut j{k} = vec![0.0; {} * p{k}.len()];",
                    out.m
                );
                call.push(format!("&mut j{k}"));
                let _ = writeln!(
                    rows,
                    "        let n = p{k}.len();\n        row.extend(j{k}[k * n..(k + 1) * n].iter().map(|&v| Some(v)));"
                );
            }
            (PKind::Slice(_) | PKind::Array(_) | PKind::Vec(_) | PKind::ArrayByValue(_), _) => {
                let _ = writeln!(rows, "        row.extend(p{k}.iter().map(|_| None));");
            }
            _ => {}
        }
    }
    let _ = write!(
        text,
        "pub fn jac(a: &Args) -> (Vec<f64>, Vec<Vec<Option<f64>>>) {{\n    let mut c = Cur::new(&a.x, a);\n{s}{blocks}    let (r, j) = {path}_jacobian({});\n    let mut rows = Vec::new();\n    for k in 0..{} {{\n        let mut row: Vec<Option<f64>> = Vec::new();\n{rows}        rows.push(row);\n    }}\n    ({}, rows)\n}}\n",
        call.join(", "),
        out.m,
        list("r"),
    );
    text
}

/// The `Prog` field naming the adapters of an entry returning several values, or none.
pub fn vector_entry(p: &Program) -> String {
    let m = format!("p{}", p.id);
    match p.entry().out {
        None => "None".to_string(),
        // An entry without `hvp` has no `f_jvp` (lend.rs): its seeded checks of harness.rs apply.
        Some(_) if !p.entry().hvp => "None".to_string(),
        Some(_) => {
            let jac = match p.entry().jacobian {
                true => format!("Some({m}::jac)"),
                false => "None".to_string(),
            };
            format!("Some(vector::Vector {{ f: {m}::fv, t: {m}::tv, jv: {m}::jvv, jac: {jac} }})")
        }
    }
}
