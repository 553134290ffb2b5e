//! What Tessera's go player decides beyond the search: rule sets by name, handicap placement,
//! the score and dead stones it reports to a controller, when to play on instead of passing, and
//! when to resign. Protocol sessions ask; the answers live here, with the rules they depend on.

use tessera_core::{Game, Playout, Score, SearchResult};

use crate::board::{Board, Cell};
use crate::handicap::{fixed_handicap_points, free_handicap_points, place_handicap, HandicapError};
use crate::life::judge;
use crate::position::{Move, Moves, Position};
use crate::rules::{Rules, RulesError};
use crate::sgf::{self, SgfError};

/// Why a request about the game was refused. The texts are the ones GTP controllers expect.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// A rule set we do not know.
    #[error("unknown rules")]
    Rules(#[from] RulesError),
    /// Handicap stones that cannot be placed (`invalid handicap`, `board not empty`).
    #[error(transparent)]
    Handicap(#[from] HandicapError),
    /// An SGF record that cannot be used.
    #[error(transparent)]
    Sgf(#[from] SgfError),
}

/// How handicap stones are placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// GNU Go's fixed points.
    Fixed,
    /// Our own choice, spread out.
    Free,
}

/// The life of stones at the end of a game, as the referee judges it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Alive (not dead, not in seki).
    Alive,
    /// Dead: removed before counting.
    Dead,
    /// Alive in seki.
    Seki,
}

/// The rules called `name` by a controller (KGS's `kgs-rules`), keeping `komi`. Territory rule
/// sets are played by area here: only their superko and suicide rules would differ.
///
/// # Errors
/// [`Refusal::Rules`] for a name we do not know.
pub fn rules_named(name: &str, komi: f32) -> Result<Rules, Refusal> {
    let rules = match name.to_ascii_lowercase().as_str() {
        "japanese" | "aga" | "chinese" => Rules::CHINESE,
        other => other.parse::<Rules>()?,
    };
    Ok(rules.with_komi(komi))
}

fn is_empty(position: &Position) -> bool {
    position.board().points().all(|p| position.board().cell(p) == Cell::Empty)
}

/// Puts `stones` handicap stones on an empty board and returns where they went.
///
/// # Errors
/// `invalid handicap` for a number the board does not take, `board not empty` otherwise.
pub fn handicap(position: &mut Position, placement: Placement, stones: usize) -> Result<Vec<Move>, Refusal> {
    if !is_empty(position) {
        return Err(HandicapError::BoardNotEmpty.into());
    }
    let points = match placement {
        Placement::Fixed => fixed_handicap_points(position.size(), stones),
        Placement::Free => free_handicap_points(position.board(), stones),
    }?;
    let moves: Vec<Move> = points.into_iter().map(Move::at).collect();
    set_handicap(position, &moves)?;
    Ok(moves)
}

/// Puts black stones on the given points of an empty board (the controller's choice).
///
/// # Errors
/// `invalid handicap` for too many stones, `board not empty` when moves or stones are there.
pub fn set_handicap(position: &mut Position, stones: &[Move]) -> Result<(), Refusal> {
    if stones.len() >= position.size() * position.size() {
        return Err(HandicapError::Invalid.into());
    }
    if !is_empty(position) || position.ply() > 0 {
        return Err(HandicapError::BoardNotEmpty.into());
    }
    let mut board = Board::new(position.size());
    let points: Vec<usize> = stones.iter().filter_map(|mv| mv.point()).collect();
    place_handicap(&mut board, &points)?;
    *position = Position::from_board(board, *position.rules());
    Ok(())
}

/// A result as SGF and GTP write it: `B+3.5`, `W+0.5`, or `0` for a tie.
#[must_use]
pub fn result_text(score: f32) -> String {
    if score > 0.0 {
        format!("B+{score}")
    } else if score < 0.0 {
        format!("W+{}", -score)
    } else {
        "0".to_string()
    }
}

/// The final score the referee gives (dead stones removed, area counting), as `B+3.5`.
#[must_use]
pub fn final_score(position: &Position) -> String {
    result_text(judge(position).score)
}

/// The stones the referee gives `status`.
#[must_use]
pub fn stones_with_status(position: &Position, status: Status) -> Vec<Move> {
    let judgement = judge(position);
    let board = position.board();
    let stones = board.points().filter(|&p| board.cell(p) != Cell::Empty);
    let listed: Vec<usize> = match status {
        Status::Dead => judgement.dead,
        Status::Seki => judgement.seki,
        Status::Alive => stones
            .filter(|p| judgement.dead.binary_search(p).is_err() && judgement.seki.binary_search(p).is_err())
            .collect(),
    };
    listed.into_iter().map(Move::at).collect()
}

