//! probe
#![allow(unsafe_code)]
use std::alloc::{GlobalAlloc, Layout, System};
struct C;
unsafe impl GlobalAlloc for C {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
}
#[global_allocator]
static A: C = C;
#[test]
fn t() {}
