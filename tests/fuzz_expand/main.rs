//! The macro never panics: `micrograd_codegen::expand` on mutated valid programs and on
//! arbitrary token trees, with and without attribute arguments, returns either code that
//! parses as a Rust file or code holding a `compile_error!`.
//!
//! - mutated programs: the functions of tests/expand/*.rs and of tests/random's generator, with
//!   token trees deleted, duplicated, swapped, replaced, the stream cut short, and every
//!   occurrence of one identifier renamed (to a keyword as a raw identifier, or to a name the
//!   macro generates: `d_x`, `t0`, `seed`, `f_pullback`, ...);
//! - arbitrary token trees: as a whole item, and as the body of a valid signature (which gets
//!   them past the signature checks, into the lowering).
//!
//! The default case count (a third of the full one, fresh inputs every run) keeps the run
//! short; `MICROGRAD_FUZZ_FULL=1` runs the full count (3,000, 2,000 and 3,000 cases),
//! `PROPTEST_CASES=100000` scales it, and `MICROGRAD_FUZZ_SECONDS=3600` keeps fuzzing for an
//! hour (split over the three tests).
//! Inputs that ever made `expand` panic are kept below as plain tests.

#[path = "../random/generator.rs"]
#[allow(dead_code)]
mod generator;

mod edits;

use edits::{Edit, Tt, apply, delimiter, palette, to_stream, to_tts};

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use proptest::prelude::*;
use proptest::test_runner::Config;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::str::FromStr;
use std::sync::OnceLock;

/// What `expand` did with one input.
#[derive(Debug, PartialEq)]
enum Verdict {
    /// Code that parses, with no error.
    Code,
    /// Code with `compile_error!`.
    Error,
}

/// Runs `expand`; `Err` describes a panic, output that is neither code nor an error, or code
/// without an error that hands the function's work to the `unreachable!()` stubs (the error
/// fallback must never be silent).
fn check(attr: &TokenStream, item: &TokenStream) -> Result<Verdict, String> {
    let output = catch_unwind(AssertUnwindSafe(|| {
        micrograd_codegen::expand(attr.clone(), item.clone())
    }))
    .map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("expand panicked: {message}\nattr: {attr}\nitem: {item}")
    })?;
    let text = output.to_string();
    if text.contains("compile_error") {
        return Ok(Verdict::Error);
    }
    match syn::parse2::<syn::File>(output) {
        _ if offers_what_it_rejects(&text) => Err(format!(
            "an error offers the method it rejects as a supported one\nattr: {attr}\nitem: {item}\noutput: {text}"
        )),
        Ok(_) if text.contains("unreachable") => Err(format!(
            "the output stubs the function with unreachable!() but holds no compile_error!\nattr: {attr}\nitem: {item}"
        )),
        Ok(_) => Ok(Verdict::Code),
        Err(e) => Err(format!(
            "the output neither parses ({e}) nor holds compile_error!\nattr: {attr}\nitem: {item}\noutput: {text}"
        )),
    }
}

/// Whether a message such as "`powi` is not supported ..; the supported methods are `.., powi, ..`"
/// names, as supported, the method it rejects (issue 15: the message must name the real problem).
fn offers_what_it_rejects(output: &str) -> bool {
    output.split("compile_error").any(|message| {
        let Some((_, list)) = message.split_once("the supported methods are `") else {
            return false;
        };
        let rejected = message.split('`').nth(1).unwrap_or_default();
        let list = list.split('`').next().unwrap_or_default();
        list.split(", ").any(|method| method == rejected)
    })
}

// ------------------------------------------------------------------------------- the inputs

/// A valid function and its attribute arguments, as text (token streams are not `Sync`).
struct Seed {
    attr: String,
    item: String,
}

/// The functions of tests/expand/*.rs (methods included) and forty generated programs.
fn seeds() -> &'static [Seed] {
    static SEEDS: OnceLock<Vec<Seed>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut files: Vec<String> = vec![
            include_str!("../expand/loops.rs").to_string(),
            include_str!("../expand/network.rs").to_string(),
            include_str!("../expand/readme.rs").to_string(),
            include_str!("../expand/method.rs").to_string(),
        ];
        files.extend((0..40).map(|id| generator::plain_source(&generator::program(11, id))));
        let mut seeds = Vec::new();
        for file in files {
            let file: syn::File = syn::parse_str(&file).expect("a seed parses");
            // The methods of an `impl` too, read as the functions they are written as.
            let functions = file.items.into_iter().flat_map(|item| match item {
                syn::Item::Fn(function) => vec![function],
                syn::Item::Impl(block) => block
                    .items
                    .into_iter()
                    .filter_map(|item| match item {
                        syn::ImplItem::Fn(f) => {
                            syn::parse2(quote::ToTokens::to_token_stream(&f)).ok()
                        }
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            });
            for mut function in functions {
                let Some(position) = function
                    .attrs
                    .iter()
                    .position(|a| a.path().is_ident("differentiable"))
                else {
                    continue;
                };
                let attr = match function.attrs.remove(position).meta {
                    syn::Meta::List(list) => list.tokens.to_string(),
                    _ => String::new(),
                };
                let item = quote::ToTokens::to_token_stream(&function).to_string();
                seeds.push(Seed { attr, item });
            }
        }
        seeds
    })
}

