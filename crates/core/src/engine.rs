//! The engine controller: one long-lived search thread fed over a channel, so that a protocol
//! session keeps reading input (`isready`, `stop`, `quit`) while a search runs.
//!
//! `go` returns at once; the result arrives through the `done` callback on the search thread.
//! `stop` and `ponderhit` act through atomics; `wait` blocks on a condition variable, never spins.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::{bounded, unbounded, Sender};
use parking_lot::{Condvar, Mutex};

use crate::game::Game;
use crate::info::{InfoSink, SearchResult};
use crate::limits::Limits;
use crate::score::Score;
use crate::search::Searcher;
use crate::threads::{refuse_thread, SEARCH_STACK_SIZE};
use crate::time::SearchControl;

type Call<S> = Box<dyn FnOnce(&mut S) + Send>;
type Done<M> = Box<dyn FnOnce(SearchResult<M>) + Send>;

enum Job<G: Game, S> {
    Search { position: G, limits: Limits<G::Move>, sink: Box<dyn InfoSink<G::Move>>, done: Done<G::Move> },
    Call(Call<S>),
}

struct State {
    control: SearchControl,
    searching: Mutex<bool>,
    /// Signalled when a search ends (`searching` turns false).
    idle: Condvar,
    /// Signalled by `stop` and `ponderhit`, for a finished infinite or ponder search waiting to report.
    wake: Condvar,
    wake_lock: Mutex<()>,
}

/// Runs a [`Searcher`] on its own thread and controls it.
pub struct Engine<G: Game, S: Searcher<G>> {
    jobs: Option<Sender<Job<G, S>>>,
    state: Arc<State>,
    thread: Option<JoinHandle<()>>,
}

impl<G: Game, S: Searcher<G>> Engine<G, S> {
    /// Starts the search thread, which owns `searcher` from now on. Under an address-space limit
    /// the thread gets a smaller stack ([`FALLBACK_STACK_SIZES`]); when the system refuses even the
    /// smallest, the process says why on stderr and exits with status 1 (it cannot search at all).
    pub fn new(searcher: S) -> Self {
        let state = Arc::new(State {
            control: SearchControl::new(),
            searching: Mutex::new(false),
            idle: Condvar::new(),
            wake: Condvar::new(),
            wake_lock: Mutex::new(()),
        });
        let (jobs, receiver) = unbounded::<Job<G, S>>();
        let thread_state = Arc::clone(&state);
        let run = move || {
            let mut searcher = searcher;
            for job in receiver {
                match job {
                    Job::Search { position, limits, sink, done } => {
                        run_search(&mut searcher, &thread_state, &position, &limits, sink, done);
                    }
                    Job::Call(call) => call(&mut searcher),
                }
            }
        };
        let thread = start_search_thread(run);
        Engine { jobs: Some(jobs), state, thread: Some(thread) }
    }

    /// Starts searching `position` and returns at once. Events go to `sink`; the result goes to
    /// `done`, exactly once, on the search thread. A search still running is stopped first.
    pub fn go(
        &self,
        position: G,
        limits: Limits<G::Move>,
        sink: impl InfoSink<G::Move> + 'static,
        done: impl FnOnce(SearchResult<G::Move>) + Send + 'static,
    ) {
        self.stop();
        self.wait();
        *self.state.searching.lock() = true;
        self.state.control.reset(limits.ponder);
        self.send(Job::Search { position, limits, sink: Box::new(sink), done: Box::new(done) });
    }

    /// Asks the running search (if any) to finish now; its result still goes to `done`.
    pub fn stop(&self) {
        self.state.control.stop();
        let _guard = self.state.wake_lock.lock();
        self.state.wake.notify_all();
    }

    /// The pondered move was played: the search goes on under its normal time limits.
    pub fn ponderhit(&self) {
        self.state.control.ponderhit();
        let _guard = self.state.wake_lock.lock();
        self.state.wake.notify_all();
    }

    /// Blocks until no search runs.
    pub fn wait(&self) {
        let mut searching = self.state.searching.lock();
        while *searching {
            self.state.idle.wait(&mut searching);
        }
    }

    /// Whether a search is running (or finished and waiting for `stop`/`ponderhit` to report).
    #[must_use]
    pub fn is_searching(&self) -> bool {
        *self.state.searching.lock()
    }

    /// Whether the running search is pondering.
    #[must_use]
    pub fn is_pondering(&self) -> bool {
        self.is_searching() && self.state.control.is_pondering()
    }

    /// Runs `f` on the searcher (after any running search ends) and returns its value.
    /// Use it for options, `clear`, or reading the searcher's tables.
    pub fn call<R: Send + 'static>(&self, f: impl FnOnce(&mut S) -> R + Send + 'static) -> R {
        let (sender, receiver) = bounded(1);
        self.send(Job::Call(Box::new(move |searcher| {
            let _ = sender.send(f(searcher));
        })));
        receiver.recv().expect("the search thread lives as long as the engine")
    }

    fn send(&self, job: Job<G, S>) {
        if let Some(jobs) = &self.jobs {
            jobs.send(job).expect("the search thread lives as long as the engine");
        }
    }
}

