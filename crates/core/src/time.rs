//! Stopping a search: the shared stop/ponder flags and the time budget of one move.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::limits::Limits;

/// Flags shared between a running search and whoever controls it (the engine controller, tests).
///
/// The searcher polls [`SearchControl::is_stopped`] in its hot loop (a relaxed atomic load) and
/// measures its time budget from [`SearchControl::clock_elapsed`], which restarts at `ponderhit`.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    clock_start: Mutex<Instant>,
}

impl Default for SearchControl {
    fn default() -> Self {
        Self::new()
    }
}

impl SearchControl {
    /// Flags for a search that is not stopped and not pondering, with the clock starting now.
    #[must_use]
    pub fn new() -> Self {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            clock_start: Mutex::new(Instant::now()),
        }
    }

    /// Prepares the flags for a new search that starts now.
    pub fn reset(&self, ponder: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
        *self.clock_start.lock() = Instant::now();
    }

    /// Asks the search to finish as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was asked.
    #[inline]
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The pondered move was played: time limits apply from now on.
    pub fn ponderhit(&self) {
        *self.clock_start.lock() = Instant::now();
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether the search is pondering (no time limit applies).
    #[must_use]
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Time since our clock started for this move: since the search began, or since `ponderhit`.
    #[must_use]
    pub fn clock_elapsed(&self) -> Duration {
        self.clock_start.lock().elapsed()
    }
}

/// Soft and hard time budgets for one move.
///
/// The soft budget decides whether to start another iteration; the hard budget stops the search
/// in the middle of one. Both already have the move overhead taken off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeManager {
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// A fixed time per move (`go movetime`, a per-turn limit): the time is there to be used,
    /// so a stable best move does not end the search early.
    fixed: bool,
    /// Whether time this move leaves unused stays on our clock for later moves: not under a fixed
    /// time per move, in a byo-yomi period (or with a budget reaching into one), or on the last
    /// move before the clock is refilled.
    keeps_unused_time: bool,
}

/// Never budget less than this: a move must still be found and sent.
const MIN_BUDGET: Duration = Duration::from_millis(1);

impl TimeManager {
    /// Budgets for `limits`. `moves_left` estimates the moves still to play when the clock does not
    /// say (chess engines use 20–40; gomoku and go fewer per unit of main time).
    #[must_use]
    pub fn new<M>(limits: &Limits<M>, move_overhead: Duration, moves_left: u32) -> TimeManager {
        if limits.infinite {
            return TimeManager::default();
        }
        if let Some(time) = limits.move_time {
            let budget = time.saturating_sub(move_overhead).max(time / 2).max(MIN_BUDGET);
            return TimeManager { soft: Some(budget), hard: Some(budget), fixed: true, keeps_unused_time: false };
        }
        let Some(clock) = limits.clock else {
            return TimeManager::default();
        };
        let available = clock.ours.saturating_sub(move_overhead);
        let moves_to_go = clock.moves_to_go.unwrap_or(moves_left).max(1);
        let mut soft = available / moves_to_go;
        if available > clock.increment {
            soft += clock.increment * 3 / 4;
        }
        let mut hard = if moves_to_go == 1 { available * 9 / 10 } else { (soft * 4).min(available * 2 / 5) };
        if let Some(period) = clock.byo_yomi {
            // Each move may use one byo-yomi period without losing anything.
            let period = period.saturating_sub(move_overhead);
            soft += period * 3 / 5;
            hard = hard.max(period).max(soft);
        }
        let hard = hard.max(MIN_BUDGET);
        let soft = soft.clamp(MIN_BUDGET, hard);
        // Time saved stays ours unless the clock is refilled after this move, or the budget
        // reaches past the main time into a byo-yomi period (which a move keeps only while it
        // uses it).
        let keeps_unused_time = clock.moves_to_go != Some(1) && (clock.byo_yomi.is_none() || soft <= available);
        TimeManager { soft: Some(soft), hard: Some(hard), fixed: false, keeps_unused_time }
    }

