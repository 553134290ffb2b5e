//! Starting search helper threads when the system may refuse some (`ulimit -u`, `ulimit -v`, a
//! `Threads` value far above what the machine allows): the search goes on with those that started.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::{Builder, Scope};

/// Stack size of search threads: deep recursion with move lists on the stack.
pub const SEARCH_STACK_SIZE: usize = 64 * 1024 * 1024;

/// Address space left free beyond each new thread's stack: the allocator's own region for the
/// thread (glibc reserves 64 MiB per thread arena, twice that for a moment while aligning it) and
/// the allocations the search makes besides stacks (a helper's copy of the position, its tables).
const HEADROOM: usize = 192 * 1024 * 1024;

/// Whether the system could give another search thread its stack and still leave [`HEADROOM`]:
/// under an address-space limit, threads would otherwise use it all up and the next ordinary
/// allocation would abort the process.
fn room_for_another_thread() -> bool {
    let mut probe: Vec<u8> = Vec::new();
    // Reserved, never touched: costs address space only for the moment of the probe.
    probe.try_reserve_exact(SEARCH_STACK_SIZE + HEADROOM).is_ok()
}

/// Starts one scoped helper thread per payload, running `body(payload)`, and stops at the first
/// thread the system refuses (or could not start with room to spare). Returns how many started.
pub fn spawn_helpers<'scope, 'env, T, F>(
    scope: &'scope Scope<'scope, 'env>,
    payloads: impl IntoIterator<Item = T>,
    body: F,
) -> usize
where
    T: Send + 'scope,
    F: Fn(T) + Copy + Send + 'scope,
{
    let mut started = 0;
    // Helpers that have made their first allocation, and with it taken their allocator region.
    let ready = Arc::new(AtomicUsize::new(0));
    let mut payloads = payloads.into_iter();
    loop {
        // The room is measured only once every helper so far holds its region: a helper that
        // took its region after the measure could leave the search without memory (an abort).
        while ready.load(Ordering::Acquire) < started {
            std::thread::yield_now();
        }
        let room = room_for_another_thread();
        // The payload is small beside the room asked for: making it cannot exhaust memory.
        let Some(payload) = payloads.next() else { break };
        if !room {
            tracing::warn!("could not start a search thread: too little memory left");
            break;
        }
        let helper_ready = Arc::clone(&ready);
        let spawned =
            Builder::new().name("search helper".into()).stack_size(SEARCH_STACK_SIZE).spawn_scoped(scope, move || {
                drop(std::hint::black_box(Box::new(0u64)));
                helper_ready.fetch_add(1, Ordering::Release);
                body(payload);
            });
        if let Err(error) = spawned {
            tracing::warn!("could not start a search thread: {error}");
            break;
        }
        started += 1;
    }
    started
}

/// The message a searcher reports, once, when fewer threads started than were asked for.
#[must_use]
pub fn shortfall_message(started: usize, asked: usize) -> String {
    format!("only {started} of {asked} search threads could be started; searching with {started}")
}

/// Ends the process when a thread it cannot run without (the search thread, the input reader)
/// cannot be started: it could not answer, so it logs why (stderr) and exits with status 1.
pub(crate) fn refuse_thread(which: &str, error: &std::io::Error) -> ! {
    tracing::error!(
        "cannot start the {which} thread ({error}); free memory or raise the limits (ulimit -v, ulimit -u)"
    );
    std::process::exit(1)
}

#[cfg(test)]
mod tests {
    use super::spawn_helpers;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_payload_runs_once() {
        let total = AtomicUsize::new(0);
        let started = std::thread::scope(|scope| {
            let total = &total;
            spawn_helpers(scope, 1..=4, move |value: usize| {
                total.fetch_add(value, Ordering::Relaxed);
            })
        });
        assert_eq!(started, 4);
        assert_eq!(total.load(Ordering::Relaxed), 10);
    }
}
