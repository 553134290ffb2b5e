//! The searcher interface shared by alpha-beta and MCTS, and the hooks a game offers each of them.

use crate::game::{Game, Side};
use crate::info::{InfoSink, SearchResult};
use crate::limits::{EngineOptions, Limits};
use crate::moves::MoveBuffer;
use crate::rng::Rng;
use crate::score::MATE_BOUND;
use crate::time::SearchControl;

/// A search algorithm for game `G`. Owned by one engine controller thread; it may spawn helpers.
pub trait Searcher<G: Game>: Send + 'static {
    /// Searches `root` within `limits` until done or `control` says stop; reports to `sink` as
    /// it goes. Returns a legal best move whenever `root` has one, even if stopped at once.
    fn search(
        &mut self,
        root: &G,
        limits: &Limits<G::Move>,
        control: &SearchControl,
        sink: &mut dyn InfoSink<G::Move>,
    ) -> SearchResult<G::Move>;

    /// Forgets everything learnt (a new game starts).
    fn clear(&mut self);

    /// Applies engine-wide options (threads, memory, MultiPV, overhead).
    fn set_options(&mut self, options: &EngineOptions);

    /// The memory the searcher's tables may use, in MiB, after the last [`Searcher::set_options`]:
    /// below the requested `hash_mb` when the system could not give that much (protocols tell the
    /// user). `None` for a searcher without such tables.
    fn memory_mb(&self) -> Option<usize> {
        None
    }
}

/// Pruning margins and search refinements a game tunes for the alpha-beta searcher. Zero (or
/// `false`) disables a technique, so a game opts into each one after measuring it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Reverse futility: at depth `d` a node whose eval beats beta by `d * margin` is cut.
    pub reverse_futility_margin: i32,
    /// Futility: quiet moves at depth `d` are skipped when eval + `d * margin` cannot reach alpha.
    pub futility_margin: i32,
    /// The deepest nodes where futility and the pruning that goes with it (late moves, quiet moves
    /// and captures losing by exchange) apply.
    pub futility_depth: i32,
    /// Late-move pruning, where futility applies: at depth `d` the quiet moves after the first
    /// `3 + scale × d²` (half as many where the evaluation is not improving) are skipped.
    pub late_move_scale: i32,
    /// Where futility applies, a late quiet move whose static exchange loses more than
    /// `margin × d²` at depth `d` is skipped (a piece left where it is taken for less). Zero
    /// disables it.
    pub quiet_exchange_margin: i32,
    /// ProbCut: at depth 5 or more, a node is cut when a capture beats beta by this margin in
    /// quiescence and then in a search four plies shallower. Zero disables it.
    pub probcut_margin: i32,
    /// Correction history: the static evaluation is corrected by a running average of how far it
    /// missed the searched value at earlier nodes with the same [`Evaluate::correction_key`], by
    /// at most this much. Zero disables it.
    pub correction_limit: i32,
    /// Null move (where the game allows it): the pass is searched
    /// `null_move_reduction + depth / divisor` plies shallower, and one more per
    /// [`Pruning::null_move_eval_unit`] the evaluation is above beta, up to 3 more.
    pub null_move_divisor: i32,
    /// The null move's least reduction in plies (see [`Pruning::null_move_divisor`]).
    pub null_move_reduction: i32,
    /// How far above beta (in the evaluation's units) the null move is reduced one ply more.
    /// This and the divisor are positive: a game that sets either to zero does not compile.
    pub null_move_eval_unit: i32,
    /// Razoring: at depth `d` up to [`Pruning::razor_depth`] a node whose eval is `d × margin`
    /// below alpha drops to quiescence, and is cut where quiescence stays below alpha.
    pub razor_margin: i32,
    /// The deepest nodes razoring applies to.
    pub razor_depth: i32,
    /// Late-move reductions on quiet moves, and how deep they cut, in hundredths: a quiet move
    /// `index` at depth `d` is reduced by 0.75 + ln d × ln index / (this / 100) plies, before the
    /// adjustments. Zero disables them.
    pub late_move_reduction_divisor: i32,
    /// Half-width of the first aspiration window around the previous iteration's value.
    pub aspiration_window: i32,
    /// Whether the static evaluation rising over two plies ("improving") tightens reverse
    /// futility and late-move pruning and lightens reductions; falling does the opposite.
    pub improving: bool,
    /// Whether nodes without a table move are searched one ply shallower (internal iterative
    /// reduction): the table move they lack is what a shallow search finds cheaply.
    pub internal_iterative_reductions: bool,
    /// History-guided reductions: a late move's reduction shrinks by one ply per this many points
    /// of its quiet history (grows where the history is negative). Zero disables them.
    pub history_reduction_unit: i32,
    /// What a cutoff at depth `d` adds to the move histories: `scale × d²`, at most a quarter of
    /// their bound (16,384). A larger scale lets recent cutoffs outweigh old ones sooner (the
    /// histories saturate) and lets history-guided reductions act.
    pub history_bonus_scale: i32,
    /// Singular extensions: the table move is extended when every other move fails low against
    /// its value minus `margin × depth / 8`. Zero disables them.
    pub singular_margin: i32,
    /// Whether quiescence probes and fills the transposition table, and a table value whose
    /// bound allows it replaces the static evaluation in pruning decisions.
    pub table_refinements: bool,
    /// Whether tactical moves are ordered also by a capture history, kept by move context: within
    /// the winning and the losing captures each, those that refuted earlier nodes come sooner.
    pub capture_history: bool,
    /// Whether late quiet moves at an expected cut node are reduced one ply more. A zero-window
    /// child searched at reduced depth is expected to fail high (its move looked poor), the
    /// children searched at full depth expect the opposite of their parent, and a node expected
    /// to fail high usually does so on its first moves: the later ones matter little.
    pub cut_node_reductions: bool,
    /// Whether late quiet moves that give check are reduced too, one ply less than the others: a
    /// check ordered late is seldom the best move, and one that matters fails high in its
    /// reduced search and is searched again at full depth.
    pub check_reductions: bool,
    /// Whether late quiet moves are reduced one ply more where the table move is tactical: a
    /// node whose best known answer is a capture is seldom saved by a quiet move.
    pub tactical_table_move_reductions: bool,
    /// Whether late quiet moves are reduced one ply more once more than
    /// three of the node's children have failed high (Stockfish's cutoff count): replies that keep
    /// refuting the moves tried so far say the later ones will be refuted too.
    pub cutoff_count_reductions: bool,
    /// Whether a node that fails low credits its parent's quiet move: the move is then a good
    /// answer to the moves before it, and its continuation history gains as for a cutoff at the
    /// node's depth (Stockfish's prior-countermove bonus).
    pub prior_move_bonus: bool,
    /// Whether the time spent on a move also depends on the share of the search that went into
    /// the best move: a large share says it is clear, a small one that rivals came close.
    pub node_time_management: bool,
}

