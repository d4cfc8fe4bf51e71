//! The checker of the crates tests/random_programs.rs generates (copied there as `src/rt.rs`).
//!
//! `T` (dual.rs) is a forward-mode dual number that also records what makes a program piecewise: every
//! comparison, every kink (`relu`, `abs`, `max`, `min`, `signum`), every pole or branch cut
//! (a division's sign, `cbrt`, `recip`, `tan`, `atan2`), and the largest value and derivative
//! seen. A point is used only if the record is the same at the point and at every
//! finite-difference neighbour, every value is finite and moderate, and the two central
//! differences (steps h and h/2) agree: then the function is smooth on the stencil, and the
//! difference between the two steps bounds the truncation error of the finer one.
//!
//! Each accepted point checks, for every differentiated coordinate:
//! - `f_grad`'s value is bit for bit `f`'s (also with non-zero shadows);
//! - its partial against the central difference, with a tolerance made of that bound, the
//!   rounding error `eps * max|value| / h`, and 1e-6 relative;
//! - its partial against the dual number's, to 1e-8 relative (an exact oracle);
//! - shadows accumulate: starting from 1.0 they end at 1.0 + the partial;
//! - for programs in `Value`'s subset, its partial against the `Value` engine's, to 1e-9;
//! - forward mode and second order (second_order.rs): `f_jvp` and `f_hvp`;
//! - for some programs, their `f32` twin (single_check.rs).
#![allow(dead_code)]

pub use crate::dual::*;
use micrograd_runtime::prelude::*;
use std::cell::RefCell;
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};

// ------------------------------------------------------------------------------ the arguments

/// A parameter of the entry point.
#[derive(Clone, Copy, Debug)]
pub enum PSpec {
    /// `f64`
    S,
    /// `&[f64]` of at least this length.
    Sl(usize),
    /// `&[f64; N]`
    Arr(usize),
    /// `[f64; N]` by value: its partials are returned, not added into a shadow.
    ArrV(usize),
    /// `&mut [f64]` of at least this length, which the entry writes (tests/random/lend.rs).
    MSl(usize),
    /// `usize` in `0..=max`
    U(usize),
    /// `i32` in `lo..=hi`
    I(i32, i32),
    /// `bool`
    B,
    /// `&[usize]` of this many entries in `0..=3`: data.
    L(usize),
}

/// A point: the `f64`s (scalars and slice entries, in parameter order), the slice lengths and
/// the integers and booleans.
#[derive(Clone, Debug)]
pub struct Args {
    pub x: Vec<f64>,
    pub lens: Vec<usize>,
    pub ints: Vec<i64>,
}

/// Reads the parameters of the entry point off a point, in order.
pub struct Cur<'a, E> {
    x: &'a [E],
    a: &'a Args,
    xi: usize,
    li: usize,
    ii: usize,
}

impl<'a, E: Clone> Cur<'a, E> {
    pub fn new(x: &'a [E], a: &'a Args) -> Self {
        Cur {
            x,
            a,
            xi: 0,
            li: 0,
            ii: 0,
        }
    }
    pub fn s(&mut self) -> E {
        self.xi += 1;
        self.x[self.xi - 1].clone()
    }
    pub fn sl(&mut self) -> &'a [E] {
        let n = self.a.lens[self.li];
        self.li += 1;
        self.xi += n;
        &self.x[self.xi - n..self.xi]
    }
    pub fn arr<const N: usize>(&mut self) -> &'a [E; N] {
        self.sl().try_into().expect("array length")
    }
    pub fn u(&mut self) -> usize {
        self.ii += 1;
        self.a.ints[self.ii - 1] as usize
    }
    pub fn i(&mut self) -> i32 {
        self.ii += 1;
        self.a.ints[self.ii - 1] as i32
    }
    pub fn us(&mut self, n: usize) -> Vec<usize> {
        self.ii += n;
        self.a.ints[self.ii - n..self.ii].iter().map(|&k| k as usize).collect()
    }
    pub fn b(&mut self) -> bool {
        self.ii += 1;
        self.a.ints[self.ii - 1] != 0
    }
}

// ---------------------------------------------------------------------------------- a program

/// One generated program and its adapters.
pub struct Prog {
    pub id: usize,
    pub params: &'static [PSpec],
    pub wrt: &'static [bool],
    pub src: &'static str,
    pub f: fn(&Args) -> f64,
    pub g: fn(&Args, f64) -> (f64, Vec<Option<f64>>),
    pub t: fn(&Args, usize) -> T,
    pub v: Option<fn(&Args) -> (f64, Vec<f64>)>,
    /// `f_jvp` along the unit vector of one coordinate.
    pub jv: fn(&Args, usize) -> (f64, f64),
    /// `f_hvp` along the unit vector of one coordinate: a row of the Hessian.
    pub hv: fn(&Args, usize) -> (f64, Vec<Option<f64>>),
    /// Whether `jv` and `hv` are there: not for an entry that takes `&mut [f64]`
    /// (tests/random/lend.rs).
    pub second: bool,
    /// The program in `f32` (single_check.rs), for some programs.
    pub single: Option<crate::single::Single>,
    /// Each output of an entry returning several (vector_check.rs); the adapters above see
    /// their weighted sum.
    pub vector: Option<crate::vector::Vector>,
}

