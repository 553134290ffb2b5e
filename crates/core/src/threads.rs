//! Starting search helper threads when the system may refuse some (`ulimit -u`, `ulimit -v`, a
//! `Threads` value far above what the machine allows): the search goes on with those that started.

use std::thread::{Builder, Scope};

/// Stack size of search threads: deep recursion with move lists on the stack.
pub const SEARCH_STACK_SIZE: usize = 64 * 1024 * 1024;

/// Starts one scoped helper thread per payload, running `body(payload)`, and stops at the first
/// thread the system refuses. Returns how many started.
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
    for payload in payloads {
        let spawned = Builder::new()
            .name("search helper".into())
            .stack_size(SEARCH_STACK_SIZE)
            .spawn_scoped(scope, move || body(payload));
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