impl Pruning {
    /// Full-width search with no speculative pruning: what tiny games and solvers want. (The null
    /// move is the game's choice, [`NullMove::ENABLED`]; the late-move count, the null move's
    /// depth and the depths of futility and razoring are defaults for games that turn them on.)
    pub const NONE: Pruning = Pruning {
        reverse_futility_margin: 0,
        futility_margin: 0,
        futility_depth: 6,
        late_move_scale: 2,
        quiet_exchange_margin: 0,
        probcut_margin: 0,
        correction_limit: 0,
        null_move_divisor: 4,
        null_move_reduction: 3,
        null_move_eval_unit: 200,
        razor_margin: 0,
        razor_depth: 2,
        late_move_reduction_divisor: 0,
        aspiration_window: 0,
        improving: false,
        internal_iterative_reductions: false,
        history_reduction_unit: 0,
        history_bonus_scale: 1,
        singular_margin: 0,
        table_refinements: false,
        capture_history: false,
        cut_node_reductions: false,
        check_reductions: false,
        tactical_table_move_reductions: false,
        cutoff_count_reductions: false,
        prior_move_bonus: false,
        node_time_management: false,
    };
}

/// A static evaluation for the alpha-beta searcher.
pub trait Evaluate: Game {
    /// How aggressively the searcher may prune in this game.
    const PRUNING: Pruning = Pruning::NONE;

    /// The least value [`Evaluate::evaluate`] gives only to a position it has proven won (gomoku:
    /// a five or a straight four to play), below the mate values; no other evaluation reaches it.
    /// The searcher treats a line lost by at least this much as lost by force: a node whose
    /// searched moves all lose so prunes none of the others and tries the moves its list left
    /// out. Default: [`MATE_BOUND`], the evaluation proving nothing.
    const DECISIVE: i32 = MATE_BOUND;

    /// The position's value for the side to move, within `±score::MAX_EVAL`.
    fn evaluate(&self) -> i32;

