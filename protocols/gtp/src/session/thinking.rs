//! The thinking half of the GTP session: `genmove` under the time systems, analysis streaming
//! (`lz-analyze`, `kata-analyze`, `genmove_analyze`) and pondering between commands.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::bounded;
use tessera_core::{Flow, Game, Input, Limits, MoveOf, Report, SearchResult, Side};

use super::Session;
use crate::analysis::info_line;
use crate::analysis::{Analyze, AnalyzeKind};
use crate::command::is_quit;
use crate::dialect::{Dialect, Genmove};
use crate::response::header;
use crate::vertex::Color;

type RootStats<D> = Vec<tessera_core::MoveStat<MoveOf<D>>>;
type RootMoves<D> = [tessera_core::MoveStat<MoveOf<D>>];

/// The last analysis a search reported.
pub(crate) struct LastAnalysis<D: Dialect> {
    /// The root moves, best first.
    pub(crate) moves: RootStats<D>,
    /// The cells' mean owners over the search's playouts, +1 Black (when the limits asked).
    pub(crate) ownership: Option<Vec<f32>>,
}

impl<D: Dialect> Session<D> {
    /// The limits of our next move under the current time system.
    pub(crate) fn move_limits(&self, color: Color) -> Limits<MoveOf<D>> {
        if let Some(playouts) = self.config.playouts {
            return Limits::nodes(playouts);
        }
        match self.time.clock(color) {
            Some(clock) => Limits { clock: Some(clock), ..Limits::none() },
            None => Limits::move_time(self.config.move_time),
        }
    }

    /// Runs one search on `game` and waits for it; returns the result and the last analysis
    /// (root statistics, ownership), which the searcher reports only under a `report_interval`.
    /// The search gets its whole budget whether more input follows or the input has ended (a
    /// script piped in is answered in full, as GNU Go and KataGo answer it); it stops early only
    /// when `quit` arrives or nobody reads the output any more (its result still comes).
    pub(crate) fn search_now(
        &mut self,
        game: D::Game,
        limits: Limits<MoveOf<D>>,
        stream: Option<(Analyze, Option<u32>)>,
        input: &mut Input,
    ) -> (SearchResult<MoveOf<D>>, Option<LastAnalysis<D>>) {
        let (sender, receiver) = bounded(1);
        let (stats_sender, stats_receiver) = crossbeam_channel::unbounded();
        let mut streamer = stream.map(|(analyze, _)| self.analysis_sink(game.clone(), analyze));
        let sink = move |report: Report<MoveOf<D>>| {
            if let Report::Analysis { moves, ownership, .. } = report {
                if let Some(stream) = streamer.as_mut() {
                    stream(&moves, ownership.as_deref());
                }
                let _ = stats_sender.send(LastAnalysis { moves, ownership });
            }
        };
        self.engine.go(game, limits, sink, move |result| {
            let _ = sender.send(result);
        });
        let output = self.output.clone();
        let result = match input.wait_for(&receiver, is_quit, || output.is_gone()) {
            Some(result) => result,
            None => {
                tracing::info!("quit, or the output is gone, during a search: stopping");
                self.engine.stop();
                receiver.recv().expect("the engine always reports a result")
            }
        };
        self.engine.wait();
        let stats = stats_receiver.try_iter().last();
        (result, stats)
    }