/// SplitMix64, as in the generator.
pub struct Rng(u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64) / ((1u64 << 53) as f64)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A random point for the entry point's parameters; which coordinates are shadow entries and
/// which are differentiated.
fn sample(p: &Prog, rng: &mut Rng) -> (Args, Vec<bool>, Vec<bool>) {
    let mut a = Args {
        x: Vec::new(),
        lens: Vec::new(),
        ints: Vec::new(),
    };
    let (mut shadow, mut wrt) = (Vec::new(), Vec::new());
    let mut value = |rng: &mut Rng| {
        // Mostly in [-2, 2], sometimes wider.
        let r = if rng.below(8) == 0 { 4.0 } else { 2.0 };
        (rng.unit() * 2.0 - 1.0) * r
    };
    for (k, spec) in p.params.iter().enumerate() {
        match *spec {
            PSpec::S => {
                a.x.push(value(rng));
                shadow.push(false);
                wrt.push(p.wrt[k]);
            }
            PSpec::Sl(min) | PSpec::Arr(min) | PSpec::ArrV(min) | PSpec::MSl(min) => {
                let n = if matches!(spec, PSpec::Sl(_) | PSpec::MSl(_)) {
                    min + rng.below(3)
                } else {
                    min
                };
                a.lens.push(n);
                for _ in 0..n {
                    a.x.push(value(rng));
                    // A `&mut [f64]`'s shadow is the adjoint of what `f` leaves in it, not a
                    // sum that `f_grad` adds to.
                    shadow.push(!matches!(spec, PSpec::ArrV(_) | PSpec::MSl(_)));
                    wrt.push(p.wrt[k]);
                }
            }
            PSpec::U(max) => a.ints.push(rng.below(max + 1) as i64),
            PSpec::I(lo, hi) => a
                .ints
                .push(i64::from(lo) + rng.below((hi - lo + 1) as usize) as i64),
            PSpec::B => a.ints.push(rng.below(2) as i64),
            PSpec::L(n) => a.ints.extend((0..n).map(|_| rng.below(4) as i64)),
        }
    }
    (a, shadow, wrt)
}

/// Values larger than this make a point unusable (overflow, poles).
const MAX_VALUE: f64 = 1e8;
/// Derivatives larger than this too.
const MAX_DOT: f64 = 1e8;

/// The trace of the program at `a` along `dir`, with its record.
fn trace(p: &Prog, a: &Args, dir: usize) -> (T, Rec) {
    recorded(|| (p.t)(a, dir))
}

// ---------------------------------------------------------------------------------- the check

/// Why points were not used, by reason.
#[derive(Default)]
pub struct Stats {
    /// A value not finite or above `MAX_VALUE`.
    pub range: usize,
    /// A decision or kink differs between the point and a neighbour.
    pub kink: usize,
    /// The two central differences disagree: too curved at this scale.
    pub curvature: usize,
    /// A derivative above `MAX_DOT`, or a nonlinear function's argument moving too far over
    /// the stencil (`Rec::max_move`).
    pub steep: usize,
    /// Points checked.
    pub points: usize,
    /// Points where the `f32` twin was checked, and where it was too ill-conditioned to be.
    pub single: usize,
    pub single_ill: usize,
}

/// The references for one differentiated coordinate of an accepted point.
pub struct Coord {
    pub i: usize,
    pub h: f64,
    /// Central differences with steps h and h/2.
    pub d1: f64,
    pub d2: f64,
    /// The dual number's derivative.
    pub dual: f64,
    /// The largest |value| over the stencil.
    pub mag: f64,
    pub max_dot: f64,
}

/// The stencil of the central differences at `x`: steps `h` (the first two) and `h/2`.
pub fn stencil(x: f64, h: f64) -> [f64; 4] {
    [x + h, x - h, x + 0.5 * h, x - 0.5 * h]
}

/// How far a first derivative `x` at `c` may be from the central difference `d2` (step h/2;
/// `d1` with step h): their difference bounds the truncation error, plus rounding on the
/// scale of the stencil's values, and 1e-6 relative.
pub fn fd_tol(x: f64, d1: f64, d2: f64, c: &Coord) -> f64 {
    1e-6 * x.abs().max(d2.abs()) + 4.0 * (d1 - d2).abs() + 1e3 * f64::EPSILON * c.mag / c.h + 1e-8
}