    /// The static evaluation of a node searched with the window `(alpha, beta)`: the stand-pat of
    /// quiescence and the value the main search prunes by. A game whose exact evaluation is costly
    /// may answer a cheaper estimate where that lies clearly outside the window; near it, it must
    /// answer [`Evaluate::evaluate`]. The searcher keeps the answer in its table as the node's
    /// static evaluation, so a later visit with another window may be given the estimate.
    /// Default: always [`Evaluate::evaluate`].
    fn evaluate_within(&self, alpha: i32, beta: i32) -> i32 {
        let _ = (alpha, beta);
        self.evaluate()
    }

    /// The moves the searcher tries at a node with `depth` plies left (default: every legal
    /// move). A game may narrow the list to candidates (gomoku: points near stones, more of them
    /// where much depth remains), but must return only legal moves and at least one whenever a
    /// legal move exists.
    fn generate_search_moves(&self, depth: i32, moves: &mut Self::Moves) {
        let _ = depth;
        self.generate_legal_moves(moves);
    }

    /// Legal moves beyond a list that [`Evaluate::generate_search_moves`] narrowed by choice (a
    /// candidate limit, not a forced reply), for a node where every listed move lost to a forced
    /// win (by [`Evaluate::DECISIVE`] or more): the searcher tries them before it calls the node
    /// lost, since a win proven against the candidates alone is no proof. Moves already listed
    /// may be repeated (they are skipped). Default: none, the list being every legal move.
    fn generate_more_search_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
    }

    /// A key of what the evaluation tends to misjudge alike in many positions (chess: the pawns),
    /// for [`Pruning::correction_limit`]: positions with equal keys and the same side to move
    /// share one correction. The searcher reads its top bits. Default: 0 (one shared entry).
    fn correction_key(&self) -> u64 {
        0
    }

    /// Number of move contexts for continuation history (0: no continuation history). See
    /// [`Evaluate::move_context`].
    const MOVE_CONTEXTS: usize = 0;

    /// A small code for what `mv` does, below [`Evaluate::MOVE_CONTEXTS`], taken before `mv` is
    /// played (chess: the moving piece and its destination). The searcher learns which moves
    /// answer which ("continuation history") by these codes.
    fn move_context(&self, _mv: Self::Move) -> usize {
        0
    }

    /// An ordering hint for `mv` (higher first): captures by victim and attacker, threats. Killer
    /// and history scores are added by the searcher for moves that are not tactical.
    fn move_order_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// An endgame tablebase's verdict on this position for the side to move, asked at a node
    /// (not the root) with `depth` plies left; `None` where no tablebase answers (the default).
    /// The searcher returns a win or loss as a value just below the mates (a proven result, not a
    /// distance) and a draw as 0.
    fn probe_tablebase(&self, depth: i32) -> Option<TablebaseResult> {
        let _ = depth;
        None
    }

    /// The root moves a tablebase keeps out of `moves`: those that hold the position's best
    /// result and, where it is won, make the most progress (chess: the least distance to a
    /// capture or pawn move), so that the search among them cannot shuffle a win away. `None`
    /// where no tablebase answers (the default); otherwise a non-empty subset of `moves`.
    fn tablebase_root_moves(&self, moves: &[Self::Move]) -> Option<Vec<Self::Move>> {
        let _ = moves;
        None
    }
}

/// What an endgame tablebase says of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TablebaseResult {
    /// Won with best play (within the fifty-move rule, where the game applies it).
    Win,
    /// Drawn with best play.
    Draw,
    /// Lost with best play.
    Loss,
}

/// Quiescence and check handling: games with captures and checks implement the methods; a game
/// without them writes `impl Tactical for MyGame {}` and the searcher stands pat at the horizon.
pub trait Tactical: Game {
    /// Whether the game has tactical moves to resolve at the horizon.
    const ENABLED: bool = false;

