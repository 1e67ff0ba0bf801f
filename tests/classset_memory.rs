//! Memory of `dedup`'s class set (issue 12: at most 32 bytes a distinct class), counted by
//! a global allocator that tracks the bytes live and their peak, so the doubling of a shard
//! (old and new table live at once) is in the count.
//!
//! This file holds one test so that no other test allocates while it counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use rand::{Rng, SeedableRng};
use sudoku_batch::cmd::classset::ClassSet;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only counters move.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(live, Relaxed);
        // SAFETY: the caller's contract for `alloc` is the system allocator's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn the_class_set_stays_under_32_bytes_a_class_through_every_resize() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    let keys: Vec<[u32; 3]> = (0..1_200_000).map(|_| rng.random()).collect();
    let base = LIVE.load(Relaxed);
    let mut set = ClassSet::default();
    let (mut worst, mut at) = (0.0f64, 0);
    for (i, k) in keys.iter().enumerate() {
        PEAK.store(LIVE.load(Relaxed), Relaxed);
        assert!(set.insert(k));
        let n = i + 1;
        // From 10,000 classes on: below that the 256 empty shards' fixed few kilobytes
        // dominate.
        if n >= 10_000 {
            let per_class = (PEAK.load(Relaxed) - base) as f64 / n as f64;
            if per_class > worst {
                (worst, at) = (per_class, n);
            }
        }
    }
    assert_eq!(set.len(), keys.len());
    let held = (LIVE.load(Relaxed) - base) as f64 / keys.len() as f64;
    eprintln!("class set: {worst:.1} bytes a class at worst ({at} classes), {held:.1} at 1.2M");
    assert!(worst <= 32.0, "{worst:.1} bytes a class at {at} classes");
    assert!(held >= 12.0, "at least the 12 bytes of a slot: {held:.1}");
}