    /// A closure printing analysis lines for `analyze` on `game` from the root moves and the
    /// search's ownership (+1 Black, as the searcher reports it when the limits asked:
    /// [`wants_ownership`]).
    pub(crate) fn analysis_sink(
        &self,
        game: D::Game,
        analyze: Analyze,
    ) -> impl FnMut(&RootMoves<D>, Option<&[f32]>) + Send + 'static {
        let output = self.output.clone();
        let to_move_is_white = game.side_to_move() == Side::Second;
        let points = self.dialect.size(&game).pow(2);
        move |moves, ownership| {
            // KataGo reports ownership for the side to move.
            let ownership =
                ownership.filter(|values| wants_ownership(&analyze) && values.len() == points).map(|values| {
                    values.iter().map(|&value| if to_move_is_white { -value } else { value }).collect::<Vec<f32>>()
                });
            if !moves.is_empty() {
                output.line(info_line::<D::Notation>(&game, analyze.kind, moves, ownership.as_deref()));
            }
        }
    }

    pub(crate) fn genmove(
        &mut self,
        id: Option<u32>,
        color: Color,
        mode: GenmoveMode,
        analyze: Option<Analyze>,
        input: &mut Input,
    ) -> Flow {
        let dialect = Arc::clone(&self.dialect);
        let mut game = self.game.clone();
        dialect.set_side_to_move(&mut game, color.into());
        if game.outcome().is_some() && mode == GenmoveMode::Cleanup {
            // KGS resumes a passed-out game when the players disagree about dead stones.
            dialect.resume(&mut game);
        }
        if game.outcome().is_some() {
            // The game is over by two passes: nothing is left to play.
            if analyze.is_some() {
                self.output.lines([header(true, id), "play pass".to_string(), String::new()]);
                return Flow::Continue;
            }
            return self.ok(id, "pass");
        }
        self.game = game;
        let mut limits = self.move_limits(color);
        // The game decides where not to pass (go: while dead stones remain, after a pass or in clean-up).
        limits.search_moves = dialect.root_moves(&self.game, mode == GenmoveMode::Cleanup);
        let stream = analyze.map(|analyze| {
            let interval = analyze.interval.filter(|&cs| cs > 0).unwrap_or(50);
            limits.report_interval = Some(Duration::from_millis(u64::from(interval) * 10));
            self.output.line(header(true, id));
            (analyze, Some(interval))
        });
        let streaming = stream.is_some();
        let started = Instant::now();
        limits.ownership = analyze.is_some_and(|analyze| wants_ownership(&analyze));
        let (result, _) = self.search_now(self.game.clone(), limits, stream, input);
        if mode != GenmoveMode::Suggest {
            self.time.spend(color, started.elapsed().as_secs_f64());
        }
        let search = Genmove { result: &result, cleanup: mode == GenmoveMode::Cleanup, budget: self.config.playouts };
        let answer = dialect.genmove_answer(&search);
        let text = match answer {
            None => "resign".to_string(),
            Some(mv) => {
                let vertex = Self::vertex(&self.game, mv);
                if mode != GenmoveMode::Suggest {
                    self.game.play(mv);
                }
                vertex
            }
        };
        tracing::info!(
            "genmove {color}: {text} ({} playouts in {:.3} s, score {:?})",
            result.nodes,
            result.time.as_secs_f64(),
            result.score
        );
        if streaming {
            self.output.lines([format!("play {text}"), String::new()]);
            Flow::Continue
        } else {
            self.ok(id, text)
        }
    }

    /// `lz-analyze` / `kata-analyze`: `=` at once, then a line every interval until the next input
    /// line (which is then handled as a command unless it is empty).
    pub(crate) fn analyze(&mut self, id: Option<u32>, analyze: Analyze, input: &mut Input) -> Flow {
        let mut game = self.game.clone();
        if let Some(color) = analyze.color {
            self.dialect.set_side_to_move(&mut game, color.into());
        }
        let interval = analyze.interval.filter(|&cs| cs > 0).unwrap_or(50);
        let limits = Limits {
            infinite: true,
            report_interval: Some(Duration::from_millis(u64::from(interval) * 10)),
            ownership: wants_ownership(&analyze),
            ..Limits::none()
        };
        self.output.line(header(true, id));
        let mut print = self.analysis_sink(game.clone(), analyze);
        let (done_sender, done_receiver) = bounded(1);
        let analysed = game;
        self.engine.go(
            analysed,
            limits,
            move |report: Report<MoveOf<D>>| {
                if let Report::Analysis { moves, ownership, .. } = report {
                    print(&moves, ownership.as_deref());
                }
            },
            move |_| {
                let _ = done_sender.send(());
            },
        );
        // The next line ends the analysis (and is handled as a command: `next` keeps it queued).
        let flow = if input.wait_for_line() { Flow::Continue } else { Flow::Quit };
        self.engine.stop();
        let _ = done_receiver.recv();
        self.engine.wait();
        self.output.line("");
        flow
    }

    /// `gogui-ownership`: the ownership a short search from the current position finds (the
    /// playouts of `gogui-best_moves`: `--playouts`, else [`SHORT_SEARCH_PLAYOUTS`]), +1 Black,
    /// row by row from the top. A game ended by two passes is searched as if resumed, since the
    /// life of its stones shows only by playing on. Fails when the game reports no ownership.
    pub(crate) fn gogui_ownership(&mut self, id: Option<u32>, input: &mut Input) -> Flow {
        let mut game = self.game.clone();
        if game.outcome().is_some() {
            self.dialect.resume(&mut game);
        }
        // An interval no search reaches: only the final analysis is reported.
        let limits = Limits {
            report_interval: Some(Duration::MAX),
            ownership: true,
            ..Limits::nodes(self.short_search_playouts())
        };
        let size = self.dialect.size(&game);
        let (_, analysis) = self.search_now(game, limits, None, input);
        let ownership = analysis.and_then(|analysis| analysis.ownership).filter(|values| values.len() == size * size);
        let Some(values) = ownership else { return self.fail(id, "no ownership") };
        let rows: Vec<String> = values
            .chunks(size.max(1))
            .map(|row| row.iter().map(|v| format!("{v:.2}")).collect::<Vec<_>>().join(" "))
            .collect();
        self.ok(id, format!("\n{}", rows.join("\n")))
    }

    /// The playouts of the short searches behind GoGui's displays.
    pub(crate) fn short_search_playouts(&self) -> u64 {
        self.config.playouts.unwrap_or(SHORT_SEARCH_PLAYOUTS)
    }

    pub(crate) fn start_pondering(&mut self) {
        if !self.config.ponder || self.pondering || self.game.outcome().is_some() {
            return;
        }
        let limits = Limits { ponder: true, infinite: true, ..Limits::none() };
        self.engine.go(self.game.clone(), limits, tessera_core::Silent, |_| {});
        self.pondering = true;
    }

    pub(crate) fn stop_pondering(&mut self) {
        if self.pondering {
            self.engine.stop();
            self.engine.wait();
            self.pondering = false;
        }
    }
}

/// Playouts of the short searches behind GoGui's displays without `--playouts`.
pub(crate) const SHORT_SEARCH_PLAYOUTS: u64 = 2000;

/// Whether `analyze` prints ownership: KataGo's form with `ownership true`.
fn wants_ownership(analyze: &Analyze) -> bool {
    analyze.ownership && analyze.kind == AnalyzeKind::Kata
}

/// How `genmove` uses its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GenmoveMode {
    /// Play it.
    Play,
    /// Only suggest it (`reg_genmove`).
    Suggest,
    /// Play it, and do not pass while dead stones remain (`kgs-genmove_cleanup`).
    Cleanup,
}