    /// Clears `moves` and fills it with the legal moves that change material (captures, promotions).
    fn generate_tactical_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
    }

    /// Clears `moves` and fills it with the replies quiescence tries in check (default: every legal
    /// move; gomoku narrows them to the blocks of a five threat).
    fn generate_evasions(&self, moves: &mut Self::Moves) {
        self.generate_legal_moves(moves);
    }

    /// Appends to `moves` quiet moves that give check, which quiescence tries on its first ply
    /// after the tactical moves (default: none). Only legal moves.
    fn generate_quiet_checks(&self, _moves: &mut Self::Moves) {}

    /// Whether `mv` is tactical (such moves are not reduced or pruned as quiet moves).
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Whether the legal move `mv` gives check (such moves are not pruned near the horizon; default
    /// false: the game does not say, and its checks are pruned like any quiet move).
    fn gives_check(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Whether the side to move is in check (checks are extended and never stood pat in).
    fn in_check(&self) -> bool {
        false
    }

    /// Whether `mv` wins at least `threshold` by static exchange (true if the game cannot tell).
    fn static_exchange_at_least(&self, _mv: Self::Move, _threshold: i32) -> bool {
        true
    }
}

/// Null-move pruning: passing a turn to prove the position is good enough. Opt in with `ENABLED`.
pub trait NullMove: Game {
    /// Whether the game supports a null move at all.
    const ENABLED: bool = false;

    /// Whether a null move is sound here (not in check, not in a zugzwang-prone ending).
    fn null_move_allowed(&self) -> bool {
        false
    }

    /// Passes the turn (only called when `null_move_allowed`).
    fn play_null(&mut self) {}

    /// Takes back `play_null`.
    fn undo_null(&mut self) {}
}

/// What [`Playout::refined_priors`] found besides the priors.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Refined {
    /// The chance that the player to move wins, in `[0, 1]`, where the source estimates it (a
    /// value network); the search weighs it as [`crate::MctsConfig::value_weight`] playouts.
    pub value: Option<f32>,
}

/// What one playout found, both for the side to move where it started.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutResult {
    /// The result in `[0, 1]`: 1 a win, 0 a loss.
    pub value: f32,
    /// The final score (points ahead, negative when behind), for games that keep one.
    pub score: Option<f32>,
}

impl From<f32> for PlayoutResult {
    /// A result without a score.
    fn from(value: f32) -> Self {
        PlayoutResult { value, score: None }
    }
}

/// What the MCTS searcher needs from a game: move priors and a fast playout.
pub trait Playout: Game {
    /// The moves to expand in the tree (default: every legal move). Must be legal, and non-empty
    /// whenever a legal move exists.
    fn generate_tree_moves(&self, moves: &mut Self::Moves) {
        self.generate_legal_moves(moves);
    }

    /// Writes a prior weight (any non-negative scale; the searcher normalises) for each move.
    fn priors(&self, moves: &[Self::Move], priors: &mut [f32]) {
        priors[..moves.len()].fill(1.0);
    }

    /// Sharper priors from a source too costly for every node (a neural network), for a node the
    /// search has visited often ([`crate::MctsConfig::refine_after`]): called at most once per
    /// node, with `priors` holding the node's current priors (normalised, one per move of
    /// `moves`). Overwrites them with new weights (any non-negative scale) and returns what else
    /// the source found, or returns `None` to keep them (the default). `with_value` says whether
    /// the search weighs a value estimate ([`crate::MctsConfig::value_weight`]); without it a
    /// source may save the work of one.
    fn refined_priors(&self, moves: &[Self::Move], priors: &mut [f32], with_value: bool) -> Option<Refined> {
        let _ = (moves, priors, with_value);
        None
    }

    /// Plays the game out to its end with a fast policy and returns the result (and the score, if
    /// the game keeps one) for the side to move here. Records every move played (with its mover)
    /// in `played` for RAVE.
    fn playout(&self, rng: &mut Rng, played: &mut Vec<(Side, Self::Move)>) -> PlayoutResult;

    /// Cells whose owner at the end of a game this game can tell (go: the points of the board),
    /// for the ownership a search reports ([`crate::Limits::ownership`]); 0 (the default) for a
    /// game without such a notion, which then reports none.
    fn ownership_cells(&self) -> usize {
        0
    }

    /// [`Playout::playout`], also writing into `owners` ([`Playout::ownership_cells`] long) who
    /// owns each cell where the playout ended: +1 [`Side::First`], -1 [`Side::Second`], 0 nobody.
    /// It plays exactly the playout [`Playout::playout`] plays with the same `rng`, so a search
    /// that asks for ownership chooses the same moves as one that does not. Default: that playout,
    /// with no cell owned.
    fn playout_with_ownership(
        &self,
        rng: &mut Rng,
        played: &mut Vec<(Side, Self::Move)>,
        owners: &mut [i8],
    ) -> PlayoutResult {
        owners.fill(0);
        self.playout(rng, played)
    }

    /// Who owns each cell of this position, where the game is over (by rule, or for want of
    /// moves), as [`Playout::playout_with_ownership`] writes it: the search counts a line that
    /// ends the game in its tree as one playout. Default: no cell owned.
    fn final_ownership(&self, owners: &mut [i8]) {
        owners.fill(0);
    }
}
