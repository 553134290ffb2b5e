//! Time systems from `time_settings`, `kgs-time_settings` and `time_left`, turned into core clocks.

use std::time::Duration;

use tessera_core::Clock;

use crate::command::KgsTime;
use crate::vertex::Color;

/// The time system of the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No limit: the engine's default thinking time applies.
    None,
    /// Main time only.
    Absolute,
    /// Japanese byo-yomi: `periods` periods of `period` seconds, one move each.
    Byoyomi {
        /// Seconds per period.
        period: f64,
    },
    /// Canadian: `stones` moves in every `period` seconds.
    Canadian {
        /// Seconds per block.
        period: f64,
        /// Stones per block.
        stones: u32,
    },
}

/// The clocks of both players as the controller reports them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    system: TimeSystem,
    main: f64,
    /// Seconds and stones left (0 stones = main time) per colour, from `time_left`.
    left: [Option<(f64, u32)>; 2],
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl { system: TimeSystem::None, main: 0.0, left: [None; 2] }
    }
}

impl TimeControl {
    /// GTP `time_settings main byo_time byo_stones`.
    #[must_use]
    pub fn from_gtp(main: f64, byo_time: f64, byo_stones: u32) -> TimeControl {
        let system = if byo_time > 0.0 && byo_stones == 0 {
            TimeSystem::None // the GTP spec: byo-yomi time without stones means no limit
        } else if byo_time == 0.0 {
            if main > 0.0 {
                TimeSystem::Absolute
            } else {
                TimeSystem::None
            }
        } else {
            TimeSystem::Canadian { period: byo_time, stones: byo_stones }
        };
        TimeControl { system, main, left: [None; 2] }
    }

    /// `kgs-time_settings`.
    #[must_use]
    pub fn from_kgs(time: KgsTime) -> TimeControl {
        let (system, main) = match time {
            KgsTime::None => (TimeSystem::None, 0.0),
            KgsTime::Absolute(main) => (TimeSystem::Absolute, main),
            KgsTime::Byoyomi { main, period, periods } if periods > 0 && period > 0.0 => {
                (TimeSystem::Byoyomi { period }, main)
            }
            KgsTime::Byoyomi { main, .. } => (TimeSystem::Absolute, main),
            KgsTime::Canadian { main, period, stones } if stones > 0 && period > 0.0 => {
                (TimeSystem::Canadian { period, stones }, main)
            }
            KgsTime::Canadian { main, .. } => (TimeSystem::Absolute, main),
        };
        TimeControl { system, main, left: [None; 2] }
    }

    /// The system in force.
    #[must_use]
    pub fn system(&self) -> TimeSystem {
        self.system
    }

    /// `time_left color time stones`.
    pub fn set_left(&mut self, color: Color, seconds: f64, stones: u32) {
        self.left[usize::from(color == Color::White)] = Some((seconds, stones));
    }

    /// A new game: both clocks full again (the system stays).
    pub fn restart(&mut self) {
        self.left = [None; 2];
    }

    /// `color` took `seconds` over a move: its clock runs down as the controller's does, so that
    /// a controller that never sends `time_left` still sees the time system kept. The next
    /// `time_left` overrides this count.
    pub fn spend(&mut self, color: Color, seconds: f64) {
        let slot = &mut self.left[usize::from(color == Color::White)];
        let (mut left, mut stones) = slot.unwrap_or((self.main, 0));
        left -= seconds;
        match self.system {
            TimeSystem::None => return,
            TimeSystem::Absolute => left = left.max(0.0),
            // A byo-yomi move inside its period gets the whole period back (a slower one costs a
            // period, which this count does not know the number of).
            TimeSystem::Byoyomi { period } if stones > 0 || left < 0.0 => (left, stones) = (period, 1),
            TimeSystem::Byoyomi { .. } => {}
            TimeSystem::Canadian { period, stones: block } => {
                if stones == 0 && left < 0.0 {
                    // Main time ran out during this move: it is the first stone of the first block.
                    (left, stones) = (period + left, block);
                }
                if stones > 0 {
                    stones -= 1;
                    if stones == 0 {
                        (left, stones) = (period, block); // the block is done: a new one starts
                    }
                }
                left = left.max(0.0);
            }
        }
        *slot = Some((left, stones));
    }

    /// The most a clock can show under this system: the main time, or one overtime period once
    /// in overtime (`stones` > 0). A `time_left` beyond it (`time_left b 99999999 0`) is a
    /// controller's mistake, and believing it would spend hours on one move.
    fn most_on_clock(&self, stones: u32) -> f64 {
        match self.system {
            TimeSystem::None => f64::INFINITY,
            TimeSystem::Byoyomi { period } | TimeSystem::Canadian { period, .. } if stones > 0 => period,
            TimeSystem::Byoyomi { period } | TimeSystem::Canadian { period, .. } => self.main.max(period),
            TimeSystem::Absolute => self.main,
        }
    }