fn parse(text: &str) -> TokenStream {
    TokenStream::from_str(text).expect("a seed is tokens")
}

fn edit() -> impl Strategy<Value = Edit> {
    let n = any::<usize>;
    prop_oneof![
        3 => (n(), n()).prop_map(|(s, i)| Edit::Delete(s, i)),
        2 => (n(), n()).prop_map(|(s, i)| Edit::Duplicate(s, i)),
        2 => (n(), n(), n()).prop_map(|(s, i, j)| Edit::Swap(s, i, j)),
        2 => (n(), n(), n()).prop_map(|(s, i, t)| Edit::Replace(s, i, t)),
        1 => (n(), n()).prop_map(|(s, i)| Edit::Truncate(s, i)),
        1 => (n(), n()).prop_map(|(s, i)| Edit::Unwrap(s, i)),
        2 => (n(), n()).prop_map(|(s, k)| Edit::Rename(s, k)),
    ]
}

fn arbitrary_tt() -> impl Strategy<Value = Tt> {
    let leaf = any::<usize>().prop_map(|k| Tt::Leaf(palette(k)));
    leaf.prop_recursive(5, 48, 8, |inner| {
        (any::<usize>(), prop::collection::vec(inner, 0..8))
            .prop_map(|(d, tts)| Tt::Group(delimiter(d), tts))
    })
}

fn arbitrary_tts(max: usize) -> impl Strategy<Value = Vec<Tt>> {
    prop::collection::vec(arbitrary_tt(), 0..max)
}

/// Attribute arguments: the seed's, none, a known odd one, or arbitrary tokens.
#[derive(Clone, Debug)]
enum Attr {
    Seed,
    Empty,
    Odd(usize),
    Arbitrary(Vec<Tt>),
}

const ODD_ATTRS: [&str; 12] = [
    "wrt(a)",
    "wrt()",
    "wrt(x, x)",
    "wrt(w, b)",
    "foo",
    "wrt(a) + 1",
    "wrt = x",
    "wrt(1.0)",
    "wrt(a, )",
    "(wrt)",
    "wrt(a)(b)",
    "wrt(self)",
];

fn attr() -> impl Strategy<Value = Attr> {
    prop_oneof![
        4 => Just(Attr::Seed),
        2 => Just(Attr::Empty),
        2 => any::<usize>().prop_map(Attr::Odd),
        1 => arbitrary_tts(6).prop_map(Attr::Arbitrary),
    ]
}

fn attr_tokens(attr: &Attr, seed: &Seed) -> TokenStream {
    match attr {
        Attr::Seed => parse(&seed.attr),
        Attr::Empty => TokenStream::new(),
        Attr::Odd(k) => parse(ODD_ATTRS[k % ODD_ATTRS.len()]),
        Attr::Arbitrary(tts) => to_stream(tts),
    }
}

// ------------------------------------------------------------------------------- the runs

thread_local! {
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Keeps the panics `check` catches off the output; every other panic prints as usual.
fn quiet_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                default(info);
            }
        }));
    });
}

fn checked(attr: &TokenStream, item: &TokenStream) -> Result<Verdict, String> {
    QUIET.with(|q| q.set(true));
    let verdict = check(attr, item);
    QUIET.with(|q| q.set(false));
    verdict
}

/// The cases of one fuzzing test: `PROPTEST_CASES` if set; else `full` under
/// `MICROGRAD_FUZZ_FULL=1`, and a third of it by default. Each run draws fresh inputs
/// (proptest seeds every run afresh), so CI covers the same ground over a few runs; a third
/// took the binary from 104 s to about 60 s of CPU here.
fn cases(full: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if std::env::var_os("MICROGRAD_FUZZ_FULL").is_some() {
            full
        } else {
            full / 3
        })
}

