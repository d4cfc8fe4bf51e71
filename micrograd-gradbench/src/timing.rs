//! Repeated, timed evaluation as GradBench asks for it (`min_runs`, `min_seconds`).

use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::time::Instant;

/// How many times to run a function: at least `min_runs` times, and until the runs add up to
/// `min_seconds`, whichever is longer (GradBench's `Runs`). Both default to a single run.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct Runs {
    /// Run the function at least this many times.
    #[serde(default = "one")]
    pub min_runs: usize,
    /// Keep running until the total time exceeds this many seconds.
    #[serde(default)]
    pub min_seconds: f64,
}

fn one() -> usize {
    1
}

impl Default for Runs {
    fn default() -> Self {
        Runs {
            min_runs: 1,
            min_seconds: 0.0,
        }
    }
}

/// One entry of a response's `timings`: a name and a duration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    /// What was timed; `"evaluate"` for one run of the function itself.
    pub name: String,
    /// How long it took.
    pub nanoseconds: u64,
}

/// Runs `f` as `runs` asks, timing each run on its own, and returns the last run's result with
/// one `"evaluate"` timing per run.
///
/// `f` should only compute: buffers are allocated before, and the result is encoded after, so
/// the timings are the function's alone, as the C++ tools report them. The result of each run
/// goes through [`black_box`], so no run can be optimized away.
pub fn repeat<T>(runs: Runs, mut f: impl FnMut() -> T) -> (T, Vec<Timing>) {
    let mut timings = Vec::new();
    let mut total = 0.0;
    loop {
        let start = Instant::now();
        let result = black_box(f());
        let nanoseconds = start.elapsed().as_nanos();
        total += nanoseconds as f64 * 1e-9;
        timings.push(Timing {
            name: "evaluate".into(),
            nanoseconds: u64::try_from(nanoseconds).unwrap_or(u64::MAX),
        });
        if timings.len() >= runs.min_runs.max(1) && total >= runs.min_seconds {
            return (result, timings);
        }
    }
}
