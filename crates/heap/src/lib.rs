//! The process's allocator and what it keeps.
//!
//! Every `campus` process allocates through mimalloc ([`Allocator`], installed by the
//! binary): an agent's request path is many small, short-lived allocations (JSON, headers,
//! ids), and glibc's `malloc` and `free` were over a quarter of the Hub's CPU time per routed
//! question (perf). Built with `no_thp`, so it does not ask the kernel for transparent huge
//! pages (`madvise(MADV_HUGEPAGE)`): where THP is set to `madvise`, that request doubled each
//! process's idle resident memory.
//!
//! mimalloc hands the pages it no longer uses back to the system lazily, on a later
//! allocation after a delay; a process that goes quiet makes no such allocation, so what a
//! burst of work freed stayed resident for good (the Hub kept about 4 MB from the router's
//! training, and whatever a load left behind). [`hand_back`] does it now, and
//! [`hand_back_when_quiet`] does it every few seconds for as long as a process runs.
//!
//! This crate holds the workspace's one `unsafe` block, a call that takes no pointers.

use std::time::Duration;

/// The allocator every `campus` process uses (`#[global_allocator]` in the binary).
pub use mimalloc::MiMalloc as Allocator;

/// Hands every page the allocator holds free back to the operating system now: the calling
/// thread's empty pages and every arena's pages waiting for their delayed purge. Cheap
/// (a walk over the calling thread's pages); allocations go on as before.
pub fn hand_back() {
    // SAFETY: `mi_collect` takes no pointers and is safe to call from any thread at any
    // time (mimalloc's documentation); with the system allocator in place it finds nothing.
    #[allow(unsafe_code)]
    unsafe {
        libmimalloc_sys::mi_collect(true)
    }
}

/// How often [`hand_back_when_quiet`] hands pages back.
pub const PERIOD: Duration = Duration::from_secs(5);

/// Calls [`hand_back`] every [`PERIOD`] on the task's thread, for ever: spawn it on the
/// runtime that does the process's work, so that thread's pages are the ones collected.
pub async fn hand_back_when_quiet() {
    let mut tick = tokio::time::interval(PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        hand_back();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // this test binary allocates through mimalloc too, as the agents do
    #[global_allocator]
    static GLOBAL: Allocator = Allocator;

    fn resident_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    #[test]
    fn what_a_finished_burst_freed_goes_back_to_the_system() {
        const MIB: usize = 1 << 20;
        let base = resident_kib();
        // a burst on a thread that then ends, as the Hub's training runs: 96 blocks of
        // 256 KiB, each written so its pages are resident, then all freed
        std::thread::spawn(|| {
            let blocks: Vec<Vec<u8>> = (0..96).map(|i| vec![i as u8 | 1; MIB / 4]).collect();
            assert!(blocks.iter().all(|b| b[b.len() - 1] != 0));
        })
        .join()
        .unwrap();
        let kept = resident_kib();
        assert!(kept > base + 16 * 1024, "the allocator kept nothing to hand back ({base} -> {kept} KiB)");
        hand_back();
        let after = resident_kib();
        assert!(
            after < base + 4 * 1024,
            "still {after} KiB resident after handing back (from {base}, {kept} before)"
        );
    }
}