/// The time each fuzzing test keeps going for, from `MICROGRAD_FUZZ_SECONDS` (split over the
/// three tests); `None` runs one round of `cases`.
fn time_box() -> Option<std::time::Duration> {
    let seconds: f64 = std::env::var("MICROGRAD_FUZZ_SECONDS").ok()?.parse().ok()?;
    Some(std::time::Duration::from_secs_f64(seconds / 3.0))
}

/// Runs `cases` inputs of `strategy` through `expand` and prints what came out; under
/// `MICROGRAD_FUZZ_SECONDS`, runs rounds of `cases` with fresh random seeds until the time is up.
fn fuzz<S: Strategy>(
    name: &str,
    cases: u32,
    strategy: S,
    input: impl Fn(&S::Value) -> (TokenStream, TokenStream),
) {
    quiet_panics();
    let start = std::time::Instant::now();
    let counts = std::cell::RefCell::new([0usize; 2]);
    let mut rounds = 0;
    loop {
        let config = Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        };
        // `new` seeds each round's generator afresh; a failure prints its shrunk input.
        let mut runner = proptest::test_runner::TestRunner::new(config);
        let result = runner.run(&strategy, |value| {
            let (attr, item) = input(&value);
            match checked(&attr, &item) {
                Ok(verdict) => {
                    counts.borrow_mut()[verdict as usize] += 1;
                    Ok(())
                }
                Err(message) => Err(TestCaseError::fail(message)),
            }
        });
        rounds += 1;
        if let Err(failure) = result {
            panic!("{name}: {failure}");
        }
        if time_box().is_none_or(|limit| start.elapsed() >= limit) {
            break;
        }
    }
    let [code, errors] = *counts.borrow();
    println!(
        "{name}: {} cases in {rounds} round(s), {:.0} s: {code} expanded, {errors} compile errors",
        code + errors,
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn mutated_programs_never_panic() {
    let seeds = seeds();
    let strategy = (0..seeds.len(), prop::collection::vec(edit(), 1..6), attr());
    fuzz(
        "mutated programs",
        cases(3000),
        strategy,
        |(k, edits, attr)| {
            let seed = &seeds[*k];
            let mut tts = to_tts(parse(&seed.item));
            for edit in edits {
                apply(&mut tts, edit);
            }
            (attr_tokens(attr, seed), to_stream(&tts))
        },
    );
}

#[test]
fn arbitrary_items_never_panic() {
    let strategy = (arbitrary_tts(24), attr());
    let empty = Seed {
        attr: String::new(),
        item: String::new(),
    };
    fuzz("arbitrary items", cases(2000), strategy, |(tts, attr)| {
        (attr_tokens(attr, &empty), to_stream(tts))
    });
}

#[test]
fn arbitrary_bodies_never_panic() {
    // A valid signature: the body reaches the lowering.
    let strategy = (arbitrary_tts(24), attr());
    let seed = Seed {
        attr: "wrt(x, w)".into(),
        item: String::new(),
    };
    fuzz("arbitrary bodies", cases(3000), strategy, |(tts, attr)| {
        let body = TokenTree::Group(Group::new(Delimiter::Brace, to_stream(tts)));
        let mut item = parse("fn f(x: f64, w: &[f64], n: usize, flag: bool) -> f64");
        item.extend([body]);
        (attr_tokens(attr, &seed), item)
    });
}

/// The seeds themselves expand to code.
#[test]
fn seeds_expand() {
    for seed in seeds() {
        assert_eq!(
            checked(&parse(&seed.attr), &parse(&seed.item)),
            Ok(Verdict::Code),
            "{}",
            seed.item
        );
    }
}

// ------------------------------------------------------------------------------ regressions

/// A read at the literal index `u128::MAX` in a loop overflowed the bounds hint's `index + 1`
/// and the macro panicked (found by this fuzzer in a CI run); rustc reports the literal now.
#[test]
fn an_index_of_u128_max_does_not_panic() {
    let item = "fn dot(w: &[f64], x: &[f64]) -> f64 { let mut s = 0.0; for i in 0..w.len() { s += w[340282366920938463463374607431768211455] * x[i]; } s }";
    let result = check(&parse("graph"), &parse(item));
    assert!(result.is_ok(), "{result:?}");
}

/// A body without a final value once expanded to `unreachable!()` stubs with no error (found by
/// this fuzzer): the crate built and `f` panicked when called. It is a compile error now.
#[test]
fn a_body_without_a_value_is_an_error() {
    for item in [
        "fn f(a: f64) -> f64 {}",
        "fn f(a: f64) -> f64 { let x = a * 2.0; }",
        "fn f(a: f64) -> f64 { if a > 0.0 { return a; } }",
    ] {
        assert_eq!(
            checked(&TokenStream::new(), &parse(item)),
            Ok(Verdict::Error),
            "{item}"
        );
    }
}

/// Found by an hour of fuzzing: a program whose parameter list was cut away. A function without
/// parameters gave `f_pullback(, seed: f64)`; rustc now reports the undefined `a0` instead.
#[test]
fn truncated_parameters() {
    let item = "pub fn f0 () -> f64 { let mut h1 = [0.0_f64 ; 2] ; for i2 in 0 ..= 1 { let k3 : usize = i2 ; } let mut k4 : usize = h1 . len () ; h1 [(k4 % h1 . len ())] /= ((((h1 [(k4 % h1 . len ())]) . atan ()) . min ((((k4 % h1 . len ()) as f64) / ((h1 [((k4 + k4) % h1 . len ())]) . abs () + 0.25)))) . cosh () + 1.0) ; let mut h5 : [f64 ; 3] = [0.0 ; 3] ; h5 [(k4 % h5 . len ())] = { let mut h6 : [f64 ; 5] = [0.0 ; 5] ; h1 [0] -= ((h5 [(k4 % h5 . len ())] - h5 [(k4 % h5 . len ())]) . powi (2) + 0.5) . ln () ; (a0 * (a0 * h5 [(k4 % h5 . len ())])) } ; let x7 : f64 = (std :: f64 :: consts :: PI + 0.25) . recip () ; h1 [(h5 . len () % h1 . len ())] += (0.3 * h5 [1]) ; return (((k4 as f64) * a0) - x7) ; }";
    let verdict = checked(&TokenStream::new(), &parse(item));
    assert!(verdict.is_ok(), "{verdict:?}");
}

/// Raw identifiers as parameters, `wrt` entries, locals and loop indices once made the macro
/// panic (`"r#match"` is not a valid identifier); they expand to code now.
#[test]
fn raw_identifiers_expand() {
    let attr = parse("wrt(r#in, r#type)");
    let item = parse(
        "fn r#fn(r#in: f64, r#type: &[f64], r#loop: usize) -> f64 { let mut r#match = r#in; for r#for in 0..r#loop { r#match += r#type[r#for]; } r#match }",
    );
    assert_eq!(checked(&attr, &item), Ok(Verdict::Code));
}

/// The messages never offer the method they reject.
#[test]
fn messages_never_offer_what_they_reject() {
    for item in [
        "fn f(x: f64) -> f64 { x.powi() }",
        "fn f(x: f64, n: i32) -> f64 { n.powi(2) + x }",
        "fn f(x: f64) -> f64 { x.tanh(1.0) }",
        "fn f(w: &[f64]) -> f64 { w.sqrt() }",
    ] {
        assert_eq!(
            checked(&TokenStream::new(), &parse(item)),
            Ok(Verdict::Error),
            "{item}"
        );
    }
    assert!(offers_what_it_rejects(
        "compile_error ! { \"`powi` is not supported here; the supported methods are `tanh, powi, max`\" }"
    ));
}

/// Sums of 10^5 terms and expressions nested 1,000 deep, expanded on a thread with rustc's
/// 8 MiB stack (issue 25: a sum of 4,000 terms overflowed it, which aborts rustc): each is
/// accepted, or refused with one error; never a crash. The output is checked on a thread of
/// its own, since parsing it back is as deep as the input; the 19 MB of the sum's are not
/// parsed back (half a minute in a debug build), tests/long_sums.rs compiles a shorter one.
#[test]
fn deep_inputs_on_rustcs_stack() {
    let sum: Vec<String> = (0..100_000).map(|k| format!("y * {k}.0")).collect();
    let mut parens = String::from("x");
    let mut ifs = String::from("x");
    let mut methods = String::from("x");
    let mut negations = String::from("x");
    for k in 0..1000 {
        parens = format!("(x {} {parens})", if k % 2 == 0 { '+' } else { '*' });
        ifs = format!("if x > 0.0 {{ ({ifs}) * 0.5 }} else {{ x }}");
        methods.push_str(if k % 2 == 0 { ".sin()" } else { ".cos()" });
        negations = format!("-{negations}");
    }
    let cases = [
        ("a sum of 10^5 terms", sum.join(" + "), Verdict::Code),
        ("parentheses 1,000 deep", parens, Verdict::Error),
        ("`if`s 1,000 deep", ifs, Verdict::Error),
        ("1,000 chained methods", methods, Verdict::Code),
        ("1,000 negations", negations, Verdict::Code),
    ];
    for (what, body, expected) in cases {
        let output = expanded_on_rustcs_stack(format!("fn f(x: f64, y: f64) -> f64 {{ {body} }}"))
            .unwrap_or_else(|| panic!("{what}: expand panicked"));
        let what = what.to_string();
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn(move || {
                let errors = output.matches("compile_error").count();
                let verdict = if errors > 0 {
                    Verdict::Error
                } else {
                    if output.len() < 1 << 20 {
                        syn::parse_file(&output)
                            .unwrap_or_else(|e| panic!("{what}: the output does not parse: {e}"));
                    }
                    assert!(output.contains("fn f_grad"), "{what}: no f_grad");
                    Verdict::Code
                };
                assert_eq!(verdict, expected, "{what}");
                assert!(errors <= 1, "{what}: {errors} errors, not one");
            })
            .expect("spawn a thread")
            .join()
            .expect("the output is checked");
    }
}

/// `expand` of the item `source` (no attribute) on a thread with rustc's 8 MiB stack, printed;
/// `None` where it panicked (a stack overflow aborts the process).
fn expanded_on_rustcs_stack(source: String) -> Option<String> {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let item = TokenStream::from_str(&source).expect("the case is tokens");
            micrograd_codegen::expand(TokenStream::new(), item).to_string()
        })
        .expect("spawn a thread")
        .join()
        .ok()
}

