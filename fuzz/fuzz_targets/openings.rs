//! Opening files of `tessera match`, line by line, through the same public parsers its readers use
//! (src/matches/*: chess EPD/FEN, xiangqi FEN or ICCS moves, gomoku pbrain points, go vertices).
//! The first byte picks the game; every line gives a position or an error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_core::{Game, GameExt};

fn chess(line: &str) {
    let fields: Vec<&str> = line.split(';').next().unwrap_or_default().split_whitespace().collect();
    if fields.len() >= 4 {
        let fen = format!("{} 0 1", fields[..4].join(" "));
        let _ = tessera_chess::Chess::from_fen(&fen, tessera_chess::Rules::CHESS960);
    }
}

fn xiangqi(line: &str) {
    let text = line.split(';').next().unwrap_or_default().trim();
    if text.parse::<tessera_xiangqi::Position>().is_ok() {
        return;
    }
    let mut position = tessera_xiangqi::Position::start();
    for word in text.split_whitespace() {
        match tessera_xiangqi::parse_iccs(word).ok().filter(|&mv| position.is_legal(mv)) {
            Some(mv) => position.play(mv),
            None => return,
        }
    }
}

fn gomoku(line: &str) {
    let mut board = tessera_gomoku::Board::new(tessera_gomoku::Rules::FREESTYLE_15);
    for word in line.split_whitespace() {
        match tessera_gomoku::notation::parse_pbrain(word).ok().filter(|&point| board.is_legal(point)) {
            Some(point) => board.play(point),
            None => return,
        }
    }
}

fn go(line: &str) {
    let mut position = tessera_go::Position::new(9, tessera_go::Rules::CHINESE);
    for word in line.split_whitespace() {
        let Ok(mv) = tessera_go::parse_vertex(position.size(), word) else { return };
        if position.try_play(mv).is_err() {
            return;
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&game, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    for line in text.lines() {
        match game % 4 {
            0 => chess(line),
            1 => xiangqi(line),
            2 => gomoku(line),
            _ => go(line),
        }
    }
});