    /// The soft budget (start no new iteration past it), or `None` when untimed.
    #[must_use]
    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    /// The hard budget (stop at once past it), or `None` when untimed.
    #[must_use]
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }

    /// Whether time this move leaves unused stays ours for later moves (a clock's main time, a
    /// Canadian block before its last stone), so that ending a search early saves it.
    #[must_use]
    pub fn keeps_unused_time(&self) -> bool {
        self.keeps_unused_time
    }

    /// Whether the search should not start another iteration. `scale` stretches the soft budget
    /// (above 1 when the best move keeps changing, below 1 when it is stable, except under a
    /// fixed move time). Never while pondering.
    #[must_use]
    pub fn soft_expired(&self, control: &SearchControl, scale: f64) -> bool {
        let scale = if self.fixed { scale.max(1.0) } else { scale };
        match self.soft {
            Some(soft) if !control.is_pondering() => {
                let limit = soft.mul_f64(scale.max(0.0)).min(self.hard.unwrap_or(soft));
                control.clock_elapsed() >= limit
            }
            _ => false,
        }
    }

    /// Whether the hard budget is spent. Never while pondering.
    #[must_use]
    pub fn hard_expired(&self, control: &SearchControl) -> bool {
        match self.hard {
            Some(hard) if !control.is_pondering() => control.clock_elapsed() >= hard,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Clock;

    fn clock(ours_ms: u64, increment_ms: u64) -> Limits<u16> {
        Limits {
            clock: Some(Clock {
                ours: Duration::from_millis(ours_ms),
                increment: Duration::from_millis(increment_ms),
                ..Clock::default()
            }),
            ..Limits::none()
        }
    }

    #[test]
    fn move_time_keeps_the_overhead_back() {
        let manager =
            TimeManager::new(&Limits::<u16>::move_time(Duration::from_millis(1000)), Duration::from_millis(50), 30);
        assert_eq!(manager.hard(), Some(Duration::from_millis(950)));
        assert_eq!(manager.soft(), manager.hard());
    }

    #[test]
    fn a_fixed_move_time_is_not_cut_short_by_a_stable_best_move() {
        let control = SearchControl::new();
        control.reset(false);
        std::thread::sleep(Duration::from_millis(20));
        let fixed = TimeManager::new(&Limits::<u16>::move_time(Duration::from_secs(10)), Duration::ZERO, 30);
        assert!(!fixed.soft_expired(&control, 0.001), "the whole move time is searched");
        let clocked = TimeManager::new(&clock(300_000, 0), Duration::ZERO, 30);
        assert!(clocked.soft_expired(&control, 0.001), "a clock budget shrinks with a stable move");
    }

    #[test]
    fn clock_budget_is_a_fraction_of_the_time_left() {
        let manager = TimeManager::new(&clock(60_000, 0), Duration::from_millis(0), 30);
        assert_eq!(manager.soft(), Some(Duration::from_millis(2000)));
        assert_eq!(manager.hard(), Some(Duration::from_millis(8000)));
    }

    #[test]
    fn tiny_clock_never_exceeds_what_is_left() {
        // 1 s + 10 ms increment at the very start, with a 30 ms overhead: hard must stay far below 1 s.
        let manager = TimeManager::new(&clock(1000, 10), Duration::from_millis(30), 30);
        let hard = manager.hard().unwrap();
        assert!(hard <= Duration::from_millis(400), "{hard:?}");
        assert!(manager.soft().unwrap() <= hard);
        let nearly_flagged = TimeManager::new(&clock(5, 10), Duration::from_millis(30), 30);
        assert_eq!(nearly_flagged.hard(), Some(MIN_BUDGET));
    }

    #[test]
    fn byo_yomi_period_is_usable_once_main_time_is_gone() {
        let limits = Limits::<u16> {
            clock: Some(Clock { byo_yomi: Some(Duration::from_secs(5)), ..Clock::default() }),
            ..Limits::none()
        };
        let manager = TimeManager::new(&limits, Duration::from_millis(100), 30);
        assert_eq!(manager.hard(), Some(Duration::from_millis(4900)));
        assert!(manager.soft().unwrap() < manager.hard().unwrap());
    }

    #[test]
    fn pondering_suspends_the_budget_and_ponderhit_restarts_it() {
        let control = SearchControl::new();
        control.reset(true);
        let manager = TimeManager { soft: Some(Duration::ZERO), hard: Some(Duration::ZERO), ..TimeManager::default() };
        assert!(!manager.hard_expired(&control));
        control.ponderhit();
        assert!(manager.hard_expired(&control));
        assert!(TimeManager::new(&Limits::<u16>::none(), Duration::ZERO, 30).hard().is_none());
    }
}
