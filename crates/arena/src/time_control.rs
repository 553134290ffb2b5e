//! Time controls of a match and the clocks of one game.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use tessera_core::{Clock, Limits, Side};

/// How much thinking each move may take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A game clock: `base` for `moves` moves (or the whole game), plus `increment` per move.
    Clock {
        /// Time on each clock at the start (and at each new period).
        base: Duration,
        /// Time added after each move.
        increment: Duration,
        /// Moves per period (`40/60` gives 60 s for every 40 moves), `None` for the whole game.
        moves: Option<u32>,
    },
    /// Gomocup's clock: `game` for the whole game, and no move longer than `turn` (pbrain's
    /// `timeout_match` and `timeout_turn`; the manager sends `time_left` before every move).
    Gomocup {
        /// The longest one move may take.
        turn: Duration,
        /// Time on each clock at the start, for the whole game.
        game: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed search depth per move (no clock).
    Depth(u32),
    /// A fixed node count per move (no clock).
    Nodes(u64),
}

/// Why a time control did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad time control `{0}`: use 5+0.05, 40/60+0, st=0.5, gomocup=5/120, depth=8 or nodes=10000")]
pub struct TimeControlError(String);

fn seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.parse().ok()?;
    (value.is_finite() && value >= 0.0).then(|| Duration::from_secs_f64(value))
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads cutechess-style time controls: `5+0.05` (seconds + increment), `40/60+0` (moves per
    /// period), `60` (no increment), `st=0.5` or `movetime=0.5` (seconds per move), `gomocup=5/120`
    /// (at most 5 s a move, 120 s a game), `depth=8`, `nodes=10000`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || TimeControlError(text.to_string());
        if let Some((key, value)) = text.split_once('=') {
            return match key {
                "st" | "movetime" => seconds(value).filter(|time| !time.is_zero()).map(TimeControl::MoveTime),
                "depth" => value.parse().ok().filter(|&depth| depth > 0).map(TimeControl::Depth),
                "nodes" => value.parse().ok().filter(|&nodes| nodes > 0).map(TimeControl::Nodes),
                "gomocup" => value
                    .split_once('/')
                    .and_then(|(turn, game)| Some((seconds(turn)?, seconds(game)?)))
                    .filter(|(turn, game)| !turn.is_zero() && !game.is_zero())
                    .map(|(turn, game)| TimeControl::Gomocup { turn, game }),
                _ => None,
            }
            .ok_or_else(bad);
        }
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => (Some(moves.parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(bad)?), rest),
            None => (None, text),
        };
        let (base, increment) = rest.split_once('+').unwrap_or((rest, "0"));
        let base = seconds(base).filter(|base| !base.is_zero()).ok_or_else(bad)?;
        let increment = seconds(increment).ok_or_else(bad)?;
        Ok(TimeControl::Clock { base, increment, moves })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { base, increment, moves } => {
                if let Some(moves) = moves {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            TimeControl::Gomocup { turn, game } => write!(f, "gomocup={}/{}", turn.as_secs_f64(), game.as_secs_f64()),
            TimeControl::MoveTime(time) => write!(f, "st={}", time.as_secs_f64()),
            TimeControl::Depth(depth) => write!(f, "depth={depth}"),
            TimeControl::Nodes(nodes) => write!(f, "nodes={nodes}"),
        }
    }
}

/// The two clocks of one game.
#[derive(Clone, Debug)]
pub struct GameClocks {
    control: TimeControl,
    remaining: [Duration; 2],
    moves_made: [u32; 2],
}

/// A player used more time than it had (beyond the margin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeForfeit {
    /// Who lost on time.
    pub side: Side,
    /// How far over the limit the move went.
    pub over_by: Duration,
}

impl GameClocks {
    /// Both clocks full.
    #[must_use]
    pub fn new(control: TimeControl) -> Self {
        let base = match control {
            TimeControl::Clock { base, .. } | TimeControl::Gomocup { game: base, .. } => base,
            _ => Duration::ZERO,
        };
        GameClocks { control, remaining: [base; 2], moves_made: [0; 2] }
    }

    /// Time left on `side`'s clock (zero for clockless controls).
    #[must_use]
    pub fn remaining(&self, side: Side) -> Duration {
        self.remaining[side.index()]
    }

    /// What to tell the engine of `side` about its limits before its move.
    #[must_use]
    pub fn limits<M>(&self, side: Side) -> Limits<M> {
        match self.control {
            TimeControl::Clock { increment, moves, .. } => Limits {
                clock: Some(Clock {
                    ours: self.remaining[side.index()],
                    theirs: Some(self.remaining[side.opponent().index()]),
                    increment,
                    moves_to_go: moves.map(|moves| moves - self.moves_made[side.index()] % moves),
                    byo_yomi: None,
                }),
                ..Limits::none()
            },
            // The move's cap rides beside the clock as its move time (a pbrain client sends it as
            // `timeout_turn`).
            TimeControl::Gomocup { turn, .. } => Limits {
                clock: Some(Clock {
                    ours: self.remaining[side.index()],
                    theirs: Some(self.remaining[side.opponent().index()]),
                    ..Clock::default()
                }),
                move_time: Some(turn),
                ..Limits::none()
            },
            TimeControl::MoveTime(time) => Limits::move_time(time),
            TimeControl::Depth(depth) => Limits::depth(depth),
            TimeControl::Nodes(nodes) => Limits::nodes(nodes),
        }
    }