impl<G: Game, S: Searcher<G>> Drop for Engine<G, S> {
    fn drop(&mut self) {
        self.stop();
        self.jobs = None; // closes the channel: the thread's loop ends
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Stack sizes tried for the search thread after [`SEARCH_STACK_SIZE`], largest first. The
/// deepest search (`MAX_PLY` plies of alpha-beta with quiescence, move lists on the stack) needs a
/// few MiB; the first size is ample.
pub const FALLBACK_STACK_SIZES: [usize; 2] = [16 * 1024 * 1024, 4 * 1024 * 1024];

/// Starts the search thread with the largest stack the system grants.
fn start_search_thread(run: impl FnOnce() + Send + 'static) -> JoinHandle<()> {
    // A refused spawn drops its closure: the closure only borrows `run` from this slot, so the
    // next, smaller attempt still has it.
    let slot = Arc::new(Mutex::new(Some(run)));
    let mut last_error = None;
    for stack_size in std::iter::once(SEARCH_STACK_SIZE).chain(FALLBACK_STACK_SIZES) {
        let mine = Arc::clone(&slot);
        let spawned = std::thread::Builder::new().name("search".into()).stack_size(stack_size).spawn(move || {
            let run = mine.lock().take();
            if let Some(run) = run {
                run();
            }
        });
        match spawned {
            Ok(thread) => {
                if stack_size != SEARCH_STACK_SIZE {
                    tracing::warn!("the search thread runs with a {} MiB stack (memory is limited)", stack_size >> 20);
                }
                return thread;
            }
            Err(error) => last_error = Some(error),
        }
    }
    // The loop tried at least one size, so an error is there.
    refuse_thread("search", &last_error.expect("a refused spawn"))
}

fn run_search<G: Game, S: Searcher<G>>(
    searcher: &mut S,
    state: &State,
    position: &G,
    limits: &Limits<G::Move>,
    mut sink: Box<dyn InfoSink<G::Move>>,
    done: Done<G::Move>,
) {
    let control = &state.control;
    let result = catch_unwind(AssertUnwindSafe(|| searcher.search(position, limits, control, sink.as_mut())))
        .unwrap_or_else(|_| {
            tracing::error!("the search panicked; answering with the first legal move");
            first_legal_move(position)
        });
    // Infinite and ponder searches never answer before `stop` (or `ponderhit`, when pondering).
    {
        let mut guard = state.wake_lock.lock();
        while !control.is_stopped() && (limits.infinite || control.is_pondering()) {
            state.wake.wait(&mut guard);
        }
    }
    done(result);
    *state.searching.lock() = false;
    state.idle.notify_all();
}

fn first_legal_move<G: Game>(position: &G) -> SearchResult<G::Move> {
    let mut moves = G::Moves::default();
    position.generate_legal_moves(&mut moves);
    SearchResult {
        best: moves.first().copied(),
        ponder: None,
        score: Score::Centipawns(0),
        depth: 0,
        nodes: 0,
        time: std::time::Duration::ZERO,
        pv: moves.first().copied().into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::alphabeta::AlphaBeta;
    use crate::info::Silent;
    use crate::limits::EngineOptions;
    use crate::toys::ConnectFour;

    fn engine() -> Engine<ConnectFour, AlphaBeta<ConnectFour>> {
        Engine::new(AlphaBeta::new(&EngineOptions::default(), 20))
    }

    #[test]
    fn go_returns_at_once_and_stop_hands_back_a_legal_move() {
        let engine = engine();
        let (sender, receiver) = bounded(1);
        let position = ConnectFour::new();
        let limits = Limits { infinite: true, ..Limits::none() };
        engine.go(position.clone(), limits, Silent, move |result| sender.send(result).unwrap());
        assert!(engine.is_searching());
        std::thread::sleep(Duration::from_millis(50));
        assert!(receiver.try_recv().is_err(), "an infinite search must not answer before stop");
        let stopped = Instant::now();
        engine.stop();
        let result = receiver.recv_timeout(Duration::from_secs(5)).expect("a result after stop");
        // Generous: a loaded 2-core machine; the real latency is printed by `tessera latency`.
        assert!(stopped.elapsed() < Duration::from_secs(2));
        assert!(position.is_legal(result.best.unwrap()));
        engine.wait();
        assert!(!engine.is_searching());
    }

    #[test]
    fn ponder_waits_for_ponderhit_then_uses_the_clock() {
        let engine = engine();
        let (sender, receiver) = bounded(1);
        let limits = Limits { ponder: true, move_time: Some(Duration::from_millis(50)), ..Limits::none() };
        engine.go(ConnectFour::new(), limits, Silent, move |result| sender.send(result).unwrap());
        std::thread::sleep(Duration::from_millis(150));
        assert!(engine.is_pondering());
        assert!(receiver.try_recv().is_err(), "no result while pondering");
        engine.ponderhit();
        let result = receiver.recv_timeout(Duration::from_secs(5)).expect("a result after ponderhit");
        assert!(result.best.is_some());
    }

    #[test]
    fn calls_reach_the_searcher_between_searches() {
        let engine = engine();
        let (sender, receiver) = bounded(1);
        engine.go(ConnectFour::new(), Limits::depth(4), Silent, move |result| sender.send(result.depth).unwrap());
        assert_eq!(receiver.recv_timeout(Duration::from_secs(30)).unwrap(), 4);
        engine.wait();
        let threads = engine.call(|searcher| {
            searcher.set_options(&EngineOptions { threads: 2, ..EngineOptions::default() });
            searcher.clear();
            2
        });
        assert_eq!(threads, 2);
    }
}