    /// The clock for `color`'s next move, or `None` when untimed.
    #[must_use]
    pub fn clock(&self, color: Color) -> Option<Clock> {
        let seconds = |s: f64| Duration::from_secs_f64(s.clamp(0.0, 1e7));
        let (left, stones) = self.left[usize::from(color == Color::White)].unwrap_or((self.main, 0));
        let base = Clock { ours: seconds(left.min(self.most_on_clock(stones))), ..Clock::default() };
        match self.system {
            TimeSystem::None => None,
            TimeSystem::Absolute => Some(base),
            TimeSystem::Byoyomi { .. } if stones > 0 => {
                // In byo-yomi: the time left is that of the current period, for one move.
                Some(Clock { moves_to_go: Some(1), ..base })
            }
            TimeSystem::Byoyomi { period } => Some(Clock { byo_yomi: Some(seconds(period)), ..base }),
            TimeSystem::Canadian { .. } if stones > 0 => Some(Clock { moves_to_go: Some(stones), ..base }),
            TimeSystem::Canadian { period, stones } => {
                Some(Clock { byo_yomi: Some(seconds(period / f64::from(stones.max(1)))), ..base })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn systems_map_to_clocks() {
        assert_eq!(TimeControl::from_gtp(0.0, 5.0, 0).clock(Color::Black), None);
        let mut canadian = TimeControl::from_gtp(60.0, 30.0, 5);
        assert_eq!(canadian.clock(Color::Black).unwrap().byo_yomi, Some(Duration::from_secs(6)));
        canadian.set_left(Color::Black, 20.0, 4);
        let clock = canadian.clock(Color::Black).unwrap();
        assert_eq!((clock.ours, clock.moves_to_go), (Duration::from_secs(20), Some(4)));
        let byoyomi = TimeControl::from_kgs(KgsTime::Byoyomi { main: 0.0, period: 10.0, periods: 3 });
        assert_eq!(byoyomi.clock(Color::White).unwrap().byo_yomi, Some(Duration::from_secs(10)));
        let absolute = TimeControl::from_kgs(KgsTime::Absolute(300.0));
        assert_eq!(absolute.clock(Color::White).unwrap().ours, Duration::from_secs(300));
    }

    #[test]
    fn clocks_run_down_without_time_left() {
        let seconds = |control: &TimeControl, color| control.clock(color).map(|clock| clock.ours.as_secs_f64());
        let mut absolute = TimeControl::from_gtp(60.0, 0.0, 0);
        absolute.spend(Color::Black, 15.0);
        assert_eq!(seconds(&absolute, Color::Black), Some(45.0));
        assert_eq!(seconds(&absolute, Color::White), Some(60.0), "each colour has its own clock");
        absolute.spend(Color::Black, 50.0);
        assert_eq!(seconds(&absolute, Color::Black), Some(0.0));
        absolute.set_left(Color::Black, 30.0, 0);
        assert_eq!(seconds(&absolute, Color::Black), Some(30.0), "time_left overrides the count");
        absolute.restart();
        assert_eq!(seconds(&absolute, Color::Black), Some(60.0), "a new game starts full");

        // Canadian: 10 s main, then 5 stones in 20 s.
        let mut canadian = TimeControl::from_gtp(10.0, 20.0, 5);
        canadian.spend(Color::White, 12.0);
        let clock = canadian.clock(Color::White).unwrap();
        assert_eq!((clock.ours.as_secs_f64(), clock.moves_to_go), (18.0, Some(4)), "2 s and a stone into a block");
        for _ in 0..3 {
            canadian.spend(Color::White, 3.0);
        }
        let clock = canadian.clock(Color::White).unwrap();
        assert_eq!((clock.ours.as_secs_f64(), clock.moves_to_go), (9.0, Some(1)));
        canadian.spend(Color::White, 3.0);
        let clock = canadian.clock(Color::White).unwrap();
        assert_eq!((clock.ours.as_secs_f64(), clock.moves_to_go), (20.0, Some(5)), "the next block");

        // Japanese byo-yomi: each move in overtime has one period.
        let mut byoyomi = TimeControl::from_kgs(KgsTime::Byoyomi { main: 5.0, period: 10.0, periods: 3 });
        byoyomi.spend(Color::Black, 4.0);
        assert_eq!(byoyomi.clock(Color::Black).unwrap().moves_to_go, None, "still in main time");
        byoyomi.spend(Color::Black, 4.0);
        let clock = byoyomi.clock(Color::Black).unwrap();
        assert_eq!((clock.ours.as_secs_f64(), clock.moves_to_go), (10.0, Some(1)));
        byoyomi.spend(Color::Black, 7.0);
        assert_eq!(byoyomi.clock(Color::Black).unwrap().ours.as_secs_f64(), 10.0, "the period comes back");

        let mut untimed = TimeControl::default();
        untimed.spend(Color::Black, 100.0);
        assert_eq!(untimed.clock(Color::Black), None);
    }

    #[test]
    fn time_left_beyond_the_time_system_is_clamped() {
        let mut absolute = TimeControl::from_gtp(60.0, 0.0, 0);
        absolute.set_left(Color::Black, 99_999_999.0, 0);
        assert_eq!(absolute.clock(Color::Black).unwrap().ours, Duration::from_secs(60));
        absolute.set_left(Color::Black, 12.5, 0);
        assert_eq!(absolute.clock(Color::Black).unwrap().ours, Duration::from_millis(12_500));
        let mut canadian = TimeControl::from_gtp(60.0, 30.0, 5);
        canadian.set_left(Color::White, 1e9, 5);
        assert_eq!(canadian.clock(Color::White).unwrap().ours, Duration::from_secs(30));
    }
}
