//! The f32 twin of a program (checked by tests/random/single_check.rs): the same functions
//! with every `f64` written `f32` (types, `f64::` paths, `std::f64::consts`, `_f64` suffixes,
//! `as f64`), under `#[differentiable]` without `hvp` and `jacobian` (the twin checks the
//! gradient, or the seeded pullback of several values), in a
//! module `single` of the program's checker module, with the adapters `f32v` (`f`) and `g32`
//! (`f_grad`) that read the point rounded to `f32`; and its `T` version in `f32` (module
//! `trace32`, adapter `t32`), the reference of `g32`.

use super::*;

/// The program's functions in `f32`, as the macro sees them.
pub fn single_source(p: &Program) -> String {
    let source = functions(p, Mode::Plain)
        .replace("#[differentiable(hvp)]", "#[differentiable]")
        .replace("#[differentiable(hvp, ", "#[differentiable(")
        .replace("#[differentiable(jacobian)]", "#[differentiable]")
        .replace("#[differentiable(jacobian, ", "#[differentiable(");
    to_f32(&source)
}

/// `source` with every `f64` token (a type, a path segment, a literal's `_f64` suffix) written
/// `f32`; identifiers that merely contain `f64` (`xf64`, `f64_x`) stay.
pub fn to_f32(source: &str) -> String {
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut k = 0;
    while k < chars.len() {
        let token = chars[k..].starts_with(&['f', '6', '4']);
        let before = k.checked_sub(1).map(|j| chars[j]);
        // A suffix `1.5_f64` follows `_` after a digit; an identifier `x_f64` a letter.
        let suffix =
            before == Some('_') && k.checked_sub(2).is_some_and(|j| chars[j].is_ascii_digit());
        if token && (!ident(before) || suffix) && !ident(chars.get(k + 3).copied()) {
            out.push_str("f32");
            k += 3;
        } else {
            out.push(chars[k]);
            k += 1;
        }
    }
    out
}

/// The twin's module and adapters, appended to the checker module `pN.rs` of a program whose
/// `single` is set: `f32v(a)` is `f` and `g32(a, fill)` is `f_grad` (in the layout of `g`) at
/// the point `a` rounded to `f32`.
pub fn single_module(p: &Program) -> String {
    let entry = p.entry();
    let point = "    let xs: Vec<f32> = a.x.iter().map(|&x| x as f32).collect();\n    let mut c = Cur::new(&xs, a);\n";
    let (unpack, names) = unpack(entry, "f64");
    let name = entry_path(p, "single::");
    let call = weighed(p, &format!("{name}({})", names.join(", ")), Mode::Plain);
    format!(
        "pub mod single {{\n    use micrograd_runtime::prelude::*;\n\n{}}}\n\
         pub fn f32v(a: &Args) -> f32 {{\n{point}{unpack}    {call}\n}}\n{}{}",
        single_source(p),
        grad_adapter(p, "g32", "f32", point, &name),
        dual_twin(p),
    )
}

/// The program's `T` version in `f32` (`T` of `src/dual32.rs`), the module `trace32`, and the
/// adapter `t32(a, dir)`: the twin's value and its derivative along coordinate `dir`, computed
/// forward in `f32` arithmetic at the point rounded to `f32`. Its values are the twin's `f`'s,
/// rounding for rounding, so it is the twin's `f_grad`'s reference on the same computation.
fn dual_twin(p: &Program) -> String {
    let entry = p.entry();
    let (unpack, names) = unpack(entry, "T");
    let name = format!("trace32::{}_t", entry.name);
    let call = weighed(p, &format!("{name}({})", names.join(", ")), Mode::Trace);
    let point = "    let xs32: Vec<f32> = a.x.iter().map(|&x| x as f32).collect();\n    \
                 let xs = duals(&xs32, dir);\n    let mut c = Cur::new(&xs, a);\n";
    format!(
        "pub mod trace32 {{\n    use crate::dual32::*;\n\n{}}}\n\
         pub fn t32(a: &Args, dir: usize) -> (f32, f32) {{\n    use crate::dual32::{{T, duals}};\n\
         {point}{unpack}    let r: T = {call};\n    (r.v, r.d)\n}}\n",
        to_f32(&functions(p, Mode::Trace)),
    )
}

/// The `Prog` field naming the twin's adapters, or none.
pub fn single_entry(p: &Program) -> String {
    match p.single {
        true => format!(
            "Some(single::Single {{ f: p{0}::f32v, g: p{0}::g32, t: p{0}::t32 }})",
            p.id
        ),
        false => "None".to_string(),
    }
}

#[test]
fn only_f64_tokens_change() {
    assert_eq!(
        to_f32("let x: f64 = 1.5_f64 + (2 as f64) + f64::max(a, std::f64::consts::PI);"),
        "let x: f32 = 1.5_f32 + (2 as f32) + f32::max(a, std::f32::consts::PI);"
    );
    assert_eq!(
        to_f32("xf64 + x_f64 + f64x + f64_y"),
        "xf64 + x_f64 + f64x + f64_y"
    );
    assert_eq!(
        to_f32("&[f64; 3], &Vec<f64>, sum::<f64>()"),
        "&[f32; 3], &Vec<f32>, sum::<f32>()"
    );
}
