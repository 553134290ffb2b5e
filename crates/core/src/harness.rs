//! The invariant harness every game must pass (run it from each game crate's tests).
//!
//! Random playouts from a start position check at every node that: generated moves are legal
//! and distinct; moves outside the list are refused by `is_legal`; play then undo restores the
//! position and its key; the incremental key equals the key from scratch and the key
//! `hash_after` predicts (where a game predicts it); `move_played` and `ply` follow the
//! history; a game decided by rule offers no moves; and `outcome` agrees with an empty move
//! list. At the end of each playout, `undo_to` a random ply must land where undoing one move at
//! a time does.
//!
//! [`count_panics`] serves the protocol crates' property tests: it counts panics on every thread,
//! search threads included, which a test that only sees the session's answers would miss.
//! [`TempFile`] gives a test a file to hand to the code under test (a network, a data file).
//! [`Watched`] shows a test the root and limits of every search a protocol session asks for.

use std::collections::HashSet;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;

use crate::game::{Game, Outcome, PackedMove};
use crate::info::{InfoSink, SearchResult};
use crate::limits::{EngineOptions, Limits};
use crate::rng::Rng;
use crate::search::Searcher;
use crate::time::SearchControl;

/// Runs `playouts` random games of at most `max_plies` plies from `start`, checking the
/// invariants above at every position; `seed` fixes the games. Returns the positions visited.
///
/// # Panics
/// Panics with a description of the first broken invariant.
pub fn check_game_invariants<G>(start: &G, playouts: usize, max_plies: usize, seed: u64) -> usize
where
    G: Game + PartialEq + Debug,
{
    let mut rng = Rng::new(seed);
    let mut visited = 0;
    let mut moves = G::Moves::default();
    for _ in 0..playouts {
        let mut game = start.clone();
        let base_ply = game.ply();
        let mut line = Vec::new();
        for _ in 0..max_plies {
            visited += 1;
            check_position(&game, &mut moves, &mut rng);
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let before = game.clone();
            let predicted_key = game.hash_after(mv);
            game.play(mv);
            if let Some(key) = predicted_key {
                assert_eq!(key, game.hash(), "hash_after({mv:?}) must be the key after the move");
            }
            assert_eq!(game.ply(), before.ply() + 1, "play must add one ply");
            assert_eq!(game.move_played(game.ply() - 1), Some(mv), "move_played must report the move");
            assert_ne!(game.hash(), before.hash(), "a move must change the key ({mv:?})");
            game.undo();
            assert_eq!(game, before, "play + undo of {mv:?} must restore the position");
            assert_eq!(game.hash(), before.hash(), "play + undo of {mv:?} must restore the key");
            game.play(mv);
            line.push(mv);
        }
        // Jump back to a random ply at once; the unwind below must pass through the same position.
        let jump_target = base_ply + rng.below(line.len() + 1);
        let mut jumped = game.clone();
        jumped.undo_to(jump_target);
        let check_jump = |game: &G| {
            if game.ply() == jump_target {
                assert_eq!(game, &jumped, "undo_to({jump_target}) must equal undoing one move at a time");
            }
        };
        // Unwind the whole line: undo must work from deep positions too.
        for &mv in line.iter().rev() {
            check_jump(&game);
            assert_eq!(game.move_played(game.ply() - 1), Some(mv));
            game.undo();
        }
        check_jump(&game);
        assert_eq!(game.ply(), base_ply);
        assert_eq!(&game, start, "undoing the whole playout must restore the start");
    }
    visited
}

fn check_position<G: Game + Debug>(game: &G, moves: &mut G::Moves, rng: &mut Rng) {
    assert_eq!(game.hash(), game.hash_from_scratch(), "incremental key differs from scratch in {game:?}");
    game.generate_legal_moves(moves);
    let mut seen = HashSet::with_capacity(moves.len());
    for &mv in moves.iter() {
        assert!(seen.insert(mv), "move {mv:?} generated twice in {game:?}");
        assert!(game.is_legal(mv), "generated move {mv:?} refused by is_legal in {game:?}");
        assert_eq!(G::Move::from_bits(mv.to_bits()), mv, "bits of {mv:?} must round-trip");
        assert_ne!(mv.to_bits(), 0xFFFF, "0xFFFF is reserved");
    }
    // Random codes that decode to moves outside the list must be refused.
    for _ in 0..32 {
        let mv = G::Move::from_bits(rng.next_u64() as u16);
        if !seen.contains(&mv) {
            assert!(!game.is_legal(mv), "is_legal accepts {mv:?}, which is not generated, in {game:?}");
        }
    }
    if let Some(Outcome::Win(_)) = game.rule_outcome(None) {
        assert!(moves.is_empty(), "a game won by rule must offer no moves: {game:?}");
    }
    if moves.is_empty() {
        assert!(game.outcome().is_some(), "no legal move but no outcome in {game:?}");
    }
}

/// Panics seen by the hook [`count_panics`] installs.
static PANICS: AtomicUsize = AtomicUsize::new(0);

/// Starts counting the process's panics (once; later calls only read) and returns how many there
/// have been since the first call. The previous hook still runs, so a panic is still printed.
pub fn count_panics() -> usize {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            previous(info);
        }));
    });
    PANICS.load(Ordering::SeqCst)
}

/// A file in the temporary folder holding given bytes, removed when dropped.
#[derive(Debug)]
pub struct TempFile {
    path: PathBuf,
}

impl TempFile {
    /// Writes `bytes` to a file named `tessera-<process id>-<name>` in the temporary folder.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn new(name: &str, bytes: &[u8]) -> std::io::Result<TempFile> {
        let path = std::env::temp_dir().join(format!("tessera-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes)?;
        Ok(TempFile { path })
    }

    /// Where the file is.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        // Nothing to do about a file already gone.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A searcher that shows `watch` the root and the limits of every search before `inner` runs
/// it: a protocol test sees what its session asked for (which position, which clock).
pub struct Watched<G: Game, S> {
    inner: S,
    watch: Watch<G>,
}

/// What [`Watched`] calls before each search.
type Watch<G> = Box<dyn FnMut(&G, &Limits<<G as Game>::Move>) + Send>;

impl<G: Game, S: Searcher<G>> Watched<G, S> {
    /// `inner`, watched by `watch`.
    pub fn new(inner: S, watch: impl FnMut(&G, &Limits<G::Move>) + Send + 'static) -> Self {
        Watched { inner, watch: Box::new(watch) }
    }
}

impl<G: Game, S: Searcher<G>> Searcher<G> for Watched<G, S> {
    fn search(
        &mut self,
        root: &G,
        limits: &Limits<G::Move>,
        control: &SearchControl,
        sink: &mut dyn InfoSink<G::Move>,
    ) -> SearchResult<G::Move> {
        (self.watch)(root, limits);
        self.inner.search(root, limits, control, sink)
    }

    fn clear(&mut self) {
        self.inner.clear();
    }

    fn set_options(&mut self, options: &EngineOptions) {
        self.inner.set_options(options);
    }

    fn memory_mb(&self) -> Option<usize> {
        self.inner.memory_mb()
    }
}

#[cfg(test)]
mod tests {
    use super::check_game_invariants;
    use crate::toys::{ConnectFour, TicTacToe};

    #[test]
    fn toy_games_pass_the_harness() {
        assert!(check_game_invariants(&TicTacToe::new(), 200, 20, 1) > 500);
        assert!(check_game_invariants(&ConnectFour::new(), 100, 60, 2) > 1000);
    }
}
