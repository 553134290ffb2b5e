//! What `INFO` tells about time and memory, and the budget of one move it gives (the session's
//! `settings` applies each key).

use std::time::Duration;

use tessera_core::memory;

/// What the manager told us about time and memory (milliseconds, bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeSettings {
    /// `timeout_turn`: per move, 0 = move at once.
    pub turn_ms: i64,
    /// `timeout_match`: per game, 0 = no limit.
    pub match_ms: i64,
    /// `time_left`: left in the game (may be negative; 2147483647 = unlimited), if sent.
    pub left_ms: Option<i64>,
    /// `max_memory` in bytes, 0 = no limit.
    pub max_memory: i64,
    /// What the manager charges a move beyond our search (its pipes and bookkeeping; Piskvork
    /// reads a byte at a time), in milliseconds, as measured from its `time_left` (`None` until
    /// measured).
    pub overhead_ms: Option<i64>,
}

impl TimeSettings {
    /// Takes in one measurement of the manager's cost of a move: the `time_left` it lost minus
    /// our search's time. Averaged, so that one slow move of the machine does not rule the rest.
    pub fn observe_overhead(&mut self, observed_ms: i64) {
        // Outside this range it is no measurement (a new game, a clock the manager reset).
        if !(0..=5_000).contains(&observed_ms) {
            return;
        }
        self.overhead_ms = Some(self.overhead_ms.map_or(observed_ms, |mean| (mean + observed_ms + 1) / 2));
    }
}

impl Default for TimeSettings {
    fn default() -> Self {
        // Gomocup's usual league values until the manager says otherwise.
        TimeSettings {
            turn_ms: 30_000,
            match_ms: 180_000,
            left_ms: None,
            max_memory: 350 * 1024 * 1024,
            overhead_ms: None,
        }
    }
}

/// Time kept back for the pipes and the manager's bookkeeping.
const SAFETY: Duration = Duration::from_millis(60);
/// Moves we expect to still play, for sharing out the match time.
const MOVES_TO_PLAN: i64 = 12;
/// The shortest search.
const FLOOR_MS: i64 = 5;

/// The time to spend on one move: within the turn limit and a share of the match time left, both
/// less what the manager charges a move beyond our search. The match time always keeps room for
/// `our_moves_left` more moves (at most: half the empty points) at the floor plus the manager's
/// cost: a long game (caro and renju run past 90 moves a side) must not find its clock spent on
/// the manager's overhead, and a lost game on time is the worst move there is.
#[must_use]
pub fn move_budget(settings: &TimeSettings, our_moves_left: i64) -> Duration {
    let floor = Duration::from_millis(FLOOR_MS as u64);
    if settings.turn_ms == 0 {
        return floor;
    }
    let overhead = settings.overhead_ms.unwrap_or(0);
    let mut budget = if settings.turn_ms > 0 {
        Duration::from_millis((settings.turn_ms - overhead).max(FLOOR_MS) as u64)
    } else {
        Duration::MAX
    };
    let limited_match = settings.match_ms > 0 || settings.left_ms.is_some_and(|left| left < i64::from(i32::MAX));
    if limited_match {
        let left = settings.left_ms.unwrap_or(settings.match_ms);
        let spendable = left.saturating_sub(our_moves_left.max(0).saturating_mul(FLOOR_MS + overhead));
        if spendable <= 0 {
            return floor;
        }
        budget = budget.min(Duration::from_millis((spendable / MOVES_TO_PLAN).max(1) as u64));
    }
    if budget == Duration::MAX {
        budget = Duration::from_secs(30);
    }
    // Short moves keep back a quarter at most; long ones 5%, and at least the pipe margin when it fits.
    let keep = (budget / 4).min(SAFETY).max(budget / 20);
    budget.saturating_sub(keep).max(floor)
}

/// Table memory in MiB for a memory limit in bytes: half of what is left after the program's
/// own 40 MB, at most what this machine can give ([`memory::max_table_mb`]); 128 MiB when there
/// is no limit (0).
#[must_use]
pub fn hash_mb_for(max_memory: i64) -> usize {
    if max_memory <= 0 {
        return 128;
    }
    let mb = max_memory / (1024 * 1024);
    ((mb - 40) / 2).clamp(1, memory::max_table_mb() as i64) as usize
}