/// How far a first derivative `x` at `c` may be from the dual number's `dual`: 1e-8 relative,
/// and rounding on the scale of the derivatives the trace saw.
pub fn dual_tol(x: f64, dual: f64, c: &Coord) -> f64 {
    1e-8 * x.abs().max(dual.abs()).max(1.0) + 1e-10 * c.max_dot
}

enum Prepared {
    Rejected,
    Accepted(Vec<Coord>, f64),
    Fail(String),
}

thread_local! {
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Runs `f`, turning a panic into its message.
pub fn guarded<R>(stage: &str, f: impl FnOnce() -> R) -> Result<R, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        let msg = LAST_PANIC.with(|p| p.borrow().clone());
        format!("{stage} panicked: {msg}")
    })
}

fn prepare(p: &Prog, a: &Args, wrt: &[bool], stats: &mut Stats) -> Prepared {
    let (base, rec) = trace(p, a, usize::MAX);
    if rec.bad || rec.max_val > MAX_VALUE {
        stats.range += 1;
        return Prepared::Rejected;
    }
    let fv = (p.f)(a);
    if fv.to_bits() != base.v.to_bits() {
        return Prepared::Fail(format!(
            "harness: the T version gives {:?} but f gives {fv:?} (a bug of the generator)",
            base.v
        ));
    }
    let mut coords = Vec::new();
    for i in (0..a.x.len()).filter(|&i| wrt[i]) {
        let x = a.x[i];
        let h = 1e-5 * x.abs().max(1.0);
        let steps = stencil(x, h);
        let mut vals = [0.0; 4];
        let mut mag = rec.max_val;
        for (k, &s) in steps.iter().enumerate() {
            let mut b = a.clone();
            b.x[i] = s;
            let (_, r) = trace(p, &b, usize::MAX);
            if r.bad || r.max_val > MAX_VALUE {
                stats.range += 1;
                return Prepared::Rejected;
            }
            if r.decisions != rec.decisions {
                stats.kink += 1;
                return Prepared::Rejected;
            }
            mag = mag.max(r.max_val);
            vals[k] = (p.f)(&b);
        }
        let d1 = (vals[0] - vals[1]) / (steps[0] - steps[1]);
        let d2 = (vals[2] - vals[3]) / (steps[2] - steps[3]);
        if !((d1 - d2).abs() <= 1e-4 * d2.abs().max(1.0)) {
            stats.curvature += 1;
            return Prepared::Rejected;
        }
        let (t, r) = trace(p, a, i);
        if r.bad || r.max_dot > MAX_DOT || r.max_move * h > 0.05 {
            stats.steep += 1;
            return Prepared::Rejected;
        }
        coords.push(Coord {
            i,
            h,
            d1,
            d2,
            dual: t.d,
            mag,
            max_dot: r.max_dot,
        });
    }
    Prepared::Accepted(coords, fv)
}

fn check_point(
    p: &Prog,
    a: &Args,
    shadow: &[bool],
    wrt: &[bool],
    coords: &[Coord],
    fv: f64,
) -> Result<crate::single::Verdict, String> {
    let (gv, grads) = guarded("f_grad", || (p.g)(a, 0.0))?;
    if gv.to_bits() != fv.to_bits() {
        return Err(format!("value: f_grad returns {gv:?} but f returns {fv:?}"));
    }
    let layout: Vec<bool> = grads.iter().map(Option::is_some).collect();
    if layout != wrt {
        return Err(format!(
            "harness: differentiated coordinates {layout:?}, expected {wrt:?}"
        ));
    }
    let mut problems = String::new();
    for c in coords {
        let g = grads[c.i].expect("checked");
        let tol_fd = fd_tol(g, c.d1, c.d2, c);
        let fd_ok = (g - c.d2).abs() <= tol_fd;
        let dual_ok = (g - c.dual).abs() <= dual_tol(g, c.dual, c);
        if !fd_ok || !dual_ok {
            let _ = writeln!(
                problems,
                "  d/dx[{}]: f_grad {g:e}, central difference {:e} (h {:e}: {:e}; tol {tol_fd:e}){}, dual number {:e}{}",
                c.i,
                c.d2,
                c.h,
                c.d1,
                if fd_ok { "" } else { " MISMATCH" },
                c.dual,
                if dual_ok { "" } else { " MISMATCH" },
            );
        }
    }
    if !problems.is_empty() {
        return Err(format!("gradient:\n{problems}"));
    }
    // Shadows accumulate.
    let (gv1, grads1) = guarded("f_grad (shadows filled with 1.0)", || (p.g)(a, 1.0))?;
    if gv1.to_bits() != fv.to_bits() {
        return Err(format!(
            "value: f_grad returns {gv1:?} with filled shadows but f returns {fv:?}"
        ));
    }
    for c in coords.iter().filter(|c| shadow[c.i]) {
        let (g0, g1) = (grads[c.i].expect("checked"), grads1[c.i].expect("checked"));
        if !((g1 - 1.0 - g0).abs() <= 1e-9 * g0.abs().max(1.0)) {
            return Err(format!(
                "accumulation: shadow entry {} from 0.0 ends at {g0:e}, from 1.0 at {g1:e}",
                c.i
            ));
        }
    }
    // The run-time engine.
    if let Some(v) = p.v {
        let (vv, vg) =
            guarded("the Value version", || v(a)).map_err(|m| format!("harness: {m}"))?;
        if vv.to_bits() != fv.to_bits() {
            return Err(format!(
                "value engine: Value gives {vv:?} but f gives {fv:?}"
            ));
        }
        for c in coords {
            let g = grads[c.i].expect("checked");
            if !((g - vg[c.i]).abs() <= 1e-9 * g.abs().max(vg[c.i].abs()).max(1.0)) {
                let _ = writeln!(
                    problems,
                    "  d/dx[{}]: f_grad {g:e}, Value engine {:e}, dual number {:e}",
                    c.i, vg[c.i], c.dual
                );
            }
        }
        if !problems.is_empty() {
            return Err(format!("value engine:\n{problems}"));
        }
    }
    if p.second {
        crate::second::check(p, a, coords, fv)?;
        crate::vector::check(p, a, coords)?;
    }
    crate::single::check(p, a, coords, fv, &grads)
}