/// Whether dead stones remain on the board or the life of some stones is still open: then we
/// play on instead of passing (free under area scoring), so that the final position is one every
/// referee scores alike.
#[must_use]
pub fn is_unsettled(position: &Position) -> bool {
    let judgement = judge(position);
    let board = position.board();
    // Dead stones still on the board, or stones (seki aside) whose fate playouts do not agree on.
    !judgement.dead.is_empty()
        || board.points().any(|p| {
            board.cell(p) != Cell::Empty
                && judgement.ownership[p].abs() < 0.8
                && judgement.seki.binary_search(&p).is_err()
        })
}

/// The moves a `genmove` search may choose from (empty: every move). While the board is
/// unsettled ([`is_unsettled`]) the pass is left out where it would end the game, after the
/// opponent's pass, and throughout `kgs-genmove_cleanup`. Searched there, the pass would take
/// nearly every playout, since two passes end a game in the tree at the area count of the board as
/// it stands, and the move played on instead would be one the search hardly looked at.
#[must_use]
pub fn root_moves(position: &Position, cleanup: bool) -> Vec<Move> {
    // One pass on the board: a second would end the game (the tree's terminal rule).
    let pass_ends_game = position.board().consecutive_passes() > 0;
    if !(cleanup || pass_ends_game) || !is_unsettled(position) {
        return Vec::new();
    }
    let mut moves = Moves::default();
    position.generate_tree_moves(&mut moves);
    moves.iter().copied().filter(|&mv| mv != Move::PASS).collect()
}

/// Reads an SGF record, up to (not including) move `move_number` if given, under Chinese rules.
///
/// # Errors
/// [`Refusal::Sgf`] when the text is not a usable record.
pub fn load_sgf(text: &str, move_number: Option<usize>) -> Result<Position, Refusal> {
    Ok(sgf::parse(text)?.to_position(Rules::CHINESE, move_number)?)
}

/// `position` as SGF from `application` (`AP`), with the referee's result once the game is over.
#[must_use]
pub fn save_sgf(position: &Position, application: &str) -> String {
    let result = position.is_over().then(|| final_score(position));
    sgf::write(position, result.as_deref(), application)
}

/// Playouts needed before resigning is considered (a few visits say little).
const RESIGN_MIN_PLAYOUTS: u64 = 500;

/// What a finished `genmove` search found, for [`Policy::answer`].
#[derive(Clone, Copy, Debug)]
pub struct Search<'a> {
    /// The searcher's result.
    pub result: &'a SearchResult<Move>,
    /// `kgs-genmove_cleanup`: never resign.
    pub cleanup: bool,
    /// The fixed playout budget per move, if any (resigning needs fewer playouts then).
    pub budget: Option<u64>,
}

/// When to resign and when not to pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// Resign when the best move's win rate falls below this (0 = never).
    pub resign_threshold: f32,
}

impl Default for Policy {
    fn default() -> Self {
        Policy { resign_threshold: 0.08 }
    }
}

impl Policy {
    /// Our move after `search`: the searcher's choice (a pass when it has none), or `None` to
    /// resign. (Where not to pass is decided before the search: [`root_moves`].)
    #[must_use]
    pub fn answer(&self, search: &Search<'_>) -> Option<Move> {
        let best = search.result.best;
        let win_rate = match search.result.score {
            Score::WinRate(rate) => rate,
            other => other.win_rate(1.0),
        };
        let resign = !search.cleanup
            && self.resign_threshold > 0.0
            && search.result.nodes >= RESIGN_MIN_PLAYOUTS.min(search.budget.unwrap_or(u64::MAX))
            && win_rate < self.resign_threshold;
        if resign {
            None
        } else {
            Some(best.unwrap_or(Move::PASS))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_like_sgf() {
        assert_eq!(result_text(3.5), "B+3.5");
        assert_eq!(result_text(-0.5), "W+0.5");
        assert_eq!(result_text(0.0), "0");
    }

    #[test]
    fn handicap_needs_an_empty_board_and_rule_names_keep_komi() {
        let mut position = Position::new(9, Rules::CHINESE);
        assert_eq!(handicap(&mut position, Placement::Fixed, 2).map(|stones| stones.len()), Ok(2));
        assert_eq!(handicap(&mut position, Placement::Fixed, 2), Err(HandicapError::BoardNotEmpty.into()));
        assert_eq!(rules_named("Japanese", 6.5).map(|rules| rules.komi), Ok(6.5));
        assert!(matches!(rules_named("martian", 0.0), Err(Refusal::Rules(_))));
    }

    #[test]
    fn resigns_only_with_enough_playouts_and_a_low_win_rate() {
        let result = SearchResult {
            best: Some(Move::PASS),
            ponder: None,
            score: Score::WinRate(0.01),
            depth: 1,
            nodes: 1000,
            time: std::time::Duration::ZERO,
            pv: Vec::new(),
        };
        let search = Search { result: &result, cleanup: false, budget: None };
        assert_eq!(Policy::default().answer(&search), None);
        assert_eq!(Policy { resign_threshold: 0.0 }.answer(&search), Some(Move::PASS));
        let cleanup = Search { cleanup: true, ..search };
        assert_eq!(Policy::default().answer(&cleanup), Some(Move::PASS));
    }
}
