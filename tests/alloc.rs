//! Generated gradients of straight-line code and of accumulation loops do not allocate; a loop
//! that must record does (which shows the counter works).
//!
//! Counting needs a `#[global_allocator]`, hence an `unsafe impl GlobalAlloc`, but the workspace
//! sets `unsafe_code = "forbid"`, which no `#![allow]` can lower. So the counting program lives
//! in this file behind `#[cfg(trybuild)]`: the one test here has trybuild build this same file
//! as a standalone binary (trybuild passes `--cfg trybuild` and does not apply the workspace
//! lints) and run it; the binary panics, so the test fails, on any unexpected count.

// `trybuild` is the cfg that trybuild sets; Cargo's check-cfg does not know it.
#![allow(unexpected_cfgs)]

#[cfg(not(trybuild))]
#[test]
fn gradients_allocate_only_to_record() {
    trybuild::TestCases::new().pass("tests/alloc.rs");
}

#[cfg(trybuild)]
fn main() {
    program::run();
}

/// A `System` allocator that counts allocations.
#[cfg(trybuild)]
#[allow(unsafe_code)]
mod counter {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering};

    static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

    struct Counting;

    // SAFETY: every method forwards to `System` with the caller's arguments unchanged.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
            // SAFETY: forwarded; the caller upholds `GlobalAlloc::alloc`'s contract.
            unsafe { System.alloc(layout) }
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
            // SAFETY: forwarded, as above.
            unsafe { System.alloc_zeroed(layout) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
            // SAFETY: forwarded, as above.
            unsafe { System.realloc(ptr, layout, new_size) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: forwarded, as above.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;

    /// How many allocations `f` performs.
    pub fn allocations<T>(f: impl FnOnce() -> T) -> usize {
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        std::hint::black_box(f());
        ALLOCATIONS.load(Ordering::SeqCst) - before
    }
}

#[cfg(trybuild)]
mod program {
    use super::counter::allocations;
    use micrograd_runtime::prelude::*;
    use std::hint::black_box;

    #[differentiable]
    fn straight(a: f64, b: f64, c: f64) -> f64 {
        let mut d = a * b + b.powi(3) - c / (a * a + 1.0);
        d += (a - c).relu() * b.tanh() + (b * c).exp().ln_1p();
        let e = if d > 0.0 { d.sqrt() } else { d.sin() };
        e.max(a).hypot(c) * d.sigmoid()
    }

    #[differentiable]
    fn dot(w: &[f64], x: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..w.len() {
            s += w[i] * x[i];
        }
        s
    }

    #[differentiable(wrt(w, b))]
    fn neuron(w: &[f64], b: f64, x: &[f64]) -> f64 {
        let mut s = b;
        for i in 0..w.len() {
            s += w[i] * x[i];
        }
        s.tanh()
    }

    #[differentiable]
    fn two_dots(w: &[f64], x: &[f64]) -> f64 {
        dot(&w[..2], &x[..2]) * dot(&w[2..], &x[2..])
    }

    #[differentiable]
    fn sum_tanh(w: &[f64], x: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..w.len() {
            s += (w[i] * x[i]).tanh();
        }
        s
    }

    #[differentiable]
    fn iterate(x: f64, n: usize) -> f64 {
        let mut y = x;
        for _ in 0..n {
            y = (y * 0.9).sin() + 0.1;
        }
        y
    }

    /// Panics, naming the case, unless `f` allocates exactly `expected` times.
    fn expect<T>(name: &str, expected: usize, f: impl FnOnce() -> T) {
        let count = allocations(f);
        assert_eq!(
            count, expected,
            "{name}: {count} allocations, expected {expected}"
        );
    }

    pub fn run() {
        let w = black_box(vec![0.3, -1.2, 0.8, 2.1, -0.4]);
        let x = black_box(vec![1.5, 0.2, -0.7, 0.9, -1.8]);
        let (mut d_w, mut d_x) = (vec![0.0; 5], vec![0.0; 5]);
        // The counter counts: a Vec allocates once.
        expect("a vec", 1, || vec![black_box(1.0)]);
        expect("straight-line", 0, || {
            straight_grad(black_box(0.7), -1.3, 2.0)
        });
        expect("straight-line, other branch", 0, || {
            straight_grad(black_box(-2.0), 0.4, 0.6)
        });
        expect("dot", 0, || dot_grad(&w, &mut d_w, &x, &mut d_x));
        expect("neuron", 0, || {
            neuron_grad(&w, &mut d_w, black_box(0.1), &x)
        });
        expect("calls", 0, || two_dots_grad(&w, &mut d_w, &x, &mut d_x));
        expect("sum of tanh", 0, || {
            sum_tanh_grad(&w, &mut d_w, &x, &mut d_x)
        });
        // A loop overwriting what its reverse sweep reads must record it, once, sized up front.
        expect("iterate", 1, || iterate_grad(black_box(0.5), black_box(40)));
    }
}