/// The outcome of one program.
pub enum Outcome {
    /// Checked at one or more points.
    Passed,
    /// No usable point was found.
    Skipped,
    /// A check failed: the report.
    Failed(String),
}

fn failure(p: &Prog, seed: u64, a: &Args, what: &str) -> String {
    format!(
        "FAIL program {} (MICROGRAD_RANDOM_SEED={seed} MICROGRAD_RANDOM_ONLY={}): {what}\npoint: x = {:?}, slice lengths = {:?}, integers/booleans = {:?}\nsource:\n{}\n",
        p.id, p.id, a.x, a.lens, a.ints, p.src
    )
}

/// Checks one program at up to two usable points out of twelve tries.
pub fn check_program(p: &Prog, seed: u64, stats: &mut Stats) -> Outcome {
    let mut rng = Rng(seed ^ (p.id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5EED);
    let mut accepted = 0;
    for _ in 0..12 {
        if accepted >= 2 {
            break;
        }
        let (a, shadow, wrt) = sample(p, &mut rng);
        let prepared = match guarded("the program's f", || prepare(p, &a, &wrt, stats)) {
            Ok(prepared) => prepared,
            Err(m) => return Outcome::Failed(failure(p, seed, &a, &format!("harness: {m}"))),
        };
        match prepared {
            Prepared::Rejected => {}
            Prepared::Fail(m) => return Outcome::Failed(failure(p, seed, &a, &m)),
            Prepared::Accepted(coords, fv) => {
                accepted += 1;
                stats.points += 1;
                match check_point(p, &a, &shadow, &wrt, &coords, fv) {
                    Err(m) => return Outcome::Failed(failure(p, seed, &a, &m)),
                    Ok(crate::single::Verdict::Checked) => stats.single += 1,
                    Ok(crate::single::Verdict::Ill) => stats.single_ill += 1,
                    Ok(crate::single::Verdict::Unchecked) => {}
                }
            }
        }
    }
    if accepted == 0 {
        Outcome::Skipped
    } else {
        Outcome::Passed
    }
}

/// The crate's `main`: `bin SEED FAILURES_FILE [ID]` checks every program (or one).
pub fn run(programs: &[Prog]) {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let failures = args
        .get(2)
        .cloned()
        .unwrap_or_else(|| "failures.txt".into());
    let only: Option<usize> = args.get(3).and_then(|s| s.parse().ok());
    std::panic::set_hook(Box::new(|info| {
        LAST_PANIC.with(|p| *p.borrow_mut() = info.to_string());
    }));
    let mut stats = Stats::default();
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut report = String::new();
    for p in programs.iter().filter(|p| only.is_none_or(|id| id == p.id)) {
        match check_program(p, seed, &mut stats) {
            Outcome::Passed => passed += 1,
            Outcome::Skipped => skipped += 1,
            Outcome::Failed(m) => {
                failed += 1;
                println!("{m}");
                report.push_str(&m);
                report.push('\n');
            }
        }
    }
    std::fs::write(&failures, report).expect("write the failures file");
    println!(
        "RESULT {passed} {failed} {skipped} {} {} {} {} {} {} {}",
        stats.points,
        stats.range,
        stats.kink,
        stats.curvature,
        stats.steep,
        stats.single,
        stats.single_ill
    );
}