/// A function returning `[f64; M]` of a `const M` (expanded through its hidden `__f_into`
/// twin, a copy of its syntax) with a sum of 10^5 terms, on rustc's 8 MiB stack: one error at
/// the chain, not a stack overflow. Deciding whether the twin applies, and reading callers'
/// statements, once built and visited every body's syntax tree by recursion (a frame per
/// term), which overflowed the stack for every function (`deep_inputs_on_rustcs_stack`).
#[test]
fn a_deep_sum_in_a_function_returning_a_const_length_array() {
    let sum: Vec<String> = (0..100_000).map(|k| format!("y * {k}.0")).collect();
    let source = format!(
        "fn f(x: f64, y: f64) -> [f64; M] {{ let s = {}; let r: [f64; M] = [x, s]; r }}",
        sum.join(" + ")
    );
    let output = expanded_on_rustcs_stack(source).expect("expand returns");
    assert_eq!(output.matches("compile_error").count(), 1, "{output:.300}");
    assert!(output.contains("at most 1000 terms"), "{output:.300}");
}

/// A call whose argument is a sum of 2 * 10^4 terms, bound and indexed (`let oc = g(a + b + ..);
/// oc[0]`), on rustc's 8 MiB stack: one error (a call's output bound without a type is read
/// through its hidden output count by a rewrite that prints the call again, which a chain that
/// long is not given), never a stack overflow. The desugaring's copy of the body cloned a
/// call's arguments with syn's own recursion (`spine::clone_expr`), a frame per term: 2 * 10^4
/// terms overflowed (3.7 s with the fix, where 10^5 took 21 s).
#[test]
fn a_deep_sum_as_a_calls_argument() {
    let sum: Vec<String> = (0..20_000).map(|k| format!("y * {k}.0")).collect();
    let source = format!(
        "fn f(x: f64, y: f64) -> f64 {{ let oc = g({}); oc[0] }}",
        sum.join(" + ")
    );
    let output = expanded_on_rustcs_stack(source).expect("expand returns");
    assert_eq!(output.matches("compile_error").count(), 1, "{output:.300}");
}

/// A generic float named by a raw identifier (`r#loop`, found by the mutation test) is printed
/// raw in the generated code: `Ident::new("r#loop")` panicked inside the macro.
#[test]
fn a_raw_generic_float_is_printed_raw() {
    let item = parse(
        "pub fn gf<r#loop: Float>(gw0: &[r#loop], ga1: r#loop) -> r#loop { (gw0[2] * gw0[0]).atan() + ga1 }",
    );
    for attr in ["", "hvp", "hessian"] {
        assert_eq!(
            checked(&parse(attr), &item),
            Ok(Verdict::Code),
            "attr: {attr}"
        );
    }
}

/// A generic float named as a primitive (`fn gf<f64: Float>`, found by the mutation test) is one
/// error: expanded, its output did not parse.
#[test]
fn a_generic_float_named_f64_is_one_error() {
    let item = parse("pub fn gf<f64: Float>(ga0: f64) -> f64 { ga0.tanh() }");
    assert_eq!(checked(&parse("hvp"), &item), Ok(Verdict::Error));
}
