//! Analysis lines in the formats Sabaki and Lizzie parse (`lz-analyze`, `kata-analyze`).

use std::fmt::Write as _;

use tessera_core::{Game, MoveStat, Notation};

use crate::command::AnalyzeKind;
use crate::dialect::Dialect;

/// One `info …` line for `moves` (best first), with KataGo ownership values appended if given.
#[must_use]
pub fn info_line<D: Dialect>(
    game: &D::Game,
    kind: AnalyzeKind,
    moves: &[MoveStat<<D::Game as Game>::Move>],
    ownership: Option<&[f32]>,
) -> String {
    let notation = D::Notation::default();
    let mut line = String::new();
    for (order, stat) in moves.iter().enumerate() {
        if !line.is_empty() {
            line.push(' ');
        }
        let vertex = notation.format_move(game, stat.mv);
        match kind {
            AnalyzeKind::Lz => {
                let scaled = |value: f32| (value.clamp(0.0, 1.0) * 10_000.0).round() as u32;
                let _ = write!(
                    line,
                    "info move {vertex} visits {} winrate {} prior {} lcb {} order {order} pv",
                    stat.visits,
                    scaled(stat.win_rate),
                    scaled(stat.prior),
                    scaled(stat.lower_bound)
                );
            }
            AnalyzeKind::Kata => {
                let _ = write!(
                    line,
                    "info move {vertex} visits {} utility {:.6} winrate {:.6}",
                    stat.visits,
                    2.0 * stat.win_rate - 1.0,
                    stat.win_rate
                );
                // Playouts give one score distribution; its mean stands for KataGo's lead too.
                if let Some(score) = stat.score {
                    let _ = write!(
                        line,
                        " scoreMean {:.2} scoreStdev {:.2} scoreLead {:.2}",
                        score.mean, score.stdev, score.mean
                    );
                }
                let _ = write!(line, " prior {:.6} lcb {:.6} order {order} pv", stat.prior, stat.lower_bound);
            }
        }
        for &mv in &stat.pv {
            let _ = write!(line, " {}", notation.format_move(game, mv));
        }
    }
    if let Some(values) = ownership {
        line.push_str(" ownership");
        for value in values {
            let _ = write!(line, " {value:.4}");
        }
    }
    line
}