/// Table memory in MiB for Yixin's `hash_size` in KiB: what is asked, within the memory limit
/// (if any) and what this machine can give.
#[must_use]
pub fn hash_mb_for_size(hash_size_kb: i64, max_memory: i64) -> usize {
    let cap = if max_memory > 0 { hash_mb_for(max_memory) } else { memory::max_table_mb() };
    ((hash_size_kb / 1024).max(1) as usize).min(cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Our moves left at most in the tests' games.
    const MOVES_LEFT: i64 = 25;

    #[test]
    fn budgets_respect_turn_and_match_time() {
        let mut settings =
            TimeSettings { turn_ms: 5000, match_ms: 120_000, left_ms: Some(120_000), ..TimeSettings::default() };
        assert!(
            move_budget(&settings, MOVES_LEFT) <= Duration::from_millis(5000)
                && move_budget(&settings, MOVES_LEFT) >= Duration::from_secs(4)
        );
        settings.left_ms = Some(6000);
        assert!(move_budget(&settings, MOVES_LEFT) <= Duration::from_millis(500));
        settings.left_ms = Some(-20);
        assert_eq!(move_budget(&settings, MOVES_LEFT), Duration::from_millis(5));
        settings.turn_ms = 0;
        settings.left_ms = Some(100_000);
        assert_eq!(move_budget(&settings, MOVES_LEFT), Duration::from_millis(5));
        let unlimited =
            TimeSettings { turn_ms: 1000, match_ms: 0, left_ms: Some(2_147_483_647), ..TimeSettings::default() };
        assert!(move_budget(&unlimited, MOVES_LEFT) >= Duration::from_millis(900));
        assert_eq!(hash_mb_for(350 * 1024 * 1024), 155);
    }

    #[test]
    fn the_managers_cost_per_move_comes_off_the_turn_and_keeps_a_reserve() {
        let mut settings =
            TimeSettings { turn_ms: 1000, match_ms: 20_000, left_ms: Some(20_000), ..TimeSettings::default() };
        let before = move_budget(&settings, MOVES_LEFT);
        // Piskvork charged 120 ms and 100 ms beyond our searches: 110 ms a move.
        settings.observe_overhead(120);
        settings.observe_overhead(100);
        assert_eq!(settings.overhead_ms, Some(110));
        settings.observe_overhead(-40); // no measurement: the clock was reset
        settings.observe_overhead(60_000);
        assert_eq!(settings.overhead_ms, Some(110));
        assert!(move_budget(&settings, MOVES_LEFT) < before);
        settings.left_ms = Some(100_000);
        assert!(move_budget(&settings, MOVES_LEFT) <= Duration::from_millis(890), "the turn less the manager's cost");
        // Little time left: kept for the moves to come, each at the floor plus the manager's cost.
        settings.left_ms = Some(25 * (5 + 110));
        assert_eq!(move_budget(&settings, MOVES_LEFT), Duration::from_millis(5));
        settings.left_ms = Some(25 * (5 + 110) + 1200);
        assert!(move_budget(&settings, MOVES_LEFT) <= Duration::from_millis(100));
    }

    #[test]
    fn a_game_that_fills_the_board_keeps_its_clock() {
        // A renju game under Piskvork at 1 s a move and 20 s a game, each move costing 60 ms
        // beyond the search: every move until the board is full must fit in the clock.
        let mut settings =
            TimeSettings { turn_ms: 1000, match_ms: 20_000, left_ms: Some(20_000), ..TimeSettings::default() };
        let overhead = 60;
        let mut empty = 15 * 15;
        while empty > 0 {
            let spent = i64::try_from(move_budget(&settings, (empty + 1) / 2).as_millis()).unwrap() + overhead;
            let left = settings.left_ms.unwrap() - spent;
            assert!(left >= 0, "clock spent with {empty} points empty");
            settings.left_ms = Some(left);
            settings.observe_overhead(overhead);
            empty -= 2;
        }
    }

    #[test]
    fn tables_take_what_the_memory_limit_leaves() {
        assert_eq!(hash_mb_for(i64::MAX), memory::max_table_mb());
        assert_eq!(hash_mb_for_size(64 * 1024, 0), 64);
        assert_eq!(hash_mb_for_size(i64::MAX, 350 * 1024 * 1024), 155);
    }
}