    /// The longest `side` may take for this move before it has lost on time, `margin` included.
    /// Clockless controls get a generous stall limit instead.
    #[must_use]
    pub fn allowance(&self, side: Side, margin: Duration) -> Duration {
        match self.control {
            TimeControl::Clock { .. } => self.remaining[side.index()] + margin,
            TimeControl::Gomocup { turn, .. } => self.remaining[side.index()].min(turn) + margin,
            TimeControl::MoveTime(time) => time + margin,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => Duration::from_secs(60) + margin,
        }
    }

    /// Charges `used` to `side`'s clock after its move.
    ///
    /// # Errors
    /// [`TimeForfeit`] when the move took longer than the allowance.
    pub fn charge(&mut self, side: Side, used: Duration, margin: Duration) -> Result<(), TimeForfeit> {
        let allowance = self.allowance(side, margin);
        if used > allowance {
            return Err(TimeForfeit { side, over_by: used - allowance });
        }
        let index = side.index();
        if let TimeControl::Clock { base, increment, moves } = self.control {
            self.remaining[index] = self.remaining[index].saturating_sub(used) + increment;
            self.moves_made[index] += 1;
            if moves.is_some_and(|moves| self.moves_made[index].is_multiple_of(moves)) {
                self.remaining[index] += base;
            }
        } else if let TimeControl::Gomocup { .. } = self.control {
            self.remaining[index] = self.remaining[index].saturating_sub(used);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_usual_forms() {
        let ms = Duration::from_millis;
        assert_eq!("5+0.05".parse(), Ok(TimeControl::Clock { base: ms(5000), increment: ms(50), moves: None }));
        assert_eq!("40/60+0".parse(), Ok(TimeControl::Clock { base: ms(60_000), increment: ms(0), moves: Some(40) }));
        assert_eq!("10".parse(), Ok(TimeControl::Clock { base: ms(10_000), increment: ms(0), moves: None }));
        assert_eq!("st=0.5".parse(), Ok(TimeControl::MoveTime(ms(500))));
        assert_eq!("depth=8".parse(), Ok(TimeControl::Depth(8)));
        assert_eq!("nodes=1000".parse(), Ok(TimeControl::Nodes(1000)));
        for bad in ["", "+1", "x+1", "0", "depth=0", "st=-1", "speed=3", "0/5+1"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!("gomocup=5/120".parse(), Ok(TimeControl::Gomocup { turn: ms(5000), game: ms(120_000) }));
        for bad in ["gomocup=5", "gomocup=0/120", "gomocup=5/0", "gomocup=x/120"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!("40/60+0.5".parse::<TimeControl>().unwrap().to_string(), "40/60+0.5");
        assert_eq!("gomocup=0.5/20".parse::<TimeControl>().unwrap().to_string(), "gomocup=0.5/20");
    }

    #[test]
    fn clocks_run_down_gain_increments_and_flag() {
        let control: TimeControl = "1+0.1".parse().unwrap();
        let mut clocks = GameClocks::new(control);
        let margin = Duration::from_millis(20);
        clocks.charge(Side::First, Duration::from_millis(300), margin).unwrap();
        assert_eq!(clocks.remaining(Side::First), Duration::from_millis(800));
        let limits = clocks.limits::<u8>(Side::Second);
        let clock = limits.clock.unwrap();
        assert_eq!((clock.ours, clock.theirs), (Duration::from_secs(1), Some(Duration::from_millis(800))));
        let forfeit = clocks.charge(Side::Second, Duration::from_millis(1100), margin).unwrap_err();
        assert_eq!(forfeit, TimeForfeit { side: Side::Second, over_by: Duration::from_millis(80) });
    }

    #[test]
    fn periods_refill_the_clock() {
        let mut clocks = GameClocks::new("2/10+0".parse().unwrap());
        assert_eq!(clocks.limits::<u8>(Side::First).clock.unwrap().moves_to_go, Some(2));
        clocks.charge(Side::First, Duration::from_secs(3), Duration::ZERO).unwrap();
        assert_eq!(clocks.limits::<u8>(Side::First).clock.unwrap().moves_to_go, Some(1));
        clocks.charge(Side::First, Duration::from_secs(3), Duration::ZERO).unwrap();
        assert_eq!(clocks.remaining(Side::First), Duration::from_secs(14));
    }

    #[test]
    fn a_gomocup_clock_caps_each_move_and_runs_down_without_increment() {
        let ms = Duration::from_millis;
        let mut clocks = GameClocks::new("gomocup=1/3".parse().unwrap());
        let margin = ms(100);
        // Each move is told the cap and both clocks.
        let limits = clocks.limits::<u8>(Side::First);
        assert_eq!(limits.move_time, Some(ms(1000)));
        assert_eq!(limits.clock.map(|clock| (clock.ours, clock.theirs)), Some((ms(3000), Some(ms(3000)))));
        // A move may use the cap (plus the margin) but not more, even with the game's time left.
        clocks.charge(Side::First, ms(1050), margin).unwrap();
        assert_eq!(clocks.remaining(Side::First), ms(1950));
        let forfeit = clocks.charge(Side::Second, ms(1150), margin).unwrap_err();
        assert_eq!(forfeit, TimeForfeit { side: Side::Second, over_by: ms(50) });
        // Once less than the cap is left, the game's time is the limit.
        clocks.charge(Side::First, ms(1000), margin).unwrap();
        assert_eq!(clocks.allowance(Side::First, margin), ms(1050));
        assert!(clocks.charge(Side::First, ms(1100), margin).is_err());
    }
}
